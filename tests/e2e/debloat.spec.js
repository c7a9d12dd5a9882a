// Buffer debloating (issue 27) as a student meets it on `slow-sink`: the mode menu's entry, the
// lesson and "Why it matters" with the note, each channel's buffer drawn with its size, and the
// narration's sentence when a buffer is resized — each held against the engine's own account of
// the same steps (`abs-sim run` of the preset with `buffer_debloat` on).
const { execFileSync } = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const sites = require('./sites');

/** `abs-sim run` of slow-sink with buffer debloating on: one JSON object per step. */
function debloatedTrace(steps) {
  const scenario = JSON.parse(execFileSync(sites.absSim, ['preset', 'slow-sink'], { encoding: 'utf8' }));
  scenario.config.buffer_debloat = true;
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'debloat-')), 'slow-sink.json');
  fs.writeFileSync(file, JSON.stringify(scenario));
  const out = execFileSync(sites.absSim, ['run', file, '--steps', String(steps)],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const lines = out.trim().split('\n').map((l) => JSON.parse(l));
  lines.pop();
  return lines;
}

const CHANNELS = [['Src A#0', 'Merge#0'], ['Src B#0', 'Merge#0'], ['Merge#0', 'Sink#0']];

for (const lang of ['en', 'zh']) {
  test(`buffer debloating resizes the buffers the engine resizes, and says so: slow-sink, ${lang}`, async ({ page }) => {
    const app = new Playground(page);
    await app.open(`?preset=slow-sink&mode=aligned-debloat&lang=${lang}`);
    await expect(page.getByTestId('mode')).toHaveValue('aligned-debloat');
    await expect(app.lesson()).toContainText(lang === 'en' ? 'Buffer debloating is on' : '緩衝區消脹已開啟');
    // The edges' buffers to begin with: 24, 64 and 24 records.
    const capacities = async () => Promise.all(CHANNELS.map(([f, t]) => app.channel(f, t).getAttribute('data-capacity').then(Number)));
    expect(await capacities()).toEqual([24, 64, 24]);

    const trace = debloatedTrace(400);
    const resized = trace.filter((l) => l.events.some((e) => e.event === 'buffer-resized'));
    expect(resized.length).toBeGreaterThan(5);
    const first = resized[0];
    await app.stepFast(first.step, { collect: false });
    const said = (await app.sentences()).filter((s) => s.current).map((s) => s.text).join(' ');
    expect(said).toMatch(lang === 'en' ? /Buffer debloating: (Merge|Sink)#0 consumes \d+\.\d\d records\/ms/ : /緩衝區消脹：(Merge|Sink)#0 每 ms 消耗 \d+\.\d\d 筆記錄/);
    // What the engine resized, the page draws, and marks in that step.
    for (const { channel: c, capacity: n } of first.events.filter((e) => e.event === 'buffer-resized')) {
      const [from, to] = CHANNELS[c];
      await expect(app.channel(from, to)).toHaveAttribute('data-capacity', String(n));
      await expect(app.channel(from, to)).toHaveClass(/\bresized\b/);
      await expect(app.channel(from, to).locator('.slow-label')).toContainText(lang === 'en' ? `buffer ${n}` : `緩衝 ${n}`);
    }

    // Later, every channel's size is the engine's after the same step.
    const last = resized[resized.length - 1];
    await app.stepFast(last.step - first.step);
    const sizes = [24, 64, 24];
    for (const l of trace.filter((x) => x.step <= last.step)) {
      for (const e of l.events.filter((x) => x.event === 'buffer-resized')) sizes[e.channel] = e.capacity;
    }
    expect(await capacities()).toEqual(sizes);
    expect(sizes.reduce((a, b) => a + b)).toBeLessThan(112);

    // "Why it matters": the preset's aligned text, then the note on debloating.
    await app.testId('theory-toggle').click();
    await expect(app.testId('theory-debloat')).toContainText(lang === 'en' ? 'sizes each input\'s buffer to hold 20 ms' : '能放 20 ms 的輸入');
    await app.screenshot(`debloat-${lang}`);
  });
}

test('the mode menu turns buffer debloating on and off, and the link says which', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=slow-sink&lang=en');
  await expect(app.channel('Src A#0', 'Merge#0')).not.toHaveAttribute('data-capacity', /.*/);
  await app.setMode('aligned-debloat');
  await expect(page).toHaveURL(/mode=aligned-debloat/);
  await expect(app.channel('Src A#0', 'Merge#0')).toHaveAttribute('data-capacity', '24');
  await expect(app.lesson()).toContainText('Buffer debloating is on');
  await app.setMode('aligned');
  await expect(page).toHaveURL(/mode=aligned(&|$)/);
  await expect(app.channel('Src A#0', 'Merge#0')).not.toHaveAttribute('data-capacity', /.*/);
  await expect(app.lesson()).not.toContainText('Buffer debloating is on');
});
