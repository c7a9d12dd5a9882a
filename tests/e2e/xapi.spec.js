// Lessons reported as xAPI statements (issue 50) to a real learning record store: ralph's LRS,
// started on loopback by .ci/lrs.sh (tests/e2e/lrs.js). A lesson launched with cmi5's launch
// names in its address, or given the store by its host (`abs:load {"lesson", "xapi"}`), sends
// a statement per event; read back from the store's own API, they say what was answered. The
// store away: statements wait and arrive, once each, in order, and the lesson never waits. Bad
// credentials: one notice, and the lesson goes on.
const { execFileSync } = require('child_process');
const crypto = require('crypto');
const fs = require('fs');
const os = require('os');
const path = require('path');
const { test, expect } = require('./fixtures');
const { hostPage } = require('./page');
const lrs = require('./lrs');
const sites = require('./sites');

const VERBS = 'http://adlnet.gov/expapi/verbs/';
const verb = (s) => s.verb.id.replace(VERBS, '');
const ACTOR = { objectType: 'Agent', account: { homePage: 'https://course.example.edu', name: 'student-7' } };

/** The engine's answers to a built-in lesson's questions (`abs-sim lesson`). */
function engine(name) {
  const file = path.join(__dirname, '../../static/lessons/en', `${name}.json`);
  const out = execFileSync(sites.absSim, ['lesson', file], { encoding: 'utf8' });
  return out.trim().split('\n').map((l) => JSON.parse(l));
}

