// The player as a course component: the example course page (static/course-example.html,
// served from a sub-path as a course site would) embeds two players and drives them with
// postMessage; each answers abs:ready once and abs:state after every change. The compact
// `?embed` view fits a small iframe; `?origin=` restricts whose messages are taken.
const { execFileSync } = require('child_process');
const { test, expect } = require('./fixtures');
const { Playground, hostPage } = require('./page');
const sites = require('./sites');

/** The latest abs:state a player of the course page sent (null before any). */
const stateOf = (page, id) => page.evaluate((id) => {
  const p = window.players[id];
  return p && p.state ? p.state : null;
}, id);

/** Waits until a player's state satisfies `ok`, then returns it. */
async function waitState(page, id, ok) {
  await expect.poll(async () => {
    const s = await stateOf(page, id);
    return Boolean(s && ok(s));
  }, { timeout: 15000 }).toBe(true);
  return stateOf(page, id);
}

test('the example course page drives two embedded players with postMessage and hears their state', async ({ page }) => {
  await page.goto(`${sites.subpathUrl}course-example.html`);
  await expect.poll(() => page.evaluate(() =>
    ['alignment', 'recovery'].every((id) => window.players[id] && window.players[id].ready)), { timeout: 20000 })
    .toBe(true);
  let s = await waitState(page, 'alignment', (x) => x.step === 0);
  expect(s).toMatchObject({ type: 'abs:state', step: 0, playing: false, preset: 'alignment', mode: 'aligned', checkpoints: [] });

  // Step and seek: the player reports exactly the engine's step and time.
  await page.evaluate(() => window.send('alignment', { type: 'abs:step', count: 10 }));
  s = await waitState(page, 'alignment', (x) => x.step === 10);
  await page.evaluate(() => window.send('alignment', { type: 'abs:seek', step: 60 }));
  s = await waitState(page, 'alignment', (x) => x.step === 60);
  const trace = execFileSync(sites.absSim, ['run', '--preset', 'alignment', '--mode', 'aligned', '--steps', '60'],
    { encoding: 'utf8' }).trim().split('\n');
  const sixty = JSON.parse(trace[59]);
  expect(s.time).toBe(sixty.time);
  expect(s.checkpoints.map((c) => c.id)).toEqual([1]);

  // Play, then pause: it moved on while playing.
  await page.evaluate(() => window.send('alignment', { type: 'abs:play' }));
  await waitState(page, 'alignment', (x) => x.playing && x.step > 60);
  await page.evaluate(() => window.send('alignment', { type: 'abs:pause' }));
  s = await waitState(page, 'alignment', (x) => !x.playing);
  expect(s.step).toBeGreaterThan(60);

  // Junk is ignored without error (the fixture fails the test on any page error).
  await page.evaluate(() => {
    for (const m of ['abs:step', { type: 'nope' }, { type: 'abs:seek' }, { type: 'abs:step', count: 'x' }, null, 42]) {
      window.send('alignment', m);
    }
  });
  await page.waitForTimeout(300);
  const still = await stateOf(page, 'alignment');
  // Nothing moved: `count: 'x'` is no count, answered with abs:error (see below), not a step.
  expect(still.step).toBe(s.step);
  // The other player did not hear any of it.
  expect((await stateOf(page, 'recovery')).step).toBe(0);

  // Load another mode, and run it to its end: the failure-free comparison says at-least-once
  // counted twice; the state lists the checkpoint the failure abandoned.
  await page.click('button:has-text("At-least-once")');
  s = await waitState(page, 'recovery', (x) => x.mode === 'at-least-once' && x.step === 0);
  // Its last step, as abs-sim runs it to the end (a seek past it shows the last step).
  const ran = execFileSync(sites.absSim, ['run', '--preset', 'recovery', '--mode', 'at-least-once', '--until-finished'],
    { encoding: 'utf8' }).trim().split('\n');
  const end = JSON.parse(ran[ran.length - 1]).summary.steps;
  await page.evaluate(() => window.send('recovery', { type: 'abs:seek', step: 5000 }));
  s = await waitState(page, 'recovery', (x) => x.step === end);
  expect(s.checkpoints.some((c) => c.status === 'aborted')).toBe(true);
  const frame = page.frameLocator('#recovery');
  await expect(frame.getByTestId('final-comparison')).toHaveAttribute('data-equal', 'false');
  await page.screenshot({ path: `${sites.screenshots}/course-example.png`, fullPage: true });
});

test('?origin= takes messages from that origin only', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&origin=https://course.example');
  await page.evaluate(() => window.postMessage({ type: 'abs:step', count: 5 }, '*'));
  await page.waitForTimeout(300);
  expect(await app.stepCount()).toBe(0);
  await app.open('?preset=alignment');
  await page.evaluate(() => window.postMessage({ type: 'abs:step', count: 5 }, '*'));
  await expect(app.testId('step-counter')).toContainText('5');
});

