// The space-time diagram: a cut per completed snapshot, drawn through its snapshot dots, with
// the records across it marked — held against `abs-sim run` of the same scenario.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const { runSim } = require('./trace');
const sites = require('./sites');

/** The diagram's cuts: checkpoint id → { inFlight: channel names, orphans }. */
async function cuts(app) {
  return app.page.locator('[data-testid^="cut-"]').evaluateAll((els) => Object.fromEntries(els.map((e) => [
    Number(e.getAttribute('data-testid').slice('cut-'.length)),
    {
      inFlight: (e.getAttribute('data-in-flight') || '').split(' ').filter(Boolean).sort(),
      orphans: Number(e.getAttribute('data-orphans')),
    },
  ])));
}

test('the token system: a cut per snapshot, crossing p->q or q->p exactly when the snapshot holds the token there', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=token');
  await app.testId('spacetime-toggle').click();
  await expect(app.testId('spacetime')).toBeVisible();
  const trace = runSim('token', 'chandy-lamport', 400);
  const completedAt = new Map();
  for (const line of trace.steps) {
    for (const e of line.events) {
      if (e.event === 'checkpoint-completed') completedAt.set(e.checkpoint, line.step);
    }
  }
  let at = 0;
  let crossing = 0;
  const snapshots = trace.summary.checkpoints.filter((c) => c.global_state).slice(0, 10);
  expect(snapshots.length).toBeGreaterThan(5);
  for (const cp of snapshots) {
    const step = completedAt.get(cp.id);
    await app.stepFast(step - at);
    at = step;
    const drawn = await cuts(app);
    expect(drawn[cp.id], `snapshot ${cp.id} at step ${step}`).toBeTruthy();
    const expected = Object.entries(cp.global_state.channels)
      .filter(([, items]) => items.length > 0).map(([name]) => name).sort();
    expect(drawn[cp.id].inFlight, `snapshot ${cp.id}`).toEqual(expected);
    expect(drawn[cp.id].orphans).toBe(0);
    crossing += expected.length;
  }
  // Some snapshot caught the token on its way.
  expect(crossing).toBeGreaterThan(0);
});

test('at-least-once: a record that slipped into a snapshot crosses its cut the wrong way', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&mode=at-least-once');
  await app.testId('spacetime-toggle').click();
  const trace = runSim('alignment', 'at-least-once', 600);
  // The first completed checkpoint whose verdict names orphans.
  const bad = trace.summary.checkpoints.find((c) => c.verdict && c.verdict.inconsistent
    && (c.verdict.inconsistent.crossings || []).some((x) => x.kind === 'orphan'));
  expect(bad, 'a snapshot with records that slipped in').toBeTruthy();
  const step = trace.steps.find((l) => l.events.some((e) => e.event === 'checkpoint-completed'
    && e.checkpoint === bad.id)).step;
  await app.stepFast(step);
  const drawn = await cuts(app);
  const orphans = bad.verdict.inconsistent.crossings.filter((x) => x.kind === 'orphan').length;
  expect(drawn[bad.id].orphans).toBe(orphans);
  await expect(app.page.locator('.st-orphan').first()).toBeVisible();
});

test('a checkpoint that took hundreds of steps still shows its whole cut', async ({ page }) => {
  // backpressure's aligned checkpoints take 130 to 210 steps from trigger to completion, more
  // than the diagram's 80 steps at least: it widens its window to hold the latest one.
  const app = new Playground(page);
  await app.open('?preset=backpressure');
  await app.testId('spacetime-toggle').click();
  const trace = runSim('backpressure', 'aligned', 900);
  const done = trace.steps.find((l) => l.events.some((e) => e.event === 'checkpoint-completed'));
  const id = done.events.find((e) => e.event === 'checkpoint-completed').checkpoint;
  const began = trace.steps.find((l) => l.events.some((e) => e.event === 'checkpoint-triggered'
    && e.checkpoint === id)).step;
  expect(done.step - began).toBeGreaterThan(100);
  await app.stepFast(done.step);
  await expect(app.testId(`cut-${id}`)).toHaveCount(1);
});

for (const [name, size, query] of [
  ['a phone', { width: 390, height: 844 }, '?preset=token'],
  ['an embed', { width: 640, height: 400 }, '?preset=token&embed'],
]) {
  test(`the diagram fits ${name}`, async ({ page }) => {
    await page.setViewportSize(size);
    const app = new Playground(page);
    await app.open(query);
    await app.stepFast(120);
    await app.testId('spacetime-toggle').click();
    const box = await app.testId('spacetime').boundingBox();
    expect(box.width).toBeGreaterThan(200);
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(size.width + 1);
    await app.testId('spacetime').screenshot({ path: `${sites.screenshots}/spacetime-${name.replace(/ /g, '-')}.png` });
  });
}

// Placing a cut by hand: the verdict is the engine's, the orphans it names are the trace's.

