// Guided lessons (issue 28) as a student, a teacher and a course page meet them: every built-in
// lesson walked to its end in both languages, each question answered wrong and then right, the
// page's choices, verdicts and reveal steps held against the engine's own answers
// (`abs-sim lesson`, which reaches each step's moment as the page does); a teacher's lesson
// served next to the page; a broken one refused with its line; the answers posted to an
// embedding page; progress kept across a reload; the keyboard alone.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { test, expect } = require('./fixtures');
const { Playground, hostPage } = require('./page');
const sites = require('./sites');

const LESSONS = ['alignment', 'at-least-once', 'unaligned', 'chandy-lamport', 'recovery', 'fifo'];
const dir = (lang) => path.join(__dirname, '../../static/lessons', lang);

/** The engine's answers: one object per step (`abs-sim lesson`). */
function engine(file) {
  const out = execFileSync(sites.absSim, ['lesson', file], { encoding: 'utf8' });
  return out.trim().split('\n').map((l) => JSON.parse(l));
}

/** Picks the choices at `indices` (and no other) in the question shown. */
async function pick(page, indices) {
  const answers = page.getByTestId('lesson-answer');
  const n = await answers.count();
  for (let i = 0; i < n; i++) {
    const want = indices.includes(i);
    const box = answers.nth(i);
    if ((await box.isChecked()) !== want) await box.click();
  }
}

async function open(page, query) {
  await page.goto(`index.html${query}`);
  await expect(page.getByTestId('lesson-step')).toBeVisible();
}

for (const lang of ['en', 'zh']) {
  for (const name of LESSONS) {
    test(`the ${name} lesson in ${lang}: every question wrong, then right, as the engine answers it`, async ({ page }) => {
      const steps = engine(path.join(dir(lang), `${name}.json`));
      await open(page, `?lesson=${name}&lang=${lang}`);
      await page.evaluate(() => localStorage.clear());
      let asked = 0;
      for (const [i, step] of steps.entries()) {
        const shown = page.getByTestId('lesson-step');
        await expect(shown).toHaveAttribute('data-index', String(i));
        await expect(page.getByTestId('step-count')).toHaveText(String(step.position));
        if (!step.ask) {
          await expect(page.getByTestId('lesson-question')).toHaveCount(0);
          await page.getByTestId('lesson-next').click();
          continue;
        }
        asked += 1;
        const answers = page.getByTestId('lesson-answer');
        await expect(answers).toHaveCount(step.choices.length);
        // The page offers the engine's choices: channels by name, records by id, words.
        const several = step.ask === 'buffered' || step.ask === 'counted-twice';
        if (step.ask === 'blocked-input' || several) {
          const labels = await page.locator('[data-testid=lesson-question] label').allInnerTexts();
          step.choices.forEach((c, k) => expect(labels[k]).toContain(c));
        }
        // Wrong first: for one answer, another choice; for several, all but the first right one
        // or the first wrong one added.
        const right = step.answer;
        let wrong;
        if (several) {
          wrong = right.length ? right.slice(1) : [0];
        } else {
          wrong = [step.choices.findIndex((_, k) => !right.includes(k))];
        }
        await pick(page, wrong);
        await page.getByTestId('lesson-check').click();
        const feedback = page.getByTestId('lesson-feedback');
        await expect(feedback).toHaveAttribute('data-correct', 'false');
        await expect(page.getByTestId('step-count')).toHaveText(String(step.reveal));
        await expect(answers.first()).toBeDisabled();
        // Try again: the step's moment again, then the engine's answer.
        await page.getByTestId('lesson-retry').click();
        await expect(page.getByTestId('step-count')).toHaveText(String(step.position));
        await expect(feedback).not.toHaveAttribute('data-correct', /./);
        await pick(page, right);
        await page.getByTestId('lesson-check').click();
        await expect(feedback).toHaveAttribute('data-correct', 'true');
        await expect(feedback).toContainText(lang === 'en' ? 'Right.' : '答對了。');
        // The reason names the words counted twice.
        if (step.ask === 'counted-twice') {
          for (const k of right) await expect(feedback).toContainText(`“${step.choices[k]}”`);
        }
        await expect(page.getByTestId('step-count')).toHaveText(String(step.reveal));
        await page.getByTestId('lesson-next').click();
      }
      const done = page.getByTestId('lesson-done');
      // Every question was answered wrong first: the score counts first answers only.
      await expect(done).toContainText(lang === 'en' ? `0 of ${asked} questions right the first time` : `${asked} 題中第一次就答對 0 題`);
    });
  }
}

