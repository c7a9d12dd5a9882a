// Benchmark: the large preset (200 subtasks, thousands of items in flight) auto-played for
// 5 s in headless Chromium. Prints p95 frame time (requestAnimationFrame deltas), main-thread
// busy % (CDP TaskDuration over wall time), items in flight, and the default page's first
// contentful paint (the loading line), its largest contentful paint, and when the app itself
// was rendered. Frames are counted from the moment Play is pressed (the first second
// included) as well as in the steady state after 3 s.
// Targets (issue 11): busy ≤ 10 % on large at 1×, no frame over 33 ms after Play, the default
// page's largest contentful paint ≤ 200 ms — medians of several runs on a 2-CPU machine.
const { test, expect } = require('@playwright/test');
const { Playground } = require('./page');

const SECONDS = Number(process.env.BENCH_SECONDS || 5);

/** Starts recording animation-frame intervals; the returned function stops and returns them. */
async function recordFrames(page) {
  const id = await page.evaluate(() => {
    const rec = { frames: [], stop: false };
    (window.__recordings ||= []).push(rec);
    let last = performance.now();
    const loop = (t) => {
      rec.frames.push(t - last);
      last = t;
      if (!rec.stop) requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
    return window.__recordings.length - 1;
  });
  return () => page.evaluate((i) => {
    const rec = window.__recordings[i];
    rec.stop = true;
    return rec.frames.slice(1);
  }, id);
}

/** The largest contentful paint so far (ms), or null. */
function largestPaint(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const all = list.getEntries();
          resolve(all.length ? all[all.length - 1].startTime : null);
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve(null), 2000);
      }),
  );
}

async function taskDuration(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration').value;
}

test('benchmark: first contentful paint of the default page', async ({ page }) => {
  // When the app itself (not the loading line) is first in the page.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (document.querySelector('[data-testid="step-counter"]')) {
        window.__appAt = performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  });
  const app = new Playground(page);
  await app.open();
  // The paint entry is reported after the frame is presented, which can be after the page
  // shows the step counter: observe (buffered) instead of reading the list once.
  const fcp = await page.evaluate(
    () =>
      new Promise((resolve) => {
        new PerformanceObserver((list) => {
          const e = list.getEntriesByName('first-contentful-paint')[0];
          if (e) resolve(e.startTime);
        }).observe({ type: 'paint', buffered: true });
        setTimeout(() => resolve(null), 5000);
      }),
  );
  // The largest contentful paint so far: the page is drawn (the app's lesson or graph).
  await page.waitForTimeout(500);
  const lcp = await largestPaint(page);
  const appAt = await page.evaluate(() => window.__appAt ?? null);
  const ms = (v) => (v === null ? 'n/a' : v.toFixed(1));
  console.log(`BENCH fcp_ms=${ms(fcp)} lcp_ms=${ms(lcp)} app_rendered_ms=${ms(appAt)}`);
  expect(fcp).not.toBeNull();
});

// Issue 25: `large` (200 subtasks, 40 channels a subtask on its hash edge) drawn — its largest
// contentful paint — within 300 ms of navigation.
test('benchmark: largest contentful paint of the large preset', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=large');
  await page.waitForTimeout(500);
  const lcp = await largestPaint(page);
  console.log(`BENCH large_lcp_ms=${lcp === null ? 'n/a' : lcp.toFixed(1)} (issue 25's target: ≤ 300)`);
  expect(lcp).not.toBeNull();
});

