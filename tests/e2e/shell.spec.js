const { test, expect } = require('@playwright/test');
const { Playground } = require('./page');

test('the app shell renders the engine and steps it', async ({ page }) => {
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const app = new Playground(page);
  await app.open();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('ABS Playground');
  await expect(app.testId('operator-Merge')).toBeVisible();
  expect(await app.stepCount()).toBe(0);
  await app.step(3);
  expect(await app.stepCount()).toBe(3);
  await app.screenshot('shell');
  expect(errors).toEqual([]);
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
