// The page is built once per language (index.html): English, Traditional Chinese and
// Simplified Chinese (whose texts are the Traditional converted when it is built). A visit
// loads exactly one build, the one of the language the app then shows, and the language menu
// reaches another build by loading the same moment again in it.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');
const sites = require('./sites');

const EN = /\/abs-playground-[0-9a-f]{16}_bg\.wasm$/;
const ZH = /\/abs-playground-zh-[0-9a-f]{16}_bg\.wasm$/;
const HANS = /\/abs-playground-hans-[0-9a-f]{16}_bg\.wasm$/;

/** Records the wasm files the page fetches. */
function wasmRequests(page) {
  const urls = [];
  page.on('request', (r) => { if (/\.wasm$/.test(new URL(r.url()).pathname)) urls.push(new URL(r.url()).pathname); });
  return urls;
}

test('each address loads one build, the one of the language the app shows', async ({ browser }) => {
  // What the address asks for decides (as Lang::from_code reads it: a `lang` it does not know is
  // English, with a notice); with no `lang`, the browser's first English or Chinese language.
  const cases = [
    { query: '', locale: 'en-US', build: EN, lang: 'en' },
    { query: '', locale: 'fr-FR', build: EN, lang: 'en' },
    { query: '', locale: 'zh-TW', build: ZH, lang: 'zh-Hant' },
    { query: '', locale: 'zh-CN', build: HANS, lang: 'zh-Hans' },
    { query: '?lang=zh', locale: 'en-US', build: ZH, lang: 'zh-Hant' },
    { query: '?lang=ZH-tw', locale: 'en-US', build: ZH, lang: 'zh-Hant' },
    { query: '?lang=zh-Hans', locale: 'en-US', build: HANS, lang: 'zh-Hans' },
    { query: '?lang=zh-hans-cn', locale: 'en-US', build: HANS, lang: 'zh-Hans' },
    { query: '?lang=zh-CN', locale: 'zh-TW', build: HANS, lang: 'zh-Hans' },
    { query: '?lang=en', locale: 'zh-CN', build: EN, lang: 'en' },
    { query: '?lang=fr', locale: 'zh-CN', build: EN, lang: 'en', notice: true },
    { query: '?lang=zh-XX', locale: 'zh-TW', build: EN, lang: 'en', notice: true },
    { query: '?lang=', locale: 'zh-TW', build: EN, lang: 'en', notice: true },
  ];
  for (const { query, locale, build, lang, notice } of cases) {
    const what = `${query || '(no query)'} in a ${locale} browser`;
    const context = await browser.newContext({ locale, baseURL: `http://127.0.0.1:${sites.port}/` });
    const page = await context.newPage();
    const fetched = wasmRequests(page);
    const app = new Playground(page);
    await app.open(query);
    await expect(page.locator('html'), what).toHaveAttribute('lang', lang);
    expect(fetched, what).toHaveLength(1);
    expect(fetched[0], what).toMatch(build);
    await expect(app.testId('notice'), what).toHaveCount(notice ? 1 : 0);
    await context.close();
  }
});

