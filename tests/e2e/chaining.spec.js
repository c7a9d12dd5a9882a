// Operator chaining, as Flink does it by default: a scenario with "chaining" draws each
// chained pair of subtasks as one task (a dashed frame), its link as a method call with nothing
// on it, and says what chaining removes — in the narration, the inspector and the legend. No
// preset chains: the student's build sends such a scenario to the second player, which draws it.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

/** Opens word count in `mode` and turns chaining on through the scenario editor. */
async function chained(page, mode, lang = '') {
  const app = new Playground(page);
  await app.open(`?preset=wordcount&mode=${mode}${lang}`);
  await app.testId('editor-open').click();
  const scenario = JSON.parse(await app.testId('editor').inputValue());
  scenario.config.chaining = true;
  await app.testId('editor').fill(JSON.stringify(scenario, null, 2));
  await app.testId('editor-apply').click();
  // The playground opens it in the second player (the student's build leaves chains out).
  await page.waitForURL(/[?&]big(&|$)/);
  await expect(app.testId('chain-Sentences#0')).toBeVisible();
  return app;
}

for (const mode of ['aligned', 'unaligned', 'at-least-once']) {
  test(`${mode}: a chained pair is one task, its link never carries an item, and its barrier is taken in the same call`, async ({ page }) => {
    const app = await chained(page, mode);
    // Sentences → Split is forward with equal parallelism into Split's only input: chained.
    for (const i of [0, 1]) {
      await expect(app.testId(`chain-Sentences#${i}`)).toHaveAttribute('data-members', `Sentences#${i} Split#${i}`);
    }
    // Split → Count is a shuffle and Count → Sink a rebalance: channels as before.
    await expect(page.locator('[data-testid^="chain-"]')).toHaveCount(2);
    const links = page.locator('.channel[data-chained="true"]');
    await expect(links).toHaveCount(2);
    await expect(page.locator('.channel.kept-aligned[data-chained="true"]')).toHaveCount(0);
    await expect(page.locator('.legend')).toContainText('chained operators: one task, one thread');
    // The sentences that told a chained barrier, as they were said.
    const told = [];
    await app.stepUntil(async () => {
      for (const q of await links.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-queue'))))) {
        expect(q).toBe(0);
      }
      told.push(...await app.currentSentences().filter({ hasText: 'is chained to' }).allTextContents());
      return told.length >= 2 && (await app.checkpointStatus(1)) === 'completed';
    }, 400);
    const said = told.join('\n');
    expect(said).toContain('Split#0 is chained to Sentences#0');
    expect(said).toContain('Split#1 is chained to Sentences#1');
    expect(said).toContain('takes checkpoint 1 in the same call');
    expect(said).toContain('no barrier crosses between them');
    // No buffer is drawn at a chained port.
    await expect(app.buffer('Sentences#0', 'Split#0')).toHaveCount(0);
    // The inspector says what chaining removes.
    await app.selectChannel('Sentences#0', 'Split#0');
    await expect(app.testId('chained-note')).toContainText('no channel here');
    await expect(app.testId('chained-note')).toContainText('snapshots both operators in the same call');
    await expect(app.testId('fifo-toggle')).toHaveCount(0);
  });
}

test('in Chinese the chain is told and explained in Chinese', async ({ page }) => {
  const app = await chained(page, 'aligned', '&lang=zh');
  await expect(page.locator('.legend')).toContainText('串接成鏈的運算子');
  const told = [];
  await app.stepUntil(async () => {
    told.push(...await app.currentSentences().filter({ hasText: '串接成鏈' }).allTextContents());
    return told.length > 0 && (await app.checkpointStatus(1)) === 'completed';
  }, 400);
  expect(told.join('\n')).toMatch(/Split#\d 與 Sentences#\d 串接成鏈/);
  await app.selectChannel('Sentences#0', 'Split#0');
  await expect(app.testId('chained-note')).toContainText('這裡沒有通道');
});
