// The end-to-end story on the release build: the seed's alignment steps ①–④ seen
// happening, the snapshot opened, time reversed, playback, language, manual delivery.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const { runSim } = require('./trace');

const A = ['Src A#0', 'Merge#0'];
const B = ['Src B#0', 'Merge#0'];

test('alignment: the blocked input, its buffer, the completed checkpoint and its global state, then back in time', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await expect(app.operator('Merge')).toBeVisible();
  await expect(app.subtask('Merge', 0)).toBeVisible();
  expect(await app.isBlocked(...A)).toBe(false);
  await app.screenshot('01-start');

  // ① barrier 1 reaches Merge from Src A first: that input blocks.
  await app.stepUntil(() => app.isBlocked(...A));
  await expect(app.channel(...A)).toHaveAttribute('data-blocked', 'true');
  await expect(app.lock(...A)).toBeVisible();
  await expect(app.channel(...B)).toHaveAttribute('data-blocked', 'false');
  await expect(app.currentSentences().first()).toContainText('①');
  await expect(app.subtask('Merge', 0)).toHaveAttribute('data-status', 'aligning');

  // ② the records that keep arriving on A wait in Merge's buffer for that input.
  await app.stepUntil(async () => (await app.heldItems(...A).count()) > 0);
  const blockedAt = await app.stepCount();
  await expect(app.heldItems(...A).first()).toBeVisible();
  await expect(app.currentSentences().first()).toContainText('②');
  // What the page shows here and at the next three steps, to compare after going back.
  const firstVisit = [await app.fingerprint()];
  for (let i = 0; i < 3; i++) {
    await app.step();
    firstVisit.push(await app.fingerprint());
    expect(firstVisit[i + 1]).not.toEqual(firstVisit[i]); // each step shows something new
  }
  await app.stepUntil(async () => (await app.heldItems(...A).count()) >= 3);
  await app.screenshot('02-blocked-and-held');

  // ③ barrier 1 arrives from B: Merge snapshots; ④ the buffer drains first.
  await app.stepUntil(async () => !(await app.isBlocked(...A)));
  await expect(app.narration()).toContainText('③');
  await expect(app.narration()).toContainText('④');
  await app.screenshot('03-snapshot-and-drain');

  // The checkpoint completes once every task acknowledged.
  await app.stepUntil(async () => (await app.checkpointStatus(1)) === 'completed');
  await expect(app.checkpoint(1)).toContainText('4/4');
  await app.openCheckpoint(1);
  const gs = app.globalState();
  await expect(gs).toBeVisible();
  await expect(gs.getByTestId('task-states').locator('tbody tr')).toHaveCount(4);
  await expect(gs.getByTestId('channel-states').locator('tbody tr')).toHaveCount(3);
  await expect(gs.getByTestId('verdict')).toContainText('Consistent');
  await expect(gs.getByTestId('task-states')).toContainText('offset');
  await app.screenshot('04-global-state');

  // Step back to when the buffer held its first item: the earlier view again.
  const now = await app.stepCount();
  await app.stepBack(now - blockedAt);
  expect(await app.stepCount()).toBe(blockedAt);
  await expect(app.channel(...A)).toHaveAttribute('data-blocked', 'true');
  await expect(app.heldItems(...A)).toHaveCount(1);
  await expect(app.checkpoint(1)).toHaveAttribute('data-status', 'in-progress');
  expect(await app.fingerprint()).toEqual(firstVisit[0]);
  await app.screenshot('05-stepped-back');
  // …and forward again replays the same run: each step shows what it showed the first time.
  for (let i = 1; i <= 3; i++) {
    await app.step();
    expect(await app.stepCount()).toBe(blockedAt + i);
    expect(await app.fingerprint(), `step ${blockedAt + i}`).toEqual(firstVisit[i]);
  }
});

test('play, then pause: the step counter stops', async ({ page }) => {
  const app = new Playground(page);
  await app.open();
  await app.testId('speed').fill('2'); // 4×
  await app.togglePlay();
  await expect.poll(() => app.stepCount(), { timeout: 10_000 }).toBeGreaterThan(10);
  await app.screenshot('06-playing');
  await app.togglePlay();
  const paused = await app.stepCount();
  await page.waitForTimeout(700);
  expect(await app.stepCount()).toBe(paused);
});

