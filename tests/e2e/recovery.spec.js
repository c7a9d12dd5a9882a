// Failure and recovery (the `recovery` preset: Count#1 fails after checkpoint 2 completes),
// held against `abs-sim run` of the same scenario: the job goes down where the engine says,
// restores the checkpoint it names, the sources rewind as it says, and the end is compared
// with the run without the failure — equal under aligned, higher for the words at-least-once
// counts twice.
const fs = require('fs');
const path = require('path');
const { execFileSync } = require('child_process');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const sites = require('./sites');

/** `abs-sim run` of the recovery preset to its end, with or without its planned failure. */
function runRecovery(mode, { withFailure = true } = {}) {
  let args = ['run', '--preset', 'recovery', '--mode', mode, '--until-finished'];
  if (!withFailure) {
    const scenario = JSON.parse(execFileSync(sites.absSim, ['preset', 'recovery'], { encoding: 'utf8' }));
    delete scenario.failures;
    fs.mkdirSync(sites.results, { recursive: true });
    const file = path.join(sites.results, 'recovery-without-failure.json');
    fs.writeFileSync(file, JSON.stringify(scenario));
    args = ['run', file, '--mode', mode, '--until-finished'];
  }
  const out = execFileSync(sites.absSim, args, { encoding: 'utf8', maxBuffer: 64 << 20 });
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  const summary = lines.pop().summary;
  return { steps: lines, summary };
}

/** The first step whose events include `event`, and that event. */
function first(trace, event) {
  for (const line of trace.steps) {
    const e = line.events.find((x) => x.event === event);
    if (e) return { step: line.step, event: e };
  }
  return null;
}

test('aligned: Count#1 fails, every task restores checkpoint 2, and the job ends with the failure-free counts', async ({ page }) => {
  const trace = runRecovery('aligned');
  const failed = first(trace, 'failed');
  const restored = first(trace, 'restored');
  expect(failed && restored, 'the trace fails and restores').toBeTruthy();
  expect(restored.event.checkpoint).toBe(2);
  expect(trace.summary.failures).toEqual([{ task: 'Count#1', at: 120, applied: true }]);

  const app = new Playground(page);
  await app.open('?preset=recovery');
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'planned');
  await expect(app.testId('recovery')).toContainText('Count#1 fails at t=120');

  await app.stepFast(failed.step);
  // Down: the failed subtask is marked, every other one cancelled, nothing in flight.
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'down');
  await expect(app.testId('recovery')).toContainText('restores checkpoint 2');
  await expect(app.subtask('Count', 1)).toHaveAttribute('data-status', 'failed');
  await expect(app.subtask('Count', 0)).toHaveAttribute('data-status', 'cancelled');
  await expect(app.subtask('Sentences', 0)).toHaveAttribute('data-status', 'cancelled');
  await expect(app.testId('dataflow')).toHaveClass(/\bdown\b/);
  await expect(app.testId('dataflow')).toHaveAttribute('data-items', '0');
  const told = (await app.sentences()).filter((s) => s.current).map((s) => s.text).join('\n');
  expect(told).toMatch(/Count#1 fails! As in Flink, its region stops — here the whole job/);
  await app.screenshot('recovery-aligned-down');

  await app.stepFast(restored.step - failed.step);
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'restored');
  await expect(app.testId('recovery')).toContainText('Restored checkpoint 2');
  // Each source rewinds as the engine says.
  const rewinds = restored.step && trace.steps.find((l) => l.step === restored.step).events
    .filter((e) => e.event === 'rewound');
  expect(rewinds.length).toBeGreaterThan(0);
  for (const r of rewinds) {
    await expect(app.testId('recovery')).toContainText(`Sentences#${r.task} rewound ${r.from} → ${r.to}`);
  }
  await expect(app.testId('dataflow')).not.toHaveClass(/\bdown\b/);
  await app.screenshot('recovery-aligned-restored');

  await app.stepFast(trace.summary.steps - restored.step);
  const verdict = app.testId('final-comparison');
  await expect(verdict).toHaveAttribute('data-equal', 'true');
  await expect(verdict).toContainText('exactly the counts of a run without the failure');
  // The engine agrees: the same final result as the run without the failure.
  expect(trace.summary.final).toEqual(runRecovery('aligned', { withFailure: false }).summary.final);
});

