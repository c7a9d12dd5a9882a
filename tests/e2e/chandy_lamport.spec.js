// Chandy-Lamport on the page: the seed's one-token system with its four global states drawn
// live, markers drawn as diamonds, snapshots started from a chosen process, and the bank whose
// money stops adding up once its channels are not FIFO. What the page shows is held against
// `abs-sim run` of the same scenario (see trace.js).
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const { runSim } = require('./trace');
const { execFileSync } = require('child_process');
const sites = require('./sites');

const PLACES = ['at-p', 'in-p-q', 'at-q', 'in-q-p'];

/** The four global states of a snapshot's `global_state`, as the diagram names them. */
function placeOf(gs) {
  const where = [
    gs.tasks.p.token,
    gs.channels['p->q'].includes('token'),
    gs.tasks.q.token,
    gs.channels['q->p'].includes('token'),
  ];
  expect(where.filter(Boolean).length, JSON.stringify(gs)).toBe(1);
  return PLACES[where.indexOf(true)];
}

/** The diagram's nodes: state, current, captured. */
async function diagram(app) {
  return app.page.locator('[data-testid="global-state-diagram"] > *').evaluateAll((els) =>
    els.map((e) => ({
      state: e.getAttribute('data-state'),
      current: e.getAttribute('data-current') === 'true',
      captured: e.getAttribute('data-captured') === 'true',
    })));
}

test('the token diagram lights where the token is and marks the state each snapshot captured', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=token');
  const nodes = await diagram(app);
  expect(nodes.map((n) => n.state)).toEqual(PLACES);
  // Before any snapshot: p holds the token, nothing is captured.
  expect(nodes.filter((n) => n.current).map((n) => n.state)).toEqual(['at-p']);
  expect(nodes.some((n) => n.captured)).toBe(false);

  const trace = runSim('token', 'chandy-lamport', 400);
  const completedAt = new Map(); // snapshot id → the step it completed at
  for (const line of trace.steps) {
    for (const e of line.events) {
      if (e.event === 'checkpoint-completed') completedAt.set(e.checkpoint, line.step);
    }
  }
  const seen = new Set();
  let at = 0;
  for (const cp of trace.summary.checkpoints.filter((c) => c.global_state).slice(0, 24)) {
    const step = completedAt.get(cp.id);
    await app.stepFast(step - at);
    at = step;
    const expected = placeOf(cp.global_state);
    const now = await diagram(app);
    expect(now.filter((n) => n.captured).map((n) => n.state), `snapshot ${cp.id} at step ${step}`)
      .toEqual([expected]);
    expect(now.filter((n) => n.current).length, `step ${step}`).toBe(1);
    seen.add(expected);
  }
  // Snapshots initiated by p and by q in turn capture every one of the four states.
  expect([...seen].sort()).toEqual([...PLACES].sort());
});

test('markers are drawn as diamonds in their snapshot\'s colour', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=token');
  // Step 1: p initiates snapshot 1 and sends its marker on p→q.
  await app.step(1);
  await expect(app.page.getByTestId('checkpoint-1')).toBeVisible();
  const colour = await app.page.getByTestId('checkpoint-1').locator('.swatch').evaluate((e) => getComputedStyle(e).backgroundColor);
  await app.page.waitForTimeout(400);
  const box = await app.page.locator('canvas.items').evaluate((c, colour) => {
    const [r, g, b] = colour.match(/\d+/g).map(Number);
    const { data, width, height } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    // The longest run of the snapshot's colour along any row of the canvas.
    let widest = 0;
    for (let y = 0; y < height; y++) {
      let run = 0;
      for (let x = 0; x < width; x++) {
        const i = (y * width + x) * 4;
        const same = data[i + 3] > 200 && Math.abs(data[i] - r) < 8 && Math.abs(data[i + 1] - g) < 8 && Math.abs(data[i + 2] - b) < 8;
        run = same ? run + 1 : 0;
        widest = Math.max(widest, run);
      }
    }
    return { widest };
  }, colour);
  // A barrier is a thin bar (4 px wide, its label narrower still); a marker is a diamond as
  // wide as a bar is tall.
  expect(box.widest, JSON.stringify(box)).toBeGreaterThan(10);
  // The legend names the diamond.
  await expect(app.page.locator('.legend .glyph.marker')).toHaveCount(1);
  await expect(app.page.locator('.legend .glyph.barrier')).toHaveCount(0);
});