let store;
let dir;
test.beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'abs-lrs-'));
  store = lrs.start(dir);
});
test.afterAll(() => {
  lrs.stop(dir);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The lesson's address with the store given as cmi5 names it. */
function launch(lesson, registration, auth = store.auth) {
  const q = new URLSearchParams({ lesson, endpoint: store.endpoint, auth, actor: JSON.stringify(ACTOR), registration });
  return `index.html?${q}`;
}

/** Answers the question shown with the choices at `indices`. */
async function answer(page, indices) {
  for (const i of indices) await page.getByTestId('lesson-answer').nth(i).check();
  await page.getByTestId('lesson-check').click();
}

test('a lesson sends a statement per event, and the store gives back what was answered', async ({ page }) => {
  const registration = crypto.randomUUID();
  const steps = engine('fifo');
  const asked = steps.map((s, i) => [s, i + 1]).filter(([s]) => s.ask);
  expect(asked).toHaveLength(2);
  await page.goto(launch('fifo', registration));
  for (const [i, step] of steps.entries()) {
    await expect(page.getByTestId('lesson-step')).toHaveAttribute('data-index', String(i));
    if (step.ask && i === asked[0][1] - 1) {
      // The first question wrong, then right.
      await answer(page, [1 - step.answer[0]]);
      await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'false');
      await page.getByTestId('lesson-retry').click();
    }
    if (step.ask) {
      await answer(page, step.answer);
      await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
    }
    await page.getByTestId('lesson-next').click();
  }
  await expect(page.getByTestId('lesson-done')).toContainText('1 of 2 questions right the first time');
  await expect(page.getByTestId('lms-notice')).toHaveCount(0);

  const got = () => lrs.statements(store, { registration });
  await expect.poll(async () => (await got()).map(verb), { timeout: 20_000 })
    .toEqual(['launched', 'answered', 'answered', 'answered', 'completed']);
  const all = await got();
  const lessonId = `http://127.0.0.1:${sites.port}/lessons/fifo`;
  for (const s of all) {
    expect(s.actor).toMatchObject(ACTOR);
    expect(s.context.registration).toBe(registration);
    expect(s.context.language).toBe('en');
    expect(s.id).toMatch(/^[0-9a-f-]{36}$/);
  }
  const [launched, wrong, right, second, completed] = all;
  expect(launched.object).toMatchObject({ id: lessonId, definition: { type: 'http://adlnet.gov/expapi/activities/lesson', name: { en: 'Why Chandy-Lamport needs FIFO channels' } } });
  for (const [s, [step, n], success, first] of [[wrong, asked[0], false, true], [right, asked[0], true, false], [second, asked[1], true, true]]) {
    expect(s.object.id).toBe(`${lessonId}/step-${n}`);
    expect(s.object.definition).toMatchObject({
      type: 'http://adlnet.gov/expapi/activities/cmi.interaction',
      interactionType: 'choice',
      choices: [{ id: '0', description: { en: 'yes' } }, { id: '1', description: { en: 'no' } }],
      correctResponsesPattern: [String(step.answer[0])],
    });
    expect(s.object.definition.name.en).toContain('the next snapshot');
    expect(s.result.success).toBe(success);
    expect(s.result.response).toBe(String(success ? step.answer[0] : 1 - step.answer[0]));
    expect(s.result.extensions['https://abs-playground.example/xapi/first-answer']).toBe(first);
    expect(s.context.contextActivities.parent).toEqual([{ objectType: 'Activity', id: lessonId }]);
  }
  expect(completed.object.id).toBe(lessonId);
  expect(completed.result).toMatchObject({ completion: true, score: { raw: 1, min: 0, max: 2, scaled: 0.5 } });
  // The lesson sets no mastery score: neither passed nor failed.
  expect(all.some((s) => /passed|failed/.test(verb(s)))).toBe(false);
});

test.describe('a store that does not take them', () => {
  // The browser logs each refused or failed request as an error.
  test.use({ expectedErrors: [/ERR_CONNECTION_REFUSED|status of 401/] });

  test('the store away: statements wait and arrive once each, in order; the lesson never waits', async ({ page }) => {
    const registration = crypto.randomUUID();
    let refused = 0;
    // The store answers nothing for its first three requests.
    await page.route(`${store.endpoint}statements`, (route) => {
      if (refused < 3) {
        refused += 1;
        return route.abort('connectionrefused');
      }
      return route.continue();
    });
    await page.goto(launch('at-least-once', registration));
    const steps = engine('at-least-once');
    const first = steps.findIndex((s) => s.ask);
    for (let i = 0; i < first; i++) await page.getByTestId('lesson-next').click();
    await answer(page, steps[first].answer);
    // Answered at once, whatever the store.
    await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
    await expect(page.getByTestId('lms-notice')).toHaveCount(0);
    expect(await lrs.statements(store, { registration })).toEqual([]);
    await expect.poll(async () => (await lrs.statements(store, { registration })).map(verb), { timeout: 30_000 })
      .toEqual(['launched', 'answered']);
    expect(refused).toBe(3);
  });

  test('bad credentials: one notice, and the lesson goes on', async ({ page }) => {
    const registration = crypto.randomUUID();
    await page.goto(launch('fifo', registration, `Basic ${Buffer.from('abs:wrong').toString('base64')}`));
    const notice = page.getByTestId('lms-notice');
    await expect(notice).toHaveText(/refused this lesson's statements/);
    await expect(notice).toHaveAttribute('role', 'status');
    const steps = engine('fifo');
    const first = steps.findIndex((s) => s.ask);
    for (let i = 0; i < first; i++) await page.getByTestId('lesson-next').click();
    await answer(page, steps[first].answer);
    await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
    await expect(notice).toHaveCount(1);
    expect(await lrs.statements(store, { registration })).toEqual([]);
  });
});

test('a host gives the store with abs:load, and the lesson it opens reports there', async ({ page }) => {
  const frame = await hostPage(page, '?lesson=alignment&embed', 1100, 700);
  await expect(frame.getByTestId('lesson-step')).toBeVisible();
  const registration = crypto.randomUUID();
  await page.evaluate(([xapi]) => document.getElementById('p').contentWindow.postMessage(
    { type: 'abs:load', lesson: 'at-least-once', xapi }, '*'),
  [{ endpoint: store.endpoint, auth: store.auth, actor: ACTOR, registration }]);
  await expect(frame.locator('h1')).toHaveText('What at-least-once gives up');
  const steps = engine('at-least-once');
  const first = steps.findIndex((s) => s.ask);
  for (let i = 0; i < first; i++) await frame.getByTestId('lesson-next').click();
  await answer(frame, steps[first].answer);
  await expect.poll(async () => (await lrs.statements(store, { registration })).map(verb), { timeout: 20_000 })
    .toEqual(['launched', 'answered']);
  const [launched] = await lrs.statements(store, { registration });
  expect(launched.object.id).toBe(`http://127.0.0.1:${sites.port}/lessons/at-least-once`);
});
