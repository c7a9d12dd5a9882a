// One page object for every spec: selectors live here only.
const path = require('path');
const { expect } = require('@playwright/test');
const sites = require('./sites');

class Playground {
  constructor(page, base = '') {
    this.page = page;
    this.base = base;
  }

  async open(query = '') {
    await this.page.goto(`${this.base}index.html${query}`);
    await expect(this.page.getByTestId('step-counter')).toBeVisible();
    // The first picture (index.html's shell: the app's own markup, without test ids) is hidden
    // once the app is in and removed two frames later; until then a class selector such as
    // `.app .tagline` finds both (words.spec.js failed so once, in a clean make test).
    await expect(this.page.locator('body > .boot')).toHaveCount(0);
  }

  testId(id) {
    return this.page.getByTestId(id);
  }

  // ----- reading -----

  async stepCount() {
    const text = await this.testId('step-counter').textContent();
    const m = text.match(/(\d+)/);
    return m ? Number(m[1]) : NaN;
  }

  /** The engine's virtual time as the controls show it ("t = 42"). */
  async clock() {
    const text = await this.page.locator('.controls .clock').textContent();
    const m = text.match(/(\d+)/);
    return m ? Number(m[1]) : NaN;
  }

  /** The scenario's title and lesson line above the dataflow, once its text is there (a
   * lesson in another mode than aligned is fetched: the line is busy until it arrives). */
  lesson() {
    return this.page.locator('[data-testid="lesson"]:not([aria-busy="true"])');
  }

  /** The names of the subtasks drawn, as the page names them: ["Src A#0", "Merge#0", …]. */
  async subtaskNames() {
    return this.page.locator('[data-testid^="subtask-"]').evaluateAll((els) => els.map((e) => {
      const id = e.getAttribute('data-testid').slice('subtask-'.length); // "Src A-0"
      const dash = id.lastIndexOf('-');
      return `${id.slice(0, dash)}#${id.slice(dash + 1)}`;
    }));
  }

  /** The names of the operators drawn, e.g. ["Src A", "Merge", …]. */
  async operatorNames() {
    return this.page.locator('[data-testid^="operator-"]').evaluateAll((els) =>
      els.map((e) => e.getAttribute('data-testid').slice('operator-'.length)));
  }

  operator(name) {
    return this.testId(`operator-${name}`);
  }

  subtask(name, index) {
    return this.testId(`subtask-${name}-${index}`);
  }

  /** The mark a subtask shows once it has acknowledged the running checkpoint. */
  ackBadge(name, index) {
    return this.subtask(name, index).locator('.acked');
  }

  channel(from, to) {
    return this.testId(`channel-${from}-${to}`);
  }

  /** The lock drawn at a blocked channel's input port. */
  lock(from, to) {
    return this.channel(from, to).locator('.lock');
  }

  buffer(from, to) {
    return this.testId(`buffer-${from}-${to}`);
  }

  heldItems(from, to) {
    return this.buffer(from, to).locator(':scope > *');
  }

  checkpoint(n) {
    return this.testId(`checkpoint-${n}`);
  }

  narration() {
    return this.testId('narration');
  }

  /** The sentences of the step the run is at. */
  currentSentences() {
    return this.narration().locator('.sentence.current');
  }

  /** Every sentence the narration shows, newest first: its step, ①–④ marker and text. */
  async sentences() {
    return this.narration().locator('.sentence').evaluateAll((els) => els.map((e) => ({
      step: Number(e.getAttribute('data-step')),
      current: e.classList.contains('current'),
      marker: e.querySelector('.marker').textContent,
      text: e.querySelector('.text').textContent,
    })));
  }

  globalState() {
    return this.testId('global-state');
  }

