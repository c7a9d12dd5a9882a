// "Explore all runs" (`?view=explore`, in the second build): the page searches every
// interleaving of a small system in slices, and reports exactly what `abs-sim explore` reports
// for the same scenario; the shortest violation is told move by move and opens in the player,
// where the same snapshot is inconsistent and the space-time diagram names its orphans.
const { execFileSync } = require('child_process');
const fs = require('fs');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const sites = require('./sites');

/** `abs-sim explore ARGS`: its JSON line. */
function explore(args) {
  if (!fs.existsSync(sites.absSim)) throw new Error(`no abs-sim at ${sites.absSim}`);
  const out = execFileSync(sites.absSim, ['explore', ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out.trim());
}

/** The page's figures once the search is over. */
async function figures(page) {
  const table = page.getByTestId('explore-figures');
  await expect(table).toHaveAttribute('data-running', 'false', { timeout: 60_000 });
  return table.evaluate((t) => ({
    states: Number(t.dataset.states),
    transitions: Number(t.dataset.transitions),
    snapshots: Number(t.dataset.snapshots),
    violations: Number(t.dataset.violations),
    complete: t.dataset.complete === 'true',
  }));
}

test('opened from the diagram, the search of alignment-tiny finds what abs-sim explore finds: every snapshot consistent', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment-tiny&mode=aligned');
  await app.testId('spacetime-toggle').click();
  await app.testId('explore-open').click();
  await expect(page.getByTestId('explore-view')).toBeVisible();
  expect(page.url()).toMatch(/[?&]view=explore(&|$)/);
  await expect(page.getByTestId('explore-mode')).toHaveValue('aligned');
  await page.getByTestId('explore-start').click();
  const got = await figures(page);
  const cli = explore(['--preset', 'alignment-tiny', '--mode', 'aligned', '--max-states', '100000']);
  expect(got).toEqual({
    states: cli.states, transitions: cli.transitions, snapshots: cli.snapshots,
    violations: cli.violations, complete: cli.complete,
  });
  expect(got.complete).toBe(true);
  expect(got.violations).toBe(0);
  expect(got.snapshots).toBeGreaterThan(0);
  await expect(page.getByTestId('explore-status')).toContainText(`all ${cli.snapshots} snapshots`);
  await expect(page.getByTestId('explore-counterexample')).toHaveCount(0);
  await expect(page.getByTestId('explore-progress')).toHaveJSProperty('value', 100000);
  // Back to the playground, at the moment it was opened from.
  await page.getByTestId('explore-back').click();
  await expect(app.testId('step-counter')).toBeVisible();
  expect(page.url()).toMatch(/preset=alignment-tiny/);
});

test('at-least-once: the shortest violation is the CLI\'s, and opens in the player as the same inconsistent snapshot', async ({ page }) => {
  const app = new Playground(page);
  await page.goto('index.html?view=explore&preset=alignment-tiny&lang=en');
  await page.getByTestId('explore-mode').selectOption('at-least-once');
  await page.getByTestId('explore-start').click();
  const got = await figures(page);
  const cli = explore(['--preset', 'alignment-tiny', '--mode', 'at-least-once', '--max-states', '100000']);
  expect(got.violations).toBe(cli.violations);
  expect(got.states).toBe(cli.states);
  expect(got.violations).toBeGreaterThan(0);
  const found = page.getByTestId('explore-counterexample');
  await expect(found.locator('ol > li')).toHaveCount(cli.counterexample.length);
  await expect(found.locator('ol > li').first()).toHaveText('The coordinator triggers checkpoint 1.');
  expect(JSON.parse(await page.getByTestId('explore-moves').textContent())).toEqual(cli.counterexample);
  // The inconsistent snapshot's global state, as the inspector shows it.
  await expect(found.getByTestId('verdict')).toBeVisible();
  await expect(found.getByTestId('verdict')).toHaveClass(/\bbad\b/);
  // The player's times are said to count moves (the search has none).
  await expect(found.getByTestId('explore-player-time')).toContainText('latency is 1 ms');
  await page.getByTestId('explore-open-player').click();
  await expect(app.testId('step-counter')).toBeVisible();
  expect(await app.stepCount()).toBe(cli.counterexample.length);
  await expect(app.testId('global-state').getByTestId('verdict')).toHaveClass(/\bbad\b/);
  // The diagram is open with the snapshot's own cut placed: it names the orphan.
  await expect(app.testId('spacetime')).toBeVisible();
  await expect(app.testId('cut-verdict')).toHaveAttribute('data-consistent', 'false');
  await expect(app.testId('cut-verdict')).toContainText('inside your cut');
});

