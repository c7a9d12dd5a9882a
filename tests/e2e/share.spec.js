// Links to an exact moment and the share dialog: a permalink restores the step, the choices
// made by hand on the way (here a failure), the open global state and the selected subtask;
// the embed snippet is an <iframe> of the same moment with `embed`; a broken link gives a
// notice and the scenario from its start, and a huge value does not break the layout; the
// moment copies as a step of a lesson file.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const { runSim } = require('./trace');
const sites = require('./sites');

test('a permalink restores the moment: step, a failure chosen by hand, the open checkpoint and the selection', async ({ page, browser }) => {
  const app = new Playground(page);
  await app.open('?preset=recovery&mode=at-least-once');
  await app.stepFast(60);
  // A choice by hand: Split#0 fails now (the planned failure of Count#1 is still to come).
  await app.subtask('Split', 0).click();
  await app.testId('fail-task').click();
  await expect(app.subtask('Split', 0)).toHaveAttribute('data-status', 'failed');
  await app.stepFast(40);
  await app.subtask('Count', 1).click();
  await app.openCheckpoint(1);
  const before = await app.fingerprint();
  const state = await app.readGlobalState();

  await app.testId('share').click();
  const link = await app.testId('permalink').inputValue();
  expect(link).toMatch(/[?&]preset=recovery&mode=at-least-once&lang=en&seed=1&step=101/);
  expect(link).toMatch(/[?&]choices=60k2(&|$)/);
  expect(link).toMatch(/[?&]open=1(&|$)/);
  expect(link).toMatch(/[?&]sel=t%3ACount%231(&|$)/);
  expect(link).toMatch(/[?&]panel=checkpoints(&|$)/);
  const code = await app.testId('embed-code').inputValue();
  expect(code).toMatch(/^<iframe src="http[^"]*&amp;embed" title="ABS Playground"/);
  // The same moment as a step of a lesson file: a teacher pastes it, and the lesson reaches
  // exactly this moment (as `abs-sim lesson` checks it, with the lesson page's function).
  const step = JSON.parse(await app.testId('lesson-step-code').inputValue());
  expect(step).toEqual({ at: link, text: '' });
  const file = path.join(sites.site, 'from-share.json');
  fs.writeFileSync(file, JSON.stringify({ title: 'T', steps: [step] }));
  const [checked] = execFileSync(sites.absSim, ['lesson', file], { encoding: 'utf8' }).trim().split('\n').map((l) => JSON.parse(l));
  expect(checked).toMatchObject({ step: 1, position: 101 });
  expect(checked.error).toBeUndefined();
  expect(code).toContain('step=101');
  await app.screenshot('share-dialog');
  await page.keyboard.press('Escape');
  await expect(app.testId('share-dialog')).toHaveCount(0);

  // The link in a fresh page: the same moment.
  const other = await browser.newPage();
  const again = new Playground(other);
  await other.goto(link);
  await expect(again.testId('step-counter')).toContainText('101');
  const after = await again.fingerprint();
  expect(after.counter).toBe(before.counter);
  expect(after.clock).toBe(before.clock);
  expect(after.subtasks).toEqual(before.subtasks);
  expect(after.checkpoints).toEqual(before.checkpoints);
  expect(after.channels).toEqual(before.channels);
  await expect(again.subtask('Count', 1)).toHaveClass(/\bselected\b/);
  expect(await again.readGlobalState()).toEqual(state);
  await other.close();
});

test('a broken link gives a notice and the scenario from its start; a huge value does not break the layout', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=recovery&step=40&choices=12q9');
  await expect(app.testId('notice')).toContainText('could not be followed');
  await expect(app.testId('step-counter')).toContainText('0');
  await expect(app.lesson()).toContainText('Failure and recovery');

  // A choice the engine refuses (a restart while nothing failed) is broken too.
  await app.open('?preset=recovery&step=20&choices=5s');
  await expect(app.testId('notice')).toContainText('choice at step 5');
  await expect(app.testId('step-counter')).toContainText('0');

  const huge = 'x'.repeat(5000);
  await app.open(`?preset=${huge}&seed=${huge}`);
  const notices = app.testId('notice');
  await expect(notices.first()).toBeVisible();
  const width = page.viewportSize().width;
  for (const box of await notices.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().toJSON()))) {
    expect(box.right).toBeLessThanOrEqual(width + 1);
    expect(box.height).toBeLessThan(120);
  }
  const doc = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(doc).toBeLessThanOrEqual(width + 1);
  await expect(app.lesson()).toContainText('Alignment');
});

