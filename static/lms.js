// The lesson page's link with a learning management system. The lesson page
// (src/ui/lesson/lms.rs) loads this module only inside one — a SCORM 1.2 run-time's `API`
// object on its window, a parent or its opener — or when it is given an xAPI learning record
// store (`endpoint` in the address, or the host's `abs:load {"lesson", "xapi"}`), and hands it
// every message it posts to an embedding page:
//   abs:lesson-step {lesson, title, step, steps, progress}  a step shown (steps + 1: the end)
//   abs:answer {lesson, step, correct, first, question, text, choices, picked, right}
//   abs:lesson-done {lesson, correct, total, mastery}
// What each becomes is in docs/lessons.md, "In your LMS". No name or other data about the
// student is read; what is sent is the answers and the progress (and, to a record store, the
// actor the launch names).

const waiting = Array.isArray(window.absLmsQueue) ? window.absLmsQueue : [];
const params = new URLSearchParams(location.search);
const reporters = [];
window.absLmsQueue = {
  push(text) {
    let m;
    try {
      m = JSON.parse(text);
    } catch (e) {
      return;
    }
    for (const r of reporters) {
      try {
        r(m);
      } catch (e) {
        // One reporter's failure neither stops the other nor reaches the page.
        console.warn("lms.js:", e);
      }
    }
  },
};

// ---------------------------------------------------------------------------------------------
// SCORM 1.2: the run-time's data model, synchronously.

const findApi = (start) => {
  let w = start;
  for (let n = 0; w && n < 8; n++) {
    try {
      if (w.API && typeof w.API.LMSInitialize === "function") return w.API;
    } catch (e) {
      // A window of another origin: look further up.
    }
    if (w.parent === w) break;
    w = w.parent;
  }
  return null;
};

