// At every size the README promises (issue 22). On a phone (390×844) a student can read the
// whole open global state above the sticky controls and narration, and the graph's text is
// 11 px or more on screen (the stage scrolls sideways and says so); the embedded view fits
// every preset from 480×360 up without a sideways scroll, its inspector usable there; and the
// word "blocked" covers nothing of another input.
const { execFileSync } = require('child_process');
const fs = require('fs');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const sites = require('./sites');

if (!fs.existsSync(sites.absSim)) {
  throw new Error(`no abs-sim at ${sites.absSim}: build it with cargo build --release --bin abs-sim (or set ABS_SIM)`);
}
const sim = (args) => execFileSync(sites.absSim, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });

/** Every preset, as `abs-sim preset` lists them. */
const PRESETS = sim(['preset']).trim().split('\n').map((l) => l.split(/\s+/)[0]);

/** The step at which a preset's first checkpoint (or snapshot) completes, by abs-sim. */
function firstCompleted(preset) {
  const lines = sim(['run', '--preset', preset, '--steps', '20000']).split('\n');
  const at = lines.findIndex((l) => l.includes('"event":"checkpoint-completed"'));
  if (at < 0) throw new Error(`${preset}: no checkpoint completes within 20,000 steps`);
  return JSON.parse(lines[at]).step;
}

const PHONE = { width: 390, height: 844 };

/** Where the open global state's last row is, and the sticky bottom (controls, narration). */
async function lastRowAndBottom(page) {
  return page.evaluate(() => {
    const rows = document.querySelectorAll('[data-testid="global-state"] tbody tr');
    const box = (e) => { const r = e.getBoundingClientRect(); return { top: r.top, bottom: r.bottom }; };
    return { rows: rows.length, row: box(rows[rows.length - 1]), bottom: box(document.querySelector('.bottom')) };
  });
}

for (const preset of PRESETS) {
  test(`phone 390×844, ${preset}: the open global state's last row scrolls into view above the sticky controls`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(PHONE);
    const app = new Playground(page);
    await app.open(`?preset=${preset}&step=${firstCompleted(preset)}`);
    await app.openCheckpoint(1);
    await expect(app.globalState()).toHaveAttribute('data-checkpoint', '1');

    // Scrolled to the end of the page, as a finger does.
    await page.evaluate(() => window.scrollTo(0, document.scrollingElement.scrollHeight));
    let at = await lastRowAndBottom(page);
    expect(at.rows).toBeGreaterThan(0);
    expect(at.row.top, 'the last row is on screen').toBeGreaterThanOrEqual(0);
    expect(at.row.bottom, 'the last row is above the sticky bottom').toBeLessThanOrEqual(at.bottom.top + 0.5);

    // Brought into view from the top of the page, as the keyboard or a script does.
    await page.evaluate(() => window.scrollTo(0, 0));
    await app.globalState().locator('tbody tr').last().evaluate((tr) => tr.scrollIntoView({ block: 'nearest' }));
    at = await lastRowAndBottom(page);
    expect(at.row.top).toBeGreaterThanOrEqual(0);
    expect(at.row.bottom, 'scrolled into view, the last row is above the sticky bottom').toBeLessThanOrEqual(at.bottom.top + 0.5);
    if (preset === 'alignment') await app.screenshot('fit-phone-global-state');
  });
}

/** Every text of the graph with what it says, its class and its size on screen (px). */
const graphTextSizes = (page) => page.locator('[data-testid="dataflow"] svg.graph').evaluate((svg) => {
  const scale = svg.getScreenCTM().a; // screen px per layout unit
  return [...svg.querySelectorAll('text')]
    .filter((t) => t.textContent.trim() !== '')
    .map((t) => ({
      text: t.textContent,
      cls: t.getAttribute('class') || t.parentElement.getAttribute('class'),
      px: parseFloat(getComputedStyle(t).fontSize) * scale,
    }));
});

