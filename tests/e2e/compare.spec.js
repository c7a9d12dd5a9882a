// The compare view (`?compare=…`, in the second build): one scenario and seed in several modes,
// each drawn by the playground's dataflow, moved together in virtual time; charts on shared
// scales and a table whose figures are `abs-sim compare`'s for the same events.
const { test, expect } = require('./fixtures');
const sites = require('./sites');

/** The table's rows: mode → figures. */
async function table(page) {
  return page.getByTestId('compare-table').locator('tbody tr').evaluateAll((trs) => Object.fromEntries(trs.map((tr) => [
    tr.dataset.mode,
    {
      throughput: Number(tr.dataset.throughput),
      p50: Number(tr.dataset.latencyP50),
      p99: Number(tr.dataset.latencyP99),
      checkpoints: Number(tr.dataset.checkpoints),
      size: Number(tr.dataset.sizeP50),
      duplicates: Number(tr.dataset.duplicates),
    },
  ])));
}

test('backpressure in three modes: run to t = 3000 in slices, the lanes together, the cost of blocking on one scale', async ({ page }) => {
  await page.goto('index.html?compare=aligned,unaligned,at-least-once&preset=backpressure&seed=1&lang=en');
  const view = page.getByTestId('compare');
  await expect(view).toBeVisible();
  await expect(page.locator('h1')).toContainText('mode by mode');
  for (const mode of ['aligned', 'unaligned', 'at-least-once']) {
    await expect(page.getByTestId(`compare-lane-${mode}`).getByTestId('dataflow')).toBeVisible();
  }
  // Before anything ran, no figure looks like a measurement: the table's cells are "–", the
  // failure column says there was none, each chart says what it waits for.
  const cells = () => page.getByTestId('compare-table').locator('tbody tr').evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].slice(1).map((td) => td.textContent)));
  for (const row of await cells()) expect(row).toEqual(['–', '–', '–', '–', '–', '–', 'no failure']);
  await expect(page.getByTestId('cmp-throughput').locator('.cmp-empty')).toHaveText('Nothing measured yet: press Play or Run.');
  await expect(page.getByTestId('cmp-latency').locator('.cmp-empty')).toHaveText('No record has reached a sink yet.');
  await expect(page.getByTestId('cmp-size').locator('.cmp-empty')).toHaveText('No checkpoint has completed yet.');
  // Backpressure's edges all rebalance: no barrier is kept aligned, so no note about it.
  await expect(page.getByTestId('compare-kept-aligned')).toHaveCount(0);
  await page.getByTestId('compare-target').fill('3000');
  await page.getByTestId('compare-target').dispatchEvent('change');
  await page.getByTestId('compare-run').click();
  await expect(view).toHaveAttribute('data-time', '3000', { timeout: 60_000 });
  await expect(page.getByTestId('compare-run')).toBeEnabled();
  await expect(page.getByTestId('compare-time')).toHaveText('Virtual time: 3000 ms');
  // Measured now: numbers where there are figures, still no failure, no chart waiting.
  for (const row of await cells()) {
    expect(row.slice(0, 6).every((c) => /^[0-9.]+$/.test(c)), row.join(' | ')).toBe(true);
    expect(row[6]).toBe('no failure');
  }
  await expect(page.locator('.cmp-empty')).toHaveCount(0);
  // Lockstep: every lane's engine is at the view's time (an event due by then may run a
  // moment later, never earlier).
  for (const mode of ['aligned', 'unaligned', 'at-least-once']) {
    const at = Number(await page.getByTestId(`compare-lane-${mode}`).getAttribute('data-time'));
    expect(at).toBeGreaterThan(2990);
    expect(at).toBeLessThanOrEqual(3001);
  }
  const rows = await table(page);
  expect(rows.aligned.throughput).toBeLessThan(rows.unaligned.throughput);
  expect(rows.aligned.p50).toBeGreaterThan(2 * rows.unaligned.p50);
  expect(rows.unaligned.size).toBeGreaterThan(rows.aligned.size);
  for (const r of Object.values(rows)) expect(r.checkpoints).toBeGreaterThan(5);
  // Five charts, each with one scale for every mode: a line (or dots) per mode.
  for (const id of ['cmp-throughput', 'cmp-latency', 'cmp-duration', 'cmp-held', 'cmp-size']) {
    const chart = page.getByTestId(id);
    await expect(chart).toBeVisible();
    expect(Number(await chart.getAttribute('data-x-max'))).toBe(3000);
    expect(Number(await chart.getAttribute('data-y-max'))).toBeGreaterThan(0);
  }
  await expect(page.getByTestId('cmp-latency').locator('polyline')).toHaveCount(6); // mean and p99 per mode
  await expect(page.getByTestId('cmp-held').locator('polyline')).toHaveCount(3);
  {
    await page.screenshot({ path: `${sites.screenshots}/compare-backpressure.png`, fullPage: true });
  }
});