// 0-9, then a-z: SCORM 1.2's single-character responses for a choice.
const letter = (i) => "0123456789abcdefghijklmnopqrstuvwxyz".charAt(i) || "z";
const two = (n) => String(n).padStart(2, "0");
// HHHH:MM:SS (CMITimespan) and HH:MM:SS (CMITime).
const span = (ms) => {
  const s = Math.round(ms / 1000);
  return `${String(Math.floor(s / 3600)).padStart(4, "0")}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`;
};
const clock = (d) => `${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;

function scorm(api) {
  const source = params.get("lesson") || "";
  const started = Date.now();
  const set = (key, value) => api.LMSSetValue(key, String(value));
  const get = (key) => String(api.LMSGetValue(key) ?? "");
  if (String(api.LMSInitialize("")) !== "true") return false;
  let live = true;
  const status = get("cmi.core.lesson_status");
  if (status === "" || status === "not attempted") set("cmi.core.lesson_status", "incomplete");
  let done = status === "passed" || status === "failed" || status === "completed";
  reporters.push((m) => {
    if (!live || m.lesson !== source) return;
    if (m.type === "abs:lesson-step") {
      set("cmi.core.lesson_location", Math.min(m.step, m.steps));
      set("cmi.suspend_data", m.progress);
    } else if (m.type === "abs:answer" && m.first) {
      const at = `cmi.interactions.${Number(get("cmi.interactions._count")) || 0}.`;
      set(at + "id", m.question);
      set(at + "type", "choice");
      set(at + "time", clock(new Date()));
      set(at + "weighting", 1);
      set(at + "student_response", m.picked.map(letter).join(","));
      set(at + "correct_responses.0.pattern", m.right.map(letter).join(","));
      set(at + "result", m.correct ? "correct" : "wrong");
    } else if (m.type === "abs:lesson-done") {
      done = true;
      set("cmi.core.score.min", 0);
      set("cmi.core.score.max", m.total);
      set("cmi.core.score.raw", m.correct);
      // The LMS's mastery score (the manifest's) first, the lesson's own otherwise.
      const lms = get("cmi.student_data.mastery_score");
      const mastery = lms !== "" && !Number.isNaN(Number(lms)) ? Number(lms) : m.mastery;
      const share = m.total > 0 ? (100 * m.correct) / m.total : 100;
      const verdict = share >= mastery ? "passed" : "failed";
      set("cmi.core.lesson_status", mastery === null || mastery === undefined ? "completed" : verdict);
    } else {
      return;
    }
    api.LMSCommit("");
  });
  addEventListener("pagehide", () => {
    if (!live) return;
    live = false;
    set("cmi.core.session_time", span(Date.now() - started));
    set("cmi.core.exit", done ? "" : "suspend");
    api.LMSCommit("");
    api.LMSFinish("");
  });
  // The LMS keeps the student's progress, not this browser: a returning student gets theirs
  // back, a new attempt starts at the first step (whatever the browser kept for someone else).
  const key = "abs-lesson:" + source;
  const kept = get("cmi.core.entry") === "resume" ? get("cmi.suspend_data") : "";
  let stored = null;
  try {
    stored = localStorage.getItem(key);
    if (kept) localStorage.setItem(key, kept);
    else localStorage.removeItem(key);
  } catch (e) {
    // No storage: the page starts at the first step.
  }
  // The page takes the lesson again, with the progress just kept.
  if ((stored || "") !== kept) reload(source);
  return (stored || "") === kept;
}

function reload(lesson) {
  window.postMessage({ type: "abs:load", lesson }, location.origin === "null" ? "*" : location.origin);
}

// ---------------------------------------------------------------------------------------------
// xAPI: statements to a learning record store, queued, sent one after another, retried while
// the store is away; the lesson never waits for them.

// A random (version 4) UUID for a statement's id. `crypto.randomUUID` exists only in a secure
// context, which a frame inside an insecure page is not.
const uuid = () => {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};

const VERB = (id, en) => ({ id: `http://adlnet.gov/expapi/verbs/${id}`, display: { "en-US": en } });
const WORDS = {
  en: {
    refused: "The learning record store refused this lesson's statements (wrong credentials?): your answers are not being recorded there.",
    unusable: "The learning record store's settings are incomplete (an endpoint and an actor are needed): your answers are not being recorded there.",
  },
  "zh-Hant": {
    refused: "學習紀錄庫拒絕了這堂課的陳述（認證錯誤？）：你的作答沒有被記錄在那裡。",
    unusable: "學習紀錄庫的設定不完整（需要端點和學習者）：你的作答沒有被記錄在那裡。",
  },
  "zh-Hans": {
    refused: "学习记录库拒绝了这堂课的陈述（认证错误？）：你的作答没有被记录在那里。",
    unusable: "学习记录库的设置不完整（需要端点和学习者）：你的作答没有被记录在那里。",
  },
};

/** One notice, in the page's language, that the lesson goes on without the store. */
function notice(what) {
  if (document.querySelector("[data-testid=lms-notice]")) return;
  const words = WORDS[document.documentElement.lang] || WORDS.en;
  const p = document.createElement("p");
  p.className = "lms-notice";
  p.setAttribute("role", "status");
  p.dataset.testid = "lms-notice";
  p.textContent = words[what];
  (document.querySelector(".lesson-page") || document.body).prepend(p);
}

/** The store's settings: the host's (`abs:load`), else the address's (cmi5's launch names). */
function settings() {
  const given = window.absXapi;
  const from = given && typeof given === "object" ? given : {
    endpoint: params.get("endpoint"),
    auth: params.get("auth"),
    actor: params.get("actor"),
    registration: params.get("registration"),
    activityId: params.get("activityId"),
  };
  let actor = from.actor;
  if (typeof actor === "string") {
    try {
      actor = JSON.parse(actor);
    } catch (e) {
      actor = null;
    }
  }
  const endpoint = typeof from.endpoint === "string" && /^https?:\/\//.test(from.endpoint) ? from.endpoint.replace(/\/?$/, "/") : null;
  return endpoint && actor && typeof actor === "object" ? { ...from, endpoint, actor } : null;
}