// The large benchmark (200 subtasks, not in the students' list of scenarios) keeps its compact
// drawing fitted to the width on a phone: an overview with no state lines, whose 8-unit names
// at 11 px would make a graph about 1,900 px wide to swipe across.
for (const preset of PRESETS.filter((p) => p !== 'large')) {
  test(`phone 390×844, ${preset}: the graph's text is 11 px or more on screen, and the stage scrolls sideways to the rest`, async ({ page }) => {
    await page.setViewportSize(PHONE);
    const app = new Playground(page);
    const done = firstCompleted(preset);
    const steps = preset === 'wordcount' ? [238] : [];
    steps.push(Math.max(1, done - 8), done);
    const classes = new Set();
    for (const step of steps) {
      await app.open(`?preset=${preset}&step=${step}`);
      const sizes = await graphTextSizes(page);
      expect(sizes.length).toBeGreaterThan(4);
      expect(sizes.filter((s) => s.px < 11), `text under 11 px at step ${step}`).toEqual([]);
      sizes.forEach((s) => classes.add(s.cls));
    }
    // Operators' kinds are the graph's smallest text but two (the slow channel's line, a
    // held barrier's number), which the wordcount and alignment runs show.
    expect([...classes]).toContain('op-kind');
    if (preset === 'wordcount') expect([...classes]).toContain('blocked-label');
    if (preset === 'alignment') expect([...classes]).toContain('slow-label');

    // The graph is wider than the phone: the stage scrolls sideways and says so.
    const stage = app.testId('dataflow');
    const sideways = await stage.evaluate((s) => ({ scroll: s.scrollWidth, width: s.clientWidth }));
    expect(sideways.scroll).toBeGreaterThan(sideways.width);
    await expect(app.testId('pan-hint')).toBeVisible();
    expect(await page.evaluate(() => document.scrollingElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    // The items' canvas lies over the graph it belongs to, wherever the stage is scrolled.
    const over = () => page.evaluate(() => {
      const r = (sel) => document.querySelector(sel).getBoundingClientRect();
      const svg = r('[data-testid="dataflow"] svg.graph');
      const canvas = r('[data-testid="dataflow"] canvas.items');
      return Math.max(Math.abs(svg.left - canvas.left), Math.abs(svg.right - canvas.right),
        Math.abs(svg.top - canvas.top), Math.abs(svg.bottom - canvas.bottom));
    });
    expect(await over()).toBeLessThanOrEqual(1.5);
    // Swiped to the far end, the last subtask drawn is there to read and to click.
    await stage.evaluate((s) => { s.scrollLeft = s.scrollWidth; });
    const names = await app.subtaskNames();
    const id = names[names.length - 1];
    const subtask = app.subtask(id.slice(0, id.lastIndexOf('#')), id.slice(id.lastIndexOf('#') + 1));
    // As the page names it ("Sink#0"; a process without "#0").
    const last = (await subtask.getAttribute('aria-label')).split(':')[0];
    const box = await subtask.locator('.box').boundingBox();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect(await over()).toBeLessThanOrEqual(1.5);
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    await app.testId('tab-details').click();
    await expect(page.locator('.inspector .details h3').first()).toContainText(last);
    if (preset === 'wordcount') await app.screenshot('fit-phone-wordcount-swiped');
  });
}

/** The embedded view's sizes checked, from the smallest the README promises up. */
const EMBED_SIZES = [[480, 360], [520, 400], [600, 400], [640, 480], [800, 450], [1024, 640]];

/** How far the page, or any of the named parts, reaches past the right edge of the frame. */
const overflow = (page) => page.evaluate(() => {
  const parts = ['[data-testid="open-full"]', '[data-testid="embed-inspector"]', '[data-testid="reset"]',
    '[data-testid="step-counter"]', '[data-testid="narration"]', '[data-testid="dataflow"]', '.side'];
  const out = { page: document.scrollingElement.scrollWidth - innerWidth };
  for (const sel of parts) {
    const e = document.querySelector(sel);
    if (e && e.getClientRects().length) out[sel] = e.getBoundingClientRect().right - innerWidth;
  }
  return out;
});

for (const preset of PRESETS) {
  test(`embedded ${preset}: no sideways scroll at any size from 480×360 up, and the inspector is usable at 480×360`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 480, height: 360 });
    const app = new Playground(page);
    const step = preset === 'alignment' ? 47 : firstCompleted(preset);
    await app.open(`?embed&preset=${preset}&step=${step}`);
    for (const [w, h] of EMBED_SIZES) {
      await page.setViewportSize({ width: w, height: h });
      const o = await overflow(page);
      for (const [what, by] of Object.entries(o)) expect(by, `${what} at ${w}×${h}`).toBeLessThanOrEqual(0.5);
      await expect(app.testId('reset')).toBeVisible();
    }
    await page.setViewportSize({ width: 480, height: 360 });
    if (preset === 'alignment') await app.screenshot('fit-embed-480x360-alignment');

    // The inspector, a button away: its tabs on top, then the chosen tab's content.
    await app.testId('embed-inspector').click();
    await expect(app.testId('dataflow')).toBeHidden();
    const tabs = await app.testId('tab-checkpoints').boundingBox();
    const bottom = await page.locator('.bottom').boundingBox();
    expect(tabs.y + tabs.height).toBeLessThanOrEqual(bottom.y);
    await app.testId('tab-checkpoints').click();
    await app.testId('checkpoint-row-1').click();
    await expect(app.globalState()).toHaveAttribute('data-checkpoint', '1');
    // The side panel (not the page) scrolls to the verdict and to the global state's last
    // row, each shown between its top and the controls.
    const side = await page.locator('.side').boundingBox();
    await app.testId('verdict').scrollIntoViewIfNeeded();
    const verdict = await app.testId('verdict').boundingBox();
    expect(verdict.y).toBeGreaterThanOrEqual(side.y - 0.5);
    expect(verdict.y + verdict.height).toBeLessThanOrEqual(bottom.y + 0.5);
    await app.globalState().locator('tbody tr').last().evaluate((tr) => tr.scrollIntoView({ block: 'nearest' }));
    const at = await lastRowAndBottom(page);
    expect(at.row.top).toBeGreaterThanOrEqual(side.y - 0.5);
    expect(at.row.bottom).toBeLessThanOrEqual(at.bottom.top + 0.5);
    const o = await overflow(page);
    for (const [what, by] of Object.entries(o)) expect(by, `${what}, inspector open`).toBeLessThanOrEqual(0.5);
    if (preset === 'alignment') await app.screenshot('fit-embed-480x360-inspector');
  });
}

