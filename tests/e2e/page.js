// One page object for every spec: selectors live here only.
const { expect } = require('@playwright/test');

class Playground {
  constructor(page, base = '') {
    this.page = page;
    this.base = base;
  }

  async open(query = '') {
    await this.page.goto(`${this.base}index.html${query}`);
    await expect(this.page.getByTestId('step-counter')).toBeVisible();
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

  operator(name) {
    return this.testId(`operator-${name}`);
  }

  subtask(name, index) {
    return this.testId(`subtask-${name}-${index}`);
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

  globalState() {
    return this.testId('global-state');
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

  async stepBack(times = 1) {
    for (let i = 0; i < times; i++) await this.testId('step-back').click();
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

  async openCheckpoint(n) {
    await this.checkpoint(n).click();
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

  /** The speed control's label, such as "1×". */
  speedLabel() {
    return this.testId('speed').locator('xpath=following-sibling::output');
  }

  async screenshot(name) {
    await this.page.waitForTimeout(300); // let the eased item positions settle
    await this.page.screenshot({ path: `../../target/screenshots/${name}.png` });
  }
}

module.exports = { Playground };
