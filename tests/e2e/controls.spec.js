// The controls that move through time: narration sentences and the timeline seek, the
// trigger button starts a checkpoint, reset goes back to step 0, speed is a log scale.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

test('clicking a narration sentence seeks to its step', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.step(20);
  expect(await app.stepCount()).toBe(20);
  const older = app.narration().locator('[data-step="12"]').first();
  await older.click();
  await expect.poll(() => app.stepCount()).toBe(12);
  // The view is the one of step 12: that sentence is now the current one.
  await expect(app.currentSentences().first()).toHaveAttribute('data-step', '12');
  await app.screenshot('controls-narration-seek');
});

test('the timeline scrubs back and forward through the recorded steps', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.step(30);
  const timeline = app.testId('timeline');
  await expect(timeline).toHaveAttribute('max', '30');
  await timeline.fill('5');
  await expect.poll(() => app.stepCount()).toBe(5);
  await timeline.fill('25');
  await expect.poll(() => app.stepCount()).toBe(25);
  // Scrubbing does not fork: the recorded future is still there.
  await expect(timeline).toHaveAttribute('max', '30');
});

test('a checkpoint mark on the timeline seeks to the step it marks', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.stepFast(120);
  const done = app.page.locator('.timeline .mark.completed').first();
  await expect(done).toBeVisible();
  const step = Number(await done.getAttribute('data-step'));
  expect(step).toBeGreaterThan(0);
  expect(step).toBeLessThan(120);
  await expect(done.locator('title')).toContainText(`Step ${step}`);
  await done.click();
  await expect.poll(() => app.stepCount()).toBe(step);
  // The step of a completion narrates the completion.
  await expect(app.currentSentences().filter({ hasText: 'complete' })).not.toHaveCount(0);
});

test('trigger-checkpoint starts a checkpoint now; reset returns to step 0', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.step(2);
  expect(await app.checkpointStatus(1)).toBeNull();
  await app.testId('trigger-checkpoint').click();
  await expect(app.checkpoint(1)).toHaveAttribute('data-status', 'in-progress');
  expect(await app.stepCount()).toBe(3);
  await app.testId('reset').click();
  await expect.poll(() => app.stepCount()).toBe(0);
  expect(await app.checkpointStatus(1)).toBeNull();
});

test('speed runs on a log scale from 0.25× to 8×', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  const speed = app.testId('speed');
  await speed.fill(await speed.getAttribute('min'));
  await expect(app.speedLabel()).toHaveText('0.25×');
  await speed.fill(await speed.getAttribute('max'));
  await expect(app.speedLabel()).toHaveText('8×');
});

// After a choice from the Scenario or Mode menu, the page's shortcuts work where the focus
// is: → steps instead of choosing the next mode, Space plays. ↑ and ↓ still choose.
test('after a menu choice the shortcuts work in the menu; the up and down arrows still choose', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.testId('mode').focus();
  await app.setMode('unaligned');
  await expect(app.testId('mode')).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(app.testId('step-counter')).toContainText('1');
  await expect(app.testId('mode')).toHaveValue('unaligned');
  await page.keyboard.press('ArrowLeft');
  await expect(app.testId('step-counter')).toContainText('0');
  await page.keyboard.press('Space');
  await expect(app.testId('play')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Space');
  await expect(app.testId('play')).toHaveAttribute('aria-pressed', 'false');
  await expect(app.testId('mode')).toHaveValue('unaligned');

  await app.testId('preset').focus();
  await app.setPreset('wordcount');
  await page.keyboard.press('ArrowRight');
  await expect(app.testId('preset')).toHaveValue('wordcount');
  await expect(app.testId('step-counter')).toContainText('1');

  // ↓ on the menu chooses the next mode, as a menu does.
  await app.testId('mode').focus();
  const before = await app.testId('mode').inputValue();
  await page.keyboard.press('ArrowDown');
  await expect(app.testId('mode')).not.toHaveValue(before);
  await expect(app.testId('mode')).toBeFocused();
});

// Jump to what matters (issue 49): the "Key event" button and N go forward to the next step
// that shows ①–④, a checkpoint completing or a failure, pausing there — in every mode.
test('the next key event, by button and by N: ①–④, a completed checkpoint, a failure', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  const keyed = async () => {
    const now = await app.currentSentences().evaluateAll((els) => els.map((e) => ({
      marker: e.querySelector('.marker').textContent, text: e.querySelector('.text').textContent,
    })));
    return now.some((s) => s.marker !== '' || /complete|failed/i.test(s.text));
  };
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('n');
  await expect.poll(() => app.stepCount()).toBeGreaterThan(0);
  expect(await keyed()).toBe(true);
  const markers = new Set();
  for (let i = 0; i < 60 && markers.size < 4; i++) {
    const before = await app.stepCount();
    await app.testId('next-key').click();
    await expect.poll(() => app.stepCount()).toBeGreaterThan(before);
    expect(await keyed(), `step ${await app.stepCount()}`).toBe(true);
    for (const m of await app.currentSentences().locator('.marker').allTextContents()) if (m) markers.add(m);
  }
  expect([...markers].sort()).toEqual(['①', '②', '③', '④']);
  await expect(app.testId('play')).toHaveAttribute('aria-pressed', 'false');

  // Recovery, at-least-once: a failure is a key event too.
  await app.open('?preset=recovery&mode=at-least-once');
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  let failed = false;
  for (let i = 0; i < 80 && !failed; i++) {
    await page.keyboard.press('N');
    failed = await app.currentSentences().filter({ hasText: /fails|failed/ }).count() > 0;
  }
  expect(failed, 'a failure reached by N').toBe(true);
  await app.screenshot('controls-next-key-failure');
});
