// The narration and the lesson line say what the chosen mode really does, in both languages:
// every preset × mode is run until its first checkpoint completes, and each step's sentences
// are read as the student sees them.
const { test, expect } = require('./fixtures');
const { Playground } = require('./page');

const PRESETS = ['alignment', 'wordcount', 'concurrent', 'backpressure'];
// "large" is left out: 200 subtasks teach nothing the others do not, and take long to step.
const MODES = ['aligned', 'at-least-once', 'unaligned'];

// Failing on today's page because the narration or the lesson line is wrong for the mode:
// fixed by the engine/narration work in issue 8. Each entry says what is wrong; remove it
// when the fix lands (a test.fail that passes fails the run).
const AT_LEAST_ONCE_WAITS = 'at-least-once: the last barrier "the last input it was waiting for: '
  + 'the alignment is complete" (對齊完成), but at-least-once neither waits nor aligns';
const UNALIGNED_ACKS = 'unaligned: the overtaken in-flight records are never said to become channel '
  + 'state; the snapshot sentence says the task "acknowledges (0/N tasks)"; its delayed '
  + 'acknowledgement says it "has finished and acknowledges … with its final state" (已結束); '
  + 'the last barrier counts "(0 of 2 inputs)"';
const UNALIGNED_SILENT = 'unaligned: the records the barrier overtook at Src#0 (2 in channel state) '
  + 'are never said to become channel state';
const ONE_LESSON = 'the lesson line is the same in every mode';
const KNOWN_WRONG = new Map([
  ['alignment/at-least-once/en', AT_LEAST_ONCE_WAITS],
  ['alignment/at-least-once/zh', AT_LEAST_ONCE_WAITS],
  ['wordcount/at-least-once/en', AT_LEAST_ONCE_WAITS],
  ['wordcount/at-least-once/zh', AT_LEAST_ONCE_WAITS],
  ['backpressure/at-least-once/en', AT_LEAST_ONCE_WAITS],
  ['backpressure/at-least-once/zh', AT_LEAST_ONCE_WAITS],
  ['alignment/unaligned/en', UNALIGNED_ACKS],
  ['alignment/unaligned/zh', UNALIGNED_ACKS],
  ['wordcount/unaligned/en', UNALIGNED_ACKS],
  ['wordcount/unaligned/zh', UNALIGNED_ACKS],
  ['backpressure/unaligned/en', UNALIGNED_ACKS],
  ['backpressure/unaligned/zh', UNALIGNED_ACKS],
  ['concurrent/unaligned/en', UNALIGNED_SILENT],
  ['concurrent/unaligned/zh', UNALIGNED_SILENT],
  ['alignment/lesson/en', `${ONE_LESSON}, and it walks through ①–④ ("input A blocks") in at-least-once and unaligned too`],
  ['alignment/lesson/zh', `${ONE_LESSON}, and it walks through ①–④ (輸入 A 被阻塞) in at-least-once and unaligned too`],
  ['wordcount/lesson/en', ONE_LESSON],
  ['wordcount/lesson/zh', ONE_LESSON],
  ['concurrent/lesson/en', ONE_LESSON],
  ['concurrent/lesson/zh', ONE_LESSON],
  ['backpressure/lesson/en', ONE_LESSON],
  ['backpressure/lesson/zh', ONE_LESSON],
]);

/**
 * A test that today's page is known to fail (see KNOWN_WRONG). Run with E2E_SHOW_KNOWN=1 to
 * have them fail normally and list what is still wrong.
 */
function knownWrong(key) {
  if (KNOWN_WRONG.has(key) && !process.env.E2E_SHOW_KNOWN) test.fail(true, KNOWN_WRONG.get(key));
}

