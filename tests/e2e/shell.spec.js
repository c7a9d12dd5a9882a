// The app shell: it mounts and steps, it says what it is before the wasm arrives, and the
// release build works from a sub-path.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const sites = require('./sites');

test('the app shell renders the engine and steps it', async ({ page }) => {
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
  // The sub-path copy is served by a server whose root holds nothing else (see
  // playwright.config.js), so an asset linked from the server's root is not found; and every
  // request must stay under the sub-path anyway.
  const requests = [];
  const failed = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('requestfailed', (r) => failed.push(r.url()));
  page.on('response', (r) => { if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`); });
  const app = new Playground(page, sites.subpathUrl);
  await app.open();
  await expect(app.operator('Merge')).toBeVisible();
  await app.step(1);
  expect(await app.stepCount()).toBe(1);
  expect(failed).toEqual([]);
  const outside = requests
    .filter((u) => /^https?:/.test(u))
    .filter((u) => !new URL(u).pathname.startsWith(sites.SUB_PATH));
  expect(outside).toEqual([]);
  // The page loaded its script, its wasm and its style from under the sub-path.
  for (const kind of [/\.js$/, /\.wasm$/, /\.css$/]) {
    expect(requests.some((u) => kind.test(new URL(u).pathname)), String(kind)).toBe(true);
  }
});