test('the language menu opens the same moment in the other build, and back', async ({ page }) => {
  const fetched = wasmRequests(page);
  const app = new Playground(page);
  await app.open('?preset=recovery&mode=at-least-once');
  expect(fetched).toEqual([expect.stringMatching(EN)]);
  await app.stepFast(60);
  // A choice by hand, a selection, an open global state, "Why it matters" and a speed.
  await app.subtask('Split', 0).click();
  await app.testId('fail-task').click();
  await app.stepFast(40);
  await app.subtask('Count', 1).click();
  await app.openCheckpoint(1);
  await app.testId('theory-toggle').click();
  await expect(app.testId('theory')).toContainText('Count');
  await app.testId('speed').fill('1');
  await expect(app.speedLabel()).toHaveText('2×');
  const before = await app.fingerprint();
  const state = await app.readGlobalState();
  // Escape closes the share dialog and also clears the selection: select again after it.
  const permalink = async () => {
    await app.testId('share').click();
    const link = await app.testId('permalink').inputValue();
    await page.keyboard.press('Escape');
    return link;
  };
  const link = await permalink();
  expect(link).toMatch(/[?&]sel=t%3ACount%231(&|$)/);
  await app.subtask('Count', 1).click();
  await app.openCheckpoint(1);
  await expect(app.globalState()).toBeVisible();

  await app.setLang('zh');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(app.testId('step')).toHaveText(/下一步/);
  expect(fetched).toEqual([expect.stringMatching(EN), expect.stringMatching(ZH)]);
  // The same moment: step, the failure chosen by hand, what is selected and open.
  await expect(app.globalState()).toBeVisible();
  const after = await app.fingerprint();
  expect(after.subtasks).toEqual(before.subtasks);
  expect(after.channels).toEqual(before.channels);
  expect(after.buffers).toEqual(before.buffers);
  expect(after.counter.match(/\d+/)[0]).toBe('101');
  await expect(app.subtask('Count', 1)).toHaveClass(/\bselected\b/);
  const restored = await app.readGlobalState();
  expect(restored.checkpoint).toBe(state.checkpoint);
  expect(restored.tasks.length).toBe(state.tasks.length);
  expect(restored.channels.length).toBe(state.channels.length);
  expect(await permalink()).toBe(link.replace('lang=en', 'lang=zh'));
  await expect(app.testId('theory')).toContainText('Count');
  await expect(app.testId('theory-toggle')).toHaveAttribute('aria-expanded', 'true');
  await expect(app.speedLabel()).toHaveText('2×');
  await expect(app.testId('play')).toHaveAttribute('aria-pressed', 'false');
  // What the load carried beyond the permalink has left the address: reloading it or copying
  // it from the address bar gives the moment, not "Why it matters" open again.
  const params = () => new URL(page.url()).searchParams;
  await expect.poll(() => params().has('theory')).toBe(false);
  expect(params().get('speed')).toBe('2');
  // Back to English while it plays: it plays on after the load.
  await app.togglePlay();
  await app.setLang('en');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await expect(app.testId('play')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => params().has('autoplay')).toBe(false);
  expect(fetched).toHaveLength(3);
  expect(fetched[2]).toMatch(EN);
  // Traditional to Simplified is a build of its own too: the same moment, loaded in it.
  await app.setLang('zh');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await app.setLang('zh-Hans');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await expect(app.testId('step')).toHaveText(/下一步/);
  expect(fetched).toHaveLength(5);
  expect(fetched[3]).toMatch(ZH);
  expect(fetched[4]).toMatch(HANS);
});

test('by keyboard: an arrow key in the language menu opens the other build with the menu focused', async ({ page }) => {
  const app = new Playground(page);
  await app.open('?preset=alignment');
  await app.step(5);
  await app.testId('lang').focus();
  // A closed menu changes its choice on an arrow key: English → 繁體中文 loads the zh build.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hant');
  await expect(app.testId('lang')).toBeFocused();
  expect(new URL(page.url()).hash).toBe('');
  // 繁體中文 → 简体中文 loads the Simplified build, the menu focused again.
  await page.keyboard.press('ArrowDown');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
  await expect(app.testId('lang')).toBeFocused();
  expect(await app.stepCount()).toBe(5);
});

// Chromium cuts a select's text at its edge, with no ellipsis, and the closed menus are what a
// student reads to know the scenario and the mode. At phone width every entry each header menu
// offers must fit inside its box, in every language: the text as the select's own font draws it,
// plus its padding and the menu arrow (21 px, measured: an entry 6 px short of it was cut).
test('at phone width every entry of the header\'s menus fits its box, in every language', async ({ page }) => {
  const ARROW = 21;
  for (const [w, h] of [[390, 844], [360, 740]]) {
    await page.setViewportSize({ width: w, height: h });
    for (const lang of ['en', 'zh-Hant', 'zh-Hans']) {
      // Backpressure offers the ABS modes and the timeout entry; token, Chandy-Lamport.
      for (const preset of ['backpressure', 'token']) {
        const app = new Playground(page);
        await app.open(`?preset=${preset}&lang=${lang}`);
        const menus = await page.locator('#app .header select').evaluateAll((selects) => {
          const ctx = document.createElement('canvas').getContext('2d');
          return selects.map((s) => {
            const css = getComputedStyle(s);
            ctx.font = css.font;
            const room = s.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight);
            return { id: s.dataset.testid, room, entries: [...s.options].map((o) => [o.text, ctx.measureText(o.text).width]) };
          });
        });
        expect(menus.length, `${lang} ${preset}`).toBe(3);
        for (const { id, room, entries } of menus) {
          for (const [text, width] of entries) {
            expect(width + ARROW, `${w} px, ${lang}, ${preset}: ${id} entry "${text}"`).toBeLessThanOrEqual(room);
          }
        }
      }
    }
  }
});
