// The engineers' Flink view (`?view=flink`): a build of its own that the playground never
// loads itself. It imports what Flink's REST API returns — a
// checkpoint history, an export bundle, a plan — refuses anything else with a message and
// keeps what it showed, and runs the address's scenario for its own history beside it.
const fs = require('fs');
const path = require('path');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

const FLINK = /\/abs-views-[0-9a-f]{16}_bg\.wasm$/;
const fixture = (name) => fs.readFileSync(path.join(__dirname, '..', 'flink', name), 'utf8');

/** Records the wasm files the page fetches. */
function wasmRequests(page) {
  const urls = [];
  page.on('request', (r) => { if (/\.wasm$/.test(new URL(r.url()).pathname)) urls.push(new URL(r.url()).pathname); });
  return urls;
}

/** The rows' data attributes of a checkpoint table. */
async function rows(table) {
  return table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => ({
    id: Number(tr.dataset.id),
    status: tr.dataset.status,
    duration: Number(tr.dataset.durationMs),
    persisted: Number(tr.dataset.persistedBytes),
    unaligned: tr.dataset.unaligned,
  })));
}

async function paste(page, text) {
  await page.getByTestId('flink-import-text').fill(text);
  await page.getByTestId('flink-import-apply').click();
}

test('the Flink view of the running scenario imports a history, a bundle and a plan', async ({ page }) => {
  const fetched = wasmRequests(page);
  const app = new Playground(page);
  await app.open('?preset=backpressure&mode=unaligned&lang=zh');
  // The playground fetches its own build only.
  expect(fetched).toHaveLength(1);
  expect(fetched[0]).not.toMatch(FLINK);
  // The Share dialog's `flink-import` link opens the view of this moment's scenario, mode
  // and language, in a build of its own.
  await page.getByTestId('share').click();
  await page.getByTestId('flink-import').click();
  await expect(page.getByTestId('flink-view')).toBeVisible();
  const opened = new URL(page.url()).searchParams;
  expect(opened.get('view')).toBe('flink');
  expect(opened.get('preset')).toBe('backpressure');
  expect(opened.get('mode')).toBe('unaligned');
  await expect(page.getByTestId('flink-import-apply')).toHaveText('匯入');
  expect(fetched.filter((u) => FLINK.test(u))).toHaveLength(1);
  // And back to the same moment.
  await page.getByTestId('flink-back').click();
  await expect(page.getByTestId('step-counter')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('preset')).toBe('backpressure');
  expect(new URL(page.url()).searchParams.get('view')).toBeNull();
  // The view for the page's scenario, mode and language, by its address.
  await app.open('?preset=backpressure&mode=unaligned&lang=zh');
  fetched.length = 0;
  const url = new URL(page.url());
  url.searchParams.set('view', 'flink');
  await page.goto(url.toString());
  await expect(page.getByTestId('flink-view')).toBeVisible();
  expect(new URL(page.url()).searchParams.get('preset')).toBe('backpressure');
  expect(fetched.filter((u) => FLINK.test(u))).toHaveLength(1);
  // In the address's language.
  await expect(page.getByTestId('flink-import-apply')).toHaveText('匯入');

  // A checkpoint history: one row per checkpoint, the newest first as in Flink's web UI, with
  // the document's figures.
  const doc = JSON.parse(fixture('checkpoints-2.x.json'));
  await paste(page, fixture('checkpoints-2.x.json'));
  const table = page.getByTestId('flink-checkpoints');
  const want = doc.history.map((c) => ({
    id: c.id,
    status: c.status.toLowerCase(),
    duration: c.end_to_end_duration,
    persisted: c.persisted_data,
    unaligned: String(c.checkpoint_type === 'UNALIGNED_CHECKPOINT'),
  })).sort((a, b) => b.id - a.id);
  await expect(table.locator('tbody tr')).toHaveCount(want.length);
  expect(await rows(table)).toEqual(want);
  // No per-subtask statistics in this document: a click says so.
  await table.locator('tbody tr').first().click();
  await expect(page.getByTestId('flink-checkpoints-no-subtasks')).toBeVisible();

  // Something else: the message, and the table stays.
  await paste(page, '{"nope":1}');
  await expect(page.getByTestId('flink-import-error')).toContainText('nope');
  expect(await rows(table)).toEqual(want);
  // In the view's language: no English word outside the backticked field names.
  const refusal = await page.getByTestId('flink-import-error').textContent();
  expect(refusal).toContain('欄位');
  expect(refusal.replace(/`[^`]*`/g, '').replace(/JSON|Flink/g, '')).not.toMatch(/[A-Za-z]{2,}/);

  // A bundle: its history, with subtasks drawn as bars on one axis; and its plan.
  await paste(page, fixture('bundle-2.x.json'));
  await expect(page.getByTestId('flink-import-error')).toHaveCount(0);
  const bundle = JSON.parse(fixture('bundle-2.x.json'));
  await expect(table.locator('tbody tr')).toHaveCount(bundle.checkpoints.history.length);
  await table.locator('tbody tr[data-id="1"]').click();
  const bars = page.getByTestId('flink-checkpoints-bars');
  await expect(bars).toHaveAttribute('data-checkpoint', '1');
  await expect(bars.locator('g.subtask')).toHaveCount(bundle.checkpoints.details['1'].num_subtasks);
  expect(await bars.locator('g.subtask rect').count()).toBeGreaterThan(0);
  await expect(page.getByTestId('flink-plan')).toBeVisible();
  // The same bundle as `abs-sim flink run` writes it: each checkpoint's details carry their
  // subtasks by vertex beside `tasks`. The same bars.
  const run = JSON.parse(fixture('bundle-2.x.json'));
  const details = run.checkpoints.details['1'];
  details.subtasks = {};
  for (const [vid, task] of Object.entries(details.tasks)) {
    details.subtasks[vid] = { id: 1, subtasks: task.subtasks };
    delete task.subtasks;
  }
  await paste(page, JSON.stringify(run));
  await table.locator('tbody tr[data-id="1"]').click();
  await expect(bars.locator('g.subtask')).toHaveCount(details.num_subtasks);

  // The simulation's own history of the address's scenario, backpressure unaligned: what went
  // unaligned persisted in-flight data.
  const sim = page.getByTestId('sim-checkpoints');
  const simRows = await rows(sim);
  expect(simRows.length).toBeGreaterThan(1);
  // Titled in the view's language, as the playground titles the preset.
  await expect(page.locator('h2', { hasText: '模擬的檢查點' })).not.toContainText('Backpressure');
  expect(simRows.some((r) => r.unaligned === 'true' && r.persisted > 0)).toBe(true);
  for (const r of simRows) if (r.unaligned === 'false') expect(r.persisted).toBe(0);
  // A retained checkpoint of the run (the newest, listed first) has its subtasks.
  const done = simRows.filter((r) => r.status === 'completed');
  expect(done[0].id).toBe(Math.max(...done.map((r) => r.id)));
  await sim.locator(`tbody tr[data-id="${done[0].id}"]`).click();
  expect(await page.getByTestId('sim-checkpoints-bars').locator('g.subtask').count()).toBeGreaterThan(0);
});

test('the aligned run persists no in-flight data', async ({ page }) => {
  await page.goto('index.html?view=flink&preset=backpressure&mode=aligned');
  const sim = page.getByTestId('sim-checkpoints');
  await expect(sim.locator('tbody tr').first()).toBeVisible();
  const simRows = await rows(sim);
  expect(simRows.length).toBeGreaterThan(1);
  for (const r of simRows) {
    expect(r.unaligned).toBe('false');
    expect(r.persisted).toBe(0);
  }
  await expect(page.getByTestId('flink-import-apply')).toHaveText('Import');
  // Aligned: nothing to say about the edges Flink keeps aligned.
  await expect(page.getByTestId('flink-edge-note')).toHaveCount(0);
  // Unaligned, edges all rebalance: every barrier may overtake, nothing to say.
  await page.goto('index.html?view=flink&preset=backpressure&mode=unaligned');
  await expect(page.getByTestId('sim-checkpoints').locator('tbody tr').first()).toBeVisible();
  await expect(page.getByTestId('flink-edge-note')).toHaveCount(0);
  // Unaligned with a forward edge: barriers stay aligned there, in Flink and here alike.
  await page.goto('index.html?view=flink&preset=wordcount&mode=unaligned');
  const note = page.getByTestId('flink-edge-note');
  await expect(note).toContainText('Sentences → Split');
  await expect(note).toContainText('in Flink as in this simulation');
  await expect(note).not.toContainText('Split → Count');
});

test('a plan opens in the playground as the running scenario', async ({ page }) => {
  await page.goto('index.html?view=flink&lang=en');
  await paste(page, fixture('plan-2.x.json'));
  const plan = page.getByTestId('flink-plan');
  await expect(plan).toBeVisible();
  // The notices, worded: the defaults a plan does not say, the parallelism capped.
  await expect(page.getByTestId('flink-notices').locator('li').first()).toBeVisible();
  await expect(page.getByTestId('flink-notices')).toContainText('parallelism 128');
  await page.getByTestId('flink-open-plan').click();
  await expect(page.getByTestId('step-counter')).toBeVisible();
  const app = new Playground(page);
  const names = await app.operatorNames();
  expect(names.sort()).toEqual([
    'Join → Calc', 'Map', 'Sink: Writer → Sink: Committer', 'Source: Orders', 'TableSourceScan',
  ].sort());
});

test('on a phone the page does not scroll sideways: each table scrolls in its own box', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('index.html?view=flink&preset=backpressure&mode=unaligned&lang=zh');
  await page.getByTestId('flink-import-text').fill(fixture('bundle-2.x.json'));
  await page.getByTestId('flink-import-apply').click();
  await page.getByTestId('flink-checkpoints').locator('tbody tr').first().click();
  await expect(page.getByTestId('flink-checkpoints-bars')).toBeVisible();
  const widths = await page.evaluate(() => ({
    page: document.scrollingElement.scrollWidth,
    view: window.innerWidth,
    box: document.querySelector('.flink-scroll').clientWidth,
  }));
  expect(widths.page).toBeLessThanOrEqual(widths.view);
  expect(widths.box).toBeLessThanOrEqual(widths.view);
});

test('several REST responses build up one job: its details, a vertex\'s subtasks, the configuration, the exceptions and the attempts', async ({ page }) => {
  // The simulation beside runs the address's scenario, aligned until a configuration says otherwise.
  await page.goto('index.html?view=flink&preset=wordcount&mode=aligned&lang=en');
  const sim = page.getByTestId('sim-checkpoints');
  await expect(sim.locator('tbody tr').first()).toBeVisible();
  expect((await rows(sim)).every((r) => r.unaligned === 'false')).toBe(true);
  const table = page.getByTestId('flink-checkpoints');

  // One checkpoint's details: its row; then one of its vertices' subtasks, named by the
  // details' figures for that vertex.
  const details = JSON.parse(fixture('details-2.x.json'));
  await paste(page, fixture('details-2.x.json'));
  await expect(table.locator(`tbody tr[data-id="${details.id}"]`)).toHaveCount(1);
  const subtasks = JSON.parse(fixture('subtasks-2.x.json'));
  await paste(page, fixture('subtasks-2.x.json'));
  await expect(page.getByTestId('flink-import-error')).toHaveCount(0);
  await table.locator(`tbody tr[data-id="${subtasks.id}"]`).click();
  const bars = page.getByTestId('flink-checkpoints-bars');
  await expect(bars.locator('g.subtask')).toHaveCount(subtasks.subtasks.length);
  const named = await bars.locator('g.subtask').first().getAttribute('data-task');
  expect(named).not.toMatch(/^Vertex \?/);

  // The configuration: shown under Flink's names, and the simulation runs in its mode.
  const config = JSON.parse(fixture('checkpoint-config-2.x.json'));
  await paste(page, fixture('checkpoint-config-2.x.json'));
  await expect(page.getByTestId('flink-config').locator('tr[data-key="execution.checkpointing.unaligned.enabled"]'))
    .toContainText(String(config.unaligned_checkpoints));
  if (config.unaligned_checkpoints) {
    await expect.poll(async () => (await rows(sim)).some((r) => r.unaligned === 'true')).toBe(true);
  }

  // The exceptions, newest first, and the attempts of a vertex.
  await paste(page, fixture('exceptions-2.x.json'));
  const exceptions = page.getByTestId('flink-exceptions').locator('tbody tr');
  expect(await exceptions.count()).toBeGreaterThan(0);
  const times = await exceptions.evaluateAll((trs) => trs.map((tr) => Number(tr.dataset.time)));
  expect([...times].sort((a, b) => b - a)).toEqual(times);
  const vertex = JSON.parse(fixture('vertex-2.x.json'));
  await paste(page, fixture('vertex-2.x.json'));
  const attempts = page.getByTestId('flink-attempts').locator('tbody tr');
  await expect(attempts).toHaveCount(vertex.subtasks.length);
  expect(await attempts.first().getAttribute('data-attempt')).toBe(String(vertex.subtasks[0].attempt));
  await paste(page, fixture('config-2.x.json'));

  // What the job holds so far, one item per document; the table is still the one job.
  await expect(page.getByTestId('flink-so-far').locator('li')).toHaveCount(6);
  await expect(table.locator(`tbody tr[data-id="${details.id}"]`)).toHaveCount(1);

  // Both drawings on one axis: a checkpoint of the simulation beside the job's.
  const simDone = (await rows(sim)).filter((r) => r.status === 'completed');
  await sim.locator(`tbody tr[data-id="${simDone[0].id}"]`).click();
  const simBars = page.getByTestId('sim-checkpoints-bars');
  await expect(simBars).toBeVisible();
  await expect.poll(async () => (await simBars.getAttribute('data-axis-end')) === (await bars.getAttribute('data-axis-end'))).toBe(true);

  // A document the view does not read says what to paste instead; start over empties the job.
  await paste(page, '{"nope":1}');
  await expect(page.getByTestId('flink-import-error')).toContainText('/checkpoints/config');
  await page.getByTestId('flink-clear').click();
  await expect(page.getByTestId('flink-so-far')).toHaveCount(0);
  await expect(table).toHaveCount(0);
});
