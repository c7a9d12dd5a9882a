//! The lesson page (`?lesson=NAME|URL`, a build of its own: `bin/abs-lessons.rs`): a guided
//! walk through moments of the playground, asking before it shows. This module: where a
//! lesson's file is, the moment each step names, the student's progress, and the messages an
//! embedding page hears — plain Rust, tested natively. `view.rs` is the page, `panel.rs` the
//! lesson's panel, `words.rs` what they say; the questions' answers are `crate::lesson`'s.

use std::rc::Rc;

use super::permalink::LinkParams;
use crate::i18n::Lang;
use crate::lesson::Lesson;
use crate::text::Quoted;

// The page itself is in the lesson build only (the `lessons` feature); what is above it is plain
// Rust, which `abs-sim lesson` uses too.
#[cfg(feature = "lessons")]
mod lms;
#[cfg(feature = "lessons")]
mod load;
#[cfg(feature = "lessons")]
pub mod panel;
mod student;
#[cfg(feature = "lessons")]
mod style;
pub use student::{answer_message, done_message, step_message, AnswerMessage, Answered, LessonRun};
#[cfg(feature = "lessons")]
pub mod view;
#[cfg(feature = "lessons")]
pub mod words;

/// What the student (or the embedding page) does on the lesson page.
#[derive(Clone, Debug, PartialEq)]
pub enum Act {
    /// Open a lesson: a built-in name or a URL (fetched).
    Open(String),
    /// The fetched lesson, and the progress the browser kept for it.
    Loaded(String, Rc<Lesson>, Option<String>),
    /// It could not be fetched or read (why, worded).
    Failed(String),
    /// Show step `n` (past the last: the lesson's end).
    Go(usize),
    Pick(usize),
    Answer,
    Restart,
    Step,
    Back,
    TogglePlay,
    Frame(f64),
    Select(Option<super::state::Selection>),
}

/// The built-in lessons, in the menu's order (`static/lessons/<lang>/<name>.json`).
pub const LESSONS: &[&str] = &[
    "alignment",
    "at-least-once",
    "unaligned",
    "chandy-lamport",
    "recovery",
    "fifo",
];

/// The built-in lesson about the preset and mode on screen (the playground's "Guided lessons"
/// link): each lesson's first moment is its preset in its mode; anything else opens alignment.
pub fn for_moment(preset: &str, mode: crate::engine::BarrierMode) -> &'static str {
    use crate::engine::BarrierMode as M;
    match (preset, mode) {
        ("alignment", M::AtLeastOnce) => "at-least-once",
        ("alignment", M::Unaligned) => "unaligned",
        ("token", M::ChandyLamport) => "chandy-lamport",
        ("bank", _) => "fifo",
        ("recovery", _) => "recovery",
        _ => "alignment",
    }
}

/// Where a lesson's file is: a built-in lesson's name, or a path or URL on this page's origin
/// or on the origin the page's `origin` parameter allows.
pub fn lesson_url(
    source: &str,
    lang: Lang,
    page_origin: &str,
    allowed: Option<&str>,
) -> Result<String, String> {
    if LESSONS.contains(&source) {
        let dir = if lang == Lang::En { "en" } else { "zh" };
        return Ok(format!("lessons/{dir}/{source}.json"));
    }
    // `scheme://host` of an absolute URL (`//host` takes the page's scheme): up to the first
    // `/` after the two.
    let b = source.as_bytes();
    let slashes = (0..b.len().saturating_sub(1)).find(|&i| b[i] == b'/' && b[i + 1] == b'/');
    let ok = match slashes {
        None => source.ends_with(".json") && !b.contains(&b':'),
        Some(at) => {
            let end = (at + 2..b.len()).find(|&i| b[i] == b'/').unwrap_or(b.len());
            let theirs = &source[..end];
            let theirs_full = if at == 0 {
                page_origin
                    .find(':')
                    .map(|c| format!("{}{theirs}", &page_origin[..=c]))
            } else {
                Some(theirs.to_string())
            };
            theirs_full.is_some_and(|t| t == page_origin || allowed == Some(t.as_str()))
        }
    };
    if ok {
        Ok(source.to_string())
    } else {
        Err(LESSONS.join(", "))
    }
}

/// A step's moment, as its `at` spells it (a permalink's query, with or without `?`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct At {
    pub preset: Option<String>,
    pub scenario: Option<String>,
    pub mode: Option<String>,
    pub seed: Option<String>,
    pub link: LinkParams,
}

/// `%xx` and `+` decoded, as a browser reads a query.
fn decode(v: &str) -> String {
    let b = v.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push((h * 16 + l) as u8);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8(out).unwrap_or_default()
}

