//! Links to an exact moment: the scenario (a preset's name, or an edited scenario whole), mode, language, seed, the step,
//! the choices made by hand on the way there, and what is open (a completed checkpoint's
//! global state, the selected subtask or channel, the inspector's tab). Plain Rust, tested
//! natively; `app.rs` reads the address and the share dialog writes one.
//!
//! The choices are a compact code, one entry per action chosen by hand, separated by dots:
//! the step it was chosen at, a letter, and its numbers separated by dashes — `12d3.40k5`
//! delivered the head of channel 3 at step 12 and failed task 5 at step 40. Everything between
//! them is the scheduler's, which determinism replays exactly.

use crate::engine::{Action, CheckpointId, Physical};

use super::run::Run;
use super::vocab::{Ignored, Notice, Selection, Tab};
use crate::engine::BarrierMode;
use crate::i18n::Lang;
use crate::scenario::codec::LinkError;
use crate::scenario::modes::{RunMode, Variant};
use crate::scenario::{presets, Scenario};

/// The longest run a link replays: a larger step (or one past the end of a run that ends)
/// shows the last step reached, with a notice, rather than freezing the tab.
pub const MAX_LINK_STEP: u64 = 200_000;

/// What a link asks for beyond the scenario, mode and language.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moment {
    pub seed: Option<u64>,
    /// The step asked for; a number too large for a `u64` is `u64::MAX` (the run's end, as far
    /// as a link replays: [`MAX_LINK_STEP`]).
    pub step: u64,
    pub choices: Vec<(u64, Action)>,
    pub open: Option<CheckpointId>,
    /// `t:Count#1` or `c:Split#0-Count#1`, as the page names them.
    pub select: Option<String>,
    pub tab: Option<Tab>,
    /// A cut placed on the space-time diagram: a virtual time per line (`cut=12.40.33`).
    pub cut: Option<Vec<u64>>,
    /// What the link spelt that names nothing: left out, each with a notice.
    pub ignored: Vec<Ignored>,
}

/// What a link asks for beyond the scenario, mode and language, as the address spells it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LinkParams {
    pub step: Option<String>,
    pub choices: Option<String>,
    pub open: Option<String>,
    pub sel: Option<String>,
    pub panel: Option<String>,
    pub cut: Option<String>,
}

impl Moment {
    /// Reads the moment a link names from its parameters. Choices that cannot be read make
    /// the link unusable (the error says which): the moment is where they lead. A step that
    /// is not a number, or an `open` or `panel` that names nothing, is left out and listed in
    /// `ignored`.
    pub fn parse(link: &LinkParams) -> Result<Moment, LinkError> {
        let mut ignored = Vec::new();
        let step = match &link.step {
            None => 0,
            Some(v) if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) => {
                v.parse::<u64>().unwrap_or(u64::MAX)
            }
            Some(v) => {
                ignored.push(Ignored::Step(v.clone()));
                0
            }
        };
        let choices = match &link.choices {
            None => Vec::new(),
            Some(v) => decode_choices(v)?,
        };
        let open = link.open.as_deref().and_then(|v| {
            let n = v.parse::<u64>().ok();
            if n.is_none() {
                ignored.push(Ignored::Open(v.to_string()));
            }
            n
        });
        let tab = link.panel.as_deref().and_then(|v| {
            let tab = tab_by_name(v);
            if tab.is_none() {
                ignored.push(Ignored::Panel(v.to_string()));
            }
            tab
        });
        let cut = link.cut.as_deref().and_then(|v| {
            let at: Option<Vec<u64>> = v.split('.').map(|t| t.parse().ok()).collect();
            if at.is_none() {
                ignored.push(Ignored::Cut(v.to_string()));
            }
            at
        });
        Ok(Moment {
            seed: None,
            step,
            choices,
            open,
            select: link.sel.clone(),
            tab,
            cut,
            ignored,
        })
    }
}

/// How a link names the side panel's tab (`panel=`).
pub fn tab_name(tab: Tab) -> &'static str {
    match tab {
        Tab::Checkpoints => "checkpoints",
        Tab::Coordinator => "coordinator",
        Tab::Details => "details",
    }
}