// The export's code is a build of its own (src/bin/abs-export.rs), fetched the first time a
// picture is asked for: a visit that never exports never loads it, and one that cannot load it
// is told so in the dialog, in its language, and can try again.
test.describe(() => {
  // The blocked download is logged by the browser: provoked on purpose.
  test.use({ expectedErrors: [/Failed to load resource.*abs-export-[0-9a-f]+_bg\.wasm/] });
  test('the export build is fetched only when a picture is asked for, and a failed load says why', async ({ page }) => {
    const fetched = [];
    page.on('request', (r) => { if (/abs-export-[0-9a-f]+(_bg\.wasm|\.js)$/.test(r.url())) fetched.push(r.url()); });
    let blocked = true;
    await page.route(/abs-export-[0-9a-f]+_bg\.wasm$/, (route) => (blocked ? route.abort() : route.continue()));
    const app = new Playground(page);
    await app.open('?preset=wordcount&lang=zh-Hant');
    await app.stepFast(20);
    await app.testId('share').click();
    expect(fetched).toEqual([]);
    await expect(app.testId('export-failed')).toHaveText('');
    await app.testId('export-svg').click();
    await expect(app.testId('export-failed')).toHaveText(/^無法製作檔案：\S/);
    expect(fetched.length).toBeGreaterThan(0);
    // The network is back: the next click downloads, and the line is cleared.
    blocked = false;
    const [svg] = await Promise.all([page.waitForEvent('download'), app.testId('export-svg').click()]);
    expect(svg.suggestedFilename()).toMatch(/^wordcount-step-\d+\.svg$/);
    await expect(app.testId('export-failed')).toHaveText('');
  });
});

test('the dataflow at this step downloads as SVG and as PNG, for slides', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.stepUntil(async () => (await app.heldItems('Src A#0', 'Merge#0').count()) >= 2);
  const step = await app.stepCount();
  await app.testId('share').click();
  await expect(app.testId('permalink')).toBeFocused();

  const [svg] = await Promise.all([page.waitForEvent('download'), app.testId('export-svg').click()]);
  expect(svg.suggestedFilename()).toBe(`alignment-step-${step}.svg`);
  const text = require('fs').readFileSync(await svg.path(), 'utf8');
  expect(text).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  expect(text).toContain('data-testid="subtask-Merge-0"');
  expect(text).toContain('<style>');
  expect(text).toContain('--blocked'); // the page's colours travel with it
  expect(text).toMatch(/<image [^>]*href="data:image\/png;base64,/); // the moving items
  const [, , vw, vh] = text.match(/viewBox="([^"]+)"/)[1].split(' ').map(Number);

  const [png] = await Promise.all([page.waitForEvent('download'), app.testId('export-png').click()]);
  expect(png.suggestedFilename()).toBe(`alignment-step-${step}.png`);
  const bytes = require('fs').readFileSync(await png.path());
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
  // Twice the view box, for a projector.
  expect(bytes.readUInt32BE(16)).toBe(2 * vw);
  expect(bytes.readUInt32BE(20)).toBe(2 * vh);
  // Closed, the dialog gives the focus back to the button that opened it; opened again, it
  // takes it again.
  await page.keyboard.press('Escape');
  await expect(app.testId('share-dialog')).toHaveCount(0);
  await expect(app.testId('share')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(app.testId('permalink')).toBeFocused();
});