test(`benchmark: the large preset played for ${SECONDS} s`, async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=large');
  const speed = process.env.BENCH_SPEED_EXP;
  if (speed) await app.testId('speed').fill(speed);
  // Frames from the moment Play is pressed: the first second included.
  const stopStart = await recordFrames(page);
  await app.togglePlay();
  // Warm up: play until items fill the channels.
  await page.waitForTimeout(3000);
  const startFrames = await stopStart();
  const startMax = Math.max(...startFrames);
  const startOver33 = startFrames.filter((f) => f > 33).length;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const stopSteady = await recordFrames(page);
  const busy0 = await taskDuration(cdp);
  const wall0 = Date.now();
  const step0 = await app.stepCount();
  await page.waitForTimeout(SECONDS * 1000);
  const busy1 = await taskDuration(cdp);
  const wall1 = Date.now();
  const step1 = await app.stepCount();
  const frames = await stopSteady();
  // Timestamps are precise only in a cross-origin isolated page (perf.config.js serves one).
  const isolated = await page.evaluate(() => window.crossOriginIsolated);
  await app.togglePlay();
  const inFlight = Number(await app.testId('dataflow').getAttribute('data-items'));
  frames.sort((a, b) => a - b);
  const p = (q) => frames[Math.min(frames.length - 1, Math.floor(q * frames.length))];
  const busy = (100 * (busy1 - busy0)) / ((wall1 - wall0) / 1000);
  const long = frames.filter((f) => f > 25).length;
  console.log(`BENCH frames=${frames.length} p50_ms=${p(0.5).toFixed(2)} p95_ms=${p(0.95).toFixed(2)} max_ms=${frames[frames.length - 1].toFixed(1)} frames_over_25ms=${long} isolated=${isolated}`);
  console.log(`BENCH main_thread_busy_pct=${busy.toFixed(1)} steps=${step1 - step0} items_in_flight=${inFlight}`);
  console.log(`BENCH after_play: frames=${startFrames.length} max_ms=${startMax.toFixed(1)} frames_over_33ms=${startOver33} (first 3 s); steady: frames_over_33ms=${frames.filter((f) => f > 33).length}`);
  await app.screenshot('bench-large');
});

// Issue 25's targets, on `huge` (1,024 subtasks, 131,328 channels, drawn bundled): drawn —
// the bands in the page — within 1 s of navigation, its largest contentful paint; played at
// 1× with the main thread ≤ 10 % busy and no frame over 50 ms after the first second; after
// 100,000 steps (through the host API) the wasm memory ≤ 64 MB and stepping back ≤ 50 ms.
test('benchmark: the huge preset — drawn, played at 1×, 100,000 steps, step back', async ({ page }) => {
  test.setTimeout(300_000);
  const app = new Playground(page);
  const t0 = Date.now();
  await app.open('?preset=huge');
  await app.testId('bundle-2').waitFor();
  const drawn = Date.now() - t0;
  const lcp = await largestPaint(page);
  const bands = await page.evaluate(() => performance.now());
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  await app.togglePlay();
  await page.waitForTimeout(1000);
  const stop = await recordFrames(page);
  const busy0 = await taskDuration(cdp);
  const wall0 = Date.now();
  await page.waitForTimeout(SECONDS * 1000);
  const busy = (100 * ((await taskDuration(cdp)) - busy0)) / ((Date.now() - wall0) / 1000);
  const frames = (await stop()).sort((a, b) => a - b);
  await app.togglePlay();
  const started = Date.now();
  for (let done = await app.stepCount(); done < 100_000; done = await app.stepCount()) {
    await page.evaluate((n) => window.postMessage({ type: 'abs:step', count: n }, '*'), Math.min(25_000, 100_000 - done));
    await expect.poll(() => app.stepCount(), { timeout: 120_000 }).toBeGreaterThan(done);
  }
  const pace = Math.round(100_000 / ((Date.now() - started) / 1000));
  const wasm = await app.wasmMemory();
  const backs = await app.timedStepBacks(5);
  backs.sort((a, b) => a - b);
  console.log(`BENCH huge drawn_ms=${drawn} lcp_ms=${lcp === null ? 'n/a' : lcp.toFixed(1)} page_time_at_bands_ms=${bands.toFixed(0)}`);
  console.log(`BENCH huge 1x: main_thread_busy_pct=${busy.toFixed(1)} frames=${frames.length} max_ms=${frames.at(-1).toFixed(1)} frames_over_50ms=${frames.filter((f) => f > 50).length} (after the first second)`);
  console.log(`BENCH huge 100000 steps: ${pace} steps/s through abs:step, wasm_mb=${(wasm / 1e6).toFixed(1)}, step_back_median_ms=${backs[2].toFixed(1)} max_ms=${backs.at(-1).toFixed(1)}`);
  await app.screenshot('bench-huge');
});