/** Steps until checkpoint 1 has completed, then 10 more; every step's sentences, in order. */
async function runFirstCheckpoint(app) {
  const steps = [];
  while (steps.length < 800) {
    steps.push(...(await app.stepFast(10, { collect: true })));
    if ((await app.checkpointStatus(1)) === 'completed') {
      steps.push(...(await app.stepFast(10, { collect: true })));
      return steps;
    }
  }
  throw new Error('checkpoint 1 did not complete within 800 steps');
}

const flat = (steps) => steps.flatMap((s) => s.sentences.map((x) => ({ step: s.step, ...x })));
const show = (list) => list.map((s) => `${s.step} ${s.marker} ${s.text}`).join('\n');
/** The sentences about barriers and checkpoints, to show with a failure. */
const story = (list) => show(list.filter((s) => /barrier|checkpoint|屏障|檢查點/i.test(s.text)));

// What each of the seed's alignment steps is about, when the narration marks one.
const MARKERS = {
  en: { '①': /\bblocked\b/, '②': /\bbuffer\b/, '③': /\bsnapshots?\b/, '④': /\bbuffer\b/ },
  zh: { '①': /阻塞/, '②': /緩衝/, '③': /快照/, '④': /緩衝/ },
};

// Claims that are true of aligned checkpoints only: an input is blocked, an item waits in the
// alignment buffer, an alignment completed. Negations ("does not block") are not claims.
const ALIGNED_ONLY = {
  en: {
    strip: /\b(does not|doesn't|never|not|without) (block|blocking|blocks|align|aligning)\b/gi,
    claim: /\bblock(s|ed|ing)?\b|\bunblocks?\b|\balignment buffer\b|\bits buffer\b|\balignment is complete\b/i,
  },
  zh: {
    strip: /(不會|從不|不|無須|不需要)(阻塞|對齊)/g,
    claim: /阻塞|對齊緩衝|對齊完成/,
  },
};

// Claims that cannot be true: a task has finished (none does: every preset's sources are
// unbounded); a task acknowledged, with an acknowledgement count of 0; a barrier arrived on
// an input, with 0 inputs having it.
const FALSE_CLAIMS = {
  en: [/#\d+ has finished\b/, /acknowledg\w*[^.]*\(0\/\d+/, /\(0 of \d+ inputs/],
  zh: [/#\d+ 已結束/, /確認[^。]*[\s（(]0\/\d+/, /中已有 0 個/],
};

const CJK = /[\u3400-\u9fff]/;

/** Text to match literally inside a RegExp. */
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

for (const preset of PRESETS) {
  for (const mode of MODES) {
    for (const lang of ['en', 'zh']) {
      const key = `${preset}/${mode}/${lang}`;
      test(`narration says what ${mode} does: ${preset}, ${lang}`, async ({ page }) => {
        knownWrong(key);
        const app = new Playground(page);
        await app.open(`?preset=${preset}&mode=${mode}&lang=${lang}`);
        const steps = await runFirstCheckpoint(app);
        // Soft assertions from here on: a failure lists everything that is wrong.
        const all = flat(steps);
        expect(all.length).toBeGreaterThan(steps.length / 2);
        for (const s of all) {
          expect(s.text.trim(), `step ${s.step}`).not.toBe('');
          expect(s.text, `step ${s.step}`).not.toMatch(/undefined|NaN|\?|\{|\}/);
        }

        // Barrier 1 is narrated reaching every subtask that is not a source (sources are the
        // subtasks said to read lines of their log).
        const names = await app.operatorNames();
        const reads = lang === 'en' ? / reads line / : / 讀取日誌第 /;
        for (const task of await app.subtaskNames()) {
          if (all.some((s) => s.text.startsWith(`${task} `) && reads.test(s.text))) continue;
          const at = escape(task);
          const barrier1 = lang === 'en'
            ? new RegExp(`Barrier 1 arrived[^.]*${at}`)
            : new RegExp(`屏障 1[^。]*到達\\s*${at}`);
          expect.soft(all.some((s) => barrier1.test(s.text)), `barrier 1 at ${task}:\n${story(all)}`).toBe(true);
        }

        // The ①–④ markers: on aligned runs only, each on a sentence about its step.
        const marked = all.filter((s) => s.marker !== '');
        if (mode === 'aligned') {
          for (const s of marked) expect.soft(s.text, `${s.marker} at step ${s.step}`).toMatch(MARKERS[lang][s.marker]);
          const seen = new Set(marked.map((s) => s.marker));
          if (preset === 'alignment' || preset === 'backpressure') {
            // Two inputs, one slow: the whole story ①–④ happens before checkpoint 1 completes.
            expect.soft([...seen].sort(), story(all)).toEqual(['①', '②', '③', '④']);
          } else if (preset === 'concurrent') {
            // A chain of single-input tasks never blocks.
            expect.soft(seen.has('①') || seen.has('②'), show(marked)).toBe(false);
          } else {
            expect.soft(seen.has('①') && seen.has('③'), show(marked)).toBe(true);
          }
        } else {
          expect.soft(marked, show(marked)).toEqual([]);
          // No claim that an input is blocked or that items wait in an alignment buffer.
          const { strip, claim } = ALIGNED_ONLY[lang];
          const wrong = all.filter((s) => claim.test(s.text.replace(strip, '')));
          expect.soft(wrong, show(wrong)).toEqual([]);
        }
        // When checkpoint 1 saved in-flight records as channel state (the inspector's table of
        // channel states is not empty), the narration said so; when it saved none, it did not.
        await app.openCheckpoint(1);
        const recorded = (await app.readGlobalState()).channels
          .reduce((n, row) => n + Number(Object.values(row)[1]), 0);
        const saved = lang === 'en' ? /channel state/ : /通道狀態/;
        expect.soft(all.some((s) => saved.test(s.text)), `${recorded} records in channel state:\n${story(all)}`)
          .toBe(recorded > 0);
        for (const re of FALSE_CLAIMS[lang]) {
          const wrong = all.filter((s) => re.test(s.text));
          expect.soft(wrong, show(wrong)).toEqual([]);
        }

        if (lang === 'zh') {
          // Chinese throughout: every sentence has CJK text, and once the quoted payloads
          // (「apple」) and the subtask names (Src A#0) are taken out, no Latin letter is left.
          const taskName = new RegExp(`(${names.map(escape).join('|')})#\\d+`, 'g');
          for (const s of all) {
            expect.soft(s.text, `step ${s.step}`).toMatch(CJK);
            const rest = s.text.replace(/「[^」]*」/g, '').replace(taskName, '');
            expect.soft(rest, `step ${s.step}: ${s.text}`).not.toMatch(/[A-Za-z]/);
          }
        } else {
          for (const s of all) expect.soft(s.text, `step ${s.step}`).not.toMatch(CJK);
        }
      });
    }
  }
}

for (const preset of PRESETS) {
  for (const lang of ['en', 'zh']) {
    const key = `${preset}/lesson/${lang}`;
    test(`each mode has its own lesson line: ${preset}, ${lang}`, async ({ page }) => {
      knownWrong(key);
      const app = new Playground(page);
      const lessons = {};
      for (const mode of MODES) {
        await app.open(`?preset=${preset}&mode=${mode}&lang=${lang}`);
        lessons[mode] = (await app.lesson().textContent()).trim();
        expect(lessons[mode]).not.toBe('');
        expect(lessons[mode]).toMatch(lang === 'zh' ? CJK : /^[^\u3400-\u9fff]*$/);
        // ①–④ name the steps of an aligned checkpoint: no other mode's lesson walks through them.
        if (mode !== 'aligned') expect.soft(lessons[mode], mode).not.toMatch(/[①②③④]/);
      }
      expect.soft(new Set(Object.values(lessons)).size, JSON.stringify(lessons, null, 1)).toBe(MODES.length);
    });
  }
}