  /** The coordinator's checkpoints, newest first: id, status and "acked/total". */
  async coordinatorCheckpoints() {
    return this.page.locator('.coordinator button.checkpoint[data-testid^="checkpoint-"]').evaluateAll((els) => els.map((e) => ({
      id: Number(e.getAttribute('data-testid').slice('checkpoint-'.length)),
      status: e.getAttribute('data-status'),
      acked: e.querySelector('.progress').getAttribute('aria-valuenow'),
      total: e.querySelector('.progress').getAttribute('aria-valuemax'),
    })));
  }

  /** The inspector's checkpoints table. */
  checkpointTable() {
    return this.page.locator('.inspector .checkpoints-tab table.figures');
  }

  /** The column headings of the inspector's checkpoints table, in order. */
  async checkpointTableHeads() {
    return this.checkpointTable().locator('thead th').evaluateAll((ths) => ths.map((th) => th.textContent.trim()));
  }

  /**
   * The inspector's checkpoints table (each cell's text by column heading, and the row's
   * status) — the figures Flink's web UI shows.
   */
  async checkpointFigures() {
    return this.checkpointTable().evaluate((t) => {
      const heads = [...t.querySelectorAll('thead th')].map((th) => th.textContent.trim());
      return [...t.querySelectorAll('tbody tr')].map((tr) => {
        const row = { status: tr.getAttribute('data-status') };
        [...tr.children].forEach((c, i) => { row[heads[i]] = c.textContent.trim(); });
        return row;
      });
    });
  }

  /**
   * The open global state, read as text: its checkpoint, verdict, the figures list (label →
   * value, in order), the task-state rows and the channel-state rows (each cell by column
   * heading) and the task-state table's headings.
   */
  async readGlobalState() {
    return this.globalState().evaluate((g) => {
      const heads = (id) => [...g.querySelectorAll(`[data-testid="${id}"] thead th`)].map((th) => th.textContent.trim());
      const table = (id) => {
        const t = g.querySelector(`[data-testid="${id}"]`);
        const heads = [...t.querySelectorAll('thead th')].map((th) => th.textContent.trim());
        return [...t.querySelectorAll('tbody tr')].map((tr) => {
          const row = {};
          [...tr.children].forEach((c, i) => { row[heads[i]] = c.textContent.trim(); });
          return row;
        });
      };
      const figures = {};
      const dl = g.querySelector('dl.figures-list');
      for (const dt of dl.querySelectorAll('dt')) {
        figures[dt.textContent.trim()] = dt.nextElementSibling.textContent.trim();
      }
      return {
        checkpoint: Number(g.getAttribute('data-checkpoint')),
        verdict: g.querySelector('[data-testid="verdict"]').textContent.trim(),
        figures,
        tasks: table('task-states'),
        taskHeads: heads('task-states'),
        subtaskStats: table('subtask-stats'),
        channels: table('channel-states'),
      };
    });
  }

  /**
   * What the page shows of the run, as plain data, to compare two visits of the same step:
   * the counter and clock, the narration, every channel, subtask and checkpoint, and the
   * held items at every input port.
   */
  async fingerprint() {
    return this.page.evaluate(() => {
      const attrs = (sel, names) => [...document.querySelectorAll(sel)].map((e) =>
        [e.getAttribute('data-testid'), ...names.map((n) => e.getAttribute(n))].join(' '));
      const texts = (sel) => [...document.querySelectorAll(sel)].map((e) => e.textContent);
      return {
        counter: document.querySelector('[data-testid="step-counter"]').textContent,
        clock: document.querySelector('.controls .clock').textContent,
        narration: [...document.querySelectorAll('[data-testid="narration"] .sentence')].map((e) =>
          `${e.getAttribute('data-step')}${e.classList.contains('current') ? '*' : ''} ${e.textContent}`),
        channels: attrs('[data-testid^="channel-"]', ['data-blocked', 'data-queue']),
        buffers: [...document.querySelectorAll('[data-testid^="buffer-"]')].map((e) =>
          `${e.getAttribute('data-testid')} ${e.children.length}`),
        subtasks: attrs('[data-testid^="subtask-"]', ['data-status']),
        subtaskText: texts('[data-testid^="subtask-"]'),
        checkpoints: texts('.coordinator [data-testid^="checkpoint-"]'),
      };
    });
  }