test('at-least-once: the words counted twice are named, in Count\'s state and at the end', async ({ page }) => {
  const trace = runRecovery('at-least-once');
  const without = runRecovery('at-least-once', { withFailure: false }).summary.final.counts;
  const restored = first(trace, 'restored');
  expect(restored.event.duplicates.length, 'the restored snapshot holds duplicates').toBeGreaterThan(0);
  const higher = Object.entries(trace.summary.final.counts).filter(([w, n]) => n > (without[w] || 0));
  expect(higher.length).toBeGreaterThan(0);

  const app = new Playground(page);
  await app.open('?preset=recovery&mode=at-least-once');
  await app.stepFast(restored.step);
  await expect(app.testId('recovery')).toContainText(
    `${restored.event.duplicates.length} records in the restored state will be counted twice`);
  // The task that already holds a duplicated word marks it in its state.
  const dupAtCount = restored.event.duplicates.find((d) => d.record.payload && d.record.payload.word !== undefined);
  if (dupAtCount) {
    for (const index of [0, 1]) {
      await app.subtask('Count', index).click();
      if (await app.testId('counted-twice').count() > 0) break;
    }
    await expect(app.testId('counted-twice').first()).toBeVisible();
  }

  await app.stepFast(trace.summary.steps - restored.step);
  const verdict = app.testId('final-comparison');
  await expect(verdict).toHaveAttribute('data-equal', 'false');
  for (const [w, n] of higher) {
    await expect(verdict).toContainText(`${w} ${n} (without the failure ${without[w]})`);
  }
  await app.screenshot('recovery-at-least-once-end');
});

test('fork: step back before the planned failure and skip it, or fail another subtask by hand', async ({ page }) => {
  const trace = runRecovery('aligned');
  const failed = first(trace, 'failed');
  const app = new Playground(page);
  await app.open('?preset=recovery');
  await app.stepFast(failed.step + 3);
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'restored');
  // Back across the failure: the planned failure is still to come.
  await app.stepBack(4);
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'planned');
  await app.testId('skip-failure').click();
  await expect(app.testId('recovery')).toHaveCount(0);
  // The new future has no failure where the old one had it.
  await app.stepFast(10);
  await expect(app.testId('dataflow')).not.toHaveClass(/\bdown\b/);
  // Fail Split#0 by hand: select it, then the inspector's button.
  await app.subtask('Split', 0).click();
  await app.testId('fail-task').click();
  await expect(app.subtask('Split', 0)).toHaveAttribute('data-status', 'failed');
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'down');
  await expect(app.testId('recovery')).toContainText('Split#0 failed');
  // And by keyboard: after the restart, X fails the selected subtask again.
  await app.stepFast(1);
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'restored');
  await app.subtask('Count', 0).click();
  await page.keyboard.press('x');
  await expect(app.subtask('Count', 0)).toHaveAttribute('data-status', 'failed');
});

test('at phone width the recovery line, the graph and the controls stack without overlapping', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const trace = runRecovery('at-least-once');
  const failed = first(trace, 'failed');
  const app = new Playground(page);
  await app.open('?preset=recovery&mode=at-least-once');
  await app.stepFast(failed.step);
  const line = await app.testId('recovery').boundingBox();
  const stage = await app.testId('dataflow').boundingBox();
  const controls = await page.locator('.bottom').boundingBox();
  for (const b of [line, stage, controls]) {
    expect(b.x).toBeGreaterThanOrEqual(0);
    expect(b.x + b.width).toBeLessThanOrEqual(391);
  }
  expect(stage.width).toBeGreaterThan(300);
  expect(line.y + line.height).toBeLessThanOrEqual(stage.y + 1);
  // The controls stay on screen, over whatever scrolls beneath them.
  expect(controls.y + controls.height).toBeLessThanOrEqual(844 + 1);
  expect(stage.y).toBeLessThan(controls.y);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(391);
  await app.screenshot('recovery-phone-down');
});

test('stop-the-world: the failure abandons the stop under way, checkpoint 1 is restored with no channel state, and the end equals the failure-free run', async ({ page }) => {
  const trace = runRecovery('synchronous');
  const failed = first(trace, 'failed');
  const restored = first(trace, 'restored');
  // The failure comes while checkpoint 2 has the world stopped: it is abandoned.
  const aborted = trace.steps.find((l) => l.step === failed.step).events
    .find((e) => e.event === 'checkpoint-aborted');
  expect(aborted).toMatchObject({ checkpoint: 2, reason: 'failover' });
  expect(restored.event).toMatchObject({ checkpoint: 1, reinjected: 0 });

  const app = new Playground(page);
  await app.open('?preset=recovery&mode=synchronous');
  await expect(app.lesson()).toContainText('checkpoint 2 is abandoned');
  await app.stepFast(failed.step - 1);
  await expect(app.subtask('Sentences', 0)).toHaveAttribute('data-status', 'stopped');
  await app.stepFast(1);
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'down');
  await expect(app.testId('recovery')).toContainText('restores checkpoint 1');
  await app.stepFast(restored.step - failed.step);
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'restored');
  await expect(app.testId('recovery')).toContainText('Restored checkpoint 1');
  await app.stepFast(trace.summary.steps - restored.step);
  await expect(app.testId('final-comparison')).toHaveAttribute('data-equal', 'true');
  expect(trace.summary.final).toEqual(runRecovery('synchronous', { withFailure: false }).summary.final);
});