test('clicking the channel that blocks answers "which input blocks next?"', async ({ page }) => {
  await open(page, '?lesson=alignment');
  await page.evaluate(() => localStorage.clear());
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-index', '1');
  const [step] = engine(path.join(dir('en'), 'alignment.json')).filter((s) => s.ask === 'blocked-input');
  const [from, to] = step.choices[step.answer[0]].split('→');
  // Along the channel's path until a click lands on it (the lesson page has no inspector).
  const hit = new Playground(page).channel(from, to).locator('path.hit');
  const choice = page.getByTestId('lesson-answer').nth(step.answer[0]);
  for (const f of [0.5, 0.35, 0.65, 0.2, 0.8]) {
    const at = await hit.evaluate((p, f) => {
      const q = p.getPointAtLength(p.getTotalLength() * f);
      const m = p.getScreenCTM();
      return { x: q.x * m.a + q.y * m.c + m.e, y: q.x * m.b + q.y * m.d + m.f };
    }, f);
    await page.mouse.click(at.x, at.y);
    if (await choice.isChecked()) break;
  }
  await expect(choice).toBeChecked();
  await page.getByTestId('lesson-check').click();
  await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
  await expect(page.locator(`[data-testid="channel-${from}-${to}"]`).first()).toHaveAttribute('data-blocked', 'true');
});

test('clicking a record in the dataflow ticks it for "which records will wait?", and again unticks it', async ({ page }) => {
  const steps = engine(path.join(dir('en'), 'alignment.json'));
  const index = steps.findIndex((s) => s.ask === 'buffered');
  await open(page, '?lesson=alignment');
  await page.evaluate(() => localStorage.clear());
  for (let i = 0; i < index; i++) {
    if (steps[i].ask) {
      await pick(page, steps[i].answer);
      await page.getByTestId('lesson-check').click();
    }
    await page.getByTestId('lesson-next').click();
  }
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-index', String(index));
  await expect(page.getByTestId('lesson-question')).toContainText('click them in the dataflow');
  await page.waitForTimeout(400); // the eased clock settles, the canvas is painted
  const items = await new Playground(page).paintedItems();
  expect(items.length).toBeGreaterThan(0);
  const boxes = page.getByTestId('lesson-answer');
  const checked = async () => {
    const out = [];
    for (let i = 0; i < (await boxes.count()); i++) if (await boxes.nth(i).isChecked()) out.push(i);
    return out;
  };
  // A painted item that is one of the question's records: its click ticks exactly one box.
  let hit = null;
  for (const it of items) {
    await page.mouse.click(it.x, it.y);
    const now = await checked();
    if (now.length === 1) {
      hit = { it, box: now[0] };
      break;
    }
    expect(now).toEqual([]);
  }
  expect(hit, 'a record of the question was clicked').toBeTruthy();
  await page.mouse.click(hit.it.x, hit.it.y);
  expect(await checked()).toEqual([]);
});

