const { test, expect } = require('@playwright/test');
const { Playground } = require('./page');

test('the app shell renders the engine and steps it', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const app = new Playground(page);
  await app.open();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ABS Playground');
  await expect(app.testId('operator-Merge')).toBeVisible();
  // The loading line of the static page is gone once the app is mounted.
  await expect(page.locator('.boot')).toBeHidden();
  expect(await app.stepCount()).toBe(0);
  await app.step(3);
  expect(await app.stepCount()).toBe(3);
  await app.screenshot('shell');
  expect(errors).toEqual([]);
});

test('before the WebAssembly arrives, the page already says what it is', async ({ page }) => {
  // Hold the wasm back: the static page alone must show the loading line.
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  await page.goto('index.html');
  await expect(page.locator('.boot').first()).toBeVisible();
  await expect(page.locator('.boot').first()).toContainText('ABS Playground');
  release();
  await expect(page.getByTestId('step-counter')).toBeVisible();
  await expect(page.locator('.boot').first()).toBeHidden();
});

test('the release build works from a sub-path', async ({ page }) => {
  const failed = [];
  page.on('requestfailed', (r) => failed.push(r.url()));
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  const app = new Playground(page, 'course/abs-playground/');
  await app.open();
  await app.step(1);
  expect(await app.stepCount()).toBe(1);
  expect(failed).toEqual([]);
});
