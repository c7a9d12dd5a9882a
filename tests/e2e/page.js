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

  async stepCount() {
    const text = await this.testId('step-counter').textContent();
    const m = text.match(/(\d+)/);
    return m ? Number(m[1]) : NaN;
  }

  async step(times = 1) {
    for (let i = 0; i < times; i++) await this.testId('step').click();
  }

  async screenshot(name) {
    await this.page.screenshot({ path: `../../target/screenshots/${name}.png` });
  }
}

module.exports = { Playground };