/** The student's cut: its times per line, and the verdict shown. */
async function userCut(app) {
  const at = (await app.testId('user-cut-line').getAttribute('data-at')).split(' ').map(Number);
  const verdict = app.testId('cut-verdict');
  return {
    at,
    consistent: await verdict.getAttribute('data-consistent'),
    orphans: await verdict.locator('li').allInnerTexts(),
  };
}

/** The student's cut once the page has taken every key press: two reads 150 ms apart agree. */
async function settledCut(app) {
  let last = null;
  await expect
    .poll(async () => {
      const now = JSON.stringify(await userCut(app));
      const same = now === last;
      last = now;
      if (!same) await app.page.waitForTimeout(150);
      return same;
    })
    .toBe(true);
  return JSON.parse(last);
}

/** Every record of the trace: when it was made (sent) and when its receiver processed it. */
function recordTimes(trace) {
  const made = new Map();
  const processed = new Map();
  for (const line of trace.steps) {
    for (const e of line.events) {
      const r = e.record || (e.item && e.item.record);
      if (!r) continue;
      if (!made.has(r.id)) made.set(r.id, line.time);
      if (e.event === 'processed') processed.set(r.id, line.time);
    }
  }
  return { made, processed };
}

test('a cut leaning back over a send is not consistent, and the verdict names its orphans', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=token');
  await app.stepFast(150);
  await app.testId('spacetime-toggle').click();
  await app.testId('user-cut').click();
  // Placed straight down through one moment: nothing received in it was sent after it.
  let cut = await userCut(app);
  expect(cut.at).toHaveLength(2);
  expect(cut.at[0]).toBe(cut.at[1]);
  expect(cut.consistent).toBe('true');
  // The snapshots' own cuts are hidden while the student places one, and shown on request.
  await expect(app.page.locator('[data-testid^="cut-"][data-orphans]')).toHaveCount(0);
  // With the keyboard only: the first line's point far left, the second's far right.
  // Placing the cut gave the diagram the focus.
  await expect(app.testId('spacetime')).toBeFocused();
  for (let i = 0; i < 12; i++) await app.page.keyboard.press('Shift+ArrowLeft');
  await app.page.keyboard.press('ArrowDown');
  for (let i = 0; i < 12; i++) await app.page.keyboard.press('Shift+ArrowRight');
  // The arrow keys moved the cut, not the run.
  expect(await app.stepCount()).toBe(150);
  cut = await settledCut(app);
  expect(cut.at[0]).toBeLessThan(cut.at[1]);
  expect(cut.consistent).toBe('false');
  expect(cut.orphans.length).toBeGreaterThan(0);
  // Each orphan named is a record sent by the first process after its point and processed by
  // the second before its point — read from the engine's trace, not the page.
  const names = await app.page.locator('.st-task text').allTextContents();
  const trace = runSim('token', 'chandy-lamport', 150);
  const { made, processed } = recordTimes(trace);
  for (const sentence of cut.orphans) {
    const id = Number(/#(\d+)/.exec(sentence)[1]);
    expect(sentence).toContain(names[0]);
    expect(sentence).toContain(names[1]);
    expect(made.get(id), `record ${id} sent after the first point`).toBeGreaterThan(cut.at[0]);
    expect(processed.get(id), `record ${id} processed before the second point`).toBeLessThanOrEqual(cut.at[1]);
  }
  // The link keeps the placed cut: opened again, the same cut and the same verdict.
  await app.testId('share').click();
  const link = await app.testId('permalink').inputValue();
  expect(link).toContain(`cut=${cut.at.join('.')}`);
  await app.open(link.slice(link.indexOf('?')));
  const again = await userCut(app);
  expect(again).toEqual(cut);
  await app.testId('own-cut').click();
  await expect(app.page.locator('[data-testid^="cut-"][data-orphans]').first()).toBeVisible();
});

test('a cut placed with the pointer: a click on a line moves that line\'s point there', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&mode=at-least-once');
  await app.stepFast(60);
  await app.testId('spacetime-toggle').click();
  await app.testId('user-cut').click();
  const before = await userCut(app);
  const points = app.testId('cut-point');
  const n = await points.count();
  expect(n).toBe(before.at.length);
  // Drag the last line's point to the plot's right edge.
  await points.nth(n - 1).scrollIntoViewIfNeeded();
  const handle = await points.nth(n - 1).boundingBox();
  const plot = await app.page.locator('.st-cutting svg').boundingBox();
  await app.page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await app.page.mouse.down();
  await app.page.mouse.move(plot.x + plot.width - 4, handle.y + handle.height / 2, { steps: 5 });
  await app.page.mouse.up();
  const after = await userCut(app);
  expect(after.at[n - 1]).toBeGreaterThan(before.at[n - 1]);
  expect(after.at.slice(0, n - 1)).toEqual(before.at.slice(0, n - 1));
  await expect(points.nth(n - 1)).toHaveClass(/on/);
});

