// Stop-the-world (`mode=synchronous`, issue 27), as a student meets it: the mode in the menu,
// its lesson, the sources drawn stopped while the job drains, one sentence for the stop and one
// for the snapshot of every task, a global state with no channel state — each held against the
// engine's own account of the same steps (`abs-sim run`).
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const { runSim } = require('./trace');

const CJK = /[\u3400-\u9fff]/;

for (const lang of ['en', 'zh']) {
  test(`stop-the-world stops the sources, drains and snapshots every task at once: wordcount, ${lang}`, async ({ page }) => {
    const app = new Playground(page);
    await app.open(`?preset=wordcount&mode=synchronous&lang=${lang}`);
    await expect(page.getByTestId('mode')).toHaveValue('synchronous');
    const lesson = (await app.lesson().textContent()).trim();
    expect(lesson).toMatch(lang === 'en' ? /Stop-the-world/ : /全停/);
    expect(lesson).not.toMatch(/[①②③④]/);

    const trace = runSim('wordcount', 'synchronous', 2000);
    const at = (event, n) => trace.steps.find((l) => l.events.some((e) => e.event === event && e.checkpoint === n)).step;
    const triggered = at('checkpoint-triggered', 1);
    const completed = at('checkpoint-completed', 1);
    expect(completed).toBeGreaterThan(triggered + 1);

    // The trigger: the narration says the sources stop; every source is drawn stopped from
    // the first read that comes due, and nothing snapshots before the job has drained.
    await app.stepFast(triggered);
    const stop = (await app.sentences()).filter((s) => s.current).map((s) => s.text).join(' ');
    expect(stop).toMatch(lang === 'en' ? /stops every source/ : /所有資料來源停止讀取/);
    const sources = ['Sentences-0', 'Sentences-1'];
    for (const s of sources) {
      await expect(page.getByTestId(`subtask-${s}`)).toHaveAttribute('data-status', 'stopped');
    }
    const steps = await app.stepFast(completed - triggered - 1, { collect: true });
    for (const s of steps) {
      for (const x of s.sentences) {
        expect(x.text, `step ${s.step}`).not.toMatch(lang === 'en' ? / reads line / : / 讀取日誌第 /);
      }
    }
    for (const s of sources) {
      await expect(page.getByTestId(`subtask-${s}`)).toHaveAttribute('data-status', 'stopped');
    }
    expect(await app.checkpointStatus(1)).toBe('in-progress');

    // The stop's own step: one sentence for all seven tasks, then the completion.
    const [last] = await app.stepFast(1, { collect: true });
    expect(last.step).toBe(completed);
    const told = last.sentences.map((x) => x.text).join(' ');
    expect(told).toMatch(lang === 'en' ? /Every channel is empty: all 7 tasks snapshot/ : /通道都已清空：7 個任務同時為檢查點 1 做快照/);
    expect(last.sentences.length).toBeLessThanOrEqual(3);
    expect(await app.checkpointStatus(1)).toBe('completed');
    for (const s of sources) {
      await expect(page.getByTestId(`subtask-${s}`)).not.toHaveAttribute('data-status', 'stopped');
    }
    if (lang === 'zh') for (const x of last.sentences) expect(x.text).toMatch(CJK);

    // Its global state: consistent, no channel state, the offsets abs-sim recorded.
    await app.openCheckpoint(1);
    const gs = await app.readGlobalState();
    expect(gs.checkpoint).toBe(1);
    const recorded = gs.channels.reduce((n, row) => n + Number(Object.values(row)[1]), 0);
    expect(recorded).toBe(0);
    await expect(page.getByTestId('verdict')).toHaveClass(/\bok\b/);
    const offsets = trace.steps.find((l) => l.step === completed).events
      .filter((e) => e.event === 'snapshot' && e.offset != null).map((e) => e.offset);
    expect(offsets.length).toBe(2);
  });
}

test('by hand, a stopped source cannot read: the page says why', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&mode=synchronous&lang=en');
  await app.toggleManual();
  await app.triggerCheckpoint();
  await expect(page.getByTestId('subtask-Src A-0')).toHaveAttribute('data-status', 'stopped');
  // A stopped source is not offered to read (not pokeable); clicking it selects it instead.
  await expect(page.getByTestId('subtask-Src A-0')).not.toHaveClass(/pokeable/);
});