// Rectangles on screen: do two overlap?
const overlap = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;

test('the word "blocked" of a two-input operator covers nothing: not the other input\'s barrier and records, no text, box or line', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=wordcount&step=238');
  // Count#0's second input (from Split#1) is blocked; its first still has barrier 2 and
  // records queued at the port.
  expect(await app.isBlocked('Split#1', 'Count#0')).toBe(true);
  expect(await app.isBlocked('Split#0', 'Count#0')).toBe(false);
  expect(await app.queued('Split#0', 'Count#0')).toBeGreaterThan(0);
  const label = app.channel('Split#1', 'Count#0').locator('.blocked-label');
  await expect(label).toBeVisible();
  await page.waitForTimeout(300); // let the items' canvas paint
  const hits = await label.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const inside = (x, y) => x > box.left && x < box.right && y > box.top && y < box.bottom;
    const out = [];
    const svg = el.ownerSVGElement;
    for (const e of svg.querySelectorAll('text, .subtask .box, .lock, .tray, .held, .acked, .tick')) {
      if (e !== el) {
        const r = e.getBoundingClientRect();
        if (r.width && r.left < box.right && box.left < r.right && r.top < box.bottom && box.top < r.bottom) {
          out.push(`${e.getAttribute('class')}: ${e.textContent.trim()}`);
        }
      }
    }
    // Every channel's line, point by point.
    for (const p of svg.querySelectorAll('.channel path.line')) {
      const m = p.getScreenCTM();
      const len = p.getTotalLength();
      for (let i = 0; i <= 400; i++) {
        const q = p.getPointAtLength((len * i) / 400);
        if (inside(q.x * m.a + q.y * m.c + m.e, q.x * m.b + q.y * m.d + m.f)) {
          out.push(`line of ${p.parentElement.getAttribute('data-testid')}`);
          break;
        }
      }
    }
    // The items painted on the canvas, pixel by pixel.
    const c = document.querySelector('[data-testid="dataflow"] canvas.items');
    const cr = c.getBoundingClientRect();
    const { data, width, height } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    const sx = cr.width / c.width;
    const sy = cr.height / c.height;
    let painted = 0;
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        if (data[(y * width + x) * 4 + 3] >= 128 && inside(cr.left + (x + 0.5) * sx, cr.top + (y + 0.5) * sy)) painted++;
      }
    }
    if (painted) out.push(`${painted} painted pixels of items`);
    return { out, box: { left: box.left, right: box.right, top: box.top, bottom: box.bottom } };
  });
  expect(hits.out).toEqual([]);
  // It still names its own input: beside that input's port, under its tail.
  const port = await app.channel('Split#1', 'Count#0').locator('.lock').boundingBox();
  expect(hits.box.top).toBeGreaterThan(port.y);
  expect(hits.box.top - (port.y + port.height)).toBeLessThan(12);
  expect(overlap(hits.box, { left: port.x - 60, right: port.x + 20, top: port.y - 20, bottom: port.y + 40 })).toBe(true);
  await app.screenshot('fit-blocked-label');
});

