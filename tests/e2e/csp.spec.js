// The page's content security policy (issue 26; tools/post_build.py writes it into index.html):
// scripts only from the page's origin and index.html's own inline ones by hash, wasm allowed,
// no plugins, no <base>, no inline style anywhere. Every spec runs under it, and fixtures.js
// fails a test on the console error a refusal logs; this one also counts the violation events
// while it walks every view, and proves the policy is in force.
const fs = require('fs');
const path = require('path');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

/** Records every `securitypolicyviolation` the page's documents report, from the start. */
async function watchViolations(page) {
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__violations.push(`${e.effectiveDirective}: ${e.blockedURI || 'inline'} (${e.sample})`);
    });
  });
  return () => page.evaluate(() => window.__violations);
}

test('the page declares a strict policy, with no unsafe-inline and room to be embedded', async ({ page }) => {
  const app = new Playground(page);
  await app.open();
  const policy = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  const directives = Object.fromEntries(policy.split(';').map((d) => d.trim().split(/\s+/)).map(([k, ...v]) => [k, v]));
  expect(directives['script-src']).toEqual(expect.arrayContaining(["'self'", "'wasm-unsafe-eval'"]));
  expect(directives['object-src']).toEqual(["'none'"]);
  // Connections: the page's origin, and a learning record store over HTTPS or on loopback.
  expect(directives['connect-src']).toEqual(["'self'", 'https:', 'http://127.0.0.1:*', 'http://localhost:*']);
  expect(directives['base-uri']).toEqual(["'none'"]);
  expect(policy).not.toContain('unsafe-inline');
  expect(directives['script-src']).not.toContain("'unsafe-eval'");
  expect(directives['frame-ancestors']).toBeUndefined(); // course pages embed the player
  // Only hashes besides 'self' and wasm: each the hash of one of the page's inline scripts
  // or style sheets.
  for (const d of ['script-src', 'style-src']) {
    for (const v of directives[d].filter((v) => v.startsWith("'sha256-"))) expect(v).toMatch(/^'sha256-[A-Za-z0-9+/]{43}='$/);
  }
});

