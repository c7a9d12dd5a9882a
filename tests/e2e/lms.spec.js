// Lessons in a learning management system (issue 50): a SCORM 1.2 package made by
// `abs-sim lesson --scorm`, unpacked as an LMS imports it, its manifest read as XML and held to
// SCORM 1.2's required elements, then launched from the manifest's own address inside a host
// page that plays the LMS with a real SCORM 1.2 run-time (npm's scorm-again): a lesson
// answered part right, part wrong, left, resumed from what the LMS kept, finished — every value
// the LMS received checked. Outside an LMS the page loads nothing of this.
const { execFileSync } = require('child_process');
const fs = require('fs');
const path = require('path');
const { test, expect } = require('./fixtures');
const sites = require('./sites');

const LMS = path.join(sites.site, 'lms');

// A teacher's lesson: three questions with their own answers, passed at 60 %.
const QUIZ = {
  title: 'Week 3 <quiz> & barriers',
  mastery: 60,
  steps: [
    { at: 'preset=alignment&mode=aligned&step=5', text: 'Look at Merge.' },
    { at: 'preset=alignment&mode=aligned&step=5', text: 'One.', ask: { kind: 'choice', prompt: 'P1', choices: ['a', 'b', 'c'], answer: 0, why: 'W1' } },
    { at: 'preset=alignment&mode=aligned&step=5', text: 'Two.', ask: { kind: 'choice', prompt: 'P2', choices: ['x', 'y'], answer: 1, why: 'W2' } },
    { at: 'preset=alignment&mode=aligned&step=5', text: 'Three.', ask: { kind: 'choice', prompt: 'P3', choices: ['m', 'n'], answer: 0, why: 'W3' } },
  ],
};

/** Unpacks a zip as an LMS does, and lists its files. */
function unpack(zip, to) {
  fs.rmSync(to, { recursive: true, force: true });
  const out = execFileSync('python3', ['-c',
    'import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1])\nz.extractall(sys.argv[2])\nprint("\\n".join(z.namelist()))',
    zip, to], { encoding: 'utf8' });
  return out.trim().split('\n').sort();
}