impl At {
    pub fn parse(at: &str) -> At {
        let q = at.find('?').map_or(at, |i| &at[i + 1..]);
        let q = q.find('#').map_or(q, |i| &q[..i]);
        let mut a = At::default();
        for pair in q.split('&').filter(|p| !p.is_empty()) {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            let v = Some(decode(v));
            match k {
                "preset" => a.preset = v,
                "scenario" => a.scenario = v,
                "mode" => a.mode = v,
                "seed" => a.seed = v,
                "step" => a.link.step = v,
                "choices" => a.link.choices = v,
                "open" => a.link.open = v,
                "sel" => a.link.sel = v,
                "panel" => a.link.panel = v,
                "cut" => a.link.cut = v,
                _ => {}
            }
        }
        a
    }
}

/// Why a step's moment cannot be reached.
#[derive(Clone, Debug, PartialEq)]
pub enum Unreachable {
    /// The scenario code, the step or the choices (as a permalink's).
    Link(crate::scenario::codec::LinkError),
    /// No preset by that name, or a scenario that does not validate.
    Scenario(crate::scenario::ScenarioError),
    /// A mode the scenario does not run in.
    Mode(String),
    /// A seed that is not a number.
    Seed(String),
    /// The run ends (`ends`) before the step asked for.
    Ends { step: u64, ends: u64 },
    /// A scenario the lesson page does not run: one that chains operators or is a job of real
    /// size, which only the second player draws (`layout::for_second_player`; the lesson page
    /// is the student's player with a lesson's panel).
    SecondPlayer,
    /// A choice recorded at or after the moment's step (`choice`): it would never be made.
    Late { choice: u64, step: u64 },
    /// A part of the moment that names nothing (a `step`, `sel`, `open`, `panel` or `cut`
    /// the playground would leave out with a notice): `name=value`.
    Ignored(String),
}

impl std::fmt::Display for Unreachable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unreachable::Link(e) => write!(f, "{e}"),
            Unreachable::Scenario(e) => write!(f, "{e}"),
            Unreachable::Mode(m) => {
                write!(f, "mode {}: the scenario does not run in it", Quoted(m))
            }
            Unreachable::Seed(s) => write!(f, "seed {}: not a number", Quoted(s)),
            Unreachable::Ends { step, ends } => {
                write!(f, "step {step}: the run ends at step {ends}")
            }
            Unreachable::Late { choice, step } => write!(
                f,
                "choices: the one at step {choice} comes at or after the moment's step {step}, so it is never made"
            ),
            Unreachable::Ignored(part) => write!(
                f,
                "{}: it names nothing here (fix it or leave it out)",
                Quoted(part)
            ),
            Unreachable::SecondPlayer => f.write_str(
                "its scenario chains operators or has more than 8,192 channels, which the lesson \
                 page does not draw (the playground opens it in its second player)",
            ),
        }
    }
}

/// The run at a step's moment (the step's scenario, mode and seed, then its choices up to its
/// step) and the moment as its query spells it — or why it cannot be reached. The lesson page
/// shows exactly this, and `abs-sim lesson` checks it.
pub fn reach(at: &At) -> Result<(super::run::Run, super::permalink::Moment), Unreachable> {
    reach_in(at, false)
}

/// [`reach`], a scenario the lesson page leaves to the second player included (the export
/// build runs it headless).
pub fn reach_any(at: &At) -> Result<(super::run::Run, super::permalink::Moment), Unreachable> {
    reach_in(at, true)
}