/// The tab a link's `panel=` names, if any.
pub fn tab_by_name(name: &str) -> Option<Tab> {
    match name {
        "checkpoints" => Some(Tab::Checkpoints),
        "coordinator" => Some(Tab::Coordinator),
        "details" => Some(Tab::Details),
        _ => None,
    }
}

/// What the address asked for, resolved: unknown values fall back to the defaults and say so.
pub fn resolve(
    preset: Option<&str>,
    mode: Option<&str>,
    lang: Option<&str>,
) -> (Scenario, BarrierMode, Lang, Vec<Notice>) {
    let mut notices = Vec::new();
    let scenario = preset_or_default(preset, &mut notices);
    let (scenario, mode, lang) = resolve_for(scenario, mode, lang, &mut notices);
    (scenario, mode, lang, notices)
}

/// The preset an address names (`None`: the default, alignment); an unknown name gives the
/// default and a notice.
pub fn preset_or_default(preset: Option<&str>, notices: &mut Vec<Notice>) -> Scenario {
    match preset.map(presets::by_name) {
        None => presets::alignment(),
        Some(Ok(s)) => s,
        Some(Err(_)) => {
            notices.push(Notice::BadParam {
                param: "preset",
                value: preset.unwrap_or_default().to_string(),
                used: "alignment".into(),
            });
            presets::alignment()
        }
    }
}

/// The mode and language asked for, applied to a scenario (a preset, or a whole scenario
/// from a link). A mode that does not exist falls back to the scenario's own with a notice
/// that says so; a mode that exists but the scenario cannot run (aligned on a process system)
/// does too, with a notice naming the scenario: the scenario asked for is what is shown.
pub fn resolve_for(
    scenario: Scenario,
    mode: Option<&str>,
    lang: Option<&str>,
    notices: &mut Vec<Notice>,
) -> (Scenario, BarrierMode, Lang) {
    let asked = mode.map(|m| RunMode::named(m).ok_or(()));
    let runs = scenario.modes();
    let entries = scenario.run_modes();
    // The scenario's own mode, or the first it can run if its own is not one of them.
    let own = match runs.first() {
        Some(&first) if !runs.contains(&scenario.config.mode) => first,
        _ => scenario.config.mode,
    };
    let (scenario, mode) = match asked {
        None => (scenario.with_mode(own), own),
        Some(Ok(entry)) if runs.contains(&entry.mode) && entries.contains(&entry) => {
            // A plain entry keeps the scenario's own settings (a linked scenario's timeout).
            let scenario = match entry.variant {
                Variant::Plain => scenario.with_mode(entry.mode),
                _ => entry.apply(&scenario),
            };
            (scenario, entry.mode)
        }
        Some(Ok(entry)) => {
            notices.push(Notice::ModeUnavailable {
                mode: entry.mode,
                timeout: entry.variant == Variant::Timeout,
                scenario: scenario.name.clone(),
                title: scenario.title.clone(),
                used: own,
                refused: scenario.refused_by_flink(entry),
            });
            (scenario.with_mode(own), own)
        }
        Some(Err(_)) => {
            notices.push(Notice::BadParam {
                param: "mode",
                value: mode.unwrap_or_default().to_string(),
                used: own.as_str().into(),
            });
            (scenario.with_mode(own), own)
        }
    };
    let lang = match lang.map(Lang::from_code) {
        None => Lang::En,
        Some(Some(l)) => l,
        Some(None) => {
            notices.push(Notice::BadParam {
                param: "lang",
                value: lang.unwrap_or_default().to_string(),
                used: "en".into(),
            });
            Lang::En
        }
    };
    (scenario, mode, lang)
}

fn code(a: &Action) -> String {
    match *a {
        Action::Deliver { channel } => format!("d{channel}"),
        Action::Replay { task } => format!("r{task}"),
        Action::Emit { task } => format!("e{task}"),
        Action::Trigger => "t".into(),
        Action::Savepoint => "a".into(),
        Action::Expire { checkpoint } => format!("x{checkpoint}"),
        Action::TimeOutAlignment { checkpoint } => format!("o{checkpoint}"),
        Action::Pause { channel, paused } => format!("p{channel}-{}", u8::from(paused)),
        Action::SetLatency { channel, latency } => format!("l{channel}-{latency}"),
        Action::Initiate { task } => format!("i{task}"),
        Action::SetFifo { channel, fifo } => format!("f{channel}-{}", u8::from(fifo)),
        Action::Fail { task } => format!("k{task}"),
        Action::FailJob => "j".into(),
        Action::Restart => "s".into(),
        Action::SkipFailure { task } => format!("n{task}"),
        Action::DeliverNth { channel, nth } => format!("v{channel}-{nth}"),
        Action::SnapshotAll { checkpoint } => format!("w{checkpoint}"),
    }
}

