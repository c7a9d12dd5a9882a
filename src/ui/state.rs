//! The page's one reducer: the playback state over the engine's history — cursor, playing,
//! speed, manual mode, selection, language, scenario and mode.
//!
//! The run itself (history, journal, clock) lives behind an `Rc<RefCell<…>>` and is mutated
//! in place, so a step never deep-copies the history; `version` changes whenever the page
//! must re-render. Animation frames that change nothing visible to Yew return the same `Rc`,
//! which Yew takes as "no re-render".

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use yew::Reducible;

use super::fmt::clamp;
use super::permalink::{resolve_for, Moment};
use super::run::Run;
pub use super::vocab::{Ignored, Notice, Selection, Tab, UserCut};
use crate::engine::{Action, ActionError, BarrierMode, ChannelId, CheckpointId, TaskId};
use crate::i18n::Lang;
use crate::scenario::codec::LinkError;
use crate::scenario::modes::RunMode;
use crate::scenario::{presets, Scenario};

/// Speeds are powers of two from 0.25× to 8×; the slider moves the exponent.
pub const SPEED_MIN_EXP: f64 = -2.0;
pub const SPEED_MAX_EXP: f64 = 3.0;
/// The most engine steps one animation frame may run.
pub const MAX_STEPS_PER_FRAME: u32 = 4_000;
/// While playing a large graph, Yew re-renders the panels and the SVG at most this often;
/// the items still move on the canvas every frame.
pub const LARGE_RENDER_INTERVAL_MS: f64 = 1000.0;

/// The run, shared by the reducer (which mutates it) and the components (which read it).
/// Two handles are equal when they are the same run.
#[derive(Clone)]
pub struct RunRef(pub Rc<RefCell<Run>>);

impl PartialEq for RunRef {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

pub struct Playback {
    pub run: RunRef,
    pub version: u64,
    pub playing: bool,
    pub speed_exp: f64,
    pub manual: bool,
    pub selection: Option<Selection>,
    pub tab: Tab,
    pub checkpoint: Option<CheckpointId>,
    pub lang: Lang,
    pub preset: String,
    pub mode: BarrierMode,
    pub notices: Vec<Notice>,
    pub help: bool,
    /// The share dialog is open.
    pub share: bool,
    /// The scenario's code when it was edited by hand (or came whole from a link or the host
    /// page): links carry it (`scenario=`), not a preset's name. The code a link brought is
    /// passed on as it came: the student's builds do not carry the compressor.
    pub code: Option<Rc<str>>,
    /// The compact view for an `<iframe>` (`?embed`).
    pub embed: bool,
    /// Embedded: the inspector is shown instead of the dataflow.
    pub side_open: bool,
    /// False when the user prefers reduced motion: items jump from step to step.
    pub animate: bool,
    /// The latest `abs:load` from the host page that could not be done as asked, numbered (the
    /// page answers each with an `abs:error`); its notice is shown too.
    pub host_error: Option<(u32, Notice)>,
    /// A cut the student placed on the space-time diagram.
    pub cut: Option<Rc<UserCut>>,
    /// The page asked to be left for another build, numbered: the reducer only says so, and
    /// the app leaves (`address::leave`), so that the reducer stays pure.
    pub leave: Option<(u32, Leave)>,
    last_frame: Cell<Option<f64>>,
    last_render: Cell<f64>,
    dirty: Cell<bool>,
    settling: Cell<bool>,
}

/// Where the page goes instead of doing what was asked here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Leave {
    /// The lesson page for this lesson (`abs:load` with a `lesson`), embedded, in this language.
    Lesson { lesson: String, lang: Lang },
    /// This address (with `big`): the build that draws a job of real size bundled.
    Big(String),
}

/// How far "next key event" looks ahead, in steps: a run with no checkpoint, failure or
/// alignment in sight stops there.
const KEY_EVENT_REACH: u64 = 10_000;

