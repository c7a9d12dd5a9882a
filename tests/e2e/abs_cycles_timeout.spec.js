// ABS for cyclic graphs (the `iteration` preset: Step logs what comes round its feedback loop
// until the barrier does) and aligned checkpoints with a timeout (a long alignment goes on
// unaligned), each held against `abs-sim run` of the same scenario.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const { runSim } = require('./trace');
const sites = require('./sites');

/** The step at which `event` (with `fields`) first happens in a trace. */
function firstStep(trace, event, fields = {}) {
  const line = trace.steps.find((l) => l.events.some((e) => e.event === event
    && Object.entries(fields).every(([k, v]) => e[k] === v)));
  return line ? line.step : null;
}

test('iteration: Step logs the records that come round the loop, and checkpoint 1 holds that log', async ({ page }) => {
  const trace = runSim('iteration', 'aligned', 400);
  const logged = firstStep(trace, 'channel-state');
  const completed = firstStep(trace, 'checkpoint-completed', { checkpoint: 1 });
  expect(logged, 'the trace logs a back-edge record').not.toBeNull();
  expect(completed).toBeGreaterThan(logged);

  const app = new Playground(page);
  await app.open('?preset=iteration');
  await app.stepFast(logged);
  // The log is drawn at the back-edge's port, ringed in checkpoint 1's colour.
  const log = app.testId('log-Step#0-Step#0');
  await expect(log).toHaveAttribute('data-log', '1');
  expect(Number(await log.getAttribute('data-held'))).toBeGreaterThan(0);
  const told = (await app.sentences()).filter((s) => s.current).map((s) => s.text).join('\n');
  expect(told).toMatch(/came round the loop to Step#0 before barrier 1 did/);
  await expect(app.page.locator('.legend')).toContainText('logged on a back-edge');

  await app.stepFast(completed - logged);
  await app.openCheckpoint(1);
  const gs = await app.readGlobalState();
  expect(gs.verdict).toMatch(/^✓/);
  const summary = runSim('iteration', 'aligned', completed).summary;
  const recorded = summary.checkpoints.find((c) => c.id === 1).global_state.channels['Step#0->Step#0'];
  expect(recorded.length).toBeGreaterThan(0);
  // Tables name a channel as sentences do: FROM→TO.
  const row = gs.channels.find((r) => Object.values(r)[0] === 'Step#0→Step#0');
  expect(row, JSON.stringify(gs.channels)).toBeTruthy();
  expect(Number(Object.values(row)[1])).toBe(recorded.length);
  // At-least-once would lose what is in flight round the loop: not offered.
  await expect(app.testId('mode').locator('option[value="at-least-once"]')).toBeDisabled();
});

test('aligned with a timeout: the long alignment goes on unaligned where the engine says', async ({ page }) => {
  // The backpressure preset with the page's timeout (40), as a scenario file for abs-sim.
  const scenario = JSON.parse(execFileSync(sites.absSim, ['preset', 'backpressure'], { encoding: 'utf8' }));
  scenario.config.aligned_checkpoint_timeout = 40;
  fs.mkdirSync(sites.results, { recursive: true });
  const file = path.join(sites.results, 'backpressure-aligned-timeout.json');
  fs.writeFileSync(file, JSON.stringify(scenario));
  const out = execFileSync(sites.absSim, ['run', file, '--steps', '400'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  const summary = lines.pop().summary;
  const trace = { steps: lines, summary };
  const at = firstStep(trace, 'alignment-timed-out');
  expect(at, 'the engine times an alignment out').not.toBeNull();
  const completed = firstStep(trace, 'checkpoint-completed', { checkpoint: 1 });

  const app = new Playground(page);
  await app.open('?preset=backpressure&mode=aligned-timeout');
  await expect(app.testId('mode')).toHaveValue('aligned-timeout');
  await expect(app.lesson()).toContainText('aligned-checkpoint-timeout');
  await app.stepFast(at - 1);
  expect((await app.sentences()).map((s) => s.text).join('\n')).not.toMatch(/longer ago than the aligned-checkpoint timeout/);
  await app.step(1);
  const told = (await app.sentences()).filter((s) => s.current).map((s) => s.text).join('\n');
  // The timeout counts from the checkpoint's trigger (Flink's checkpoint start delay).
  expect(told).toMatch(/Checkpoint 1 was triggered longer ago than the aligned-checkpoint timeout, so Merge#0 goes on unaligned/);
  await app.stepFast(completed - at);
  await app.openCheckpoint(1);
  const gs = await app.readGlobalState();
  expect(gs.verdict).toMatch(/^✓/);
  // What the engine recorded as channel state, channel by channel, is what the page shows.
  const recorded = summary.checkpoints.find((c) => c.id === 1).global_state.channels;
  const total = Object.values(recorded).reduce((n, items) => n + items.length, 0);
  expect(total).toBeGreaterThan(0);
  const shown = gs.channels.reduce((n, row) => n + Number(Object.values(row)[1]), 0);
  expect(shown).toBe(total);
  // Choosing plain aligned again drops the timeout.
  await app.setMode('aligned');
  await expect(app.lesson()).not.toContainText('aligned-checkpoint-timeout');
  await expect(app.page).toHaveURL(/mode=aligned(&|$)/);
});

test('aligned with a timeout tells the preset\'s own lesson and why it matters, then what the timeout changes', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=recovery&mode=aligned-timeout');
  await expect(app.testId('mode')).toHaveValue('aligned-timeout');
  // The recovery lesson, about its failure, and the timeout's note after it.
  await expect(app.lesson()).toContainText('Count#1 fails after checkpoint 2 has completed');
  await expect(app.lesson()).toContainText('aligned-checkpoint-timeout, here 40 ms');
  // "Why it matters": aligned's text, then the note on the timeout.
  await app.testId('theory-toggle').click();
  await expect(app.testId('theory')).toContainText('Flink\'s fault tolerance rests on distributed snapshots');
  await expect(app.testId('theory-timeout')).toContainText('once 40 ms have passed since a checkpoint\'s trigger (Flink\'s checkpoint start delay), every task still aligning it stops waiting');
  await app.screenshot('aligned-timeout-theory');
  // Plain aligned: the same texts without the note.
  await app.setMode('aligned');
  await expect(app.lesson()).toContainText('Count#1 fails after checkpoint 2 has completed');
  await expect(app.lesson()).not.toContainText('aligned-checkpoint-timeout');
  await expect(app.testId('theory')).toContainText('Flink\'s fault tolerance rests on distributed snapshots');
  await expect(app.testId('theory-timeout')).toHaveCount(0);
});