test('one selection for both views: a subtask selected in the dataflow is lit in the diagram, and a click on a line there selects its subtask', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.stepFast(40);
  await app.testId('spacetime-toggle').click();
  await app.subtask('Merge', 0).click();
  await expect(app.page.locator('.st-task.sel')).toHaveText('Merge#0');
  const sink = app.page.locator('.st-task', { hasText: 'Sink#0' }).locator('text');
  await sink.scrollIntoViewIfNeeded();
  await sink.click();
  await expect(app.page.locator('.st-task.sel')).toHaveText('Sink#0');
  await expect(app.page.locator('.inspector .details h3')).toContainText('Sink#0');
  // A channel selected: its trips drawn heavier, the others not.
  await app.testId('dataflow').scrollIntoViewIfNeeded();
  await app.selectChannel('Src A#0', 'Merge#0');
  await expect(app.page.locator('.st-task.sel')).toHaveCount(0);
  expect(await app.page.locator('.st-rec.sel, .st-bar.sel').count()).toBeGreaterThan(0);
});

test('an item selected in the dataflow is lit in the diagram once it has arrived: its one trip, no other', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.stepUntil(async () => (await app.queued('Src B#0', 'Merge#0')) >= 2);
  await app.testId('spacetime-toggle').click();
  await app.testId('dataflow').scrollIntoViewIfNeeded();
  await page.waitForTimeout(400); // the eased clock settles, the canvas is painted
  let picked = null;
  for (const it of await app.paintedItems()) {
    await page.mouse.click(it.x, it.y);
    const heading = page.locator('.inspector .details h3');
    if ((await heading.count()) && /^Item:/.test(await heading.textContent())) {
      picked = await heading.textContent();
      break;
    }
  }
  expect(picked, 'an item was clicked').toBeTruthy();
  const lit = app.page.locator('[data-testid=spacetime] line.sel');
  // Queued, it has no trip yet; delivered, its trip (and only it) is drawn heavier.
  await app.stepUntil(async () => (await lit.count()) > 0, 120);
  await expect(lit).toHaveCount(1);
  await expect(app.page.locator('.st-task.sel')).toHaveCount(0);
  await expect(page.locator('.inspector .details h3')).toHaveText(picked);
});

test('a record that waited in an alignment buffer is drawn waiting along its receiver\'s line until processed', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&mode=aligned');
  await app.testId('spacetime-toggle').click();
  await app.stepFast(50);
  // Merge aligns: the records that came on its blocked input wait there, on its line.
  const merge = await page.locator('.st-task', { hasText: 'Merge#0' }).locator('line').evaluate((l) => Number(l.getAttribute('y1')));
  const waits = await page.locator('.st-wait').evaluateAll((ls) => ls.map((l) => ['x1', 'y1', 'x2', 'y2'].map((a) => Number(l.getAttribute(a)))));
  expect(waits.length).toBeGreaterThan(0);
  for (const [x1, y1, x2, y2] of waits) {
    expect([y1, y2]).toEqual([merge, merge]);
    expect(x2).toBeGreaterThan(x1);
  }
  // At-least-once never holds a record back: nothing waits.
  await app.open('?preset=alignment&mode=at-least-once');
  await app.testId('spacetime-toggle').click();
  await app.stepFast(50);
  await expect(page.locator('.st-rec').first()).toBeAttached();
  await expect(page.locator('.st-wait')).toHaveCount(0);
});

// Issue 49: at 1024×640 the diagram's last task line was hidden under the controls, and the
// longer labels ran into the plot. The page scrolls there (as a phone's does), so each line,
// scrolled to, is above them; the labels' column holds `Sentences#0`.
test('at 1024×640 every task line of the diagram can be scrolled above the controls', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  const app = new Playground(page);
  await app.open('?preset=wordcount');
  await app.stepFast(120);
  await app.testId('spacetime-toggle').click();
  const lines = app.testId('spacetime').locator('.st-task');
  expect(await lines.count()).toBe(7);
  // No label runs into the plot (its line starts where the labels' column ends).
  const overlaps = await lines.evaluateAll((gs) => gs
    .map((g) => [g.querySelector('text').getBoundingClientRect(), g.querySelector('line').getBoundingClientRect(), g.textContent])
    .filter(([t, l]) => t.right > l.left + 0.5)
    .map(([, , name]) => name));
  expect(overlaps).toEqual([]);
  const last = lines.last();
  await last.scrollIntoViewIfNeeded();
  const box = await last.boundingBox();
  const bottom = await page.locator('.bottom').boundingBox();
  expect(box.y + box.height).toBeLessThanOrEqual(bottom.y + 1);
  await app.testId('spacetime').screenshot({ path: `${sites.screenshots}/spacetime-1024x640.png` });
});
