// The inspector's numbers against the engine's: the page is stepped to the step at which a
// checkpoint completes in `abs-sim run`'s trace of the same preset and mode, and the global
// state it shows — offsets, counts, held records, durations, sizes, channel state, verdict — is
// compared with what the trace's events say (see trace.js) and with the summary's figures. Each
// mode shows only the figures it has: alignment when aligned, persisted in-flight data when
// unaligned, neither for at-least-once (it neither waits nor records). Sizes are Flink's
// checkpointed size: the state and the persisted in-flight data.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const { runSim, expectedGlobalState, timeAt } = require('./trace');
const { execFileSync } = require('child_process');
const sites = require('./sites');

// Steps of trace to read: well past each first completion, so that records an unaligned
// barrier overtook have arrived and every line read before the snapshot has been split.
const TRACE_STEPS = 1500;

const CASES = [
  ['alignment', 'aligned', 1],
  ['alignment', 'aligned', 2],
  ['alignment', 'at-least-once', 1],
  ['alignment', 'unaligned', 1],
  ['wordcount', 'aligned', 1],
  ['wordcount', 'at-least-once', 1],
  ['wordcount', 'unaligned', 1],
  ['concurrent', 'aligned', 2],
  ['backpressure', 'aligned', 1],
  ['backpressure', 'at-least-once', 1],
  ['backpressure', 'unaligned', 1],
];

/** A task-state cell as numbers: "offset 12", "processed 5", "3 words counted — a=2 · b=1", "received 4 — …". */
function parseState(text) {
  let m;
  if ((m = text.match(/^offset (\d+)$/))) return { offset: Number(m[1]) };
  if ((m = text.match(/^processed (\d+)$/))) return { processed: Number(m[1]) };
  if ((m = text.match(/^(\d+) words counted(?: — (.*))?$/))) {
    const shown = [...(m[2] || '').matchAll(/=(\d+)/g)].map((x) => Number(x[1]));
    return { keys: Number(m[1]), counts: shown.sort((a, b) => a - b), more: /more$/.test(text) };
  }
  if ((m = text.match(/^received (\d+)/))) return { received: Number(m[1]) };
  throw new Error(`unreadable task state: ${text}`);
}

/** The columns each mode's figures add between the fixed ones, as the inspector heads them. */
const MODE_COLUMNS = {
  aligned: ['Alignment duration', 'Records held'],
  unaligned: ['Persisted in-flight'],
  'at-least-once': [],
};

const bytes = (text) => {
  const m = text.match(/^(\d+) B$/);
  if (!m) throw new Error(`not a size: ${text}`);
  return Number(m[1]);
};