test('switching to Chinese changes the narration and the address', async ({ page }) => {
  const app = new Playground(page);
  await app.open();
  await app.stepUntil(() => app.isBlocked(...A));
  const english = await app.narration().textContent();
  expect(english).toContain('Barrier 1');
  await app.setLang('zh');
  await expect(app.narration()).toContainText('屏障 1');
  await expect(app.narration()).toContainText('阻塞');
  expect(await app.narration().textContent()).not.toEqual(english);
  expect(page.url()).toContain('lang=zh');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await app.screenshot('07-chinese');
  // The language survives a reload through the address.
  await page.reload();
  await expect(app.testId('step')).toHaveText(/下一步/);
});

test('manual mode: clicking a channel delivers its head', async ({ page }) => {
  const app = new Playground(page);
  await app.open();
  await app.toggleManual();
  await expect(app.testId('manual-mode')).toHaveAttribute('aria-pressed', 'true');
  await app.stepUntil(async () => (await app.queued(...A)) >= 2);
  const before = await app.stepCount();
  const queued = await app.queued(...A);
  await app.screenshot('08-manual-before');
  await app.clickChannel(...A);
  await expect.poll(() => app.stepCount()).toBe(before + 1);
  expect(await app.queued(...A)).toBe(queued - 1);
  await expect(app.currentSentences().first()).toContainText('Merge#0');
  await expect(app.currentSentences().first()).toContainText('input 1');
  await app.screenshot('08-manual-after');
});

test('moving items are painted, and clicking one shows it in the inspector', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.stepUntil(async () => (await app.queued(...B)) >= 2);
  await page.waitForTimeout(400); // the eased clock settles, the canvas is painted
  const items = await app.paintedItems();
  expect(items.length).toBeGreaterThanOrEqual(2);
  // Clicking a painted item selects it: the inspector names the item and its channel.
  let shown = false;
  for (const it of items) {
    await page.mouse.click(it.x, it.y);
    const details = app.testId('tab-details');
    if ((await details.getAttribute('aria-selected')) !== 'true') continue;
    const heading = page.locator('.inspector .details h3');
    if ((await heading.count()) && /^Item:/.test(await heading.textContent())) {
      await expect(page.locator('.inspector .details')).toContainText('Merge#0');
      shown = true;
      break;
    }
  }
  expect(shown).toBe(true);
  await app.screenshot('09-item-selected');
});

test('with reduced motion, items jump to where they are instead of gliding', async ({ page }) => {
  const shown = {};
  for (const motion of ['reduce', 'no-preference']) {
    await page.emulateMedia({ reducedMotion: motion });
    const app = new Playground(page);
    await app.open('?preset=alignment'); // the page reads the preference when it starts
    await app.step(12);
    await page.waitForTimeout(motion === 'reduce' ? 150 : 1200); // the glide has ended
    shown[motion] = (await app.paintedItems()).map((i) => [Math.round(i.x), Math.round(i.y)]);
    if (motion === 'reduce') await app.screenshot('10-reduced-motion');
  }
  expect(shown.reduce.length).toBeGreaterThan(0);
  expect(shown.reduce).toEqual(shown['no-preference']);
});

test('the keyboard drives playback and shows its shortcuts', async ({ page }) => {
  const app = new Playground(page);
  await app.open();
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  // Each key is handled in its own turn of the page's loop: wait for it, as a reader would.
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => app.stepCount()).toBe(1);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => app.stepCount()).toBe(2);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => app.stepCount()).toBe(1);
  await page.keyboard.press('?');
  await expect(app.testId('shortcuts')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(app.testId('shortcuts')).toHaveCount(0);
  await page.keyboard.press('b');
  await expect(app.checkpoint(1)).toBeVisible();
});