pub enum PlaybackAction {
    Step,
    /// Forward to the next key event: ①–④, a checkpoint completing, a failure.
    NextKey,
    StepBack,
    Seek(u64),
    TogglePlay,
    SetSpeed(f64),
    Reset,
    Trigger,
    /// A savepoint now (Flink's modes).
    Savepoint,
    ToggleManual,
    /// Manual mode: deliver the head of this channel.
    Deliver(ChannelId),
    /// Make a channel FIFO or not (the inspector's switch).
    SetFifo(ChannelId, bool),
    /// Fail this subtask (the inspector's button).
    Fail(TaskId),
    /// Fail the selected subtask, if one is selected (the X key).
    FailSelected,
    /// The next planned failure of this subtask will not happen.
    SkipFailure(TaskId),
    /// Manual mode: drain one held item of this task, or read the next line of a source.
    Poke(TaskId),
    Select(Option<Selection>),
    ShowTab(Tab),
    OpenCheckpoint(CheckpointId),
    SetLang(Lang),
    SetPreset(String),
    /// An entry of the mode menu: a protocol, or one with the aligned timeout or buffer
    /// debloating on.
    SetMode(RunMode),
    /// An animation frame at this timestamp (ms).
    Frame(f64),
    ToggleHelp,
    /// Open or close the share dialog (pauses: the link is to this moment).
    ToggleShare,
    /// Embedded: show the inspector instead of the dataflow, or back.
    ToggleSide,
    /// A message from the page embedding the player (`host.rs`).
    Host(super::host::HostMessage),
    CloseOverlays,
    Dismiss(usize),
    /// Place, move or take away the student's cut on the space-time diagram.
    SetCut(Option<UserCut>),
}

/// A run of the scenario in `mode`, and the mode it runs in: should the scenario not run in
/// `mode`, its first mode without a timeout; should it run in none, the alignment preset
/// (which always builds) — never another scenario under this one's name (the caller takes the
/// name from the run).
fn new_run(scenario: &Scenario, mode: BarrierMode) -> (Rc<RefCell<Run>>, BarrierMode) {
    if let Ok(run) = Run::new(scenario.with_mode(mode)) {
        return (Rc::new(RefCell::new(run)), mode);
    }
    let mut own = scenario.clone();
    own.config.aligned_checkpoint_timeout = None;
    own.config.buffer_debloat = None;
    for m in scenario.modes() {
        if let Ok(run) = Run::new(own.with_mode(m)) {
            return (Rc::new(RefCell::new(run)), m);
        }
    }
    let Ok(run) = Run::new(presets::alignment()) else {
        unreachable!("the alignment preset always builds")
    };
    let mode = run.scenario.config.mode;
    (Rc::new(RefCell::new(run)), mode)
}

impl Playback {
    /// Brings the run to the moment a link names (`permalink::Moment`): its step (with the
    /// choices made on the way), the open checkpoint, the selection and the inspector's tab.
    /// A step past the run's end shows its last step; a part that names nothing is left out;
    /// each with a notice that says so. Choices that cannot be followed give a notice and the
    /// scenario from its start — never a blank page.
    pub fn follow(&mut self, moment: Result<Moment, LinkError>) {
        let result = moment.and_then(|m| {
            let mut run = self.run.0.borrow_mut();
            super::permalink::replay(&mut run, m.step, &m.choices)?;
            run.clock = run.sim().now() as f64;
            Ok(m)
        });
        let m = match result {
            Ok(m) => m,
            Err(why) => {
                let scenario = self.run.0.borrow().scenario.clone();
                self.restart(&scenario);
                let why = (self.lang.strings().link_error)(&why);
                self.notices.push(Notice::BrokenLink(why));
                return;
            }
        };
        let run = self.run.0.borrow();
        let sim = run.sim();
        let mut ignored = m.ignored;
        let shown = run.position();
        if shown < m.step {
            self.notices.push(Notice::StepPastEnd {
                shown,
                ended: shown < m.step.min(super::permalink::MAX_LINK_STEP),
            });
        }
        if let Some(n) = m.open {
            if sim.coordinator().global_state(n).is_some() {
                self.checkpoint = Some(n);
                self.tab = Tab::Checkpoints;
            } else {
                ignored.push(Ignored::Open(n.to_string()));
            }
        }
        if let Some(sel) = m.select {
            self.selection = super::permalink::selection_by_name(sim.physical(), &sel);
            if self.selection.is_none() {
                ignored.push(Ignored::Select(sel));
            }
        }
        if let Some(tab) = m.tab {
            self.tab = tab;
        }
        if let Some(at) = m.cut {
            if at.len() == sim.physical().tasks.len() {
                self.cut = Some(Rc::new(UserCut {
                    at,
                    ..UserCut::default()
                }));
            } else {
                let at: Vec<String> = at.iter().map(u64::to_string).collect();
                ignored.push(Ignored::Cut(at.join(".")));
            }
        }
        self.notices
            .extend(ignored.into_iter().map(Notice::Ignored));
    }