test('the exported picture says what it shows — scenario, mode, step, time, narration, legend — and keeps its colours on a dark slide', async ({ page, browser }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&mode=unaligned');
  // A step whose narration is long enough to wrap.
  await app.stepUntil(async () => (await app.testId('narration-live').textContent()).length > 160);
  const step = await app.stepCount();
  const said = (await app.testId('narration-live').textContent()).trim();
  const legend = (await page.locator('.legend li > span').allTextContents()).map((t) => t.replace(/\s+/g, ' ').trim());
  await app.testId('share').click();
  const [svg] = await Promise.all([page.waitForEvent('download'), app.testId('export-svg').click()]);
  const file = require('fs').readFileSync(await svg.path(), 'utf8');
  // Read the file as a slide program would: on its own, in a browser whose system is dark.
  const dark = await browser.newContext({ colorScheme: 'dark' });
  const slide = await dark.newPage();
  await slide.setContent(`<!doctype html><body style="margin:0">${file}</body>`);
  const shown = await slide.evaluate(() => {
    const root = document.querySelector('body > svg');
    const heading = root.querySelector('[data-testid=export-heading]');
    const legend = root.querySelector('[data-testid=export-legend]');
    const box = (e) => e.getBBox();
    return {
      heading: [...heading.querySelectorAll('text')].map((t) => t.textContent),
      legend: [...legend.querySelectorAll(':scope > text')].map((t) => t.textContent),
      swatches: legend.querySelectorAll('svg').length,
      background: getComputedStyle(root.querySelector('.export-bg')).fill,
      headingBottom: heading.getBoundingClientRect().bottom,
      graphTop: root.querySelector('.operators').getBoundingClientRect().top,
      legendTop: legend.getBoundingClientRect().top,
      graphBottom: root.querySelector('.subtasks').getBoundingClientRect().bottom,
      width: root.viewBox.baseVal.width,
      widest: Math.max(...[...root.querySelectorAll('[data-testid^=export-] > text')].map((t) => box(t).x + box(t).width)),
    };
  });
  await dark.close();
  expect(shown.heading[0]).toBe('Alignment: two inputs, one slow channel — Unaligned');
  expect(shown.heading[1]).toMatch(new RegExp(`^Step ${step}  ·  t = \\d+ ms$`));
  // The narration, wrapped into lines no wider than the picture.
  expect(shown.heading.slice(2).join(' ')).toBe(said);
  expect(shown.widest).toBeLessThanOrEqual(shown.width);
  expect(shown.legend).toEqual(legend);
  expect(shown.swatches).toBe(legend.length);
  // Above the graph and under it, not over it.
  expect(shown.headingBottom).toBeLessThanOrEqual(shown.graphTop);
  expect(shown.legendTop).toBeGreaterThanOrEqual(shown.graphBottom);
  // The page was light: the picture stays light on a dark system.
  expect(file).not.toContain('prefers-color-scheme');
  expect(shown.background).toBe('rgb(246, 247, 249)');
});

test('a picture made on a dark page keeps the dark colours it was made with', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark', baseURL: `http://127.0.0.1:${sites.port}/` });
  const page = await context.newPage();
  const app = new Playground(page);
  await app.open('?preset=wordcount');
  await app.testId('share').click();
  const [svg] = await Promise.all([page.waitForEvent('download'), app.testId('export-svg').click()]);
  const file = require('fs').readFileSync(await svg.path(), 'utf8');
  const light = await browser.newContext({ colorScheme: 'light' });
  const slide = await light.newPage();
  await slide.setContent(`<!doctype html><body>${file}</body>`);
  expect(await slide.evaluate(() => getComputedStyle(document.querySelector('.export-bg')).fill)).toBe('rgb(22, 24, 28)');
  await light.close();
  await context.close();
});

test('the address keeps the moment once paused or stepped, in the same history entry: a reload comes back to it', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  const entries = await page.evaluate(() => history.length);
  await app.stepFast(120);
  while ((await app.checkpointStatus(1)) !== 'completed') await app.stepFast(10);
  await app.subtask('Merge', 0).click();
  await app.openCheckpoint(1);
  const step = await app.stepCount();
  await expect(page).toHaveURL(new RegExp(`[?&]step=${step}(&|$)`));
  expect(page.url()).toMatch(/[?&]preset=alignment&mode=aligned&lang=en&seed=1&/);
  expect(page.url()).toMatch(/[?&]open=1(&|$)/);
  expect(page.url()).toMatch(/[?&]sel=t%3AMerge%230(&|$)/);
  expect(page.url()).toMatch(/[?&]panel=checkpoints(&|$)/);
  // Replaced, never pushed: Back still leaves the page.
  expect(await page.evaluate(() => history.length)).toBe(entries);
  const before = await app.fingerprint();
  const state = await app.readGlobalState();

  await page.reload();
  await expect(app.testId('step-counter')).toContainText(String(step));
  const after = await app.fingerprint();
  expect(after.counter).toBe(before.counter);
  expect(after.clock).toBe(before.clock);
  expect(after.subtasks).toEqual(before.subtasks);
  expect(after.checkpoints).toEqual(before.checkpoints);
  await expect(app.subtask('Merge', 0)).toHaveClass(/\bselected\b/);
  expect(await app.readGlobalState()).toEqual(state);
  await expect(app.testId('notice')).toHaveCount(0);

  // While it plays, the address is left alone (not rewritten every frame); paused, it holds
  // the step again.
  await app.togglePlay();
  const playing = page.url();
  await expect.poll(() => app.stepCount(), { timeout: 10_000 }).toBeGreaterThan(step + 10);
  expect(page.url()).toBe(playing);
  await app.togglePlay();
  const paused = await app.stepCount();
  await expect.poll(() => new URL(page.url()).searchParams.get('step')).toBe(String(paused));
  expect(await page.evaluate(() => history.length)).toBe(entries);

  // Embedded, the page around the player owns its address: the moment is not written.
  await app.open('?embed&preset=alignment');
  await app.step(3);
  await expect(app.testId('step-counter')).toContainText('3');
  await page.waitForTimeout(200);
  expect(new URL(page.url()).searchParams.has('step')).toBe(false);
});

