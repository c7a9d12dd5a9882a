// Benchmark (not a test): loading the page on a slow connection, as a student on a weak
// network meets it — 1.6 Mbit/s down, 750 kbit/s up, 150 ms round trip, the CPU 4× slower
// (Chrome's "slow 4G" with a slow phone), the cache empty. For the default page, `large` and
// `huge` (which loads the second player) it measures, from navigation:
//   first_paint   — the first contentful paint (the static header, or the loading line);
//   first_picture — the dataflow in the page: the first picture index.html shows while the
//                   wasm loads (boot/…, drawn when the site is built), or the app's own graph
//                   with its subtasks drawn, whichever comes first;
//   interactive   — Play clicked as soon as it is there, and a step shown (the step counter
//                   past 0): what a student waits for before something moves.
// Each figure is the median of BENCH_RUNS runs (default 3), each in a fresh browser context,
// printed with the runs' min and max. `npx playwright test --config load.config.js`.
const { test, expect } = require('@playwright/test');

const RUNS = Number(process.env.BENCH_RUNS || 3);
const ADDRESSES = [['default', ''], ['large', '?preset=large'], ['huge', '?preset=huge']];

/** One cold load of `query` on the slow connection: its three figures (ms). */
async function load(browser, query) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  // Marks taken in the page, on its own clock (ms from navigation).
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!window.__pictureAt && document.querySelector('[data-testid="dataflow"] svg.graph [data-testid^="subtask-"], [data-testid="dataflow"] svg.graph .cells, .boot-picture .shell svg.graph')) {
        window.__pictureAt = performance.now();
      }
      const counter = document.querySelector('[data-testid="step-counter"]');
      if (window.__playedAt && !window.__steppedAt && counter && /[1-9]/.test(counter.textContent)) {
        window.__steppedAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  await page.goto(`index.html${query}`, { waitUntil: 'commit' });
  const play = page.getByTestId('play');
  await play.waitFor({ state: 'visible', timeout: 60_000 });
  await page.evaluate(() => { window.__playedAt = performance.now(); });
  await play.click();
  await page.waitForFunction(() => window.__steppedAt, null, { timeout: 60_000, polling: 50 });
  const figures = await page.evaluate(() => ({
    first_paint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? null,
    first_picture: window.__pictureAt ?? null,
    interactive: window.__steppedAt,
  }));
  await context.close();
  return figures;
}

const median = (v) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)];

test('benchmark: loading on a slow connection (1.6 Mbit/s, 150 ms, CPU 4× slower), cold cache', async ({ browser }) => {
  test.setTimeout(RUNS * ADDRESSES.length * 70_000);
  for (const [name, query] of ADDRESSES) {
    const runs = [];
    for (let i = 0; i < RUNS; i++) runs.push(await load(browser, query));
    const parts = ['first_paint', 'first_picture', 'interactive'].map((k) => {
      const v = runs.map((r) => r[k]).filter((x) => x !== null);
      if (v.length === 0) return `${k}=n/a`;
      return `${k}_ms=${median(v).toFixed(0)} (${Math.min(...v).toFixed(0)}–${Math.max(...v).toFixed(0)})`;
    });
    console.log(`BENCH load ${name}: ${parts.join(' ')} — median of ${RUNS} cold loads`);
    expect(runs.every((r) => r.interactive > 0)).toBe(true);
  }
});