    /// The mode as the address and the host API spell it: the mode, or `aligned-timeout` for
    /// aligned checkpoints with a timeout (an entry of the mode menu).
    pub fn mode_param(&self) -> &'static str {
        RunMode::of(&self.run.0.borrow().scenario.config).name()
    }

    /// Chandy-Lamport: the selected process, which the trigger button makes initiate a
    /// snapshot. `None` in the other modes, or with no process selected.
    pub fn snapshot_initiator(&self) -> Option<crate::engine::TaskId> {
        let Some(Selection::Task(t)) = self.selection else {
            return None;
        };
        self.run.0.borrow().sim().may_initiate(t).then_some(t)
    }

    /// The playback of a scenario in a mode (`permalink::resolve_for` has checked that the
    /// scenario runs in it). Should it not, the scenario's first mode is shown, with a notice
    /// naming it; a scenario that runs in no mode at all, the alignment preset.
    pub fn new(scenario: Scenario, mode: BarrierMode, lang: Lang, animate: bool) -> Playback {
        let (run, used) = new_run(&scenario, mode);
        let mut notices = Vec::new();
        let timeout = scenario.config.aligned_checkpoint_timeout.is_some();
        let kept_timeout = run
            .borrow()
            .scenario
            .config
            .aligned_checkpoint_timeout
            .is_some();
        if used != mode || timeout != kept_timeout {
            notices.push(Notice::ModeUnavailable {
                mode,
                timeout,
                scenario: scenario.name.clone(),
                title: scenario.title.clone(),
                used,
                refused: scenario.refused_by_flink(RunMode {
                    mode,
                    variant: if timeout {
                        crate::scenario::modes::Variant::Timeout
                    } else {
                        crate::scenario::modes::Variant::Plain
                    },
                }),
            });
        }
        let preset = run.borrow().scenario.name.clone();
        Playback {
            run: RunRef(run),
            version: 0,
            playing: false,
            speed_exp: 0.0,
            manual: false,
            selection: None,
            tab: Tab::Details,
            checkpoint: None,
            lang,
            preset,
            mode: used,
            notices,
            help: false,
            share: false,
            code: None,
            embed: false,
            side_open: false,
            animate,
            host_error: None,
            leave: None,
            cut: None,
            last_frame: Cell::new(None),
            last_render: Cell::new(0.0),
            dirty: Cell::new(false),
            settling: Cell::new(false),
        }
    }

    pub fn speed(&self) -> f64 {
        clamp(self.speed_exp, SPEED_MIN_EXP, SPEED_MAX_EXP).exp2()
    }

    /// True while frames still change what the canvas shows.
    pub fn is_moving(&self) -> bool {
        self.playing || self.settling.get()
    }

    fn next(&self) -> Playback {
        Playback {
            run: self.run.clone(),
            version: self.version + 1,
            playing: self.playing,
            speed_exp: self.speed_exp,
            manual: self.manual,
            selection: self.selection,
            tab: self.tab,
            checkpoint: self.checkpoint,
            lang: self.lang,
            preset: self.preset.clone(),
            mode: self.mode,
            notices: self.notices.clone(),
            help: self.help,
            share: self.share,
            code: self.code.clone(),
            embed: self.embed,
            side_open: self.side_open,
            animate: self.animate,
            host_error: self.host_error.clone(),
            leave: self.leave.clone(),
            cut: self.cut.clone(),
            last_frame: Cell::new(self.last_frame.get()),
            last_render: Cell::new(self.last_render.get()),
            dirty: Cell::new(false),
            settling: Cell::new(self.settling.get()),
        }
    }

    fn refuse(&mut self, e: ActionError) {
        self.notices.retain(|n| !matches!(n, Notice::Refused(_)));
        self.notices.push(Notice::Refused(e));
    }

    fn apply(&mut self, action: Action) {
        let result = self.run.0.borrow_mut().apply(action);
        match result {
            Ok(()) => {
                // Even without animation the clock must reach the engine: `settle` jumps then.
                self.settling.set(true);
                self.notices.retain(|n| !matches!(n, Notice::Refused(_)));
            }
            Err(e) => self.refuse(e),
        }
    }

    /// Runs a whole scenario (validated by whoever read it) from its start, in its own mode;
    /// `code` is what a link to it carries (`scenario=`).
    pub fn load(&mut self, scenario: Scenario, code: Rc<str>) {
        self.mode = scenario.config.mode;
        self.code = Some(code);
        self.restart(&scenario);
    }

    fn restart(&mut self, scenario: &Scenario) {
        let (run, mode) = new_run(scenario, self.mode);
        self.preset = run.borrow().scenario.name.clone();
        self.run = RunRef(run);
        self.mode = mode;
        self.playing = false;
        self.selection = None;
        self.checkpoint = None;
        self.cut = None;
        self.notices
            .retain(|n| matches!(n, Notice::BadParam { .. }));
        self.settling.set(false);
    }

    fn frame(self: Rc<Self>, ts: f64) -> Rc<Self> {
        let dt = match self.last_frame.replace(Some(ts)) {
            Some(prev) => clamp(ts - prev, 0.0, 100.0),
            None => 0.0,
        };
        if self.playing {
            let (tick, large) = {
                let mut run = self.run.0.borrow_mut();
                let tick = run.tick(dt, self.speed(), MAX_STEPS_PER_FRAME);
                (tick, !run.layout.detailed)
            };
            if tick.ended {
                let mut next = self.next();
                next.playing = false;
                next.notices.push(Notice::Ended);
                return Rc::new(next);
            }
            if tick.steps > 0 {
                self.dirty.set(true);
            }
            let interval = if large { LARGE_RENDER_INTERVAL_MS } else { 0.0 };
            if self.dirty.get() && ts - self.last_render.get() >= interval {
                let next = self.next();
                next.last_render.set(ts);
                return Rc::new(next);
            }
            return self;
        }
        if self.settling.get() {
            let moving = self.run.0.borrow_mut().settle(dt, self.animate);
            self.settling.set(moving);
        }
        self
    }
}