  /** A checkpoint's status, or null before it exists. */
  async checkpointStatus(n) {
    const c = this.checkpoint(n);
    return (await c.count()) ? c.getAttribute('data-status') : null;
  }

  async isBlocked(from, to) {
    return (await this.channel(from, to).getAttribute('data-blocked')) === 'true';
  }

  async queued(from, to) {
    return Number(await this.channel(from, to).getAttribute('data-queue'));
  }

  /**
   * Where items are painted on the canvas: the centres (page coordinates) of the clusters of
   * painted pixels, so a test can see that moving items are drawn and click one.
   */
  async paintedItems() {
    return this.page.locator('canvas.items').evaluate((c) => {
      const { data, width, height } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
      const cell = 8; // device pixels; a record dot is smaller
      const cells = new Map();
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          if (data[(y * width + x) * 4 + 3] < 128) continue;
          const key = `${Math.floor(x / cell)},${Math.floor(y / cell)}`;
          const e = cells.get(key) || { x: 0, y: 0, n: 0 };
          e.x += x; e.y += y; e.n += 1;
          cells.set(key, e);
        }
      }
      const r = c.getBoundingClientRect();
      const sx = r.width / c.width, sy = r.height / c.height;
      return [...cells.values()].map((e) => ({
        x: r.left + (e.x / e.n + 0.5) * sx,
        y: r.top + (e.y / e.n + 0.5) * sy,
        pixels: e.n,
      }));
    });
  }

  // ----- doing -----

  async step(times = 1) {
    for (let i = 0; i < times; i++) await this.testId('step').click();
  }

  /**
   * Clicks Step `times` times from inside the page, each time waiting until the counter has
   * moved on: the same clicks as step(), without a round trip per click. With `collect`, also
   * returns each step's narration (its current sentences), in order.
   */
  async stepFast(times, { collect = false } = {}) {
    return this.page.evaluate(async ({ times, collect }) => {
      const q = (sel) => document.querySelector(sel);
      const count = () => Number(q('[data-testid="step-counter"]').textContent.match(/\d+/)[0]);
      const steps = [];
      for (let i = 0; i < times; i++) {
        const before = count();
        q('[data-testid="step"]').click();
        for (let spins = 0; count() === before; spins++) {
          if (spins > 2000) throw new Error(`step ${before + 1} did not happen`);
          await new Promise((r) => setTimeout(r, 0));
        }
        if (collect) {
          steps.push({
            step: count(),
            sentences: [...document.querySelectorAll('[data-testid="narration"] .sentence.current')]
              .map((e) => ({
                marker: e.querySelector('.marker').textContent,
                text: e.querySelector('.text').textContent,
              }))
              .reverse(), // the list is newest first; a step's sentences in the order they happened
          });
        }
      }
      return steps;
    }, { times, collect });
  }

  async stepBack(times = 1) {
    for (let i = 0; i < times; i++) await this.testId('step-back').click();
  }

  /** Steps back `times` times, each timed from the click to the counter showing the step
   * before (ms). */
  async timedStepBacks(times) {
    const backs = [];
    for (let i = 0; i < times; i++) {
      backs.push(await this.page.evaluate(async () => {
        const counter = () => document.querySelector('[data-testid="step-counter"]').textContent;
        const before = counter();
        const t0 = performance.now();
        document.querySelector('[data-testid="step-back"]').click();
        while (counter() === before) await new Promise((r) => setTimeout(r, 0));
        return performance.now() - t0;
      }));
    }
    return backs;
  }

  /** The running build's wasm memory in bytes (init returns the instance's exports once it
   * is running). */
  async wasmMemory() {
    return this.page.evaluate(async () => (await (await import(window.absBuild.js)).default()).memory.buffer.byteLength);
  }

  /** Steps until `done()` holds; fails after `max` steps. Returns the steps taken. */
  async stepUntil(done, max = 200) {
    for (let i = 0; i < max; i++) {
      if (await done()) return i;
      await this.step();
    }
    throw new Error(`condition not met within ${max} steps`);
  }

  async togglePlay() {
    await this.testId('play').click();
  }

  async setLang(code) {
    await this.testId('lang').selectOption(code);
  }

  async setMode(mode) {
    await this.testId('mode').selectOption(mode);
  }

  async setPreset(name) {
    await this.testId('preset').selectOption(name);
  }

  async toggleManual() {
    await this.testId('manual-mode').click();
  }

  async triggerCheckpoint() {
    await this.testId('trigger-checkpoint').click();
  }

  /** Opens checkpoint n's global state: from the coordinator's card, or, for an older one
   * the coordinator no longer lists, from the inspector's Checkpoints tab. */
  async openCheckpoint(n) {
    if (await this.checkpoint(n).count()) {
      await this.checkpoint(n).click();
      return;
    }
    await this.testId('tab-checkpoints').click();
    await this.testId(`checkpoint-row-${n}`).click();
  }

  /** Clicks a channel on its drawn path (half-way along), as a student would. */
  async clickChannel(from, to) {
    const hit = this.channel(from, to).locator('path.hit');
    const at = await hit.evaluate((p) => {
      const q = p.getPointAtLength(p.getTotalLength() * 0.5);
      const m = p.getScreenCTM();
      return { x: q.x * m.a + q.y * m.c + m.e, y: q.x * m.b + q.y * m.d + m.f };
    });
    await this.page.mouse.click(at.x, at.y);
  }

  /**
   * Selects a channel by clicking along its drawn path, as a student does where it is not
   * hidden behind a subtask or another channel: tries points from the middle outwards until the
   * inspector shows that channel.
   */
  async selectChannel(from, to) {
    const hit = this.channel(from, to).locator('path.hit');
    for (const f of [0.5, 0.35, 0.65, 0.2, 0.8, 0.1, 0.9]) {
      const at = await hit.evaluate((p, f) => {
        const q = p.getPointAtLength(p.getTotalLength() * f);
        const m = p.getScreenCTM();
        return { x: q.x * m.a + q.y * m.c + m.e, y: q.x * m.b + q.y * m.d + m.f };
      }, f);
      await this.page.mouse.click(at.x, at.y);
      // A click that missed leaves no heading: try the next point rather than wait for one.
      const title = await this.page.locator('.inspector .details h3').first().textContent({ timeout: 2000 }).catch(() => '');
      // The heading names the channel as people read it: FROM→TO.
      if (title.endsWith(` ${from}→${to}`)) return;
    }
    throw new Error(`channel ${from}-${to} could not be clicked anywhere along its path`);
  }

  /** The speed control's label, such as "1×". */
  speedLabel() {
    return this.testId('speed').locator('xpath=following-sibling::output');
  }

  async screenshot(name) {
    await this.page.waitForTimeout(300); // let the eased item positions settle
    await this.page.screenshot({ path: path.join(sites.screenshots, `${name}.png`) });
  }
}

/**
 * A course page embedding the player: one `<iframe id="p">` at `query` (the page's address
 * after `index.html`), `width`×`height`, and every message the player posts collected in
 * `window.got`. Returns the frame.
 */
async function hostPage(page, query, width = 640, height = 400) {
  await page.setContent(`<iframe id="p" src="http://127.0.0.1:${sites.port}/index.html${query}" width="${width}" height="${height}" style="border:0"></iframe>`);
  await page.evaluate(() => {
    window.got = [];
    window.addEventListener('message', (e) => window.got.push(e.data));
  });
  return page.frameLocator('#p');
}

module.exports = { Playground, hostPage };