test('a step past the end goes to the last step there is; what a link names that is not there is ignored, each with a notice', async ({ page }) => {
  const app = new Playground(page);
  // The recovery job ends: its last step.
  await app.open('?preset=recovery&step=999999');
  const notice = app.testId('notice');
  await expect(notice).toHaveCount(1);
  const last = await app.stepCount();
  expect(last).toBeGreaterThan(100);
  await expect(notice).toContainText(`past the end of this run, which ends at step ${last}`);
  await app.step();
  expect(await app.stepCount()).toBe(last);
  await expect(app.testId('notice').last()).toContainText('Nothing is left to happen');
  await expect(page).toHaveURL(new RegExp(`[?&]step=${last}(&|$)`));

  // A step that is no number, a checkpoint that has not completed, a subtask that is not there.
  for (const [lang, quote] of [['en', ['“', '”']], ['zh', ['「', '」']]]) {
    await app.open(`?preset=wordcount&lang=${lang}&step=abc&open=7&sel=t:Nope%230`);
    const notices = app.testId('notice');
    await expect(notices).toHaveCount(3);
    const texts = await notices.allTextContents();
    for (const [i, value] of ['abc', '7', 't:Nope#0'].entries()) {
      expect(texts[i], lang).toContain(`${quote[0]}${value}${quote[1]}`);
      if (lang === 'zh') expect(texts[i].replace(value, '')).not.toMatch(/[A-Za-z]/);
    }
    expect(await app.stepCount()).toBe(0);
    await expect(page.locator('[data-testid^="subtask-"].selected')).toHaveCount(0);
  }
  await app.screenshot('link-notices-zh');
});