for (const [preset, mode, k] of CASES) {
  test(`inspector matches abs-sim: ${preset} ${mode}, checkpoint ${k}`, async ({ page }) => {
    const long = runSim(preset, mode, TRACE_STEPS);
    const want = expectedGlobalState(long, k, mode);
    const at = want.completedAtStep;

    const app = new Playground(page);
    await app.open(`?preset=${preset}&mode=${mode}`);
    // The page's step n is the engine's step n: one step before, checkpoint k is still open
    // and the clock reads the trace's time; the next step completes it.
    await app.stepFast(at - 1);
    expect(await app.stepCount()).toBe(at - 1);
    expect(await app.clock()).toBe(timeAt(long, at - 1));
    expect(await app.checkpointStatus(k)).toBe('in-progress');
    await app.step();
    expect(await app.stepCount()).toBe(at);
    expect(await app.clock()).toBe(timeAt(long, at));
    expect(await app.checkpointStatus(k)).toBe('completed');

    // The coordinator's list is the summary `abs-sim run --steps <at>` prints.
    const { summary } = runSim(preset, mode, at);
    expect(summary.steps).toBe(at);
    const shown = await app.coordinatorCheckpoints();
    const fromSim = summary.checkpoints.slice().reverse().slice(0, shown.length).map((c) => ({
      id: c.id, status: c.status.status, acked: String(c.acked), total: String(c.total),
    }));
    expect(shown).toEqual(fromSim);

    await app.openCheckpoint(k);
    await expect(app.globalState()).toHaveAttribute('data-checkpoint', String(k));
    const gs = await app.readGlobalState();
    const line = summary.checkpoints.find((c) => c.id === k);
    const verdict = line.verdict;
    // The summary's figures are the inspector's: the checkpointed size includes the in-flight data.
    expect(line.checkpointed_size).toBe(want.size);
    expect(line.persisted_in_flight).toBe(want.persistedBytes);
    expect(verdict === 'consistent', 'the summary agrees with checkpoint-completed').toBe(want.consistent);
    if (verdict === 'consistent') {
      expect(gs.verdict).toMatch(/^✓ Consistent cut/);
    } else {
      const { duplicated, lost } = verdict.inconsistent;
      expect(gs.verdict).toContain(`${duplicated} would be processed twice after a recovery, ${lost} would be lost`);
    }
    if (want.wordsChecked !== null) {
      expect(gs.verdict).toContain(`(${want.wordsChecked} words)`);
    }

    // The figures of the whole checkpoint, in order.
    const figures = [
      ['Triggered at', `${want.triggerTime} ms`],
      ['End to end duration', `${want.endToEnd} ms`],
      ...(mode === 'aligned' ? [['Alignment duration', `${want.alignment} ms`], ['Records held', String(want.held)]] : []),
      ['Checkpointed size', `${want.size} B`],
      ...(mode === 'unaligned'
        ? [['Persisted in-flight', `${want.persistedBytes} B (${want.persisted} record${want.persisted === 1 ? '' : 's'})`]]
        : []),
    ];
    expect(Object.entries(gs.figures)).toEqual(figures);
    expect(gs.taskHeads).toEqual(['Subtask', 'State', 'Start delay', 'Acknowledged at', ...MODE_COLUMNS[mode], 'Checkpointed size']);

    // Every subtask's state and figures, by task id.
    expect(gs.tasks.length).toBe(want.tasks.length);
    want.tasks.forEach((w, t) => {
      const row = gs.tasks[t];
      const what = `${row.Subtask} (task ${t}, ${w.kind})`;
      const state = parseState(row.State);
      if (w.kind === 'count') {
        expect(state.keys, what).toBe(w.state.keys);
        if (!state.more) expect(state.counts, what).toEqual(w.state.counts);
      } else if (w.kind === 'unknown') {
        expect(Object.values(state), what).toEqual([0]);
      } else {
        expect(state, what).toEqual(w.state);
      }
      expect(row['Start delay'], what).toBe(`${w.startDelay} ms`);
      expect(row['Acknowledged at'], what).toBe(`${w.ackTime} ms`);
      if (mode === 'aligned') {
        expect(row['Alignment duration'], what).toBe(`${w.alignment} ms`);
        expect(Number(row['Records held']), what).toBe(w.held);
      }
      if (mode === 'unaligned') expect(bytes(row['Persisted in-flight']), what).toBe(16 * w.persisted);
      expect(bytes(row['Checkpointed size']), what).toBe(w.size);
    });

    // Each subtask's statistics as Flink reports them: the summary's "subtasks" of checkpoint k,
    // and the task-state table's start delay and size are the summary's too.
    expect(gs.subtaskStats.length).toBe(Object.keys(line.subtasks).length);
    for (const row of gs.subtaskStats) {
      const want = line.subtasks[row.Subtask];
      const what = `${row.Subtask}: ${JSON.stringify(want)}`;
      // Start delay and checkpointed size are the task-state table's (checked above).
      expect(Object.keys(row)).toEqual(['Subtask', 'Alignment duration (ms)', 'Async (ms)', 'Persisted data (B)', 'Processed data (B)', 'Unaligned']);
      expect(Number(row['Alignment duration (ms)']), what).toBe(want.alignment_duration);
      expect(Number(row['Async (ms)']), what).toBe(want.async_duration);
      expect(Number(row['Persisted data (B)']), what).toBe(want.persisted_data);
      expect(Number(row['Processed data (B)']), what).toBe(want.processed_data);
      expect(row.Unaligned, what).toBe(want.unaligned_checkpoint ? '✓' : '—');
      const states = gs.tasks.find((r) => r.Subtask === row.Subtask);
      expect(states['Start delay'], what).toBe(`${want.start_delay} ms`);
      expect(bytes(states['Checkpointed size']), what).toBe(want.checkpointed_size);
    }

    // Every channel's recorded state, by channel id.
    expect(gs.channels.map((c) => Number(c.n))).toEqual(want.channels.map((c) => c.recorded));
    for (const c of gs.channels) {
      if (Number(c.n) === 0) expect(c.State).toBe('—');
      else expect(c.State.split(' · ')).toHaveLength(Number(c.n));
    }

    // The checkpoints table's row for k says the same, under the mode's own columns: no
    // alignment column outside aligned mode, the persisted records only when unaligned.
    expect(await app.checkpointTableHeads())
      .toEqual(['#', 'Status', 'Verdict', 'End to end duration', ...MODE_COLUMNS[mode], 'Checkpointed size']);
    const row = (await app.checkpointFigures()).find((r) => r['#'] === String(k));
    const cells = {
      aligned: { 'Alignment duration': `${want.alignment} ms`, 'Records held': String(want.held) },
      unaligned: { 'Persisted in-flight': `${want.persistedBytes} B` },
      'at-least-once': {},
    }[mode];
    expect(row).toEqual({
      status: 'completed',
      '#': String(k),
      Status: 'completed',
      // The table's verdict is the global state's.
      Verdict: want.consistent ? '✓ consistent' : '⚠ inconsistent',
      'End to end duration': `${want.endToEnd} ms`,
      ...cells,
      'Checkpointed size': `${want.size} B`,
    });
    await app.screenshot(`inspector-${preset}-${mode}-${k}`);
  });
}

