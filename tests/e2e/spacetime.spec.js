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