test('Space on a focused button presses that button; elsewhere it plays and pauses', async ({ page }) => {
  const app = new Playground(page);
  await app.open();
  await app.testId('step').focus();
  // Each press is one step; wait for it to be drawn before the next (under load the page can
  // lag a key press), and never more than one step per press.
  await page.keyboard.press('Space');
  await expect.poll(() => app.stepCount()).toBe(1);
  await page.keyboard.press('Space');
  await expect.poll(() => app.stepCount()).toBe(2);
  await expect(app.testId('play')).not.toHaveAttribute('aria-pressed', 'true');
  await page.waitForTimeout(300);
  expect(await app.stepCount()).toBe(2);
  await page.locator('body').click({ position: { x: 5, y: 300 } });
  await page.keyboard.press('Space');
  await expect(app.testId('play')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => app.stepCount()).toBeGreaterThan(2);
  await page.keyboard.press('Space');
  await expect(app.testId('play')).not.toHaveAttribute('aria-pressed', 'true');
  const paused = await app.stepCount();
  await page.waitForTimeout(400);
  expect(await app.stepCount()).toBe(paused);
});

test('the shortcuts dialog takes the focus, keeps it, and gives it back', async ({ page }) => {
  const app = new Playground(page);
  await app.open();
  await app.testId('help').click();
  await expect(app.testId('close-help')).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(app.testId('close-help')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(app.testId('shortcuts')).toHaveCount(0);
  await expect(app.testId('help')).toBeFocused();
  // Enter on the focused Close button closes it too, and focus goes back again.
  await page.keyboard.press('Enter');
  await expect(app.testId('close-help')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(app.testId('shortcuts')).toHaveCount(0);
  await expect(app.testId('help')).toBeFocused();
});

test('a mode switch re-runs the same scenario; bad address values are explained', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=nope&mode=sideways');
  await expect(app.testId('notice')).toHaveCount(2);
  await expect(app.testId('notice').first()).toContainText('nope');
  await expect(app.operator('Merge')).toBeVisible();
  await app.setMode('unaligned');
  expect(await app.stepCount()).toBe(0);
  expect(page.url()).toContain('mode=unaligned');
  await app.stepUntil(async () => (await app.checkpointStatus(1)) === 'completed', 300);
  expect(await app.isBlocked(...A)).toBe(false);
  await app.setPreset('wordcount');
  await expect(app.operator('Count')).toBeVisible();
  await expect(app.subtask('Count', 1)).toBeVisible();
});

for (const [w, h] of [[1280, 800], [1024, 640]]) {
  for (const scheme of ['light', 'dark']) {
    test(`looks: ${w}×${h} ${scheme}`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.emulateMedia({ colorScheme: scheme });
      const app = new Playground(page);
      await app.open();
      await app.stepUntil(async () => (await app.heldItems(...A).count()) >= 3);
      await app.subtask('Merge', 0).click();
      await app.screenshot(`looks-${w}x${h}-${scheme}`);
      // Up to 1024 px the side panel is tabs under the graph: the selection opened Details,
      // and the coordinator is one tab away.
      if (w <= 1024) {
        await expect(app.testId('checkpoint-1')).toBeHidden();
        await app.testId('tab-coordinator').click();
      }
      // Nothing important is cut off.
      for (const id of ['step', 'play', 'timeline', 'narration', 'checkpoint-1', 'trigger-checkpoint']) {
        const box = await app.testId(id).boundingBox();
        expect(box, id).not.toBeNull();
        expect(box.x + box.width, id).toBeLessThanOrEqual(w + 1);
        expect(box.y, id).toBeLessThan(h);
      }
    });
  }
}

