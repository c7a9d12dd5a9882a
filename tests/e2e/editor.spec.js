// The scenario editor (a page of the second build, `?view=edit`): the running scenario as JSON;
// invalid text is refused with its line, column and field, and going back returns to the run as
// it was; a valid change runs from step 0 and travels whole in the permalink; a host page can
// load a whole scenario too. The student's page does not carry the editor.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

test('the editor refuses invalid JSON with line, column and field, and keeps the run', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=wordcount');
  await app.stepFast(25);
  const before = await app.fingerprint();
  await app.testId('editor-open').click();
  // The editor opens in place of the page, at this moment's address, in its own build.
  await expect(app.testId('editor-view')).toBeVisible();
  expect(page.url()).toMatch(/[?&]view=edit(&|$)/);
  expect(page.url()).toMatch(/[?&]step=25(&|$)/);
  await expect(page).toHaveTitle('Scenario editor');
  const editor = app.testId('editor');
  await expect(editor).toBeFocused();
  expect(await editor.evaluate((el) => [el.selectionStart, el.scrollTop])).toEqual([0, 0]);
  const original = await editor.inputValue();
  const scenario = JSON.parse(original);
  expect(scenario.name).toBe('wordcount');
  expect(scenario.graph.operators.map((o) => o.name)).toEqual(['Sentences', 'Split', 'Count', 'Sink']);

  // A missing comma: a syntax error with its place.
  await editor.fill(original.replace('"title":', '"title" '));
  await app.testId('editor-apply').click();
  const error = app.testId('editor-error');
  await expect(error).toBeVisible();
  await expect(error).toHaveText(/^Line 3, column \d+/);
  // In words, not the parser's: the colon after "title" is missing.
  await expect(error).toContainText('a colon : is missing');
  await expect(editor).toHaveAttribute('aria-invalid', 'true');
  // The caret is where the reader stopped, and the gutter marks that line.
  const column = Number((await error.textContent()).match(/^Line 3, column (\d+)/)[1]);
  const broken = original.replace('"title":', '"title" ');
  const want = broken.split('\n').slice(0, 2).join('\n').length + 1 + column - 1;
  await expect(editor).toBeFocused();
  expect(await editor.evaluate((el) => el.selectionStart)).toBe(want);
  // Scrolled to show it: the text starts at line 1 here, whichever line the caret was on.
  expect(await editor.evaluate((el) => el.scrollTop)).toBe(0);
  await expect(app.testId('editor-lines')).toHaveAttribute('data-error-line', '3');
  expect((await app.testId('editor-lines').textContent()).split('\n').length).toBe(broken.split('\n').length);

  // A value of the wrong type deep in the graph: the field is named.
  const lines = original.split('\n');
  const at = lines.findIndex((l) => l.includes('"name": "Count"'));
  const p = lines.findIndex((l, i) => i > at && l.includes('"parallelism"'));
  lines[p] = lines[p].replace(/\d+/, '"three"');
  await editor.fill(lines.join('\n'));
  await app.testId('editor-apply').click();
  await expect(error).toHaveText(new RegExp(`^Line ${p + 1}, column \\d+, in graph\\.operators\\[2\\]\\.parallelism: string "three" is given where a whole number \\(without quotes\\) is expected`));

  // A valid file that the engine refuses (forward between different parallelisms).
  const bad = JSON.parse(original);
  bad.graph.operators[1].parallelism = 3;
  await editor.fill(JSON.stringify(bad, null, 2));
  await app.testId('editor-apply').click();
  await expect(error).toContainText('forward');
  // It has no place in the syntax, but the editor finds the edge it is about: its line, the caret.
  await expect(error).toHaveText(/^Line \d+, column \d+: /);
  const edgeLine = Number(await app.testId('editor-lines').getAttribute('data-error-line'));
  const refused = JSON.stringify(bad, null, 2).split('\n');
  expect(refused[edgeLine - 1]).toMatch(/"from": /);
  expect(refused.slice(0, edgeLine).some((l) => l.includes('"edges"'))).toBe(true);
  await app.screenshot('editor-error');

  // An error deep in the file scrolls the text to it.
  const late = original.split('\n');
  const seedLine = late.findIndex((l) => l.includes('"seed"'));
  late[seedLine] = late[seedLine].replace(/\d+/, '-1');
  await editor.fill(late.join('\n'));
  await app.testId('editor-apply').click();
  await expect(error).toHaveText(new RegExp(`^Line ${seedLine + 1}, column \\d+, in seed:`));
  expect(await editor.evaluate((el) => el.scrollTop)).toBeGreaterThan(0);
  await expect(app.testId('editor-lines')).toHaveAttribute('data-error-line', String(seedLine + 1));

  // Back without applying: the run as it was, at the same moment.
  await app.testId('editor-close').click();
  await expect(app.testId('editor-view')).toHaveCount(0);
  await expect(app.testId('step-counter')).toBeVisible();
  expect(page.url()).not.toMatch(/view=edit/);
  expect(await app.fingerprint()).toEqual(before);
});