test('with the space-time diagram open, the export carries it under the dataflow, cuts and all', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=token');
  await app.stepFast(150);
  const download = async () => {
    await app.testId('share').click();
    const [svg] = await Promise.all([page.waitForEvent('download'), app.testId('export-svg').click()]);
    const text = require('fs').readFileSync(await svg.path(), 'utf8');
    const [png] = await Promise.all([page.waitForEvent('download'), app.testId('export-png').click()]);
    const bytes = require('fs').readFileSync(await png.path());
    await page.keyboard.press('Escape');
    const [, , vw, vh] = text.match(/viewBox="([^"]+)"/)[1].split(' ').map(Number);
    return { text, vw, vh, pngHeight: bytes.readUInt32BE(20) };
  };
  const without = await download();
  expect(without.text).not.toContain('class="st-task');
  await app.testId('spacetime-toggle').click();
  const cuts = await app.page.locator('[data-testid^="cut-"]').count();
  expect(cuts).toBeGreaterThan(0);
  const withDiagram = await download();
  // A line per process, and every cut the page draws, under the graph: the picture is taller
  // by the diagram's height, the PNG twice that.
  expect((withDiagram.text.match(/class="st-task/g) || []).length).toBe(2);
  expect((withDiagram.text.match(/data-testid="cut-\d+"/g) || []).length).toBe(cuts);
  // The legend comes under the diagram: its offset is the graph's height plus the diagram's.
  const diagram = await app.page.locator('[data-testid=spacetime] svg').evaluate((s) => s.viewBox.baseVal.height);
  const graph = await app.page.locator('[data-testid=dataflow] svg.graph').evaluate((s) => s.viewBox.baseVal.height);
  const legendAt = (text) => Number(text.match(/data-testid="export-legend"[^>]*transform="translate\(0 (\d+)\)"/)[1]);
  expect(legendAt(without.text)).toBe(graph);
  expect(legendAt(withDiagram.text)).toBe(graph + Math.round(diagram));
  expect(withDiagram.pngHeight).toBe(2 * withDiagram.vh);
});

// A global state as data: the share dialog downloads the open checkpoint's (else the latest
// completed one's) as JSON, its fields those of `abs-sim run`'s summary, made by the export
// build running the link's moment again.
test('a global state downloads as JSON: the summary abs-sim prints, and the moment a failure by hand led to', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=wordcount&mode=aligned');
  await app.stepFast(3);
  await app.testId('share').click();
  // Before a checkpoint has completed there is nothing to download.
  await expect(app.testId('export-json')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await app.stepFast(157);
  await app.openCheckpoint(1);
  await app.testId('share').click();
  await expect(app.testId('export-json')).toHaveText('Global state of checkpoint 1 · JSON');
  const [json] = await Promise.all([page.waitForEvent('download'), app.testId('export-json').click()]);
  expect(json.suggestedFilename()).toBe('wordcount-step-160-checkpoint-1.json');
  const file = JSON.parse(fs.readFileSync(await json.path(), 'utf8'));
  const { summary } = runSim('wordcount', 'aligned', 160);
  expect(file.checkpoint).toEqual(summary.checkpoints.find((c) => c.id === 1));
  expect(file).toMatchObject({ scenario: 'wordcount', mode: 'aligned', step: 160, link: await app.testId('permalink').inputValue() });
  await expect(app.testId('export-failed')).toHaveText('');
  await page.keyboard.press('Escape');

  // A failure chosen by hand: the file is the run the page shows, its tasks' states the
  // inspector's.
  await app.open('?preset=recovery&mode=at-least-once');
  await app.stepFast(60);
  await app.subtask('Split', 0).click();
  await app.testId('fail-task').click();
  await app.stepFast(140);
  // No checkpoint opened: the tab shows the latest completed one, which the file holds.
  await app.testId('tab-checkpoints').click();
  const shown = await app.readGlobalState();
  await app.testId('share').click();
  await expect(app.testId('export-json')).toHaveText(`Global state of checkpoint ${shown.checkpoint} · JSON`);
  const [again] = await Promise.all([page.waitForEvent('download'), app.testId('export-json').click()]);
  const replayed = JSON.parse(fs.readFileSync(await again.path(), 'utf8'));
  expect(replayed.checkpoint.id).toBe(shown.checkpoint);
  expect(replayed.link).toMatch(/[?&]choices=60k2(&|$)/);
  expect(Object.keys(replayed.checkpoint.global_state.tasks).sort()).toEqual(shown.tasks.map((t) => t.Subtask).sort());
  expect(`${replayed.checkpoint.checkpointed_size} B`).toBe(shown.figures['Checkpointed size']);
  const plain = runSim('recovery', 'at-least-once', 200).summary.checkpoints.find((c) => c.id === shown.checkpoint);
  expect(replayed.checkpoint, 'the failure by hand changed nothing').not.toEqual(plain);
});

test('the space-time diagram downloads alone, as SVG and PNG, once it is open', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=token');
  await app.stepFast(150);
  await app.testId('share').click();
  await expect(app.testId('export-spacetime-svg')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await app.testId('spacetime-toggle').click();
  const cuts = await page.locator('[data-testid^="cut-"]').count();
  await app.testId('share').click();
  // A Chandy-Lamport system's global state is a snapshot's, as the inspector calls it.
  await expect(app.testId('export-json')).toHaveText(/^Global state of snapshot \d+ · JSON$/);
  const [svg] = await Promise.all([page.waitForEvent('download'), app.testId('export-spacetime-svg').click()]);
  expect(svg.suggestedFilename()).toBe('token-step-150-space-time.svg');
  const text = fs.readFileSync(await svg.path(), 'utf8');
  // The diagram's lines and cuts, its heading and legend, and no dataflow.
  expect((text.match(/class="st-task/g) || []).length).toBe(2);
  expect((text.match(/data-testid="cut-\d+"/g) || []).length).toBe(cuts);
  expect(text).not.toContain('class="graph');
  expect(text).toContain('data-testid="export-heading"');
  const diagram = await page.locator('[data-testid=spacetime] svg').evaluate((s) => ({ width: s.viewBox.baseVal.width }));
  const [, , vw] = text.match(/viewBox="([^"]+)"/)[1].split(' ').map(Number);
  expect(vw).toBe(diagram.width);
  const [png] = await Promise.all([page.waitForEvent('download'), app.testId('export-spacetime-png').click()]);
  const bytes = fs.readFileSync(await png.path());
  expect(bytes.readUInt32BE(16)).toBe(2 * diagram.width);
  await app.screenshot('share-dialog-exports');
});
