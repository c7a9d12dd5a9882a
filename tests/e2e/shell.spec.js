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
  await expect(page.locator('.boot-status')).toContainText('Loading the simulation');
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
  const app = page.locator('#app > .app');
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
    const app = page.locator('#app > .app');
    // Below 1024 px the header wraps its menus onto more rows; the shell's stand-ins wrap the
    // same way, so the lesson neither moves nor changes size.
    expect(await app.getByTestId('lesson').boundingBox(), `lesson at width ${width}`).toEqual(drawn.lesson);
    expect(await app.locator('.header').boundingBox(), `header at width ${width}`).toEqual(drawn.header);
    expect(drawn.menus).toEqual(await app.locator('.header label > span:not(.sr-only)').allTextContents());
    expect(drawn.buttons).toEqual(await app.locator('.header button').allTextContents());
    await page.unroute('**/*.wasm');
  }
});

test('every other page a link opens draws its own first picture before the WebAssembly arrives, and it is the app\'s', async ({ browser }) => {
  const cases = [
    { query: '?preset=wordcount', preset: 'wordcount', mode: 'aligned' },
    { query: '?preset=alignment&mode=unaligned&step=40', preset: 'alignment', mode: 'unaligned' },
    { query: '?lang=zh-Hant', preset: 'alignment', mode: 'aligned', lang: 'zh' },
    { query: '?preset=bank&lang=zh-Hans', preset: 'bank', mode: 'chandy-lamport', lang: 'zh-Hans' },
    { query: '', locale: 'zh-TW', preset: 'alignment', mode: 'aligned', lang: 'zh' },
    // A mode the preset does not run: the picture is the page's, with its notice.
    { query: '?preset=token&mode=unaligned', preset: 'token', mode: 'chandy-lamport', notice: true },
    // The second player's job of real size.
    { query: '?preset=huge', preset: 'huge', mode: 'aligned' },
  ];
  for (const { query, locale, preset, mode, lang, notice } of cases) {
    const what = `${query} ${locale ?? ''}`;
    const context = await browser.newContext({ locale, baseURL: `http://127.0.0.1:${sites.port}/` });
    const page = await context.newPage();
    let release;
    const held = new Promise((r) => { release = r; });
    await page.route('**/*.wasm', async (route) => { await held; await route.continue(); });
    await page.goto(`index.html${query}`);
    const shell = page.locator('.shell');
    await expect(shell.locator('svg.graph'), what).toBeVisible();
    await expect(page.locator('.boot-line'), what).toBeHidden();
    await expect(page.locator('.boot-status'), what).toContainText(lang ? /载入|載入/ : 'Loading the simulation');
    // A picture: nothing in it answers, and nothing in it is found as the app is.
    expect(await shell.evaluate((s) => s.inert), what).toBe(true);
    expect(await shell.locator('[data-testid], [id]').count(), what).toBe(0);
    expect(await shell.locator('select').nth(0).inputValue(), what).toBe(preset);
    expect(await shell.locator('select').nth(1).inputValue(), what).toBe(mode);
    if (notice) await expect(shell.locator('.notice').first(), what).toBeVisible();
    const drawn = {
      lesson: squash(await shell.locator('.lesson').first().textContent()),
      graph: await shell.locator('svg.graph').boundingBox(),
      subtasks: await shell.locator('svg.graph .subtask').count(),
    };
    release();
    await expect(page.getByTestId('step-counter'), what).toBeVisible();
    await expect(page.locator('.boot'), what).toHaveCount(0);
    const app = page.locator('#app > .app');
    // The app draws what the picture showed, where it showed it (`huge` is drawn bundled).
    // (A lesson in another mode than aligned arrives a moment later: the picture has it.)
    await expect(app.getByTestId('lesson'), what).toHaveText(drawn.lesson);
    expect(await app.locator('svg.graph').first().boundingBox(), what).toEqual(drawn.graph);
    expect(await app.locator('svg.graph .subtask').count(), what).toBe(drawn.subtasks);
    expect(await page.getByTestId('preset').inputValue(), what).toBe(preset);
    await context.close();
  }
});

