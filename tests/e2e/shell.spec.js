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
  // The static page (the shell and the loading line) is gone once the app is mounted.
  await expect(page.locator('.boot')).toHaveCount(0);
  expect(await app.stepCount()).toBe(0);
  await app.step(3);
  expect(await app.stepCount()).toBe(3);
  await app.screenshot('shell');
});

// Hold the wasm back until `release()` is called.
async function holdWasm(page) {
  let release;
  const held = new Promise((r) => { release = r; });
  await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
  return () => release();
}

const squash = (text) => text.replace(/\s+/g, ' ').trim();

test('before the WebAssembly arrives, the default page is drawn: the app\'s header and lesson, where the app puts them', async ({ page }) => {
  const release = await holdWasm(page);
  await page.goto('index.html');
  const shell = page.locator('.shell');
  await expect(shell).toBeVisible();
  await expect(shell.getByRole('heading', { level: 1 })).toHaveText('ABS Playground');
  await expect(shell).toContainText('Loading the simulation');
  await expect(page.locator('.boot-line')).toBeHidden();
  const drawn = {
    lesson: squash(await shell.locator('.lesson').textContent()),
    tagline: squash(await shell.locator('.tagline').textContent()),
    box: await shell.locator('.lesson').boundingBox(),
  };
  release();
  await expect(page.getByTestId('step-counter')).toBeVisible();
  await expect(shell).toHaveCount(0);
  // The static text is the app's own (index.html is written by hand: this is what keeps it
  // true), and the app's lesson takes the shell's place and size, so nothing jumps and the
  // largest paint of the page stays the first one.
  const app = page.locator('.app');
  expect(drawn.lesson).toBe(squash(await app.getByTestId('lesson').textContent()));
  expect(drawn.tagline).toBe(squash(await app.locator('.tagline').textContent()));
  expect(await app.getByTestId('lesson').boundingBox()).toEqual(drawn.box);
});

test('the lesson keeps its place and size when the app takes over, at tablet and phone width too', async ({ page }) => {
  for (const width of [1024, 800, 390, 360]) {
    await page.setViewportSize({ width, height: 800 });
    const release = await holdWasm(page);
    await page.goto('index.html');
    const shell = page.locator('.shell');
    const drawn = {
      lesson: await shell.locator('.lesson').boundingBox(),
      header: await shell.locator('.header').boundingBox(),
      // The header's invisible stand-ins carry the app's own words, so they wrap as the app's do.
      menus: await shell.locator('.header label > span:not(.menu-box)').allTextContents(),
      buttons: await shell.locator('.header button').allTextContents(),
    };
    release();
    await expect(page.getByTestId('step-counter')).toBeVisible();
    const app = page.locator('.app');
    // Below 1024 px the header wraps its menus onto more rows; the shell's stand-ins wrap the
    // same way, so the lesson neither moves nor changes size.
    expect(await app.getByTestId('lesson').boundingBox(), `lesson at width ${width}`).toEqual(drawn.lesson);
    expect(await app.locator('.header').boundingBox(), `header at width ${width}`).toEqual(drawn.header);
    expect(drawn.menus).toEqual(await app.locator('.header label > span:not(.sr-only)').allTextContents());
    expect(drawn.buttons).toEqual(await app.locator('.header button').allTextContents());
    await page.unroute('**/*.wasm');
  }
});

test('any other page waits with the plain loading line, never the default lesson', async ({ browser }) => {
  const cases = [
    { query: '?preset=wordcount' },
    { query: '?preset=alignment&mode=unaligned' },
    { query: '?lang=zh-Hant' },
    { query: '?embed' },
    { query: '?scenario=abc' },
    { query: '', locale: 'zh-TW' },
  ];
  for (const { query, locale } of cases) {
    const context = await browser.newContext({ locale, baseURL: `http://127.0.0.1:${sites.port}/` });
    const page = await context.newPage();
    await page.route('**/*.wasm', (route) => route.abort());
    await page.goto(`index.html${query}`);
    const what = `${query} ${locale ?? ''}`;
    await expect(page.locator('.boot-line'), what).toBeVisible();
    await expect(page.locator('.boot-line'), what).toContainText('ABS Playground');
    await expect(page.locator('.shell'), what).toBeHidden();
    await context.close();
  }
  // The default page's own address, as the app rewrites it, keeps the drawn lesson.
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${sites.port}/` });
  const page = await context.newPage();
  await page.route('**/*.wasm', (route) => route.abort());
  await page.goto('index.html?preset=alignment&mode=aligned&lang=en&step=12');
  await expect(page.locator('.shell .lesson')).toBeVisible();
  await context.close();
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
  // The page loaded its script and its wasm from under the sub-path; its style is inside the
  // page (index.html inlines it, so the first paint waits for no second request) and applies.
  for (const kind of [/\.js$/, /\.wasm$/]) {
    expect(requests.some((u) => kind.test(new URL(u).pathname)), String(kind)).toBe(true);
  }
  expect(await page.locator('.app').evaluate((el) => getComputedStyle(el).display)).toBe('grid');
});