// Flink's default failover strategy restarts only the failed task's pipelined region. Two
// parallel forward pipelines are two regions: when Count#1 fails, its pipeline (Src#1, Split#1,
// Count#1) goes down and comes back from the checkpoint, while Src#0's pipeline runs on, and
// the page says so; the engine's own run of the same scenario names the same region.
test('two forward pipelines: a failure takes down its region only, and the other source reads on', async ({ page }) => {
  const scenario = {
    name: 'pipelines', title: 'Two pipelines',
    graph: {
      operators: [
        { name: 'Src', kind: { type: 'source', lines: ['a b', 'c d', 'a c', 'b d', 'a a', 'd c', 'b b', 'c a'], interval: 20, bounded: true }, parallelism: 2 },
        { name: 'Split', kind: { type: 'split' }, parallelism: 2 },
        { name: 'Count', kind: { type: 'count' }, parallelism: 2 },
      ],
      edges: [
        { from: 'Src', to: 'Split', partitioning: 'forward' },
        { from: 'Split', to: 'Count', partitioning: 'forward' },
      ],
    },
    config: { mode: 'aligned', checkpoint_interval: 30, first_trigger: 15, restart_delay: 40 },
    failures: [{ task: 'Count#1', at: 70 }],
  };
  fs.mkdirSync(sites.results, { recursive: true });
  const file = path.join(sites.results, 'pipelines.json');
  fs.writeFileSync(file, JSON.stringify(scenario));
  const out = execFileSync(sites.absSim, ['run', file, '--until-finished'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const trace = { steps: out.trim().split('\n').map((l) => JSON.parse(l)) };
  trace.steps.pop();
  const failed = first(trace, 'failed');
  expect(failed).not.toBeNull();

  const app = new Playground(page);
  await app.open('?preset=wordcount');
  await app.testId('editor-open').click();
  await app.testId('editor').fill(JSON.stringify(scenario, null, 2));
  await app.testId('editor-apply').click();
  await expect(app.testId('editor-view')).toHaveCount(0);
  await app.stepFast(failed.step);
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'down');
  await expect(app.testId('recovery')).toContainText('Count#1 failed. Its region is down');
  await expect(app.subtask('Count', 1)).toHaveAttribute('data-status', 'failed');
  for (const name of ['Src', 'Split']) {
    await expect(app.subtask(name, 1)).toHaveAttribute('data-status', 'cancelled');
    await expect(app.subtask(name, 0)).not.toHaveAttribute('data-status', /failed|cancelled/);
  }
  // The region is greyed out, as the recovery line says; the other pipeline is not.
  const opacity = (name, i) => app.subtask(name, i).evaluate((e) => getComputedStyle(e).opacity);
  expect(await opacity('Split', 1)).toBe('0.45');
  expect(await opacity('Split', 0)).toBe('1');
  // A subtask that is down cannot fail again; one of the pipeline that runs on can.
  await app.subtask('Count', 1).click();
  await expect(app.testId('fail-task')).toHaveCount(0);
  await app.subtask('Split', 1).click();
  await expect(app.testId('fail-task')).toHaveCount(0);
  await app.subtask('Count', 0).click();
  await expect(app.testId('fail-task')).toBeVisible();
  // The other pipeline runs on while the region is down (here Src#0 reads its last line and
  // Split#0 and Count#0 process): every step until the restart narrates its subtasks only.
  const restored = first(trace, 'restored');
  expect(restored.event.region).toEqual(failed.event.region);
  await app.stepFast(restored.step - failed.step - 1);
  await expect(app.testId('recovery')).toHaveAttribute('data-phase', 'down');
  const meanwhile = (await app.sentences()).filter((x) => x.step > failed.step).map((x) => x.text);
  expect(meanwhile.length).toBeGreaterThan(3);
  expect(meanwhile.join('\n')).toMatch(/Src#0 has read its whole log/);
  expect(meanwhile.join('\n')).toMatch(/Count#0 processes/);
  expect(meanwhile.join('\n')).not.toMatch(/#1/);
  await app.stepFast(1);
  await expect(app.testId('recovery')).not.toHaveAttribute('data-phase', 'down');
});