impl Reducible for Playback {
    type Action = PlaybackAction;

    fn reduce(self: Rc<Self>, action: PlaybackAction) -> Rc<Self> {
        if let PlaybackAction::Frame(ts) = action {
            return self.frame(ts);
        }
        let mut next = self.next();
        match action {
            PlaybackAction::Frame(_) => {}
            PlaybackAction::Step => {
                next.playing = false;
                let advanced = next.run.0.borrow_mut().forward();
                if advanced {
                    next.settling.set(true);
                } else if !next.notices.contains(&Notice::Ended) {
                    next.notices.push(Notice::Ended);
                }
            }
            PlaybackAction::NextKey => {
                next.playing = false;
                next.settling.set(false);
                if !next.run.0.borrow_mut().next_key(KEY_EVENT_REACH)
                    && !next.notices.contains(&Notice::Ended)
                {
                    next.notices.push(Notice::Ended);
                }
            }
            PlaybackAction::StepBack => {
                next.playing = false;
                next.settling.set(false);
                next.run.0.borrow_mut().back();
                next.notices.retain(|n| *n != Notice::Ended);
            }
            PlaybackAction::Seek(step) => {
                next.playing = false;
                next.settling.set(false);
                next.run.0.borrow_mut().seek(step);
                next.notices.retain(|n| *n != Notice::Ended);
            }
            PlaybackAction::TogglePlay => {
                next.playing = !next.playing;
                next.last_frame.set(None);
                if next.playing {
                    next.notices.retain(|n| *n != Notice::Ended);
                    next.run.0.borrow_mut().play_now();
                } else {
                    // The last event may have run a little past the clock (see `Run::tick`).
                    next.settling.set(true);
                }
            }
            PlaybackAction::SetSpeed(exp) => {
                next.speed_exp = clamp(exp, SPEED_MIN_EXP, SPEED_MAX_EXP);
            }
            PlaybackAction::Reset => {
                let scenario = next.run.0.borrow().scenario.clone();
                next.restart(&scenario);
            }
            PlaybackAction::Trigger => {
                // Chandy-Lamport: the selected process initiates; otherwise the next in turn.
                let initiator = next.snapshot_initiator();
                next.apply(initiator.map_or(Action::Trigger, |task| Action::Initiate { task }))
            }
            PlaybackAction::Savepoint => next.apply(Action::Savepoint),
            PlaybackAction::ToggleManual => {
                next.manual = !next.manual;
                if next.manual {
                    next.playing = false;
                }
            }
            PlaybackAction::SetFifo(channel, fifo) => next.apply(Action::SetFifo { channel, fifo }),
            PlaybackAction::Fail(task) => next.apply(Action::Fail { task }),
            PlaybackAction::FailSelected => {
                if let Some(Selection::Task(task)) = next.selection {
                    next.apply(Action::Fail { task });
                }
            }
            PlaybackAction::SkipFailure(task) => next.apply(Action::SkipFailure { task }),
            PlaybackAction::Deliver(channel) => {
                next.playing = false;
                next.apply(Action::Deliver { channel });
            }
            PlaybackAction::Poke(task) => {
                next.playing = false;
                let enabled = next.run.0.borrow().sim().enabled_actions();
                let pick = enabled.into_iter().find(|a| {
                    matches!(a, Action::Replay { task: t } | Action::Emit { task: t } if *t == task)
                });
                match pick {
                    Some(a) => next.apply(a),
                    None => next.selection = Some(Selection::Task(task)),
                }
            }
            PlaybackAction::Select(sel) => {
                next.selection = sel;
                if sel.is_some() {
                    next.tab = Tab::Details;
                }
            }
            PlaybackAction::ShowTab(tab) => next.tab = tab,
            PlaybackAction::SetCut(cut) => next.cut = cut.map(Rc::new),
            PlaybackAction::OpenCheckpoint(n) => {
                next.tab = Tab::Checkpoints;
                next.checkpoint = Some(n);
            }
            PlaybackAction::SetLang(lang) => next.lang = lang,
            PlaybackAction::SetPreset(name) => match presets::by_name(&name) {
                Ok(s) => {
                    next.mode = s.config.mode;
                    next.code = None;
                    next.restart(&s);
                }
                Err(_) => next.notices.push(Notice::BadParam {
                    param: "preset",
                    value: name,
                    used: next.preset.clone(),
                }),
            },
            PlaybackAction::SetMode(entry) => {
                next.mode = entry.mode;
                let scenario = entry.apply(&next.run.0.borrow().scenario);
                next.restart(&scenario);
            }
            PlaybackAction::ToggleHelp => next.help = !next.help,
            PlaybackAction::ToggleSide => next.side_open = !next.side_open,
            PlaybackAction::Host(m) => next.host(m),
            PlaybackAction::ToggleShare => {
                next.share = !next.share;
                next.playing = false;
            }
            PlaybackAction::CloseOverlays => {
                next.help = false;
                next.share = false;
                next.selection = None;
            }
            PlaybackAction::Dismiss(i) => {
                if i < next.notices.len() {
                    next.notices.remove(i);
                }
            }
        }
        Rc::new(next)
    }
}

mod host;
#[cfg(test)]
mod tests;
