// Savepoints, as Flink takes them: the Savepoint button (Flink's modes only), the savepoint
// aligned also in unaligned mode, named and marked in the coordinator and the inspector, and
// the host page's abs:savepoint.
const { test, expect } = require('./fixtures');
const { Playground, hostPage } = require('./page');

test('in unaligned mode a savepoint waits for the running checkpoint, then every task aligns it', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&mode=unaligned');
  await app.stepUntil(async () => (await app.checkpointStatus(1)) === 'in-progress');
  await app.testId('trigger-savepoint').click();
  await expect(app.currentSentences().last()).toContainText('A savepoint was asked for');
  await app.stepUntil(async () => (await app.checkpointStatus(2)) !== null, 300);
  const card = page.locator('.coordinator button.checkpoint.savepoint');
  await expect(card).toHaveAttribute('data-testid', 'checkpoint-2');
  await expect(card).toContainText('Savepoint 2');
  await expect(app.narration()).toContainText('triggers savepoint 2');
  await expect(app.narration()).toContainText('also in unaligned mode');
  // While it runs, Merge#0 blocks an input and holds what arrives there, as in aligned mode.
  let blocked = false;
  await app.stepUntil(async () => {
    blocked = blocked || (await page.locator('[data-blocked="true"]').count()) > 0;
    return (await app.checkpointStatus(2)) === 'completed';
  }, 300);
  expect(blocked).toBe(true);
  await expect(app.narration()).toContainText('Savepoint 2 is complete');
  await expect(app.narration()).toContainText('no failover restores it');
  await app.openCheckpoint(2);
  await expect(app.globalState()).toContainText('Savepoint');
  await expect(app.testId('savepoint-note')).toContainText('aligned in every mode');
  // No subtask took it unaligned (Flink's per-subtask "unaligned checkpoint": no).
  const state = await app.readGlobalState();
  expect(state.subtaskStats.length).toBe(4);
  expect(state.subtaskStats.some((row) => Object.values(row).includes('yes'))).toBe(false);
  await app.testId('tab-checkpoints').click();
  await expect(page.locator('tr[data-id="2"]')).toHaveAttribute('data-kind', 'savepoint');
  await expect(page.locator('tr[data-id="1"]')).toHaveAttribute('data-kind', 'checkpoint');
});

test('the Savepoint button is there in Flink\'s modes only, in each language', async ({ page }) => {
  const app = new Playground(page);
  for (const [query, shown] of [
    ['?preset=alignment&mode=aligned', true],
    ['?preset=alignment&mode=at-least-once', true],
    ['?preset=alignment&mode=synchronous', false],
    ['?preset=token', false],
  ]) {
    await app.open(query);
    await expect(app.testId('trigger-checkpoint')).toBeVisible();
    await expect(app.testId('trigger-savepoint'), query).toHaveCount(shown ? 1 : 0);
  }
  await app.open('?preset=alignment&mode=unaligned&lang=zh');
  await expect(app.testId('trigger-savepoint')).toHaveText('保存點');
  await app.open('?preset=alignment&mode=unaligned&lang=zh-Hans');
  await expect(app.testId('trigger-savepoint')).toHaveText('保存点');
  // Aligned: Flink forces a savepoint past the running checkpoint — it starts at once.
  await app.open('?preset=alignment&mode=aligned');
  await app.stepUntil(async () => (await app.checkpointStatus(1)) === 'in-progress');
  await app.testId('trigger-savepoint').click();
  await expect(app.checkpoint(2)).toHaveAttribute('data-status', 'in-progress');
  await expect(app.currentSentences().last()).toContainText('triggers savepoint 2');
});

test('the host page takes a savepoint with abs:savepoint and hears its kind', async ({ page }) => {
  const frame = await hostPage(page, '?preset=alignment&mode=aligned&embed');
  await expect.poll(() => page.evaluate(() => window.got.some((m) => m.type === 'abs:ready'))).toBe(true);
  const send = (m) => page.evaluate((m) => document.getElementById('p').contentWindow.postMessage(m, '*'), m);
  await send({ type: 'abs:savepoint' });
  await expect.poll(() => page.evaluate(() => {
    const s = window.got.filter((m) => m.type === 'abs:state').pop();
    return s && s.checkpoints;
  })).toEqual([{ id: 1, status: 'in-progress', kind: 'savepoint' }]);
  // A trigger by hand waits while the savepoint runs (one checkpoint at a time), then starts.
  await send({ type: 'abs:trigger' });
  await send({ type: 'abs:step', count: 50 });
  await expect.poll(() => page.evaluate(() => {
    const s = window.got.filter((m) => m.type === 'abs:state').pop();
    return s && s.checkpoints.slice(0, 2).map((c) => `${c.id} ${c.kind || 'checkpoint'} ${c.status}`);
  })).toEqual(['1 savepoint completed', '2 checkpoint in-progress']);
  // Chandy-Lamport takes no savepoint: the host hears why, and nothing changes.
  await send({ type: 'abs:load', preset: 'token' });
  await expect(frame.getByTestId('operator-p')).toBeVisible();
  await page.evaluate(() => { window.got = []; });
  await send({ type: 'abs:savepoint' });
  await expect.poll(() => page.evaluate(() => (window.got.find((m) => m.type === 'abs:error') || {}).message))
    .toContain("savepoints are Flink's");
});