fn reach_in(
    at: &At,
    any_size: bool,
) -> Result<(super::run::Run, super::permalink::Moment), Unreachable> {
    let scenario = match (&at.scenario, &at.preset) {
        (Some(code), _) => crate::scenario::codec::decode(code).map_err(Unreachable::Link)?,
        (None, name) => crate::scenario::presets::by_name(name.as_deref().unwrap_or("alignment"))
            .map_err(Unreachable::Scenario)?,
    };
    if !any_size && super::layout::for_second_player(&scenario) {
        return Err(Unreachable::SecondPlayer);
    }
    let mut notices = Vec::new();
    let (mut scenario, _, _) =
        super::permalink::resolve_for(scenario, at.mode.as_deref(), None, &mut notices);
    if !notices.is_empty() {
        return Err(Unreachable::Mode(at.mode.clone().unwrap_or_default()));
    }
    if let Some(seed) = &at.seed {
        scenario.seed = seed.parse().map_err(|_| Unreachable::Seed(seed.clone()))?;
    }
    let moment = super::permalink::Moment::parse(&at.link).map_err(Unreachable::Link)?;
    if let Some(ignored) = moment.ignored.first() {
        use super::vocab::Ignored;
        let (name, value) = match ignored {
            Ignored::Step(v) => ("step", v),
            Ignored::Open(v) => ("open", v),
            Ignored::Select(v) => ("sel", v),
            Ignored::Panel(v) => ("panel", v),
            Ignored::Cut(v) => ("cut", v),
        };
        return Err(Unreachable::Ignored(format!("{name}={value}")));
    }
    if let Some(&(choice, _)) = moment.choices.iter().find(|(s, _)| *s >= moment.step) {
        return Err(Unreachable::Late {
            choice,
            step: moment.step,
        });
    }
    let mut run = super::run::Run::new(scenario).map_err(Unreachable::Scenario)?;
    super::permalink::replay(&mut run, moment.step, &moment.choices).map_err(Unreachable::Link)?;
    if let Some(sel) = &moment.select {
        if super::permalink::selection_by_name(run.sim().physical(), sel).is_none() {
            return Err(Unreachable::Ignored(format!("sel={sel}")));
        }
    }
    if run.position() < moment.step {
        return Err(Unreachable::Ends {
            step: moment.step,
            ends: run.position(),
        });
    }
    Ok((run, moment))
}

/// Why a step of a lesson cannot be shown as written: its moment cannot be reached, or its
/// question has no answer from there.
#[derive(Clone, Debug, PartialEq)]
pub enum Problem {
    Unreachable(Unreachable),
    NoAnswer(crate::lesson::NoAnswer),
}

/// Every step a student would find broken, numbered from 0 — what `abs-sim lesson` reports,
/// checked by the lesson page when a teacher's own file opens, so that all of it is said at
/// once, not one step at a time as a student meets it.
pub fn check(lesson: &Lesson) -> Vec<(usize, Problem)> {
    let mut found = Vec::new();
    for (i, step) in lesson.steps.iter().enumerate() {
        match reach(&At::parse(&step.at)) {
            Err(why) => found.push((i, Problem::Unreachable(why))),
            Ok((run, _)) => {
                if let Some(Err(why)) = step
                    .ask
                    .as_ref()
                    .map(|a| crate::lesson::reveal(run.sim(), a))
                {
                    found.push((i, Problem::NoAnswer(why)));
                }
            }
        }
    }
    found
}