/// The choices made by hand (`(step, action)`, ascending) in the first `upto` steps.
pub fn encode_choices(chosen: &[(u64, Action)], upto: u64) -> String {
    let mut out = String::new();
    for (i, a) in chosen.iter().take_while(|(i, _)| *i < upto) {
        if !out.is_empty() {
            out.push('.');
        }
        out += &format!("{i}{}", code(a));
    }
    out
}

/// Reads a choices code; a malformed entry is an error naming it.
pub fn decode_choices(text: &str) -> Result<Vec<(u64, Action)>, LinkError> {
    let mut out: Vec<(u64, Action)> = Vec::new();
    for entry in text.split('.').filter(|e| !e.is_empty()) {
        let bad = || LinkError::Choice(entry.to_string());
        let at = entry.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
        let step: u64 = entry[..at].parse().map_err(|_| bad())?;
        let letter = entry[at..].chars().next().ok_or_else(bad)?;
        let rest = &entry[at + letter.len_utf8()..];
        let nums: Vec<u64> = if rest.is_empty() {
            Vec::new()
        } else {
            rest.split('-')
                .map(|n| n.parse::<u64>().map_err(|_| bad()))
                .collect::<Result<_, _>>()?
        };
        let n = |i: usize| nums.get(i).copied().ok_or_else(bad);
        let id = |i: usize| n(i).and_then(|v| u32::try_from(v).map_err(|_| bad()));
        let action = match (letter, nums.len()) {
            ('d', 1) => Action::Deliver { channel: id(0)? },
            ('r', 1) => Action::Replay { task: id(0)? },
            ('e', 1) => Action::Emit { task: id(0)? },
            ('t', 0) => Action::Trigger,
            ('a', 0) => Action::Savepoint,
            ('x', 1) => Action::Expire { checkpoint: n(0)? },
            ('o', 1) => Action::TimeOutAlignment { checkpoint: n(0)? },
            ('w', 1) => Action::SnapshotAll { checkpoint: n(0)? },
            ('p', 2) => Action::Pause {
                channel: id(0)?,
                paused: n(1)? == 1,
            },
            ('l', 2) => Action::SetLatency {
                channel: id(0)?,
                latency: n(1)?,
            },
            ('i', 1) => Action::Initiate { task: id(0)? },
            ('f', 2) => Action::SetFifo {
                channel: id(0)?,
                fifo: n(1)? == 1,
            },
            ('k', 1) => Action::Fail { task: id(0)? },
            ('j', 0) => Action::FailJob,
            ('s', 0) => Action::Restart,
            ('n', 1) => Action::SkipFailure { task: id(0)? },
            ('v', 2) => Action::DeliverNth {
                channel: id(0)?,
                nth: id(1)?,
            },
            _ => return Err(bad()),
        };
        if out.last().is_some_and(|&(s, _)| s >= step) {
            return Err(bad());
        }
        out.push((step, action));
    }
    Ok(out)
}

/// How a link names a selection (items are not linked: they move on).
pub fn selection_name(phys: &Physical, sel: Option<Selection>) -> Option<String> {
    match sel? {
        Selection::Task(t) => phys.tasks.get(t as usize).map(|i| format!("t:{}", i.name)),
        Selection::Channel(c) => {
            (c < phys.channel_count()).then(|| format!("c:{}", phys.channel_name(c)))
        }
        Selection::Item { .. } => None,
        #[cfg(feature = "views")]
        Selection::Operator(o) => phys
            .graph
            .operators
            .get(o as usize)
            .map(|op| format!("o:{}", op.name)),
        #[cfg(feature = "views")]
        Selection::Edge(e) => (e < phys.operator_edges.len() as u32).then(|| format!("e:{e}")),
    }
}