// Checkpoint 1 of the alignment preset half-way between its trigger and its completion (steps
// from abs-sim's trace of the same run), in each mode, on a laptop, a small laptop and a phone:
// aligned has a blocked input and its buffer, at-least-once records that slip into the snapshot
// (dashed rings), unaligned the records saved as channel state (rings). The inspector shows the
// checkpoints table with the mode's own columns.
for (const mode of ['aligned', 'at-least-once', 'unaligned']) {
  for (const [w, h] of [[1280, 800], [1024, 640], [390, 844]]) {
    test(`looks mid-checkpoint: alignment ${mode}, ${w}×${h}`, async ({ page }) => {
      const { steps } = runSim('alignment', mode, 200);
      const stepOf = (event) => steps.find((l) => l.events.some((e) => e.event === event && e.checkpoint === 1)).step;
      const mid = Math.floor((stepOf('checkpoint-triggered') + stepOf('checkpoint-completed')) / 2);
      await page.setViewportSize({ width: w, height: h });
      const app = new Playground(page);
      await app.open(`?preset=alignment&mode=${mode}`);
      await app.stepFast(mid);
      expect(await app.checkpointStatus(1)).toBe('in-progress');
      await app.openCheckpoint(1);
      await app.screenshot(`mid-checkpoint-alignment-${mode}-${w}x${h}`);
      // Where the side panel is tabs, the open Checkpoints tab shows checkpoint 1's row.
      const checkpointId = w <= 1024 ? 'checkpoint-row-1' : 'checkpoint-1';
      for (const id of ['step', 'play', 'timeline', 'narration', checkpointId]) {
        const box = await app.testId(id).boundingBox();
        expect(box, id).not.toBeNull();
        expect(box.x + box.width, id).toBeLessThanOrEqual(w + 1);
      }
    });
  }
}

test('the theory panel says why the preset matters, for the mode on screen', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  const toggle = app.testId('theory-toggle');
  await expect(app.testId('theory')).toHaveCount(0);
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(app.testId('theory')).toContainText('Merge#0');
  // At step 0 the lock and the buffer it speaks of are still ahead, and it says so; once
  // checkpoint 1 has started, no more.
  await expect(app.testId('theory-before')).toContainText('first checkpoint is under way');
  await app.stepUntil(async () => (await app.checkpointStatus(1)) !== null);
  await expect(app.testId('theory-before')).toHaveCount(0);
  await app.open('?preset=token');
  await app.testId('theory-toggle').click();
  await expect(app.testId('theory-before')).toContainText('first snapshot');
  await app.open('?preset=alignment');
  await toggle.click();
  await expect(app.testId('theory')).toContainText('Merge#0');
  const aligned = await app.testId('theory').textContent();
  expect(aligned).toMatch(/consistent cut/);
  await app.setMode('at-least-once');
  await expect(app.testId('theory')).not.toHaveText(aligned);
  await expect(app.testId('theory')).toContainText('dashed ring');
  await app.open('?preset=alignment&lang=zh');
  await app.testId('theory-toggle').click();
  await expect(app.testId('theory')).toContainText('一致割集');
  await app.screenshot('theory-zh');
  // In an iframe-sized page the open text keeps its height (the graph gives way) instead of
  // being squeezed to a line and a half.
  await page.setViewportSize({ width: 1024, height: 640 });
  const { shown, whole } = await app.testId('theory').evaluate((el) => ({ shown: el.clientHeight, whole: el.scrollHeight }));
  expect(shown).toBeGreaterThanOrEqual(Math.min(whole, 90));
});