#[cfg(feature = "lessons")]
/// A lesson as the page shows it in `lang`: Chinese lessons are written in Traditional
/// characters, and shown in Simplified ones converted (as the page's own strings are).
pub fn in_lang(mut lesson: Lesson, lang: Lang) -> Lesson {
    if lang != Lang::ZhHans {
        return lesson;
    }
    let to = |t: &mut String| *t = words::hans(t);
    to(&mut lesson.title);
    for step in &mut lesson.steps {
        to(&mut step.text);
        if let Some(crate::lesson::Ask::Choice {
            prompt,
            choices,
            why,
            ..
        }) = &mut step.ask
        {
            to(prompt);
            to(why);
            choices.iter_mut().for_each(to);
        }
    }
    lesson
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lesson_for_a_moment_is_the_one_that_starts_there() {
        // Each built-in lesson's first moment maps back to it, in both languages' files.
        for lang in ["en", "zh"] {
            for name in LESSONS {
                let path = format!(
                    "{}/static/lessons/{lang}/{name}.json",
                    env!("CARGO_MANIFEST_DIR")
                );
                let text = std::fs::read_to_string(&path).unwrap();
                let at = text
                    .split("\"at\": \"")
                    .nth(1)
                    .unwrap()
                    .split('"')
                    .next()
                    .unwrap();
                let param = |k: &str| {
                    at.split('&')
                        .find_map(|p| p.strip_prefix(&format!("{k}=")))
                        .unwrap()
                        .to_string()
                };
                let mode = crate::scenario::modes::RunMode::named(&param("mode"))
                    .unwrap()
                    .mode;
                assert_eq!(for_moment(&param("preset"), mode), *name, "{path}: {at}");
            }
        }
        // Anything else opens alignment.
        assert_eq!(
            for_moment("wordcount", crate::engine::BarrierMode::Unaligned),
            "alignment"
        );
    }

    #[test]
    fn a_moment_is_reached_or_the_reason_named() {
        let (run, m) = reach(&At::parse(
            "preset=token&mode=chandy-lamport&seed=3&step=20&sel=t:q",
        ))
        .unwrap();
        assert_eq!((run.position(), m.step), (20, 20));
        assert_eq!(m.select.as_deref(), Some("t:q"));
        let err = |q: &str| {
            reach(&At::parse(q))
                .err()
                .unwrap_or_else(|| panic!("{q} reached"))
        };
        assert!(matches!(err("preset=nope"), Unreachable::Scenario(_)));
        assert_eq!(
            err("preset=token&mode=nope"),
            Unreachable::Mode("nope".into())
        );
        assert_eq!(err("preset=token&seed=x"), Unreachable::Seed("x".into()));
        assert!(matches!(err("scenario=%%%"), Unreachable::Link(_)));
        assert!(matches!(
            err("preset=alignment&step=5&choices=zz"),
            Unreachable::Link(_)
        ));
        match err("preset=recovery&step=100000") {
            Unreachable::Ends {
                step: 100_000,
                ends,
            } => assert!(ends < 100_000),
            other => panic!("{other:?}"),
        }
        assert!(err("preset=token&seed=x")
            .to_string()
            .contains("not a number"));
        // What the player would leave out with a notice, a lesson's author is told.
        assert_eq!(
            err("preset=token&step=5&sel=t:nobody"),
            Unreachable::Ignored("sel=t:nobody".into())
        );
        assert_eq!(
            err("preset=alignment&step=5&panel=nope"),
            Unreachable::Ignored("panel=nope".into())
        );
        assert_eq!(
            err("preset=alignment&step=5&choices=9f0-0"),
            Unreachable::Late { choice: 9, step: 5 }
        );
    }

    #[test]
    fn a_lesson_is_checked_whole_and_every_broken_step_named() {
        let text = r#"{"title": "T", "steps": [
            {"at": "preset=alignment&step=3", "text": "fine"},
            {"at": "preset=token&mode=nope", "text": "no such mode"},
            {"at": "preset=alignment&step=5&sel=t:nobody", "text": "selects nothing"},
            {"at": "preset=token&mode=chandy-lamport&step=3", "text": "a question it cannot answer",
             "ask": {"kind": "counted-twice"}}]}"#;
        let lesson = crate::scenario::read_lesson(text).unwrap();
        let found = check(&lesson);
        assert_eq!(
            found.iter().map(|(i, _)| *i).collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        assert_eq!(
            found[0].1,
            Problem::Unreachable(Unreachable::Mode("nope".into()))
        );
        assert!(matches!(found[2].1, Problem::NoAnswer(_)));
    }

    #[test]
    fn a_step_reads_a_permalinks_query() {
        let a = At::parse("https://x.org/p/?preset=alignment&mode=aligned&step=14&sel=c%3ASrc+A%230-Merge%230&panel=checkpoints");
        assert_eq!(a.preset.as_deref(), Some("alignment"));
        assert_eq!(a.mode.as_deref(), Some("aligned"));
        assert_eq!(a.link.step.as_deref(), Some("14"));
        assert_eq!(a.link.sel.as_deref(), Some("c:Src A#0-Merge#0"));
        assert_eq!(a.link.panel.as_deref(), Some("checkpoints"));
        let b = At::parse("preset=token&sel=c:p-q&step=5%");
        assert_eq!(b.link.sel.as_deref(), Some("c:p-q"));
        assert_eq!(b.link.step.as_deref(), Some("5%"));
        assert_eq!(At::parse(""), At::default());
    }

    #[test]
    fn a_lesson_is_fetched_from_here_or_an_allowed_origin_only() {
        let here = "https://course.edu";
        assert_eq!(
            lesson_url("alignment", Lang::En, here, None).unwrap(),
            "lessons/en/alignment.json"
        );
        assert_eq!(
            lesson_url("fifo", Lang::ZhHans, here, None).unwrap(),
            "lessons/zh/fifo.json"
        );
        assert_eq!(
            lesson_url("mine/week3.json", Lang::En, here, None).unwrap(),
            "mine/week3.json"
        );
        assert!(lesson_url("https://course.edu/l.json", Lang::En, here, None).is_ok());
        assert!(lesson_url("https://evil.example/l.json", Lang::En, here, None).is_err());
        assert!(lesson_url(
            "https://lms.edu/l.json",
            Lang::En,
            here,
            Some("https://lms.edu")
        )
        .is_ok());
        assert!(lesson_url("//evil.example/l.json", Lang::En, here, None).is_err());
        assert!(lesson_url("javascript:alert(1).json", Lang::En, here, None).is_err());
        assert!(lesson_url("nope", Lang::En, here, None)
            .unwrap_err()
            .contains("alignment"));
    }
}
