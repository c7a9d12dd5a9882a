// A classroom's display: the projector's larger text (P), light or dark whatever the system
// (T), both kept in the address; and the page on paper (print.css).
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const sites = require('./sites');

const background = (page) => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
const LIGHT = 'rgb(246, 247, 249)';
const DARK = 'rgb(22, 24, 28)';

test('T swaps light and dark whatever the system, and the address keeps the choice', async ({ browser }) => {
  for (const system of ['light', 'dark']) {
    const context = await browser.newContext({ colorScheme: system, baseURL: `http://127.0.0.1:${sites.port}/` });
    const page = await context.newPage();
    const app = new Playground(page);
    await app.open('?preset=wordcount');
    expect(await background(page), system).toBe(system === 'dark' ? DARK : LIGHT);
    await page.keyboard.press('t');
    const other = system === 'dark' ? 'light' : 'dark';
    expect(await background(page), system).toBe(other === 'dark' ? DARK : LIGHT);
    await expect(page).toHaveURL(new RegExp(`[?&]theme=${other}(&|$)`));
    // The moving items are painted in the chosen colours too (the loop reads the choice).
    await page.reload();
    await expect(app.testId('step-counter')).toBeVisible();
    expect(await background(page), `${system} after a reload`).toBe(other === 'dark' ? DARK : LIGHT);
    await page.keyboard.press('T');
    expect(await background(page), system).toBe(system === 'dark' ? DARK : LIGHT);
    await context.close();
  }
});

test('a link sets the display: ?theme=dark&projector, in an embed too', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&embed&theme=dark&projector');
  expect(await background(page)).toBe(DARK);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('18px');
});

test('P makes every text larger for a projector, and again P back', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  const size = async () => ({
    lesson: parseFloat(await app.lesson().evaluate((e) => getComputedStyle(e).fontSize)),
    narration: parseFloat(await page.locator('.narration ol').evaluate((e) => getComputedStyle(e).fontSize)),
    step: (await app.testId('step').boundingBox()).height,
  });
  const before = await size();
  await page.keyboard.press('p');
  await expect(page).toHaveURL(/[?&]projector(=|&|$)/);
  const after = await size();
  expect(after.lesson / before.lesson).toBeCloseTo(18 / 14, 2);
  expect(after.narration / before.narration).toBeCloseTo(18 / 14, 2);
  expect(after.step).toBeGreaterThan(before.step * 1.15);
  // The run goes on as before: P is not a step.
  expect(await app.stepCount()).toBe(0);
  await page.keyboard.press('P');
  await expect(page).not.toHaveURL(/projector/);
  expect((await size()).lesson).toBe(before.lesson);
  // The shortcuts say so.
  await page.keyboard.press('?');
  await expect(app.testId('shortcuts')).toContainText('projector');
  await expect(app.testId('shortcuts')).toContainText('light / dark');
});

test('on paper: the moment without the controls, its moving items on the drawing, what happened at this step, light on a dark system', async ({ page }) => {
  const app = new Playground(page);
  await page.emulateMedia({ colorScheme: 'dark' });
  await app.open('?preset=alignment');
  await app.stepUntil(async () => (await app.heldItems('Src A#0', 'Merge#0').count()) >= 2);
  const step = await app.stepCount();
  await page.emulateMedia({ media: 'print', colorScheme: 'dark' });
  await expect(app.testId('play')).toBeHidden();
  await expect(app.testId('timeline')).toBeHidden();
  await expect(app.testId('preset')).toBeHidden();
  await expect(app.lesson()).toBeVisible();
  // What moment this is stays.
  await expect(app.testId('step-counter')).toHaveText(new RegExp(`${step}`));
  await expect(page.locator('.controls .clock')).toBeVisible();
  expect(await background(page)).toBe('rgb(255, 255, 255)');
  // This step's sentences only.
  const shown = page.locator('[data-testid=narration] li:visible');
  expect(await shown.count()).toBeGreaterThan(0);
  for (const at of await shown.evaluateAll((lis) => lis.map((li) => Number(li.dataset.step)))) expect(at).toBe(step);
  // The drawing at the paper's width, and the moving items' canvas exactly over it.
  const graph = await page.locator('[data-testid=dataflow] svg.graph').boundingBox();
  const items = await page.locator('[data-testid=dataflow] canvas.items').boundingBox();
  const width = await page.evaluate(() => document.documentElement.clientWidth);
  expect(graph.width).toBeLessThanOrEqual(width);
  for (const k of ['x', 'y', 'width', 'height']) expect(Math.abs(items[k] - graph[k]), k).toBeLessThan(2);
  // A PDF of it is made (the print path works end to end).
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 4).toString()).toBe('%PDF');
});

test('a lesson on paper: the step\'s text and the moment it shows, without the buttons and the teacher\'s tools', async ({ page }) => {
  await page.goto('index.html?lesson=alignment&lang=en');
  await expect(page.getByTestId('lesson-next')).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.lp-text')).toBeVisible();
  await expect(page.locator('[data-testid=dataflow] svg.graph')).toBeVisible();
  for (const id of ['lesson-next', 'lesson-play', 'lesson-teacher', 'open-full']) await expect(page.getByTestId(id), id).toBeHidden();
  // The drawing has no empty stage under it.
  const graph = await page.locator('[data-testid=dataflow] svg.graph').boundingBox();
  const stage = await page.getByTestId('dataflow').boundingBox();
  expect(stage.height - graph.height).toBeLessThan(4);
});

test('the display goes with the page into another language', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&theme=dark&projector');
  await app.step(3);
  await app.setLang('zh-Hans');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await expect(page).toHaveURL(/[?&]theme=dark(&|$)/);
  await expect(page).toHaveURL(/[?&]projector(=|&|$)/);
  expect(await background(page)).toBe(DARK);
  expect(await page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).toBe('18px');
});