test('the student\'s page carries no editor: it is fetched only when opened', async ({ page }) => {
  const wasm = [];
  page.on('request', (r) => { if (r.url().endsWith('.wasm')) wasm.push(r.url()); });
  const app = new Playground(page);
  await app.open('?preset=alignment&lang=zh-Hans');
  expect(wasm.filter((u) => /abs-views-/.test(u))).toEqual([]);
  await app.testId('editor-open').click();
  await expect(app.testId('editor-view')).toBeVisible();
  expect(wasm.filter((u) => /abs-views-/.test(u))).toHaveLength(1);
  // In the page's language and script.
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await expect(page.locator('#editor-title')).toContainText('场景编辑器');
  await expect(page).toHaveTitle('场景编辑器');
});

test('in Chinese the editor says a syntax error in Chinese', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&lang=zh');
  await app.testId('editor-open').click();
  const editor = app.testId('editor');
  const original = await editor.inputValue();
  await editor.fill(`${original} x`);
  await app.testId('editor-apply').click();
  const error = app.testId('editor-error');
  await expect(error).toBeVisible();
  const text = await error.textContent();
  expect(text).toMatch(/[\u4e00-\u9fff]/);
  expect(text).not.toMatch(/expected|trailing|EOF/);
});

test('a valid change runs from step 0, and the permalink carries the edited scenario', async ({ page, browser }) => {
  const app = new Playground(page);
  await app.open('?preset=wordcount&mode=unaligned');
  await expect(app.subtask('Count', 2)).toHaveCount(0);
  await app.stepFast(10);
  await app.testId('editor-open').click();
  const scenario = JSON.parse(await app.testId('editor').inputValue());
  expect(scenario.config.mode).toBe('unaligned');
  scenario.graph.operators.find((o) => o.name === 'Count').parallelism = 3;
  scenario.title = 'Word count with three counters';
  await app.testId('editor').fill(JSON.stringify(scenario, null, 2));
  await app.testId('editor-apply').click();
  await expect(app.testId('editor-view')).toHaveCount(0);
  for (const i of [0, 1, 2]) {
    await expect(app.subtask('Count', i)).toBeVisible();
  }
  await expect(app.testId('step-counter')).toContainText('0');
  await expect(app.testId('mode')).toHaveValue('unaligned');
  await expect(app.testId('preset').locator('option:checked')).toHaveText(/Word count with three counters \(edited\)/);
  await expect(app.lesson()).toContainText('Word count with three counters');
  expect(page.url()).toMatch(/[?&]scenario=[A-Za-z0-9_-]+/);
  expect(page.url()).not.toMatch(/[?&]preset=/);

  await app.stepFast(30);
  const before = await app.fingerprint();
  await app.testId('share').click();
  const link = await app.testId('permalink').inputValue();
  expect(link).toMatch(/[?&]scenario=[A-Za-z0-9_-]+&mode=unaligned&/);
  expect(link.length).toBeLessThan(2500);
  await page.keyboard.press('Escape');

  const other = await browser.newPage();
  const again = new Playground(other);
  await other.goto(link);
  await expect(again.testId('step-counter')).toContainText('30');
  await expect(again.subtask('Count', 2)).toBeVisible();
  expect(await again.fingerprint()).toEqual(before);
  await other.close();

  // A damaged scenario in a link: a notice and the default scenario, never a blank page.
  const cut = link.replace(/scenario=([A-Za-z0-9_-]+)/, (_, code) => `scenario=${code.slice(0, code.length / 2)}`);
  await page.goto(cut);
  await expect(app.testId('notice')).toContainText('could not be followed');
  await expect(app.testId('step-counter')).toBeVisible();

  // Back to a preset: links name the preset again.
  await app.open('?preset=wordcount');
  expect(page.url()).toMatch(/[?&]preset=wordcount/);
});