test('a selected process starts a snapshot; the ABS modes cannot run the token system', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=token');
  await expect(app.testId('trigger-checkpoint')).toHaveText('Start snapshot');
  await app.subtask('q', 0).click();
  await expect(app.testId('trigger-checkpoint')).toHaveText('Start snapshot at q');
  await app.triggerCheckpoint();
  const told = (await app.sentences()).map((s) => s.text).join('\n');
  expect(told).toMatch(/q initiates snapshot 1/);
  await expect(app.checkpoint(1)).toHaveAttribute('data-status', 'in-progress');
  // The barrier modes need sources: listed, but not choosable, for this system.
  for (const mode of ['aligned', 'at-least-once', 'unaligned']) {
    await expect(app.testId('mode').locator(`option[value="${mode}"]`)).toBeDisabled();
  }
  // A link asking for one gets a notice and the system's own mode.
  await app.open('?preset=token&mode=aligned');
  await expect(app.testId('notice')).toBeVisible();
  await expect(app.testId('mode')).toHaveValue('chandy-lamport');
});

test('a link to a mode the system cannot run draws the system asked for, and says the mode is not available for it', async ({ page }) => {
  const app = new Playground(page);
  for (const [preset, mode, title, processes] of [
    ['token', 'aligned-timeout', 'Chandy-Lamport: one token, two processes', ['p', 'q']],
    ['bank', 'unaligned', 'Chandy-Lamport: a bank', ['A', 'B', 'C']],
  ]) {
    await app.open(`?preset=${preset}&mode=${mode}`);
    await expect(app.testId('preset')).toHaveValue(preset);
    await expect(app.testId('mode')).toHaveValue('chandy-lamport');
    expect((await app.operatorNames()).sort()).toEqual(processes);
    await expect(app.lesson()).toContainText(title);
    const notice = app.testId('notice');
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText('is not available for this scenario');
    await expect(notice).toContainText(`“${title}”`);
    await expect(notice).not.toContainText('does not exist');
    // The address says what is shown.
    await expect(page).toHaveURL(new RegExp(`preset=${preset}&mode=chandy-lamport`));
  }
  // A mode that exists nowhere is still one that does not exist.
  await app.open('?preset=token&mode=sideways');
  await expect(app.testId('notice')).toContainText('does not exist');
  await expect(app.testId('mode')).toHaveValue('chandy-lamport');
});

test('with its channels made non-FIFO, the bank loses or doubles money and the verdict points at the transfer', async ({ page }) => {
  // Making every channel non-FIFO before the first step runs exactly as `--non-fifo` does.
  const out = execFileSync(sites.absSim, ['run', '--preset', 'bank', '--mode', 'chandy-lamport', '--steps', '1500', '--non-fifo'],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  const summary = lines.pop().summary;
  const bad = summary.checkpoints.find((c) => c.verdict && c.verdict.inconsistent);
  expect(bad, 'a non-FIFO bank run has an inconsistent snapshot').toBeTruthy();
  const step = lines.find((l) => l.events.some((e) => e.event === 'checkpoint-completed' && e.checkpoint === bad.id)).step;

  const app = new Playground(page);
  await app.open('?preset=bank');
  const pairs = [['A', 'B'], ['A', 'C'], ['B', 'A'], ['B', 'C'], ['C', 'A'], ['C', 'B']];
  for (const [from, to] of pairs) {
    await app.selectChannel(from, to);
    const toggle = app.testId('fifo-toggle');
    await expect(toggle).toBeChecked();
    await toggle.uncheck();
    await expect(toggle).not.toBeChecked();
  }
  const told = (await app.sentences()).map((s) => s.text).join('\n');
  expect(told).toMatch(/is no longer FIFO/);
  // The six switches were actions: the engine's step counter counts them.
  await app.stepFast(step - (await app.stepCount()) + pairs.length);
  await app.openCheckpoint(bad.id);
  const verdict = app.testId('verdict');
  await expect(verdict).toHaveClass(/bad/);
  const c = bad.verdict.inconsistent.conservation;
  await expect(app.testId('conservation')).toContainText(`$${c.found}`);
  await expect(app.testId('conservation')).toContainText(`$${c.expected}`);
  const crossings = app.testId('crossings').locator('li');
  await expect(crossings.first()).toBeVisible();
  // The first transfer the engine names, with its amount, channel and what went wrong.
  const first = bad.verdict.inconsistent.crossings[0];
  const [from, to] = first.channel.split('->');
  const what = { orphan: 'counted twice', 'recorded-after-cut': 'counted twice', lost: 'lost' }[first.kind];
  await expect(crossings.first()).toContainText(`$${first.record.amount} on ${from}→${to}`);
  await expect(crossings.first()).toContainText(what);
});

for (const lang of ['en', 'zh-Hant']) {
  test(`the Chandy-Lamport presets at 1024×640, ${lang}`, async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 640 });
    const app = new Playground(page);
    for (const preset of ['token', 'bank']) {
      await app.open(`?preset=${preset}&lang=${lang}`);
      await app.stepFast(60);
      await app.openCheckpoint(1);
      await expect(app.testId('verdict')).toHaveClass(/ok/);
      if (preset === 'token') await expect(app.page.locator('[data-testid="global-state-diagram"] [data-captured="true"]')).toHaveCount(1);
      await app.screenshot(`chandy-lamport-${preset}-${lang}-1024`);
    }
  });
}