test('play moves every lane on together; pause stops them', async ({ page }) => {
  await page.goto('index.html?compare=aligned,at-least-once&preset=alignment&lang=zh');
  const view = page.getByTestId('compare');
  await expect(page.locator('h1')).toContainText('各模式並列');
  await page.getByTestId('compare-speed').selectOption('64');
  await page.getByTestId('compare-play').click();
  await expect.poll(async () => Number(await view.getAttribute('data-time'))).toBeGreaterThan(100);
  await page.getByTestId('compare-play').click();
  const stopped = Number(await view.getAttribute('data-time'));
  await page.waitForTimeout(300);
  expect(Number(await view.getAttribute('data-time'))).toBe(stopped);
  const a = Number(await page.getByTestId('compare-lane-aligned').getAttribute('data-time'));
  const b = Number(await page.getByTestId('compare-lane-at-least-once').getAttribute('data-time'));
  expect(Math.abs(a - b)).toBeLessThanOrEqual(1 + Math.abs(stopped - Math.min(a, b)));
});

test('a list that cannot be compared says why', async ({ page }) => {
  const cases = [
    ['compare=aligned&preset=wordcount', 'Name 2 to 5 modes'],
    ['compare=aligned,sideways&preset=wordcount', '“sideways” is no mode'],
    ['compare=chandy-lamport,aligned&preset=token', 'cannot run in mode “aligned”'],
    ['compare=aligned,aligned&preset=wordcount', 'named twice'],
  ];
  for (const [query, message] of cases) {
    await page.goto(`index.html?${query}&lang=en`);
    await expect(page.getByTestId('compare-error')).toContainText(message);
  }
});

test('opened from the share dialog, it compares the ABS modes and stopping the world', async ({ page }) => {
  const { Playground } = require('./page');
  const app = new Playground(page);
  await app.open('?preset=backpressure&mode=unaligned');
  await app.testId('share').click();
  await app.testId('compare-open').click();
  await expect(page.getByTestId('compare')).toBeVisible();
  const lanes = await page.locator('[data-testid^="compare-lane-"]').evaluateAll((els) => els.map((e) => e.dataset.testid.slice('compare-lane-'.length)));
  // Five at most: the ABS modes and the synchronous baseline come before Chandy-Lamport.
  expect(lanes).toEqual(['aligned', 'aligned-timeout', 'unaligned', 'at-least-once', 'synchronous']);
  await page.getByTestId('compare-back').click();
  await expect(app.testId('step-counter')).toBeVisible();
  expect(page.url()).toMatch(/preset=backpressure/);
  expect(page.url()).not.toMatch(/compare=/);
});

