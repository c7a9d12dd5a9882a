// Issue 22's last items: the subtitle is whole at 1280 px, the Chinese task-states table keeps
// each column name on one line, and a Chinese page says why it refused something in Chinese
// (a link's scenario or choices, a host page's scenario, a file in the editor).
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

/** Runs of Latin letters outside quotes (「…」, “…”, `…`): what a Chinese sentence may not hold. */
function englishWords(text) {
  const outside = text.replace(/「[^」]*」|“[^”]*”|`[^`]*`/g, ' ');
  const kept = new Set(['Chandy', 'Lamport', 'ABS', 'JSON', 'URL', 'UTF', 'base64', 'null', 'ms']);
  return (outside.match(/[A-Za-z_][A-Za-z_0-9]+/g) || []).filter((w) => !kept.has(w));
}

for (const lang of ['en', 'zh', 'zh-Hans']) {
  test(`the subtitle is whole at 1280×800 (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const app = new Playground(page);
    await app.open(`?preset=backpressure&lang=${lang}`);
    const tagline = page.locator('#app .tagline');
    await expect(tagline).toBeVisible();
    const fit = await tagline.evaluate((t) => ({ scroll: t.scrollWidth, client: t.clientWidth }));
    expect(fit.scroll, 'the subtitle is cut').toBeLessThanOrEqual(fit.client);
  });
}

test('the Chinese task-states table keeps each column name on one line', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const app = new Playground(page);
  await app.open('?preset=wordcount&lang=zh&step=300&open=2');
  const heads = page.getByTestId('task-states').locator('thead th');
  expect(await heads.count()).toBeGreaterThanOrEqual(6);
  for (const h of await heads.evaluateAll((ths) => ths.map((th) => {
    const line = parseFloat(getComputedStyle(th).lineHeight) || 16;
    const pad = parseFloat(getComputedStyle(th).paddingTop) + parseFloat(getComputedStyle(th).paddingBottom);
    return { text: th.textContent, lines: Math.round((th.clientHeight - pad) / line) };
  }))) {
    expect(h.lines, `${h.text} takes ${h.lines} lines`).toBe(1);
  }
});

test('a Chinese page says in Chinese why a link or a host page was refused', async ({ page }) => {
  const app = new Playground(page);
  const notice = app.testId('notice');
  // A choice the engine refuses (a restart while nothing failed), a choice that is none, and a
  // scenario code cut short: each in Chinese, naming what it names.
  for (const [query, says] of [
    ['?preset=recovery&step=20&choices=5s&lang=zh', '第 5 步的選擇'],
    ['?preset=recovery&step=40&choices=12q9&lang=zh', '「12q9」'],
    ['?scenario=AQ&lang=zh', '不完整'],
    ['?scenario=AQ&lang=zh-Hans', '不完整'],
  ]) {
    await app.open(query);
    await expect(notice.first()).toContainText(says);
    const text = await notice.first().innerText();
    expect(englishWords(text), `${query}: ${text}`).toEqual([]);
  }

  // The host page loads a scenario whose forward edge joins parallelism 2 to 1: the student's
  // page refuses it in Chinese and says where to see why — the scenario editor, which says it
  // in Chinese too, naming the edge.
  const bad = {
    name: 'x', title: 'x',
    graph: {
      operators: [
        { name: 'Src', parallelism: 2, kind: { type: 'source', lines: ['a b'], interval: 5, bounded: false } },
        { name: 'Sink', parallelism: 1, kind: { type: 'sink' } },
      ],
      edges: [{ from: 'Src', to: 'Sink', partitioning: 'forward', latency: 3 }],
    },
  };
  await app.open('?preset=alignment&lang=zh');
  await page.evaluate((s) => window.postMessage({ type: 'abs:load', scenario: s }, '*'), bad);
  await expect(notice.first()).toContainText('情境編輯器會說明原因');
  expect(englishWords(await notice.first().innerText())).toEqual([]);
  await app.testId('editor-open').click();
  await app.testId('editor').fill(JSON.stringify(bad, null, 2));
  await app.testId('editor-apply').click();
  const error = app.testId('editor-error');
  await expect(error).toContainText('forward');
  const text = await error.innerText();
  expect(text).toContain('「Src」');
  expect(englishWords(text.replace(/forward|rebalance|hash/g, ' ')), text).toEqual([]);
});