function xapi() {
  const queue = [];
  let sending = false;
  let refused = false;
  let delay = 1000;
  let lesson = null;
  let title = "";
  const lang = document.documentElement.lang || "en";
  const text = (s) => ({ [lang]: s });
  // The lesson's activity id: the launch's, else the lesson file's address (a built-in lesson's
  // by its name); a question's is the lesson's with `/step-N`.
  const activity = (s) => {
    if (s.activityId) return s.activityId;
    const file = /^[a-z0-9-]+$/.test(lesson) ? `lessons/${lesson}` : lesson;
    return new URL(file, location.href).href;
  };

  const send = async () => {
    if (sending || refused || !queue.length) return;
    const s = settings();
    if (!s) {
      refused = true;
      notice("unusable");
      return;
    }
    sending = true;
    const statement = queue[0];
    try {
      const response = await fetch(s.endpoint + "statements", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Experience-API-Version": "1.0.3",
          ...(s.auth ? { Authorization: s.auth } : {}),
        },
        body: JSON.stringify(statement),
        keepalive: true,
      });
      if (response.ok || response.status === 409) {
        // Stored (409: already stored, by an earlier try that was not answered).
        queue.shift();
        delay = 1000;
      } else if (response.status === 401 || response.status === 403 || response.status === 400) {
        refused = true;
        notice("refused");
      } else {
        throw new Error(`HTTP ${response.status}`);
      }
    } catch (e) {
      // The store is away: try again later, waiting longer each time (at most a minute).
      setTimeout(send, delay);
      delay = Math.min(delay * 2, 60_000);
      sending = false;
      return;
    }
    sending = false;
    send();
  };

  const state = (s, verb, object, result, extra) => {
    const statement = {
      id: uuid(),
      actor: s.actor,
      verb,
      object,
      timestamp: new Date().toISOString(),
      context: { language: lang, ...(s.registration ? { registration: s.registration } : {}), ...extra },
    };
    if (result) statement.result = result;
    queue.push(statement);
    send();
  };

  reporters.push((m) => {
    const s = settings();
    if (!s) {
      notice("unusable");
      return;
    }
    if (m.type === "abs:lesson-step") {
      if (m.lesson !== lesson) {
        lesson = m.lesson;
        title = m.title;
        state(s, VERB("launched", "launched"), lessonObject(s));
      }
      return;
    }
    if (m.lesson !== lesson) return;
    if (m.type === "abs:answer") {
      const id = `${activity(s)}/${m.question}`;
      const pattern = (list) => list.join("[,]");
      state(s, VERB("answered", "answered"), {
        objectType: "Activity",
        id,
        definition: {
          type: "http://adlnet.gov/expapi/activities/cmi.interaction",
          name: text(m.text),
          interactionType: "choice",
          choices: m.choices.map((c, i) => ({ id: String(i), description: text(c) })),
          correctResponsesPattern: [pattern(m.right)],
        },
      }, { success: m.correct, response: pattern(m.picked), extensions: { "https://abs-playground.example/xapi/first-answer": m.first } },
      { contextActivities: { parent: [{ objectType: "Activity", id: activity(s) }] } });
    } else if (m.type === "abs:lesson-done") {
      const score = { raw: m.correct, min: 0, max: m.total, scaled: m.total ? m.correct / m.total : 1 };
      state(s, VERB("completed", "completed"), lessonObject(s), { completion: true, score });
      if (m.mastery !== null && m.mastery !== undefined) {
        const passed = 100 * score.scaled >= m.mastery;
        state(s, passed ? VERB("passed", "passed") : VERB("failed", "failed"), lessonObject(s), { success: passed, score });
      }
    }
  });

  const lessonObject = (s) => ({
    objectType: "Activity",
    id: activity(s),
    definition: { type: "http://adlnet.gov/expapi/activities/lesson", name: text(title || lesson) },
  });
}

// ---------------------------------------------------------------------------------------------

const api = findApi(window) || (window.opener ? findApi(window.opener) : null);
const replay = api ? scorm(api) : true;
if (window.absXapi || params.has("endpoint")) xapi();
// What the page said before this module ran, unless SCORM's progress made it start again.
if (replay) waiting.forEach((text) => window.absLmsQueue.push(text));