test('non-FIFO Chandy-Lamport on bank-tiny: a marker overtakes a transfer, and the player plays it to the lost money', async ({ page }) => {
  const app = new Playground(page);
  await page.goto('index.html?view=explore&preset=bank-tiny&lang=en');
  await page.getByTestId('explore-non-fifo').check();
  await page.getByTestId('explore-max-states').fill('3000');
  await page.getByTestId('explore-max-states').dispatchEvent('change');
  await page.getByTestId('explore-start').click();
  const got = await figures(page);
  const cli = explore(['--preset', 'bank-tiny', '--non-fifo', '--max-states', '3000']);
  expect(got).toEqual({
    states: cli.states, transitions: cli.transitions, snapshots: cli.snapshots,
    violations: cli.violations, complete: cli.complete,
  });
  expect(got.violations).toBeGreaterThan(0);
  const found = page.getByTestId('explore-counterexample');
  await expect(found).toContainText('first, ahead of 1 sent before it (non-FIFO)');
  await expect(page.getByTestId('explore-not-in-player')).toHaveCount(0);
  expect(JSON.parse(await page.getByTestId('explore-moves').textContent())).toEqual(cli.counterexample);
  // The player delivers the marker ahead of the transfer (`DeliverNth`, `v` in its choices).
  const href = await page.getByTestId('explore-open-player').getAttribute('href');
  expect(new URLSearchParams(href.slice(1)).get('choices')).toMatch(/\d+v\d+-\d+/);
  await page.getByTestId('explore-open-player').click();
  await expect(app.testId('step-counter')).toBeVisible();
  expect(await app.stepCount()).toBe(cli.counterexample.length);
  await expect(app.testId('global-state').getByTestId('verdict')).toHaveClass(/\bbad\b/);
  await expect(app.testId('global-state').getByTestId('verdict')).toContainText('$');
  // Its cut is consistent — the snapshot lost the transfer in flight across it, which the
  // diagram rings in red rather than as channel state.
  await app.testId('spacetime-toggle').click();
  await expect(app.testId('cut-1')).toHaveAttribute('data-lost', '1');
  await expect(app.testId('cut-1')).toHaveAttribute('data-orphans', '0');
  await expect(app.testId('cut-1').locator('.st-lost')).toHaveCount(1);
});

test('a long search runs in slices: the progress moves, the page answers, and Stop stops it', async ({ page }) => {
  await page.goto('index.html?view=explore&preset=bank-tiny&lang=zh');
  await expect(page.locator('h1')).toContainText('的每一種執行');
  await page.getByTestId('explore-non-fifo').check();
  await page.getByTestId('explore-max-states').fill('5000000');
  await page.getByTestId('explore-max-states').dispatchEvent('change');
  await page.getByTestId('explore-start').click();
  const table = page.getByTestId('explore-figures');
  await expect(table).toHaveAttribute('data-running', 'true');
  const states = async () => Number(await table.getAttribute('data-states'));
  await expect.poll(states).toBeGreaterThan(1000);
  const before = await states();
  // The main thread is free between slices: a script runs at once.
  const started = Date.now();
  await page.evaluate(() => 1 + 1);
  expect(Date.now() - started).toBeLessThan(2000);
  await expect.poll(states).toBeGreaterThan(before);
  await expect(page.getByTestId('explore-stop')).toBeEnabled();
  await page.getByTestId('explore-stop').click();
  await expect(table).toHaveAttribute('data-running', 'false');
  await expect(table).toHaveAttribute('data-complete', 'false');
  await expect(page.getByTestId('explore-status')).toContainText('已手動停止');
  const stoppedAt = await states();
  await page.waitForTimeout(300);
  expect(await states()).toBe(stoppedAt);
  await expect(page.getByTestId('explore-start')).toBeEnabled();
});

test('bad numbers are refused with a sentence, and the search cannot start until fixed', async ({ page }) => {
  await page.goto('index.html?view=explore&preset=token&lang=en');
  await page.getByTestId('explore-snapshots').fill('0');
  await page.getByTestId('explore-snapshots').dispatchEvent('change');
  await expect(page.getByTestId('explore-error')).toContainText('enter a whole number of at least 1');
  await expect(page.getByTestId('explore-start')).toBeDisabled();
  await page.getByTestId('explore-snapshots').fill('1');
  await page.getByTestId('explore-snapshots').dispatchEvent('change');
  await expect(page.getByTestId('explore-error')).toHaveCount(0);
  await page.getByTestId('explore-start').click();
  const got = await figures(page);
  const cli = explore(['--preset', 'token', '--snapshots', '1', '--max-states', '100000']);
  expect(got.states).toBe(cli.states);
  expect(got.complete).toBe(true);
});

test('on a phone the view fits its width', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('index.html?view=explore&preset=alignment-tiny&mode=at-least-once&lang=en');
  await page.getByTestId('explore-start').click();
  await expect(page.getByTestId('explore-counterexample')).toBeVisible({ timeout: 60_000 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  {
    await page.screenshot({ path: `${sites.screenshots}/explore-phone.png`, fullPage: true });
  }
});