/// The selection a link names, if the graph has it.
pub fn selection_by_name(phys: &Physical, name: &str) -> Option<Selection> {
    if let Some(task) = name.strip_prefix("t:") {
        return phys.task_by_name(task).map(Selection::Task);
    }
    #[cfg(feature = "views")]
    if let Some(op) = name.strip_prefix("o:") {
        let o = phys.graph.operators.iter().position(|o| o.name == op)?;
        return Some(Selection::Operator(o as u32));
    }
    #[cfg(feature = "views")]
    if let Some(e) = name.strip_prefix("e:") {
        let e = e.parse::<u32>().ok()?;
        return (e < phys.operator_edges.len() as u32).then_some(Selection::Edge(e));
    }
    let channel = name.strip_prefix("c:")?;
    (0..phys.channel_count())
        .find(|&c| phys.channel_name(c) == channel)
        .map(Selection::Channel)
}

/// Brings a fresh run to the moment: `step` steps, the scheduler's but for the choices, or
/// as far as the run goes — to its end, or [`MAX_LINK_STEP`] steps at most (the caller
/// compares the position with the step asked for). A choice the engine refuses (a link from
/// another version, or edited by hand) is an error.
pub fn replay(run: &mut Run, step: u64, choices: &[(u64, Action)]) -> Result<(), LinkError> {
    let step = step.min(MAX_LINK_STEP);
    let mut next = choices.iter().peekable();
    while run.position() < step {
        let at = run.position();
        match next.peek() {
            Some(&&(s, a)) if s == at => {
                next.next();
                run.apply(a)
                    .map_err(|error| LinkError::ChoiceRefused { step: s, error })?;
            }
            Some(&&(s, _)) if s < at => return Err(LinkError::ChoicePassed(s)),
            _ => {
                if !run.forward() {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// How a link names the scenario: `preset=NAME`, or for a scenario edited by hand its `code`,
/// the whole of it (`scenario=…`, see `scenario::codec`).
pub fn scenario_param(run: &Run, code: Option<&str>) -> String {
    match code {
        Some(code) => format!("scenario={code}"),
        None => format!("preset={}", encode(&run.scenario.name)),
    }
}

/// What a link keeps besides the run's step: the selection, the side panel's tab, the open
/// checkpoint and a cut placed on the space-time diagram.
#[derive(Clone, Copy, Debug)]
pub struct Shown<'a> {
    pub selection: Option<Selection>,
    pub tab: Tab,
    pub open: Option<CheckpointId>,
    pub cut: Option<&'a [u64]>,
}

/// The query string of a link to the run as it is now (without the leading `?`).
pub fn query(run: &Run, code: Option<&str>, mode: &str, lang_code: &str, shown: Shown) -> String {
    let Shown {
        selection,
        tab,
        open,
        cut,
    } = shown;
    let mut q = format!(
        "{}&mode={mode}&lang={lang_code}&seed={}&step={}",
        scenario_param(run, code),
        run.scenario.seed,
        run.position()
    );
    let choices = encode_choices(run.choices(), run.position());
    if !choices.is_empty() {
        q += &format!("&choices={choices}");
    }
    if let Some(n) = open {
        q += &format!("&open={n}");
    }
    if let Some(name) = selection_name(run.sim().physical(), selection) {
        q += &format!("&sel={}", encode(&name));
    }
    q += &format!("&panel={}", tab_name(tab));
    if let Some(at) = cut {
        let at: Vec<String> = at.iter().map(u64::to_string).collect();
        q += &format!("&cut={}", at.join("."));
    }
    q
}

/// A speed factor as a link writes it (`2`, `0.5`): digits with at most one point. Not
/// `str::parse::<f64>`, whose float parser weighs kilobytes of the page's wasm.
pub fn parse_speed(text: &str) -> Option<f64> {
    let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
    if whole.len() > 6 || frac.len() > 6 || (whole.is_empty() && frac.is_empty()) {
        return None;
    }
    let int = |d: &str| -> Option<u32> {
        if d.is_empty() {
            Some(0)
        } else if d.bytes().all(|b| b.is_ascii_digit()) {
            d.parse().ok()
        } else {
            None
        }
    };
    let v = f64::from(int(whole)?) + f64::from(int(frac)?) / 10f64.powi(frac.len() as i32);
    (v > 0.0).then_some(v)
}

/// Percent-encodes what a query value may not hold as it is.
pub fn encode(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out += &format!("%{b:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests;