test('a page without a picture waits with the plain loading line, never the default lesson', async ({ browser }) => {
  for (const query of ['?embed', '?scenario=abc', '?preset=nonsense', '?preset=wordcount&mode=nonsense', '?view=flink']) {
    const context = await browser.newContext({ baseURL: `http://127.0.0.1:${sites.port}/` });
    const page = await context.newPage();
    const asked = [];
    page.on('request', (r) => asked.push(new URL(r.url()).pathname));
    await page.route('**/*.wasm', () => {});
    await page.goto(`index.html${query}`);
    await expect(page.locator('.boot-line'), query).toBeVisible();
    await expect(page.locator('.boot-line'), query).toContainText('ABS Playground');
    await expect(page.locator('.boot-status'), query).toContainText('Loading the simulation');
    await expect(page.locator('.shell'), query).toBeHidden();
    expect(asked.filter((p) => p.includes('/boot/')), query).toEqual([]);
    await context.close();
  }
  // The default page's own address, as the app rewrites it, keeps the drawn lesson.
  const context = await browser.newContext({ baseURL: `http://127.0.0.1:${sites.port}/` });
  const page = await context.newPage();
  await page.route('**/*.wasm', () => {});
  await page.goto('index.html?preset=alignment&mode=aligned&lang=en&step=12');
  await expect(page.locator('.shell .lesson')).toBeVisible();
  await context.close();
});

test.describe('a download that fails', () => {
  // The aborted request, as the browser logs it.
  test.use({ expectedErrors: [/Failed to load resource/] });

  test('says so in the page\'s language, and Try again loads the page', async ({ page }) => {
    let refused = 0;
    await page.route('**/*.wasm', (route) => (refused++ < 1 ? route.abort() : route.continue()));
    await page.goto('index.html?preset=recovery&lang=zh-Hans');
    const status = page.locator('.boot-status');
    await expect(status).toHaveAttribute('role', 'alert');
    await expect(status).toContainText('无法下载模拟');
    await expect(page.getByTestId('crash')).toHaveCount(0);
    // The button is where the keyboard is.
    await expect(page.getByTestId('boot-retry')).toBeFocused();
    await expect(page.getByTestId('boot-retry')).toHaveText('再试一次');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('step-counter')).toBeVisible();
    await expect(status).toHaveCount(0);
    expect(refused).toBe(2);
    await expect(page.getByTestId('crash')).toHaveCount(0);
    await page.getByTestId('step').click();
    await expect(page.getByTestId('step-counter')).toContainText('1');
  });

  test('a missing file names its status', async ({ page }) => {
    await page.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    await page.goto('index.html?preset=wordcount');
    await expect(page.locator('.boot-status')).toContainText('could not be downloaded');
    await expect(page.locator('.boot-status')).toContainText('HTTP 404');
    await expect(page.getByTestId('crash')).toHaveCount(0);
  });
});

test('the bar follows the download', async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  // About 2 s for the student's build.
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: 400 * 1024, uploadThroughput: 400 * 1024 });
  await page.addInitScript(() => {
    window.__seen = [];
    new MutationObserver((changes) => {
      for (const c of changes) if (c.target.localName === 'progress') window.__seen.push(c.target.value);
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ['value'] });
  });
  await page.goto('index.html?preset=wordcount');
  await expect(page.getByTestId('step-counter')).toBeVisible({ timeout: 30_000 });
  const seen = await page.evaluate(() => window.__seen);
  const between = [...new Set(seen.filter((v) => v > 0 && v < 1))];
  // It moves through the download, never backwards, and ends full.
  expect(between.length).toBeGreaterThan(3);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect(Math.max(...seen)).toBe(1);
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
  expect(await page.locator('#app > .app').evaluate((el) => getComputedStyle(el).display)).toBe('grid');
});