// One verdict, worded alike wherever it is shown. `recovery` at-least-once: after the failure,
// the replay counts words twice, and a later checkpoint's cut is exact although its counts
// carry those duplicates. The narration, the coordinator's list and the inspector say the same
// of it (the engine's `finding`, read from abs-sim's trace), in English and in Chinese.
for (const [lang, words] of [
  ['en', { narrated: 'a consistent cut whose counts carry the duplicates of an earlier replay', short: 'consistent cut, earlier duplicates', head: /^⚠ A consistent cut whose counts carry the duplicates of an earlier replay/ }],
  ['zh-Hant', { narrated: '是一致割集，但計數帶著先前重放的重複', short: '一致割集，帶先前的重複', head: /^⚠ 一致割集，但計數帶著先前重放的重複/ }],
]) {
  test(`one verdict everywhere: a consistent cut that carries earlier duplicates (${lang})`, async ({ page }) => {
    const out = execFileSync(sites.absSim, ['run', '--preset', 'recovery', '--mode', 'at-least-once', '--steps', '250'], { encoding: 'utf8', maxBuffer: 64 << 20 });
    const steps = out.trim().split('\n').map((l) => JSON.parse(l));
    steps.pop();
    let carried = null;
    for (const line of steps) {
      for (const e of line.events) {
        if (e.event === 'checkpoint-completed' && e.finding === 'carries-duplicates' && !carried) carried = { step: line.step, n: e.checkpoint };
      }
    }
    expect(carried, 'recovery at-least-once has a consistent cut that carries duplicates by step 250').not.toBeNull();
    const app = new Playground(page);
    await app.open(`?preset=recovery&mode=at-least-once&lang=${lang}&step=${carried.step}`);
    const said = (await app.sentences()).filter((x) => x.step === carried.step).map((x) => x.text).join(' ');
    expect(said).toContain(words.narrated);
    await expect(app.testId(`checkpoint-${carried.n}`).first()).toContainText(words.short);
    await app.openCheckpoint(carried.n);
    await expect(app.testId('verdict')).toHaveText(words.head);
    await expect(app.testId('verdict')).toHaveClass(/bad/);
  });
}

