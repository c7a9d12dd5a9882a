// Unaligned checkpoints (or the aligned timeout) with more than one checkpoint at once is a job
// Flink refuses to start ("maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints
// enabled"). The page never runs it one at a time instead: the mode menu lists those entries
// disabled for the `concurrent` preset (three at once), and a link that asks for them shows the
// preset in its own mode with a notice that gives Flink's reason, in both languages.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

const FLINK = "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled";

test('a link to a job Flink refuses shows the preset aligned, with Flink\'s reason', async ({ page }) => {
  const app = new Playground(page);
  for (const [mode, lang, says] of [
    ['unaligned', 'en', 'Flink refuses to start this job: max_concurrent_checkpoints is 3'],
    ['aligned-timeout', 'en', 'Flink refuses to start this job: max_concurrent_checkpoints is 3'],
    ['unaligned', 'zh', 'Flink 拒絕啟動這個作業：max_concurrent_checkpoints 是 3'],
  ]) {
    await app.open(`?preset=concurrent&mode=${mode}&lang=${lang}`);
    await expect(app.testId('preset')).toHaveValue('concurrent');
    await expect(app.testId('mode')).toHaveValue('aligned');
    const notice = app.testId('notice');
    await expect(notice).toHaveCount(1);
    await expect(notice).toContainText(says);
    await expect(notice).toContainText(FLINK);
    // The address says what is shown.
    await expect(page).toHaveURL(/preset=concurrent&mode=aligned/);
  }
});

test('the mode menu lists what Flink refuses, disabled, and offers the rest', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=concurrent');
  const option = (value) => app.testId('mode').locator(`option[value="${value}"]`);
  for (const refused of ['unaligned', 'aligned-timeout']) {
    await expect(option(refused)).toBeDisabled();
  }
  for (const offered of ['aligned', 'at-least-once', 'aligned-debloat', 'chandy-lamport', 'synchronous']) {
    await expect(option(offered)).toBeEnabled();
  }
  // A preset with one checkpoint at a time offers unaligned.
  await app.open('?preset=alignment');
  await expect(option('unaligned')).toBeEnabled();
  await expect(option('aligned-timeout')).toBeEnabled();
  await expect(app.testId('notice')).toHaveCount(0);
});