test('a teacher\'s lesson is fetched from the site; a broken one is refused with its line; another site\'s is not fetched', async ({ page }) => {
  const mine = {
    title: 'Week 3: <img src=x onerror=alert(1)>',
    steps: [
      { at: 'preset=wordcount&step=40', text: 'Our own words <b>not bold</b>.', ask: { kind: 'consistent' } },
      { at: 'preset=token&mode=aligned-sideways&step=3', text: 'A mode that does not exist.', ask: { kind: 'consistent' } },
    ],
  };
  fs.mkdirSync(path.join(sites.site, 'week3'), { recursive: true });
  fs.writeFileSync(path.join(sites.site, 'week3', 'mine.json'), JSON.stringify(mine));
  fs.writeFileSync(path.join(sites.site, 'week3', 'broken.json'), '{"title": "x",\n "steps": [{"at": "", "txt": "oops"}]}');
  let alerted = false;
  page.on('dialog', (d) => { alerted = true; d.dismiss(); });
  await open(page, '?lesson=week3/mine.json');
  await expect(page.locator('h1')).toHaveText(mine.title);
  // The teacher's file is checked whole when it opens: every broken step said at once.
  const problems = page.getByTestId('lesson-problems');
  await expect(problems.locator('summary')).toHaveText('One step of this lesson file would not work for a student:');
  await expect(problems.locator('li')).toHaveText(['Step 2: This step\'s moment cannot be shown: mode "aligned-sideways": the scenario does not run in it.']);
  await expect(page.locator('.lp-text')).toHaveText('Our own words <b>not bold</b>.');
  await expect(page.getByTestId('step-count')).toHaveText('40');
  await page.getByTestId('lesson-answer').first().check();
  await page.getByTestId('lesson-check').click();
  await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', /true|false/);
  expect(alerted).toBe(false);
  // A step whose moment cannot be reached says why, and asks nothing (as `abs-sim lesson` fails it).
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-error')).toContainText('mode "aligned-sideways": the scenario does not run in it');
  await expect(page.getByTestId('lesson-question')).toHaveCount(0);
  // The score counts the question that was asked only, and says why the other was not.
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-done')).toContainText('of 1 question right the first time. 1 more could not be asked');

  await page.goto('index.html?lesson=week3/broken.json');
  await expect(page.getByTestId('lesson-error')).toContainText('line 2, column 28');
  await expect(page.getByTestId('lesson-error')).toContainText('txt');
  await page.goto('index.html?lesson=https://elsewhere.example/l.json');
  await expect(page.getByTestId('lesson-error')).toContainText('built-in lessons are alignment');
});

test('an embedding page hears every answer and the end, and can load another lesson', async ({ page }) => {
  const frame = await hostPage(page, '?lesson=fifo&embed');
  await expect(frame.getByTestId('lesson-step')).toBeVisible();
  await frame.getByTestId('lesson-menu').waitFor({ state: 'detached' });
  const steps = engine(path.join(dir('en'), 'fifo.json'));
  for (const step of steps) {
    if (step.ask) {
      // A Chandy-Lamport moment: the question and its answer say snapshot, as the page does.
      await expect(frame.getByTestId('lesson-question').locator('legend')).toContainText('the next snapshot');
      await pick(frame, step.answer);
      await frame.getByTestId('lesson-check').click();
      await expect(frame.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
      await expect(frame.getByTestId('lesson-feedback')).toContainText('Snapshot ');
      await expect(frame.getByTestId('lesson-feedback')).not.toContainText('heckpoint');
    }
    await frame.getByTestId('lesson-next').click();
  }
  await expect(frame.getByTestId('lesson-done')).toBeVisible();
  // The messages cross to the host page asynchronously: the last may land after the frame shows it.
  const heard = (type) => page.evaluate((t) => window.got.filter((m) => m.type === t), type);
  await expect.poll(() => heard('abs:lesson-done')).toEqual([
    { type: 'abs:lesson-done', lesson: 'fifo', correct: 2, total: 2, mastery: null },
  ]);
  // Each answer names its question, its text, the choices as the page words them, the
  // student's answer and the right one.
  const asked = steps.map((s, i) => [s, i + 1]).filter(([s]) => s.ask);
  const answers = await heard('abs:answer');
  expect(answers).toHaveLength(asked.length);
  for (const [a, [step, n]] of answers.map((a, i) => [a, asked[i]])) {
    expect(a).toMatchObject({ lesson: 'fifo', step: n, correct: true, first: true, question: `step-${n}` });
    expect(a.text).toContain('the next snapshot');
    expect(a.choices).toEqual(['yes', 'no']);
    expect(a.picked).toEqual(step.answer);
    expect(a.right).toEqual(step.answer);
  }
  // A step shown is heard with the progress; the last is the lesson's end.
  const shown = await heard('abs:lesson-step');
  expect(shown[0]).toMatchObject({ lesson: 'fifo', step: 1, steps: steps.length, progress: '0;' + '-'.repeat(steps.length) });
  expect(shown.at(-1)).toMatchObject({ step: steps.length + 1, steps: steps.length });
  expect(shown.at(-1).progress).toMatch(new RegExp(`^${steps.length};`));
  await page.evaluate(() => document.getElementById('p').contentWindow.postMessage({ type: 'abs:load', lesson: 'unaligned' }, '*'));
  await expect(frame.locator('h1')).toHaveText('What an unaligned checkpoint stores');
});

test('progress is kept across a reload, and the keyboard alone answers', async ({ page }) => {
  await open(page, '?lesson=at-least-once');
  await expect(page.getByTestId('lesson-problems')).toHaveCount(0);
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-index', '0');
  // Tab to the first choice, arrow to the second (a radio group), Space, then Tab to Answer.
  await page.getByTestId('lesson-answer').first().focus();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('lesson-answer').nth(1)).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('lesson-check')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
  await page.getByTestId('lesson-next').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-index', '1');
  await page.reload();
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-index', '1');
  await expect(page.locator('.lp-dots li.right')).toHaveCount(1);
});