test('start from a preset, and a host page loads a whole scenario', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.testId('editor-open').click();
  await app.testId('editor-preset').selectOption('token');
  const token = JSON.parse(await app.testId('editor').inputValue());
  expect(token.name).toBe('token');
  // Download gives the text as it is in the editor, as a file.
  const [file] = await Promise.all([page.waitForEvent('download'), app.testId('editor-download').click()]);
  expect(file.suggestedFilename()).toBe('alignment.json');
  expect(JSON.parse(require('fs').readFileSync(await file.path(), 'utf8'))).toEqual(token);
  await app.testId('editor-close').click();
  // Nothing applied: still the alignment scenario.
  await expect(app.subtask('Merge', 0)).toBeVisible();

  // A host page's abs:load with a whole scenario (here the page posts to itself).
  const recovery = token;
  recovery.title = 'One token, from the host page';
  await page.evaluate((s) => window.postMessage({ type: 'abs:load', scenario: s }, '*'), recovery);
  await expect(app.lesson()).toContainText('One token, from the host page');
  await expect(app.testId('mode')).toHaveValue('chandy-lamport');
  // An invalid one gives a notice and keeps what runs.
  await page.evaluate(() => window.postMessage({ type: 'abs:load', scenario: { name: 'x' } }, '*'));
  await expect(app.testId('notice')).toContainText('could not be loaded');
  // The student's build says where to see why (it carries no words of the checks: the editor,
  // in the second build, does).
  await expect(app.testId('notice')).toContainText('the editor says why');
  await expect(app.lesson()).toContainText('One token, from the host page');
});

test('a scenario that does not read, sent by the host page to the Chinese page, is refused in Chinese and says where to see why', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment&lang=zh');
  // A number where the title's string belongs: said with its line.
  await page.evaluate(() => window.postMessage({ type: 'abs:load', scenario: { title: 3 } }, '*'));
  await expect(app.testId('notice')).toContainText('第 1 行');
  await expect(app.testId('notice')).toContainText('情境編輯器會說明原因');
  await expect(app.testId('notice')).not.toContainText('editor');
  await expect(app.subtask('Merge', 0)).toBeVisible();
});

test('a preset edited on the Chinese page keeps its Chinese title and lesson', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=wordcount&lang=zh');
  const title = (await app.lesson().locator('strong, b, .title').first().textContent()).trim();
  await app.testId('editor-open').click();
  const editor = app.testId('editor');
  await expect(editor).toBeVisible();
  const scenario = JSON.parse(await editor.inputValue());
  expect(scenario.title).toBe(title);
  expect(scenario.lesson).toMatch(/[\u4e00-\u9fff]/);
  // Changed and applied: still Chinese on the Chinese page.
  scenario.seed = 7;
  await editor.fill(JSON.stringify(scenario, null, 2));
  await app.testId('editor-apply').click();
  await expect(app.testId('step-counter')).toBeVisible();
  await expect(app.lesson()).toContainText(title);
  // Started from the menu too.
  await app.testId('editor-open').click();
  await app.testId('editor-preset').selectOption('recovery');
  expect(JSON.parse(await app.testId('editor').inputValue()).title).toMatch(/[\u4e00-\u9fff]/);
});

test('the editor\'s hint links to the scenario format, which the site ships', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.testId('editor-open').click();
  const link = app.testId('editor-format');
  await expect(link).toHaveText('the scenario format');
  const response = await page.request.get(new URL(await link.getAttribute('href'), page.url()).href);
  expect(response.ok()).toBe(true);
  expect(await response.text()).toContain('# Scenario file format');
  await expect(app.testId('editor-view')).not.toContainText('docs/scenario.md');
});
