// A panic in the page's own code (issue 26): the release build aborts after it, so the page
// must say so itself — a banner with the message, a link to the last good moment and the text
// to report — instead of freezing. `?panic-at=N` (ui/crash.rs) makes the app panic when a step
// reaches N.
const { test, expect } = require('./fixtures');
const { Playground, hostPage } = require('./page');

// The panic is logged to the console (as Yew's own hook would), and the abort after it is a
// trap the browser reports as an uncaught error.
// (One pattern: Playwright would read a second element of the array as the option's settings.)
test.use({ expectedErrors: [/unreachable|panic-at=\d+: the panic the address asked for/] });

test('a panic shows a banner with the message and reopens the last good moment', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&panic-at=5');
  await app.step(4);
  await expect(page).toHaveURL(/[?&]step=4(&|$)/); // the address names the paused moment
  await expect(app.testId('crash')).toHaveCount(0);
  await app.step();
  const banner = app.testId('crash');
  await expect(banner).toBeVisible();
  await expect(banner).toHaveAttribute('role', 'alert');
  await expect(banner).toContainText('The playground stopped: an error in its own code.');
  const report = app.testId('crash-report');
  await expect(report).toHaveValue(/panic-at=5: the panic the address asked for/);
  await expect(report).toHaveValue(/step=4/);
  // The app behind it takes no more input.
  await expect(page.locator('#app')).toHaveAttribute('inert', '');
  await app.screenshot('crash-banner');

  const reopen = app.testId('crash-reopen');
  await expect(reopen).toHaveAttribute('href', /[?&]step=4(&|$)/);
  await reopen.click();
  await expect(app.testId('step-counter')).toBeVisible();
  await expect.poll(() => app.stepCount()).toBe(4);
  await expect(app.testId('crash')).toHaveCount(0);
});

test('the banner speaks the page\'s language, and its text stays text', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&lang=zh-Hans&panic-at=1');
  await app.step();
  const banner = app.testId('crash');
  await expect(banner).toContainText('游乐场因自己程序的错误而停止了。');
  await expect(app.testId('crash-reopen')).toHaveText('重新打开上一个正常的时刻');
  await expect(banner.locator('img, script')).toHaveCount(0);
});

test('an embedding page is told with abs:crash', async ({ page }) => {
  const frame = await hostPage(page, '?embed&preset=alignment&panic-at=3');
  await expect(frame.getByTestId('step-counter')).toBeVisible();
  await page.evaluate(() => document.getElementById('p').contentWindow.postMessage({ type: 'abs:step', count: 5 }, '*'));
  await expect.poll(() => page.evaluate(() => window.got.filter((m) => m.type === 'abs:crash'))).toEqual([
    { type: 'abs:crash', message: expect.stringContaining('panic-at=3') },
  ]);
  await expect(frame.getByTestId('crash')).toBeVisible();
});