test('every view runs under the policy without one violation', async ({ page }) => {
  const violations = await watchViolations(page);
  const app = new Playground(page);
  // The student's page: playing, a checkpoint's global state, the theory, help, the editor,
  // Share and both exports.
  await app.open('?preset=alignment');
  await app.togglePlay();
  await page.waitForTimeout(1500);
  await app.togglePlay();
  await app.stepUntil(async () => (await app.checkpointStatus(1)) === 'completed', 400);
  await app.checkpoint(1).click();
  await expect(app.globalState()).toBeVisible();
  await app.testId('theory-toggle').click();
  await expect(app.testId('theory')).toBeVisible();
  await page.keyboard.press('?');
  await expect(app.testId('shortcuts')).toBeVisible();
  await page.keyboard.press('Escape');
  expect(await violations()).toEqual([]);
  // The editor is a page of the second build: its violations are its own document's.
  await app.testId('editor-open').click();
  await expect(app.testId('editor')).toBeVisible();
  expect(await violations()).toEqual([]);
  await app.testId('editor-close').click();
  await expect(app.testId('share')).toBeVisible();
  await app.testId('share').click();
  await Promise.all([page.waitForEvent('download'), app.testId('export-svg').click()]);
  await Promise.all([page.waitForEvent('download'), app.testId('export-png').click()]);
  await page.keyboard.press('Escape');
  expect(await violations()).toEqual([]);
  // Other modes and presets, Chinese, a phone, embedded.
  for (const query of ['?preset=token&mode=chandy-lamport&lang=zh', '?preset=recovery&mode=at-least-once',
    '?preset=backpressure&mode=unaligned&lang=zh-Hans', '?preset=cycle&embed']) {
    await app.open(query);
    await app.step(30);
    expect(await violations(), query).toEqual([]);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await app.open('?preset=wordcount');
  await app.step(40);
  expect(await violations()).toEqual([]);
  // The engineers' Flink view, with a history imported and its bars drawn.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('index.html?view=flink&preset=backpressure&mode=unaligned');
  await expect(page.getByTestId('flink-view')).toBeVisible();
  await page.getByTestId('flink-import-text').fill(fs.readFileSync(path.join(__dirname, '..', 'flink', 'bundle-2.x.json'), 'utf8'));
  await page.getByTestId('flink-import-apply').click();
  await page.getByTestId('flink-checkpoints').locator('tbody tr').first().click();
  await expect(page.getByTestId('flink-checkpoints-bars')).toBeVisible();
  // Its style sheet is in force (added through the style object model, not a <style>).
  expect(await page.locator('.flink-view').evaluate((e) => getComputedStyle(e).maxWidth)).toBe('1100px');
  expect(await violations()).toEqual([]);
  // The space-time diagram with a cut placed, then every run explored and a counterexample
  // opened in the player.
  await app.open('?preset=alignment-tiny&mode=at-least-once');
  await app.step(10);
  await app.testId('spacetime-toggle').click();
  await app.testId('user-cut').click();
  await expect(app.testId('cut-verdict')).toBeVisible();
  await app.testId('explore-open').click();
  await page.getByTestId('explore-start').click();
  await page.getByTestId('explore-open-player').click();
  await expect(app.testId('cut-verdict')).toHaveAttribute('data-consistent', 'false');
  expect(await violations()).toEqual([]);
  // The modes side by side, run and measured: its swatches are SVG, not inline style.
  await page.goto('index.html?compare=&preset=backpressure');
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare')).toHaveAttribute('data-time', '2000', { timeout: 60_000 });
  await page.getByTestId('compare-measure').click();
  await expect(page.getByTestId('compare-overheads')).toBeVisible({ timeout: 60_000 });
  expect(await page.locator('.cmp-view').evaluate((e) => getComputedStyle(e).maxWidth)).toBe('1400px');
  expect(await violations()).toEqual([]);
});

test('the lesson page runs under the policy without one violation, its style in force', async ({ page }) => {
  const violations = await watchViolations(page);
  // A question answered in each language: its style is added the way the views' is.
  for (const query of ['?lesson=alignment', '?lesson=fifo&lang=zh-Hans']) {
    await page.goto(`index.html${query}`);
    await expect(page.getByTestId('lesson-step')).toBeVisible();
    if (!(await page.getByTestId('lesson-question').count())) await page.getByTestId('lesson-next').click();
    await page.getByTestId('lesson-answer').first().check();
    await page.getByTestId('lesson-check').click();
    await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', /true|false/);
    expect(await page.locator('.lesson-page').evaluate((e) => getComputedStyle(e).maxWidth), query).toBe('1400px');
    expect(await violations(), query).toEqual([]);
  }
});

test('a checkpoint\'s colour still reaches everything drawn for it, by class instead of inline style', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.stepUntil(async () => (await app.subtask('Merge', 0).getAttribute('data-status')) === 'aligning');
  const colour = (locator, property) => locator.evaluate((e, p) => getComputedStyle(e)[p], property);
  const swatch = await colour(app.checkpoint(1).locator('.swatch'), 'backgroundColor');
  expect(swatch).toBe('rgb(124, 58, 237)'); // palette.rs's first checkpoint colour, #7c3aed
  const merge = app.subtask('Merge', 0);
  expect(await colour(merge.locator('.box'), 'stroke')).toBe(swatch);
  expect(await colour(merge.locator('.tick:not(.open)').first(), 'fill')).toBe(swatch);
  expect(await colour(merge.locator('.tick.open').first(), 'stroke')).toBe(swatch);
  expect(await colour(page.locator('.timeline .mark.triggered').first(), 'fill')).toBe(swatch);
});

test.describe('the policy is in force', () => {
  // The refusals this test provokes are logged as console errors.
  test.use({ expectedErrors: [/Content Security Policy/] });

  test('an injected inline script or inline style is refused', async ({ page }) => {
    const violations = await watchViolations(page);
    const app = new Playground(page);
    await app.open();
    await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.__ran = true';
      document.body.append(script);
      const span = document.createElement('span');
      span.id = 'styled';
      span.setAttribute('style', 'display:block;width:123px');
      document.body.append(span);
    });
    expect(await page.evaluate(() => window.__ran)).toBeUndefined();
    expect(await page.locator('#styled').evaluate((e) => e.getBoundingClientRect().width)).not.toBe(123);
    await expect.poll(violations).toEqual(expect.arrayContaining([
      expect.stringMatching(/^script-src-elem: inline/),
      expect.stringMatching(/^style-src-attr: inline/),
    ]));
  });
});