test('the playground links to the lessons', async ({ page }) => {
  await page.goto('index.html?preset=wordcount&lang=zh');
  await page.getByTestId('lessons-open').click();
  await expect(page.getByTestId('lesson-step')).toBeVisible();
  await expect(page.locator('h1')).toHaveText('一步一步看對齊');
  await expect(page.getByTestId('lesson-menu')).toHaveValue('alignment');
  // The lesson for the preset and mode on screen, where there is one.
  for (const [query, lesson] of [
    ['?preset=alignment&mode=unaligned', 'unaligned'],
    ['?preset=alignment&mode=at-least-once', 'at-least-once'],
    ['?preset=token', 'chandy-lamport'],
    ['?preset=bank', 'fifo'],
    ['?preset=recovery&mode=at-least-once', 'recovery'],
    ['?preset=alignment', 'alignment'],
  ]) {
    await page.goto(`index.html${query}&lang=en`);
    await expect(page.getByTestId('lessons-open')).toHaveAttribute('href', `?lesson=${lesson}&lang=en`);
  }
  await page.getByTestId('lessons-open').click();
  await expect(page.getByTestId('lesson-menu')).toHaveValue('alignment');
  await page.goto('index.html?preset=alignment&mode=unaligned&lang=en');
  await page.getByTestId('lessons-open').click();
  await expect(page.getByTestId('lesson-menu')).toHaveValue('unaligned');
});

test('an embedded player opens a lesson on abs:load, still embedded, still answering its host', async ({ page }) => {
  const frame = await hostPage(page, '?embed&preset=alignment');
  await expect(frame.getByTestId('step-counter')).toBeVisible({ timeout: 15_000 });
  await page.evaluate(() => document.getElementById('p').contentWindow.postMessage({ type: 'abs:load', lesson: 'at-least-once' }, '*'));
  await expect(frame.getByTestId('lesson-step')).toBeVisible();
  await expect(frame.getByTestId('lesson-menu')).toHaveCount(0);
  await frame.getByTestId('lesson-answer').nth(1).check();
  await frame.getByTestId('lesson-check').click();
  await expect.poll(() => page.evaluate(() => window.got.find((m) => m.type === 'abs:answer'))).toMatchObject(
    { type: 'abs:answer', lesson: 'at-least-once', step: 1, correct: true, first: true, picked: [1] });
});

test('clicking where the token will be answers "which global state?"', async ({ page }) => {
  await open(page, '?lesson=chandy-lamport');
  await page.getByTestId('lesson-next').click();
  const [step] = engine(path.join(dir('en'), 'chandy-lamport.json')).filter((s) => s.ask === 'global-state');
  expect(step.choices[step.answer[0]]).toBe('at-p');
  await new Playground(page).subtask('p', 0).click();
  await expect(page.getByTestId('lesson-answer').nth(step.answer[0])).toBeChecked();
  await page.getByTestId('lesson-check').click();
  await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
  await expect(page.getByTestId('lesson-feedback')).toContainText('token at p (p: s1');
});

test('the lesson page has a language menu; the student goes on where they were', async ({ page }) => {
  await open(page, '?lesson=alignment');
  await page.evaluate(() => localStorage.clear());
  await page.reload();
  await page.getByTestId('lesson-next').click();
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-index', '1');
  // The teacher's file picker is folded away.
  await expect(page.getByTestId('lesson-file')).toBeHidden();
  await page.getByTestId('lang').selectOption('zh-Hans');
  await expect(page.locator('h1')).toHaveText('一步一步看对齐');
  expect(new URL(page.url()).searchParams.get('lang')).toBe('zh-Hans');
  await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-index', '1');
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-Hans');
});