// No graph text under 9 px anywhere (issue 49): an embed, the desktop at 1024×640, a compare
// lane, the lesson page on a phone. Where the stage cannot fit the graph at that size it
// scrolls, says so, and keeps the items' canvas over the graph.
const MIN_TEXT = 9;
const readableCheck = async (page, where) => {
  await page.waitForTimeout(200); // a frame for the animation loop to mark a scrolling stage
  const stages = page.locator('[data-testid="dataflow"]');
  const n = await stages.count();
  expect(n, `${where}: a graph is drawn`).toBeGreaterThan(0);
  let pans = 0;
  for (let i = 0; i < n; i++) {
    const stage = stages.nth(i);
    const sizes = await stage.locator('svg.graph').evaluate((svg) => {
      const scale = svg.getScreenCTM().a;
      return [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '' && t.getClientRects().length)
        .map((t) => ({ text: t.textContent, cls: t.getAttribute('class'), px: parseFloat(getComputedStyle(t).fontSize) * scale }));
    });
    expect(sizes.length, `${where}: the graph has text`).toBeGreaterThan(2);
    expect(sizes.filter((s) => s.px < MIN_TEXT - 0.05), `${where}: text under ${MIN_TEXT} px`).toEqual([]);
    const box = await stage.evaluate((s) => ({ sw: s.scrollWidth, cw: s.clientWidth, sh: s.scrollHeight, ch: s.clientHeight }));
    const scrolls = box.sw > box.cw + 1 || box.sh > box.ch + 1;
    const hint = stage.locator('xpath=following-sibling::p[@data-testid="pan-hint"][1]');
    if (scrolls) {
      pans++;
      await expect(hint, `${where}: a stage that scrolls says so`).toBeVisible();
    } else {
      await expect(hint, `${where}: a stage that fits says nothing`).toBeHidden();
    }
  }
  expect(await page.evaluate(() => document.scrollingElement.scrollWidth - innerWidth), `${where}: no sideways scroll of the page`).toBeLessThanOrEqual(0.5);
  return pans;
};

for (const preset of PRESETS) {
  test(`${preset}: no graph text under ${MIN_TEXT} px embedded at 480×360 nor at 1024×640`, async ({ page }) => {
    test.setTimeout(120_000);
    const app = new Playground(page);
    await page.setViewportSize({ width: 480, height: 360 });
    await app.open(`?embed&preset=${preset}&step=30`);
    const pans = await readableCheck(page, `embed ${preset}`);
    if (preset === 'wordcount') {
      expect(pans, 'the word count does not fit 480×360 at 9 px: it scrolls').toBe(1);
      await app.screenshot('fit-embed-480x360-wordcount-readable');
    }
    await page.setViewportSize({ width: 1024, height: 640 });
    await readableCheck(page, `1024×640 ${preset}`);
  });
}

test(`compare lanes and the lesson page on a phone: no graph text under ${MIN_TEXT} px`, async ({ page }) => {
  test.setTimeout(120_000);
  const app = new Playground(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('index.html?compare=aligned,unaligned,at-least-once&preset=wordcount');
  await expect(page.locator('[data-testid="dataflow"]')).toHaveCount(3);
  expect(await readableCheck(page, 'compare wordcount')).toBe(3);
  await app.screenshot('fit-compare-lanes-readable');
  await page.setViewportSize(PHONE);
  await page.goto('index.html?lesson=alignment');
  await expect(page.locator('[data-testid="dataflow"]')).toHaveCount(1);
  await readableCheck(page, 'lesson on a phone');
  await app.screenshot('fit-lesson-phone-readable');
});