test('the ABS paper\'s figure: the overhead against the interval, the same figures as abs-sim overhead', async ({ page }) => {
  const { execFileSync } = require('child_process');
  await page.goto('index.html?compare=aligned,unaligned,at-least-once&preset=backpressure&lang=en');
  await page.getByTestId('compare-measure').click();
  const list = page.getByTestId('compare-overheads');
  await expect(list).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('compare-measure')).toBeEnabled();
  const shown = Object.fromEntries(await list.locator('li').evaluateAll((lis) => lis.map((li) => [
    li.dataset.mode, li.dataset.overhead.split(' ').map(Number)])));
  const cli = JSON.parse(execFileSync(sites.absSim, ['overhead', '--preset', 'backpressure',
    '--intervals', '10,20,50,100,200,500', '--modes', 'aligned,unaligned,at-least-once'],
  { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  for (const mode of ['aligned', 'unaligned', 'at-least-once']) {
    expect(shown[mode]).toEqual(['10', '20', '50', '100', '200', '500'].map((i) => cli[mode][i]));
  }
  expect(shown.aligned[0]).toBeGreaterThan(shown.aligned[5]);
  await expect(page.getByTestId('cmp-overhead-chart').locator('polyline')).toHaveCount(3);
});

test('where Flink keeps barriers aligned (a forward edge), the unaligned lanes say so and name the operator', async ({ page }) => {
  await page.goto('index.html?compare=aligned,unaligned,at-least-once&preset=wordcount&lang=en');
  // Sentences → Split is forward: Split aligns in unaligned mode too; the other edges overtake.
  await expect(page.getByTestId('compare-kept-aligned')).toHaveText(
    'In “Unaligned”, barriers do not overtake on forward, rescale and broadcast edges, as in Flink 2.3: in those modes too, every checkpoint is taken aligned at Split.');
  await page.goto('index.html?compare=aligned,at-least-once&preset=wordcount&lang=en');
  await expect(page.getByTestId('compare-table')).toBeVisible();
  await expect(page.getByTestId('compare-kept-aligned')).toHaveCount(0);
});

test('runs that end before the time asked for say so', async ({ page }) => {
  await page.goto('index.html?compare=aligned,at-least-once&preset=recovery&lang=en');
  await page.getByTestId('compare-target').fill('100000');
  await page.getByTestId('compare-target').dispatchEvent('change');
  await page.getByTestId('compare-run').click();
  const status = page.getByTestId('compare-time');
  await expect(status).toHaveAttribute('data-ended', 'true', { timeout: 60_000 });
  await expect(status).toContainText('Every run has ended');
  await expect(page.getByTestId('compare-run')).toBeEnabled();
  // The bounded job's figures: at-least-once counts the replayed records twice, aligned not.
  const rows = await page.getByTestId('compare-table').locator('tbody tr').evaluateAll((trs) =>
    Object.fromEntries(trs.map((tr) => [tr.dataset.mode, Number(tr.dataset.duplicates)])));
  expect(rows.aligned).toBe(0);
  expect(rows['at-least-once']).toBeGreaterThan(0);
  // The failure happened in both lanes: the column counts, 0 included.
  const shown = await page.getByTestId('compare-table').locator('tbody tr td:last-child').allTextContents();
  expect(shown).toEqual(['0', String(rows['at-least-once'])]);
});

test('slow-sink with buffer debloating as one more lane: its buffers drawn, checkpoints near unaligned\'s, nothing in flight stored', async ({ page }) => {
  await page.goto('index.html?compare=aligned,aligned-debloat,unaligned&preset=slow-sink&seed=1&lang=en');
  const view = page.getByTestId('compare');
  await expect(view).toBeVisible();
  const lane = page.getByTestId('compare-lane-aligned-debloat');
  await expect(lane).toContainText('Aligned, buffer debloating');
  await page.getByTestId('compare-target').fill('3000');
  await page.getByTestId('compare-target').dispatchEvent('change');
  await page.getByTestId('compare-run').click();
  await expect(view).toHaveAttribute('data-time', '3000', { timeout: 60_000 });
  // Only the debloated lane draws its channels' buffer sizes, and they have shrunk.
  const caps = await lane.locator('[data-capacity]').evaluateAll((els) => els.map((e) => Number(e.dataset.capacity)));
  expect(caps.length).toBe(3);
  expect(caps.reduce((a, b) => a + b)).toBeLessThan(24 + 64 + 24);
  await expect(page.getByTestId('compare-lane-aligned').locator('[data-capacity]')).toHaveCount(0);
  const rows = await page.getByTestId('compare-table').locator('tbody tr').evaluateAll((trs) => Object.fromEntries(
    trs.map((tr) => [tr.dataset.mode, { duration: Number(tr.dataset.durationP50), size: Number(tr.dataset.sizeP50) }])));
  expect(2 * rows['aligned-debloat'].duration).toBeLessThanOrEqual(rows.aligned.duration);
  expect(rows['aligned-debloat'].size).toBe(rows.aligned.size);
  expect(rows.unaligned.size).toBeGreaterThan(rows.aligned.size);
  await page.screenshot({ path: `${sites.screenshots}/compare-slow-sink.png`, fullPage: true });
});