// Issue 49: at 1024×640 the side panel was a 160 px strip under the graph, the open global
// state scrolled inside it. Narrow and short, the page scrolls as a phone's does: the graph
// keeps half the screen, the side panel is as tall as what it holds, and the controls and
// the narration stay at the bottom of the screen above whatever is scrolled under them.
test('at 1024×640 an open global state is shown whole, the controls kept at the bottom', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 640 });
  const app = new Playground(page);
  await app.open('?preset=wordcount&mode=aligned');
  await app.stepFast(120);
  await app.openCheckpoint(1);
  await expect(app.testId('task-states')).toBeVisible();
  const side = await page.locator('.side').evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight }));
  expect(side.scroll - side.client, 'the side panel clips what it holds').toBeLessThanOrEqual(1);
  expect(side.client).toBeGreaterThan(400);
  const stage = await page.locator('.stage').first().boundingBox();
  expect(stage.height).toBeGreaterThanOrEqual(640 / 2 - 1);
  // The task table's last row, scrolled to, ends above the controls, which stay on screen.
  const last = app.testId('task-states').locator('tr').last();
  await last.scrollIntoViewIfNeeded();
  const row = await last.boundingBox();
  const bottom = await page.locator('.bottom').boundingBox();
  expect(bottom.y + bottom.height).toBeLessThanOrEqual(641);
  expect(row.y + row.height).toBeLessThanOrEqual(bottom.y + 1);
  await expect(app.testId('play')).toBeInViewport();
  await app.screenshot('inspector-1024x640-scrolled');
});

// At 1280×800 (a common laptop) the dataflow of every preset drawn in detail fits beside the
// side panel without scrolling, and the side panel's tables do not scroll sideways: too narrow
// for their columns, each row is a card of named figures.
test('at 1280×800 the graph fits beside the side panel and its tables fit the panel', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new Playground(page);
  for (const preset of ['alignment', 'wordcount', 'concurrent', 'backpressure', 'slow-sink', 'recovery', 'iteration', 'token', 'bank']) {
    await app.open(`?preset=${preset}`);
    await app.stepFast(2);
    const graph = page.locator('svg.graph').first();
    await expect(graph, `${preset}: the graph scrolls`).not.toHaveAttribute('data-pans', '1');
    const fit = await page.locator('.stage').first().evaluate((el) => [el.scrollWidth, el.clientWidth]);
    expect(fit[0], `${preset}: the stage scrolls sideways`).toBeLessThanOrEqual(fit[1] + 1);
  }
  await app.open('?preset=wordcount&mode=aligned');
  await app.stepFast(160);
  await app.openCheckpoint(1);
  for (const id of ['task-states', 'subtask-stats', 'channel-states']) await expect(app.testId(id)).toBeVisible();
  const wide = await page.locator('.side').evaluate((side) =>
    [...side.querySelectorAll('.checkpoints-tab, .global-state, table')]
      .filter((el) => el.scrollWidth > el.clientWidth + 1)
      .map((el) => `${el.className || el.tagName} ${el.scrollWidth} > ${el.clientWidth}`));
  expect(wide, 'what scrolls sideways in the side panel').toEqual([]);
  // A row is a card: its name on a line of its own, each figure named by its column.
  const row = app.testId('task-states').locator('tbody tr').first();
  const heads = await app.testId('task-states').locator('thead th').allTextContents();
  const named = await row.locator('td').evaluateAll((tds) => tds.map((td) => td.dataset.l));
  expect(named).toEqual(heads.slice(1));
  const label = await row.locator('td').nth(2).evaluate((td) => getComputedStyle(td, '::before').content);
  expect(label).toBe(JSON.stringify(heads[3]));
  const [name, state] = await Promise.all([row.locator('th').boundingBox(), row.locator('td').first().boundingBox()]);
  expect(state.y).toBeGreaterThanOrEqual(name.y + name.height - 1);
  await app.screenshot('inspector-1280x800-cards');
});