test.describe(() => {
  // The browser itself logs the request this test makes fail.
  test.use({ expectedErrors: [/Failed to load resource.*\/theory\/en\.txt/] });
  test('the theory texts are fetched when the panel first opens, and a failed fetch can be retried', async ({ page }) => {
    const fetched = [];
    page.on('request', (r) => { if (/\/theory\//.test(r.url())) fetched.push(new URL(r.url()).pathname); });
    let fail = true;
    await page.route('**/theory/*.txt', (route) => (fail ? route.abort() : route.continue()));
    const app = new Playground(page);
    await app.open('?preset=wordcount');
    await app.step(3);
    // Not part of the page's first load.
    expect(fetched).toEqual([]);
    await app.testId('theory-toggle').click();
    await expect(app.testId('theory')).toContainText('could not be loaded');
    fail = false;
    await app.testId('theory-retry').click();
    await expect(app.testId('theory')).toContainText('Count');
    await expect(app.testId('theory')).toHaveAttribute('aria-busy', 'false');
    // Kept for the visit: closing and opening again, or another mode, fetches nothing more.
    const before = fetched.length;
    await app.testId('theory-toggle').click();
    await app.testId('theory-toggle').click();
    await app.setMode('unaligned');
    await expect(app.testId('theory')).toContainText('Count');
    expect(fetched.length).toBe(before);
    // Simplified Chinese is its own file (the Traditional one converted), in its own build.
    await app.testId('lang').selectOption('zh-Hans');
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
    await expect(app.testId('theory')).toContainText('数');
    expect(fetched.filter((p) => p.endsWith('/theory/zh-Hans.txt')).length).toBe(1);
    expect(fetched.filter((p) => p.endsWith('/theory/zh-Hant.txt')).length).toBe(0);
  });
});


test('the compact drawing folds its thousands of plain channels into three paths, faded by stroke-opacity, never opacity', async ({ page }) => {
  // An element per channel made each step's render of `large` (3,280 channels) and its first
  // paint slow: its plain channels are folded into one path of lines, one of blocked lines and
  // one of their tails. An `opacity` below 1 would make a line a compositor group of its own,
  // which cost ~10 ms of layerizing per change of what is blocked (perf.bench.js). At step 1000
  // checkpoint 1 is aligning and some 170 inputs are blocked (the engine is deterministic, so
  // the link always restores that moment).
  const app = new Playground(page);
  await app.open('?preset=large&step=1000');
  const drawn = await page.evaluate(() => {
    const paths = [...document.querySelectorAll('.channel.folded path')];
    const curves = (p) => (p.getAttribute('d').match(/M/g) || []).length;
    const style = (p) => getComputedStyle(p);
    return {
      elements: document.querySelectorAll('.channels .channel').length,
      lines: curves(paths[0]),
      blocked: curves(paths[1]),
      tails: curves(paths[2]),
      grouped: paths.filter((l) => style(l).opacity !== '1').length,
      faded: Number(style(paths[0]).strokeOpacity),
      colours: [style(paths[0]).stroke, style(paths[1]).stroke, style(paths[2]).stroke],
    };
  });
  expect(drawn.elements).toBe(1);
  expect(drawn.lines + drawn.blocked).toBe(40 + 40 * 40 + 40 * 40 + 40); // forward, two all-to-all, forward
  expect(drawn.blocked).toBeGreaterThan(100);
  expect(drawn.tails).toBe(drawn.blocked);
  expect(drawn.grouped).toBe(0);
  expect(drawn.faded).toBeLessThan(1);
  // Blocked lines and tails in the blocked colour, the others not.
  expect(drawn.colours[1]).toBe(drawn.colours[2]);
  expect(drawn.colours[0]).not.toBe(drawn.colours[1]);
  // Stepping on changes which are blocked; the drawing stays three paths.
  await app.step(30);
  expect(await page.locator('.channels .channel').count()).toBe(1);
});

test('in the compact drawing the selected channel and those whose state is being recorded stay drawn one by one', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=large&step=1000&sel=c:Split%2311-Filter%2316');
  const selected = page.locator('.channels .channel.selected');
  await expect(selected).toHaveCount(1);
  await expect(selected).toHaveAttribute('data-testid', 'channel-Split#11-Filter#16');
  // Unaligned: inputs whose barrier has not come after their task's snapshot are recorded
  // (ringed in the checkpoint's colour), which a folded line could not show.
  await app.open('?preset=large&mode=unaligned&step=1000');
  const recording = await page.locator('.channels .channel[data-recording]').count();
  expect(recording).toBeGreaterThan(0);
  expect(await page.locator('.channels .channel').count()).toBe(recording + 1);
});

// Issue 49: at 1024×640 Reset wrapped alone onto a second row in the modes with a Savepoint
// button, taking the graph's room. The controls keep one row, in every language, with a
// four-digit step.
for (const lang of ['en', 'zh', 'zh-Hans']) {
  test(`the controls keep one row at 1024×640 (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 640 });
    const app = new Playground(page);
    await app.open(`?preset=recovery&mode=aligned&lang=${lang}&step=1500`);
    await expect(app.testId('trigger-savepoint')).toBeVisible();
    const tops = await page.locator('.controls > *').evaluateAll((els) => els
      .filter((e) => e.getBoundingClientRect().width > 0)
      .map((e) => [e.getAttribute('data-testid') || e.className, Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2)]));
    const mids = tops.map(([, mid]) => mid);
    // One row: every control's middle within a few pixels of the others' (a second row is ~30 px lower).
    expect(Math.max(...mids) - Math.min(...mids), JSON.stringify(tops)).toBeLessThan(8);
  });
}
