// Accessibility: axe-core finds no serious or critical violation (WCAG 2 A and AA rules) on
// the page in its main states, in light and in dark, and a keyboard alone can run a lesson.
const AxeBuilder = require('@axe-core/playwright').default;
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

/** The serious and critical violations on the page now, as readable lines. */
async function violations(page) {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

for (const scheme of ['light', 'dark']) {
  test(`axe: no serious or critical violations, ${scheme}`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    const app = new Playground(page);
    await app.open('?preset=alignment');
    await app.testId('theory-toggle').click();
    await expect(app.testId('theory')).toHaveAttribute('aria-busy', 'false');
    expect(await violations(page), 'at the start, the theory open').toEqual([]);

    // Mid-alignment with a subtask selected, then a completed checkpoint's global state.
    await app.stepUntil(async () => (await app.heldItems('Src A#0', 'Merge#0').count()) >= 2);
    await app.subtask('Merge', 0).click();
    expect(await violations(page), 'aligning, Merge selected').toEqual([]);
    await app.stepUntil(async () => (await app.checkpointStatus(1)) === 'completed');
    await app.openCheckpoint(1);
    expect(await violations(page), 'a global state open').toEqual([]);

    // The dialogs.
    await app.testId('share').click();
    expect(await violations(page), 'the share dialog').toEqual([]);
    await page.keyboard.press('Escape');
    await app.testId('editor-open').click();
    await expect(app.testId('editor')).toBeFocused();
    expect(await violations(page), 'the editor').toEqual([]);
    await app.testId('editor-close').click();
    await expect(app.testId('help')).toBeVisible();
    await app.testId('help').click();
    expect(await violations(page), 'the shortcuts').toEqual([]);
    await page.keyboard.press('Escape');

    // Other modes and presets draw other things (rings, markers, failures).
    for (const q of ['?preset=recovery&mode=at-least-once', '?preset=token&mode=chandy-lamport', '?preset=wordcount&mode=unaligned&lang=zh']) {
      await app.open(q);
      await app.stepFast(150);
      expect(await violations(page), q).toEqual([]);
    }
    // The compact view for an iframe.
    await page.setViewportSize({ width: 480, height: 360 });
    await app.open('?preset=alignment&embed');
    expect(await violations(page), 'embedded').toEqual([]);
  });
}

test('a keyboard alone: subtasks, channels and items take the focus and Enter selects them', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  // Subtasks are in the tab order after the header and the lesson's controls.
  await app.testId('help').focus();
  let reached = false;
  for (let i = 0; i < 40 && !reached; i++) {
    await page.keyboard.press('Tab');
    reached = await page.evaluate(() => Boolean(document.activeElement.closest('[data-testid="dataflow"]')));
  }
  expect(reached, 'Tab reaches the dataflow').toBe(true);

  await app.subtask('Merge', 0).focus();
  await page.keyboard.press('Enter');
  await expect(app.subtask('Merge', 0)).toHaveClass(/\bselected\b/);
  await expect(app.subtask('Merge', 0)).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.inspector .details h3')).toContainText('Merge#0');

  // Steps by the arrow key until records queue on the slow channel, then a channel by Enter,
  // then one of its queued items from the inspector's buttons.
  await page.keyboard.press('Escape');
  for (let i = 0; i < 60; i++) await page.keyboard.press('ArrowRight');
  await app.channel('Src B#0', 'Merge#0').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.inspector .details h3')).toContainText('Src B#0');
  const items = app.testId('queue-items').locator('button');
  expect(await items.count()).toBeGreaterThan(0);
  await items.first().focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('.inspector .details h3')).not.toContainText('Src B#0');

  // Manual delivery by keyboard: M, then Enter on a channel delivers its head.
  await page.keyboard.press('m');
  const before = await app.stepCount();
  await app.channel('Src A#0', 'Merge#0').focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => app.stepCount()).toBe(before + 1);
  // Space on a focused subtask does not start playing.
  await app.subtask('Sink', 0).focus();
  await page.keyboard.press(' ');
  await expect(app.testId('play')).not.toHaveText(/Pause/);
});
