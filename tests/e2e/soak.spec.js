// Soak (issue 26): a long run on `wordcount` and `large`, SOAK_EVENTS events each (1,000,000
// by default, the figure, as `make test` runs it: about half a minute). The page's
// fastest autoplay (8×) plays `wordcount` at about 60 events a second, so the bulk of the run
// is driven through the host API's `abs:step` (the same steps the scheduler takes when
// playing); then it autoplays at the fastest speed for a few seconds and steps back from the
// end. It checks what must hold on any machine — the wasm memory and the JS heap reach a
// plateau, the page still plays and steps back — and prints the figures that are timings
// (frames, step back): those are reported, not asserted (the machines are shared).
//
// What keeps the memory flat (engine/history.rs, engine/coordinator.rs): the history keeps 32
// keyframes however long the run, the coordinator a bounded checkpoint history, the timeline
// at most 512 marks (ui/run.rs); `large` retains one global state (Flink's default), since each keyframe holds
// the retained ones.
//
// Why a million: the memory climbs until the keyframes, spread over the whole run, lie further
// apart than the retained checkpoints — until then neighbouring keyframes share global states
// (wordcount keeps 16, a checkpoint every ~180 steps: flat from ~120,000 steps; large keeps 1,
// a checkpoint every ~10,500 steps: flat from ~340,000). The plateau is checked over the run's
// second half, so that half must begin past both. At 200,000 events the check sampled
// wordcount still climbing (4.19 → 4.65 MB, 11 %, on a CI machine).
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

const EVENTS = Number(process.env.SOAK_EVENTS || 1_000_000);
const CHUNK = 20_000;

test.describe.configure({ timeout: 30 * 60_000 });

for (const preset of ['wordcount', 'large']) {
  test(`soak: ${preset}, ${EVENTS} events — memory reaches a plateau, the page still plays and steps back`, async ({ page }) => {
    const app = new Playground(page);
    await app.open(`?preset=${preset}&speed=8`);
    const cdp = await page.context().newCDPSession(page);
    // The wasm's memory, through the build's own module (init returns the instance's exports
    // once it is running).
    const memory = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return page.evaluate(async () => {
        const wasm = await (await import(window.absBuild.js)).default();
        return { wasm: wasm.memory.buffer.byteLength, js: performance.memory.usedJSHeapSize };
      });
    };
    const samples = [];
    const started = Date.now();
    for (let done = 0; done < EVENTS; done += CHUNK) {
      const before = await app.stepCount();
      await page.evaluate((n) => window.postMessage({ type: 'abs:step', count: n }, '*'), Math.min(CHUNK, EVENTS - done));
      await expect.poll(() => app.stepCount(), { timeout: 120_000 }).toBeGreaterThan(before);
      samples.push({ step: await app.stepCount(), ...(await memory()) });
    }
    // The engine's pace in this page (steps through the host API, drawing once a chunk, the
    // memory samples included): how much of a frame of autoplay the engine can take.
    const pace = Math.round(EVENTS / ((Date.now() - started) / 1000));
    const MB = (b) => (b / 1e6).toFixed(1);
    console.log(`${preset}: ${pace} events/s through abs:step; step → wasm MB / JS heap MB\n` + samples.map((s) => `  ${s.step}: ${MB(s.wasm)} / ${MB(s.js)}`).join('\n'));
    expect(samples.at(-1).step).toBeGreaterThanOrEqual(EVENTS);
    // A plateau: over the second half of the run, neither grows by more than a tenth of
    // what it was at the half-way point.
    const half = samples[Math.floor(samples.length / 2) - 1];
    const last = samples.at(-1);
    for (const k of ['wasm', 'js']) {
      expect(last[k], `${k} memory from step ${half.step} to ${last.step}`).toBeLessThanOrEqual(half[k] * 1.1);
    }

    // Autoplay at the fastest speed: frame intervals after the first second.
    const frames = await page.evaluate(async () => {
      const deltas = [];
      let last = performance.now();
      const start = last;
      await new Promise((resolve) => {
        const loop = (t) => {
          if (t - start > 1000) deltas.push(t - last);
          last = t;
          if (t - start < 5000) requestAnimationFrame(loop);
          else resolve();
        };
        requestAnimationFrame(loop);
        document.querySelector('[data-testid="play"]').click();
      });
      document.querySelector('[data-testid="play"]').click();
      return deltas;
    });
    const sorted = [...frames].sort((a, b) => a - b);
    const endStep = await app.stepCount();
    expect(endStep).toBeGreaterThan(last.step); // it played

    // Step back from the end: the time from the click to the counter showing the step before.
    const backs = await app.timedStepBacks(5);
    expect(await app.stepCount()).toBe(endStep - 5);
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log(`${preset} at step ${endStep}: ${frames.length} frames after the first second of autoplay at 8×, ` +
      `median ${median(frames).toFixed(1)} ms, p99 ${sorted[Math.floor(sorted.length * 0.99)].toFixed(1)} ms, ` +
      `max ${sorted.at(-1).toFixed(1)} ms, over 50 ms: ${frames.filter((f) => f > 50).length}; ` +
      `step back from the end: median ${median(backs).toFixed(1)} ms, max ${Math.max(...backs).toFixed(1)} ms`);
  });
}