// The LMS: scorm-again's SCORM 1.2 API on the window, every call the lesson makes recorded
// with what the run-time answered, and the lesson in a frame at the manifest's address.
const HOST = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><title>LMS</title>
<script src="scorm12.js"></script>
<script>
window.launch = function (src, json) {
  var api = new Scorm12API({ autocommit: false, logLevel: 5 });
  if (json) api.loadFromJSON(json);
  window.calls = [];
  ['LMSInitialize', 'LMSSetValue', 'LMSCommit', 'LMSFinish'].forEach(function (name) {
    var real = api[name].bind(api);
    api[name] = function (a, b) {
      var r = real(a, b);
      window.calls.push({ name: name, key: a, value: b, result: String(r), error: String(api.LMSGetLastError()) });
      return r;
    };
  });
  window.API = api;
  var old = document.getElementById('sco');
  if (old) old.remove();
  var f = document.createElement('iframe');
  f.id = 'sco';
  f.style = 'width:1200px;height:760px';
  f.src = src;
  document.body.appendChild(f);
};
</script>`;

/** The manifest, parsed by the browser's XML parser: what SCORM 1.2 requires of it. */
async function readManifest(page, xml) {
  return page.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'application/xml');
    const CP = 'http://www.imsproject.org/xsd/imscp_rootv1p1p2';
    const ADLCP = 'http://www.adlnet.org/xsd/adlcp_rootv1p2';
    const one = (parent, name) => parent.getElementsByTagNameNS(CP, name)[0] || null;
    const root = doc.documentElement;
    const orgs = one(root, 'organizations');
    const org = orgs && [...orgs.getElementsByTagNameNS(CP, 'organization')]
      .find((o) => o.getAttribute('identifier') === orgs.getAttribute('default'));
    const item = org && one(org, 'item');
    const resources = [...root.getElementsByTagNameNS(CP, 'resource')];
    const sco = item && resources.find((r) => r.getAttribute('identifier') === item.getAttribute('identifierref'));
    const mastery = item && item.getElementsByTagNameNS(ADLCP, 'masteryscore')[0];
    return {
      parsed: !doc.getElementsByTagName('parsererror').length,
      root: root.localName,
      ns: root.namespaceURI,
      identifier: root.getAttribute('identifier'),
      schema: one(root, 'schema')?.textContent,
      version: one(root, 'schemaversion')?.textContent,
      title: org && one(org, 'title')?.textContent,
      itemTitle: item && one(item, 'title')?.textContent,
      mastery: mastery ? mastery.textContent : null,
      scormtype: sco && sco.getAttributeNS(ADLCP, 'scormtype'),
      type: sco && sco.getAttribute('type'),
      href: sco && sco.getAttribute('href'),
      files: sco ? [...sco.getElementsByTagNameNS(CP, 'file')].map((f) => f.getAttribute('href')).sort() : [],
    };
  }, xml);
}

/** The values the lesson set, in order: `[key, value]`, each one the run-time took. */
async function setValues(page) {
  const calls = await page.evaluate(() => window.calls);
  for (const c of calls) expect(c, `${c.name}(${c.key}, ${c.value})`).toMatchObject({ result: 'true', error: '0' });
  return calls.filter((c) => c.name === 'LMSSetValue').map((c) => [c.key, c.value]);
}
const last = (values, key) => values.filter(([k]) => k === key).map(([, v]) => v).at(-1);

async function answer(frame, i) {
  await frame.getByTestId('lesson-answer').nth(i).check();
  await frame.getByTestId('lesson-check').click();
}

test('a teacher\'s lesson as a SCORM 1.2 package: answered, left, resumed and finished in an LMS', async ({ page }) => {
  test.setTimeout(120_000);
  fs.mkdirSync(LMS, { recursive: true });
  const file = path.join(LMS, 'Week 3.json');
  fs.writeFileSync(file, JSON.stringify(QUIZ, null, 1));
  const zip = path.join(LMS, 'week3.zip');
  execFileSync(sites.absSim, ['lesson', file, '--scorm', zip, '--site', sites.site], { encoding: 'utf8' });
  const dir = path.join(LMS, 'week3');
  const files = unpack(zip, dir);
  fs.copyFileSync(path.join(__dirname, 'node_modules', 'scorm-again', 'dist', 'scorm12.js'), path.join(LMS, 'scorm12.js'));
  fs.writeFileSync(path.join(LMS, 'host.html'), HOST);

  await page.goto('lms/host.html');
  const m = await readManifest(page, fs.readFileSync(path.join(dir, 'imsmanifest.xml'), 'utf8'));
  expect(m).toMatchObject({
    parsed: true, root: 'manifest', ns: 'http://www.imsproject.org/xsd/imscp_rootv1p1p2',
    schema: 'ADL SCORM', version: '1.2', title: QUIZ.title, itemTitle: QUIZ.title, mastery: '60',
    scormtype: 'sco', type: 'webcontent',
  });
  expect(m.identifier).toBeTruthy();
  // The package holds the manifest and exactly the files its one SCO lists.
  expect(files).toEqual([...m.files, 'imsmanifest.xml'].sort());
  expect(m.files).toContain('lms.js');
  expect(m.href).toMatch(/^index\.html\?lesson=lessons\/week-3\.json&lang=en&package$/);

  // Session 1: the first question wrong, then right on a second try; the second right; left
  // at the third.
  await page.evaluate((src) => window.launch(src), `week3/${m.href}`);
  const frame = page.frameLocator('#sco');
  await expect(frame.getByTestId('lesson-step')).toHaveAttribute('data-index', '0');
  await expect(frame.locator('h1')).toHaveText(QUIZ.title);
  // In a package: no lesson menu, teacher's tools or link to a playground it does not hold.
  await expect(frame.getByTestId('lesson-menu')).toHaveCount(0);
  await expect(frame.getByTestId('lesson-teacher')).toHaveCount(0);
  await expect(frame.getByTestId('open-full')).toHaveCount(0);
  await expect.poll(async () => last(await setValues(page), 'cmi.core.lesson_status')).toBe('incomplete');
  await frame.getByTestId('lesson-next').click();
  await answer(frame, 2);
  await expect(frame.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'false');
  await frame.getByTestId('lesson-retry').click();
  await answer(frame, 0);
  await expect(frame.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
  await frame.getByTestId('lesson-next').click();
  await answer(frame, 1);
  await expect(frame.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
  await frame.getByTestId('lesson-next').click();
  await expect(frame.getByTestId('lesson-step')).toHaveAttribute('data-index', '3');
  // Leaving: the frame goes elsewhere.
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await expect.poll(() => page.evaluate(() => window.calls.filter((c) => c.name === 'LMSFinish').length)).toBe(1);
  let values = await setValues(page);
  const interactions = values.filter(([k]) => k.startsWith('cmi.interactions.'));
  expect(interactions.map(([k, v]) => [k.replace(/^cmi\.interactions\./, ''), v]).filter(([k]) => k !== '0.time' && k !== '1.time')).toEqual([
    ['0.id', 'step-2'], ['0.type', 'choice'], ['0.weighting', '1'], ['0.student_response', '2'],
    ['0.correct_responses.0.pattern', '0'], ['0.result', 'wrong'],
    ['1.id', 'step-3'], ['1.type', 'choice'], ['1.weighting', '1'], ['1.student_response', '1'],
    ['1.correct_responses.0.pattern', '1'], ['1.result', 'correct'],
  ]);
  expect(last(values, 'cmi.interactions.0.time')).toMatch(/^\d\d:\d\d:\d\d$/);
  expect(last(values, 'cmi.core.lesson_location')).toBe('4');
  // Step 4 shown; no question yet; the first corrected (c), the second right (r).
  expect(last(values, 'cmi.suspend_data')).toBe('3;-cr-');
  expect(last(values, 'cmi.core.exit')).toBe('suspend');
  expect(last(values, 'cmi.core.session_time')).toMatch(/^\d{4}:\d\d:\d\d$/);
  expect(values.some(([k]) => k.startsWith('cmi.core.score'))).toBe(false);
  expect(last(values, 'cmi.core.lesson_status')).toBe('incomplete');

  // Session 2: the LMS gives back what it kept (this browser's own copy is gone), the student
  // finishes: 2 of 3 right the first time, 67 % against 60 %: passed.
  const kept = await page.evaluate(() => {
    const cmi = JSON.parse(JSON.stringify(window.API.cmi));
    localStorage.clear();
    return cmi;
  });
  kept.core.entry = 'resume';
  await page.evaluate(([src, json]) => window.launch(src, json), [`week3/${m.href}`, kept]);
  await expect(frame.getByTestId('lesson-step')).toHaveAttribute('data-index', '3');
  await expect(frame.locator('.lp-dots li.right')).toHaveCount(2);
  await answer(frame, 0);
  await expect(frame.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', 'true');
  await frame.getByTestId('lesson-next').click();
  await expect(frame.getByTestId('lesson-done')).toHaveText('End of the lesson: 2 of 3 questions right the first time.');
  await expect.poll(async () => last(await setValues(page), 'cmi.core.lesson_status')).toBe('passed');
  values = await setValues(page);
  expect([last(values, 'cmi.core.score.raw'), last(values, 'cmi.core.score.min'), last(values, 'cmi.core.score.max')]).toEqual(['2', '0', '3']);
  // The third question is the LMS's third interaction; no other was added.
  expect(values.filter(([k]) => /^cmi\.interactions\.\d+\.id$/.test(k))).toEqual([['cmi.interactions.2.id', 'step-4']]);
  expect(last(values, 'cmi.interactions.2.result')).toBe('correct');
  await page.evaluate(() => { document.getElementById('sco').src = 'about:blank'; });
  await expect.poll(async () => last(await setValues(page), 'cmi.core.exit')).toBe('');

  // Session 3: a new attempt starts at the first step whatever this browser kept, and the LMS's
  // own mastery score (90 %) decides: 2 of 3 fails.
  await page.evaluate((src) => window.launch(src, { student_data: { mastery_score: '90' } }), `week3/${m.href}`);
  await expect(frame.getByTestId('lesson-step')).toHaveAttribute('data-index', '0');
  await expect(frame.locator('.lp-dots li.right')).toHaveCount(0);
  await frame.getByTestId('lesson-next').click();
  await answer(frame, 0);
  await frame.getByTestId('lesson-next').click();
  await answer(frame, 1);
  await frame.getByTestId('lesson-next').click();
  await answer(frame, 1);
  await frame.getByTestId('lesson-next').click();
  await expect(frame.getByTestId('lesson-done')).toBeVisible();
  await expect.poll(async () => last(await setValues(page), 'cmi.core.lesson_status')).toBe('failed');
  expect(last(await setValues(page), 'cmi.core.score.raw')).toBe('2');
});

test('outside an LMS the lesson page loads nothing of it; the site offers each built-in lesson as a package', async ({ page }) => {
  const asked = [];
  page.on('request', (r) => asked.push(r.url()));
  await page.goto('index.html?lesson=alignment');
  await expect(page.getByTestId('lesson-step')).toBeVisible();
  await page.getByTestId('lesson-next').click();
  await page.getByTestId('lesson-answer').first().check();
  await page.getByTestId('lesson-check').click();
  await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-correct', /true|false/);
  expect(asked.filter((u) => u.includes('lms.js'))).toEqual([]);
  // The teacher's tools are folded away; the package is there, in the page's language.
  const tools = page.getByTestId('lesson-teacher');
  await expect(page.getByTestId('lesson-scorm')).toBeHidden();
  await tools.locator('summary').click();
  const link = page.getByTestId('lesson-scorm');
  await expect(link).toHaveAttribute('href', 'lessons/scorm/alignment-en.zip');
  for (const [lang, file, title] of [
    ['en', 'alignment-en.zip', 'Alignment, step by step'],
    ['zh-Hans', 'alignment-zh-Hans.zip', '一步一步看对齐'],
  ]) {
    const response = await page.request.get(`lessons/scorm/${file}`);
    expect(response.ok(), file).toBe(true);
    const zip = path.join(LMS, file);
    fs.mkdirSync(LMS, { recursive: true });
    fs.writeFileSync(zip, await response.body());
    const dir = path.join(LMS, file.replace('.zip', ''));
    unpack(zip, dir);
    const m = await readManifest(page, fs.readFileSync(path.join(dir, 'imsmanifest.xml'), 'utf8'));
    expect(m).toMatchObject({ parsed: true, schema: 'ADL SCORM', version: '1.2', title, scormtype: 'sco' });
    expect(m.href).toContain(`&lang=${lang}&package`);
  }
  // Opened straight from its folder, with no LMS around it, the package is the lesson page.
  asked.length = 0;
  await page.goto('lms/alignment-en/' + (await readManifest(page, fs.readFileSync(path.join(LMS, 'alignment-en', 'imsmanifest.xml'), 'utf8'))).href);
  await expect(page.getByTestId('lesson-step')).toBeVisible();
  await expect(page.locator('h1')).toHaveText('Alignment, step by step');
  expect(asked.filter((u) => u.includes('lms.js'))).toEqual([]);
});
