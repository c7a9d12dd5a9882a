// Text from outside is never markup (issue 26): a scenario whose names, title and lines are
// HTML, and a Flink plan whose operator descriptions are, show that HTML as text wherever the
// page shows them — the dataflow, the narration, the inspector, the lesson, the Share
// dialog's codes, the Flink view's notices — and run none of it.
const fs = require('fs');
const path = require('path');
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

const IMG = '<img src=x onerror="window.__xss=1">';
const SCRIPT = '<script>window.__xss=2</script>';

/** No element the hostile text would have made, and nothing it would have run. */
async function inert(page) {
  expect(await page.evaluate(() => window.__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  expect(await page.evaluate(() => [...document.scripts].some((s) => s.textContent.includes('__xss')))).toBe(false);
}

test('a scenario made of HTML shows it as text and runs none of it', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.testId('editor-open').click();
  const scenario = JSON.parse(await app.testId('editor').inputValue());
  scenario.title = `${IMG} title`;
  const merge = scenario.graph.operators.find((o) => o.name === 'Merge');
  merge.name = IMG;
  for (const e of scenario.graph.edges) {
    if (e.from === 'Merge') e.from = IMG;
    if (e.to === 'Merge') e.to = IMG;
  }
  scenario.graph.operators.find((o) => o.kind.type === 'source').kind.lines = [SCRIPT, 'plain words'];
  await app.testId('editor').fill(JSON.stringify(scenario, null, 2));
  await app.testId('editor-apply').click();
  await expect(app.testId('editor-view')).toHaveCount(0);
  await app.stepFast(120);
  await inert(page);
  // The global state's tables, the legend and the space-time diagram are written as strings
  // of markup: the names in them are escaped there too.
  while ((await app.checkpointStatus(1)) !== 'completed') await app.stepFast(10);
  await app.openCheckpoint(1);
  await expect(app.globalState()).toContainText(IMG);
  await app.testId('spacetime-toggle').click();
  await app.testId('user-cut').click();
  await expect(app.testId('spacetime')).toContainText(IMG);
  await expect(app.testId('cut-verdict')).toBeVisible();
  await inert(page);
  // Shown as the text it is: the operator's name on the dataflow, in the narration and in
  // the lesson (the title), the source's line in the inspector's records.
  await expect(page.locator('svg text', { hasText: IMG }).first()).toBeVisible();
  const sentences = (await app.sentences()).map((s) => s.text).join('\n');
  expect(sentences).toContain(IMG);
  await expect(app.lesson()).toContainText(`${IMG} title`);
  // The Share dialog's codes are text in text fields.
  await app.testId('share').click();
  const embed = await app.testId('embed-code').inputValue();
  expect(embed).not.toContain(IMG);
  expect(embed).toMatch(/^<iframe [^<]*><\/iframe>$/);
  // The SVG export carries the name as escaped text, so the file is inert where it is opened.
  const [download] = await Promise.all([page.waitForEvent('download'), app.testId('export-svg').click()]);
  const svg = fs.readFileSync(await download.path(), 'utf8');
  expect(svg).toContain('&lt;img src=x onerror=');
  expect(svg).not.toMatch(/<img|<script/i);
  await page.keyboard.press('Escape');
  await inert(page);
});

test('a Flink plan made of HTML shows it as text in the Flink view', async ({ page }) => {
  const plan = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'flink', 'plan-2.x.json'), 'utf8'));
  // The job's name titles the scenario; a description's markup (Flink writes `<br/>` in
  // them) is taken apart for operator names, never rendered.
  plan.name = IMG;
  plan.nodes[1].description = `${SCRIPT}<br/>`;
  await page.goto('index.html?view=flink&lang=en');
  await page.getByTestId('flink-import-text').fill(JSON.stringify(plan));
  await page.getByTestId('flink-import-apply').click();
  await expect(page.getByTestId('flink-plan')).toBeVisible();
  await inert(page);
  await expect(page.getByTestId('flink-plan').locator('h2')).toContainText(IMG);
});