for (const [w, h] of [[480, 360], [1024, 640]]) {
  test(`the embedded view fits ${w}×${h}: graph, controls and narration without overlaps, the inspector behind a button`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: h });
    const app = new Playground(page);
    await app.open('?embed&preset=recovery&mode=aligned&step=140&panel=details');
    await expect(app.testId('open-full')).toBeVisible();
    const href = await app.testId('open-full').getAttribute('href');
    expect(href).toMatch(/preset=recovery&mode=aligned&lang=en&seed=1&step=140/);
    expect(href).not.toMatch(/embed/);
    await expect(page.locator('.header')).toHaveCount(0);
    const box = async (sel) => page.locator(sel).first().boundingBox();
    const stage = await box('[data-testid="dataflow"]');
    const controls = await box('.controls');
    const narration = await box('[data-testid="narration"]');
    for (const b of [stage, controls, narration]) {
      expect(b).not.toBeNull();
      expect(b.x).toBeGreaterThanOrEqual(0);
      expect(b.x + b.width).toBeLessThanOrEqual(w + 1);
    }
    expect(stage.height).toBeGreaterThan(60);
    expect(stage.y + stage.height).toBeLessThanOrEqual(controls.y + 1);
    expect(controls.y + controls.height).toBeLessThanOrEqual(narration.y + 1);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w + 1);
    await app.screenshot(`embed-${w}x${h}`);
    // The inspector is a button away, and back.
    await app.testId('embed-inspector').click();
    await expect(app.testId('tab-details')).toBeVisible();
    await expect(app.testId('dataflow')).toBeHidden();
    await app.testId('embed-inspector').click();
    await expect(app.testId('dataflow')).toBeVisible();
  });
}

test('the students\' list of scenarios leaves out the benchmark, which a link still opens', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=recovery');
  const names = await app.testId('preset').locator('option').evaluateAll((os) => os.map((o) => o.value));
  expect(names).toContain('recovery');
  expect(names).not.toContain('large');
  await app.open('?preset=large');
  await expect(app.testId('preset')).toHaveValue('large');
  await expect(app.lesson()).toContainText('200 subtasks');
});

test('a bad abs:load is answered with abs:error, and the player says why in a notice that wraps at 480×360', async ({ page }) => {
  // A host page with one player, 480×360.
  const frame = await hostPage(page, '?embed&preset=alignment', 480, 360);
  await expect(frame.getByTestId('step-counter')).toBeVisible();
  const send = (m) => page.evaluate((m) => document.getElementById('p').contentWindow.postMessage(m, '*'), m);
  const next = async (type) => {
    await expect.poll(() => page.evaluate((t) => window.got.some((m) => m.type === t), type)).toBe(true);
    return page.evaluate((t) => {
      const i = window.got.findIndex((m) => m.type === t);
      return window.got.splice(0, i + 1)[i];
    }, type);
  };

  await send({ type: 'abs:load', preset: 'nope', mode: 'aligned' });
  const error = await next('abs:error');
  expect(Object.keys(error).sort()).toEqual(['message', 'type']);
  expect(error.message).toContain('“nope”, which does not exist');
  const notice = frame.getByTestId('notice');
  await expect(notice).toHaveText(error.message + '×');
  // The notice is whole: inside the frame, its text wrapped over lines rather than cut off.
  const fit = await notice.evaluate((n) => {
    const text = n.querySelector('span');
    const r = n.getBoundingClientRect();
    return {
      right: r.right,
      bottom: r.bottom,
      lines: (() => {
        const range = document.createRange();
        range.selectNodeContents(text);
        return new Set([...range.getClientRects()].map((l) => Math.round(l.top))).size;
      })(),
      clipped: text.scrollWidth > text.clientWidth || text.scrollHeight > text.clientHeight,
    };
  });
  expect(fit.right).toBeLessThanOrEqual(480);
  expect(fit.bottom).toBeLessThanOrEqual(360);
  expect(fit.lines).toBeGreaterThan(1);
  expect(fit.clipped).toBe(false);
  expect(await frame.locator('html').evaluate((e) => e.scrollWidth)).toBeLessThanOrEqual(480);
  await expect(frame.getByTestId('step-counter')).toBeVisible();
  await page.screenshot({ path: `${sites.screenshots}/embed-abs-error-480x360.png` });

  // A mode the scenario cannot run: the scenario asked for, in its own mode, and the state says so.
  await page.evaluate(() => { window.got = []; });
  await send({ type: 'abs:load', preset: 'token', mode: 'aligned-timeout' });
  expect((await next('abs:error')).message).toContain('is not available for this scenario');
  await expect.poll(async () => {
    const s = await page.evaluate(() => window.got.filter((m) => m.type === 'abs:state').pop());
    return s && `${s.preset} ${s.mode}`;
  }).toBe('token chandy-lamport');
  await expect(frame.getByTestId('operator-p')).toBeVisible();

  // Neither preset nor scenario.
  await send({ type: 'abs:load' });
  expect((await next('abs:error')).message).toContain('without a preset or a scenario');

  // A step or a seek that is no whole number from 0: answered, and nothing moves.
  await send({ type: 'abs:step', count: 3 });
  await expect(frame.getByTestId('step-counter')).toContainText('3');
  await send({ type: 'abs:seek', step: 'abc' });
  expect((await next('abs:error')).message).toBe('The page embedding this player sent abs:seek with step “abc”, which is not a whole number from 0; nothing changed.');
  await send({ type: 'abs:step', count: -5 });
  expect((await next('abs:error')).message).toContain('abs:step with count “-5”, which is not a whole number from 0');
  await expect(frame.getByTestId('step-counter')).toContainText('3');
});
