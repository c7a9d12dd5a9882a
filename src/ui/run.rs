//! One run of a scenario as the page plays it: the engine's history, the narration journal,
//! the timeline marks and the display clock. Plain Rust (no yew, no web-sys), tested natively.
//!
//! The page keeps one `Run` behind an `Rc<RefCell<…>>` and mutates it in place, so a step
//! never copies the history; the reducer only bumps a version number to re-render.

use std::collections::VecDeque;
use std::rc::Rc;

use crate::engine::sorted_map::SortedMap;
use crate::engine::view::{self, Sentence};
use crate::engine::{Action, ActionError, History, Simulation};
use crate::scenario::modes::RunMode;
use crate::scenario::{Scenario, ScenarioError};

use super::layout::{self, Layout};
use super::marks::thin_marks;
pub use super::marks::Mark;
pub use throughput::{Throughput, THROUGHPUT_BUCKET};

mod throughput;

/// Virtual time units per second of wall time at 1× speed. Four make about two steps and two
/// narration sentences a second on the presets — what a student can read as it happens (ten
/// made five, too fast to follow); the speed slider goes up to 8×.
pub const TIME_PER_SECOND: f64 = 4.0;
/// Steps whose narration is kept around the current position.
pub const JOURNAL_WINDOW: u64 = 60;
/// The most timeline marks kept, so a long run's memory does not grow with every checkpoint
/// (see `thin_marks`).
const MARKS: usize = 2 * crate::engine::coordinator::CHECKPOINT_HISTORY;
/// The journal never holds more steps than this.
const JOURNAL_MAX: usize = 4_000;

/// What one animation frame did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tick {
    pub steps: u32,
    /// Nothing is left to happen.
    pub ended: bool,
}

/// The most steps the run without failures is given to finish.
const FAILURE_FREE_STEPS: u32 = 200_000;

pub struct Run {
    /// Distinct for every run made in this page, so views can cache what depends on it.
    pub serial: u64,
    pub scenario: Scenario,
    history: History,
    journal: Journal,
    marks: Vec<Mark>,
    throughput: Throughput,
    /// The virtual time the items are drawn at: the engine's time, or between it and the
    /// next event while playing, or easing towards it after a step.
    pub clock: f64,
    pub layout: Rc<Layout>,
    /// The mode menu's entries the scenario runs as.
    modes: Vec<RunMode>,
    /// The merged counts the scenario ends with when nothing fails (computed when first
    /// asked; `Some(None)`: it does not finish).
    failure_free: std::cell::OnceCell<Option<Rc<SortedMap<u32, u64>>>>,
}

impl Run {
    pub fn new(scenario: Scenario) -> Result<Run, ScenarioError> {
        let sim = scenario.simulation()?;
        let layout = Rc::new(layout::layout(sim.physical()));
        let modes = scenario.run_modes_on(sim.physical());
        static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Ok(Run {
            serial: SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            scenario,
            history: History::new(sim),
            journal: Journal::default(),
            marks: Vec::new(),
            throughput: Throughput::default(),
            clock: 0.0,
            layout,
            modes,
            failure_free: std::cell::OnceCell::new(),
        })
    }

    /// The counts of the same scenario and seed run to its end without failures — what an
    /// exactly-once recovery must end with. Computed once, the first time it is asked for
    /// (a bounded scenario of the page's size finishes in a few thousand steps).
    pub fn failure_free(&self) -> Option<Rc<SortedMap<u32, u64>>> {
        self.failure_free
            .get_or_init(|| {
                let mut scenario = self.scenario.clone();
                scenario.failures.clear();
                let mut sim = scenario.simulation().ok()?;
                for _ in 0..FAILURE_FREE_STEPS {
                    if sim.job_finished() || sim.step().is_none() {
                        break;
                    }
                }
                sim.job_finished()
                    .then(|| Rc::new(crate::engine::view::merged_counts(&sim)))
            })
            .clone()
    }

    /// The mode menu's entries this run's scenario runs as (the menu offers only these).
    pub fn modes(&self) -> &[RunMode] {
        &self.modes
    }

    pub fn sim(&self) -> &Simulation {
        self.history.current()
    }

    /// The steps up to the position logged for the space-time diagram, replayed from the
    /// history on a copy (the run does not move): the last `steps`, and as many before them so
    /// that what was on its way when they began is known; with the time they began at.
    pub fn space_time(&self, steps: u64) -> (view::SpaceTime, u64) {
        let to = self.position();
        let from = to.saturating_sub(steps);
        let st = std::cell::RefCell::new(view::SpaceTime::default());
        let start = std::cell::Cell::new(0);
        let note = |sim: &Simulation| {
            if sim.steps() == from {
                start.set(sim.now());
            }
        };
        self.history.replay(
            from.saturating_sub(steps),
            to,
            |sim| {
                *st.borrow_mut() = view::SpaceTime::starting_at(sim);
                note(sim);
            },
            |sim| {
                st.borrow_mut().record(sim);
                note(sim);
            },
        );
        (st.into_inner(), start.get())
    }

    pub fn position(&self) -> u64 {
        self.history.position()
    }

    /// Steps recorded so far (the position may be earlier after stepping back).
    pub fn len(&self) -> u64 {
        self.history.len()
    }

    pub fn is_empty(&self) -> bool {
        self.history.is_empty()
    }

    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// Records that reached the sinks per [`THROUGHPUT_BUCKET`] of virtual time, over the
    /// recorded run.
    pub fn throughput(&self) -> &Throughput {
        &self.throughput
    }

    /// One step forward: the recorded future if there is one (so a user's earlier choices are
    /// replayed), else the scheduler's next event. False when nothing is left to happen.
    pub fn forward(&mut self) -> bool {
        if self.position() < self.len() {
            self.history.seek(self.position() + 1);
            self.journal_current();
            return true;
        }
        if self.history.step().is_none() {
            return false;
        }
        self.after_new_step();
        super::crash::check(self.position());
        true
    }

    /// Applies the user's choice; from a past position this forks a new future.
    /// What was chosen at each recorded step (the scheduler's pick, or the user's).
    pub fn choices(&self) -> &[(u64, Action)] {
        self.history.choices()
    }

    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        self.history.apply(action)?;
        self.after_new_step();
        Ok(())
    }

    /// Goes to `step`: through what was recorded, then forward, stopping where the run ends.
    pub fn go_to(&mut self, step: u64) {
        self.seek(step.min(self.len()));
        while self.position() < step && self.forward() {}
    }

    /// Goes forward to the next key event (`Sentence::is_key`), at most `limit` steps on.
    /// False when the run ended before one came.
    pub fn next_key(&mut self, limit: u64) -> bool {
        let aligned = self.sim().mode().blocks_inputs();
        for _ in 0..limit {
            if !self.forward() {
                return false;
            }
            // `forward` has put the step's sentences in the journal.
            let key = self.journal.get(self.position());
            if key.is_some_and(|s| s.iter().any(|b| b.is_key(aligned))) {
                break;
            }
        }
        true
    }

    pub fn back(&mut self) {
        self.seek(self.position().saturating_sub(1));
    }

    pub fn seek(&mut self, step: u64) {
        self.history.seek(step);
        self.fill_journal();
        self.clock = self.sim().now() as f64;
    }

    /// The sentences of steps `position-n+1 ..= position` that the journal holds, oldest first.
    pub fn recent(&self, n: u64) -> Vec<(u64, Rc<[Sentence]>)> {
        let p = self.position();
        let from = (p + 1).saturating_sub(n).max(1);
        (from..=p)
            .filter_map(|s| Some((s, Rc::clone(self.journal.get(s)?))))
            .collect()
    }

    /// Advances the clock by a frame of `dt_ms` at `speed` and runs every event it passed,
    /// at most `max_steps` of them (then the clock waits for the engine).
    ///
    /// The clock keeps its pace even when the engine is ahead of it: the engine's next event
    /// time can be early (a stale queue entry), so the event that runs may lie a little past the
    /// clock. Catching the clock up to it would make playback faster than the chosen speed
    /// (it did: about 1.4× on the busy presets); instead, what that event sent waits at its
    /// sender until the clock gets there.
    pub fn tick(&mut self, dt_ms: f64, speed: f64, max_steps: u32) -> Tick {
        self.clock += dt_ms.max(0.0) / 1000.0 * speed * TIME_PER_SECOND;
        let mut tick = Tick::default();
        while tick.steps < max_steps {
            match self.next_time() {
                Some(t) if t as f64 <= self.clock => {
                    if !self.forward() {
                        tick.ended = true;
                        break;
                    }
                    tick.steps += 1;
                }
                Some(_) => break,
                None => {
                    tick.ended = true;
                    break;
                }
            }
        }
        if tick.steps >= max_steps {
            self.clock = self.sim().now() as f64;
        }
        tick
    }

    /// Play answers at once: the next event runs now, the clock brought to its time, instead
    /// of a frame or two later when the clock reaches it (a quarter of a second on a slow
    /// phone). False when nothing is left to happen.
    pub fn play_now(&mut self) -> bool {
        let Some(t) = self.next_time() else {
            return false;
        };
        self.clock = self.clock.max(t as f64);
        self.forward()
    }

    /// When the next event happens: from the recorded future if any, else the scheduler.
    fn next_time(&self) -> Option<u64> {
        self.sim().next_time()
    }

    /// Eases the paused clock towards the engine's time (after a step), `dt_ms` at a time.
    /// Returns true while it is still moving.
    pub fn settle(&mut self, dt_ms: f64, animate: bool) -> bool {
        let target = self.sim().now() as f64;
        if !animate || self.clock > target || (target - self.clock) < 0.01 {
            self.clock = target;
            return false;
        }
        let k = 1.0 - (-dt_ms.max(0.0) / 90.0).exp();
        self.clock += (target - self.clock) * k;
        true
    }

    fn journal_current(&mut self) {
        let p = self.position();
        if p == 0 || self.journal.get(p).is_some() {
            return;
        }
        let sim = self.history.current();
        self.journal.insert(p, view::last_sentences(sim).into());
    }

    /// A step that may have replaced the recorded future: forget what came after it.
    fn after_new_step(&mut self) {
        let p = self.position();
        self.journal.forget_from(p);
        self.marks.retain(|m| m.step < p);
        let sim = self.history.current();
        self.throughput
            .record(sim.physical(), sim.now(), sim.last_events());
        for (checkpoint, kind) in view::marks(self.sim().last_events()) {
            self.marks.push(Mark {
                step: p,
                time: self.history.current().now(),
                checkpoint,
                kind,
            });
            if self.marks.len() > MARKS {
                thin_marks(&mut self.marks);
            }
        }
        self.journal_current();
    }

    /// Makes sure the narration of the last steps before the position is known, replaying
    /// them (cheap: the history keeps keyframes) if the journal lacks any.
    fn fill_journal(&mut self) {
        let target = self.position();
        let from = (target + 1).saturating_sub(JOURNAL_WINDOW).max(1);
        if target == 0 || (from..=target).all(|s| self.journal.get(s).is_some()) {
            return;
        }
        self.history.seek(from);
        self.journal_current();
        while self.position() < target {
            self.history.seek(self.position() + 1);
            self.journal_current();
        }
    }
}

/// The narration of a contiguous range of steps, `first ..` — the steps around the position.
/// Stepping, seeking and filling only ever extend it at either end; a step that would leave a
/// gap starts it afresh (the page only shows the window before the position).
#[derive(Default)]
struct Journal {
    first: u64,
    sentences: VecDeque<Rc<[Sentence]>>,
}

impl Journal {
    fn end(&self) -> u64 {
        self.first + self.sentences.len() as u64
    }

    fn get(&self, step: u64) -> Option<&Rc<[Sentence]>> {
        let i = step.checked_sub(self.first)?;
        self.sentences.get(usize::try_from(i).ok()?)
    }

    /// Records the sentences of `step` (a step not yet recorded), then keeps at most
    /// `JOURNAL_MAX` steps, dropping from the end farther from `step`.
    fn insert(&mut self, step: u64, sentences: Rc<[Sentence]>) {
        if !self.sentences.is_empty() && step == self.end() {
            self.sentences.push_back(sentences);
        } else if !self.sentences.is_empty() && step + 1 == self.first {
            self.first = step;
            self.sentences.push_front(sentences);
        } else {
            self.first = step;
            self.sentences.clear();
            self.sentences.push_back(sentences);
        }
        while self.sentences.len() > JOURNAL_MAX {
            if step - self.first >= self.end() - 1 - step {
                self.sentences.pop_front();
                self.first += 1;
            } else {
                self.sentences.pop_back();
            }
        }
    }

    /// A new future from `step` on: what was recorded for it and later no longer happens.
    fn forget_from(&mut self, step: u64) {
        let keep = step
            .saturating_sub(self.first)
            .min(self.sentences.len() as u64);
        self.sentences.truncate(keep as usize);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::view::MarkKind;
    use crate::scenario::presets;

    fn run() -> Run {
        Run::new(presets::alignment()).unwrap()
    }

    /// The diagram's window, replayed from the history, logs what a log kept from the start
    /// logged for the same steps — also after stepping back, and without moving the run.
    #[test]
    fn the_space_time_window_is_the_runs_own_log_of_its_last_steps() {
        let mut run = Run::new(presets::token()).unwrap();
        let mut full = view::SpaceTime::starting_at(run.sim());
        for _ in 0..300 {
            assert!(run.forward());
            full.record(run.sim());
        }
        run.seek(250);
        let (window, _) = run.space_time(100);
        assert_eq!(run.position(), 250);
        let since =
            |step: u64| move |p: &&view::SnapshotPoint| p.at.step > step && p.at.step <= 250;
        let expected: Vec<_> = full.snapshots().iter().filter(since(150)).collect();
        assert!(expected.len() > 3);
        let got: Vec<_> = window.snapshots().iter().filter(since(150)).collect();
        assert_eq!(got, expected);
        let trips = |st: &view::SpaceTime| {
            st.trips()
                .iter()
                .filter(|t| t.arrived.step > 150 && t.arrived.step <= 250)
                .map(|t| (t.channel, t.item, t.arrived))
                .collect::<Vec<_>>()
        };
        assert_eq!(trips(&window), trips(&full));
        // From the very start: the first step's snapshot is in it.
        run.seek(10);
        assert_eq!(
            run.space_time(100).0.snapshots().first().map(|p| p.at.step),
            full.snapshots().first().map(|p| p.at.step)
        );
    }

    #[test]
    fn stepping_back_and_forward_replays_the_same_run() {
        let mut r = run();
        for _ in 0..40 {
            assert!(r.forward());
        }
        let time = r.sim().now();
        let sentences = r.recent(1);
        r.back();
        r.back();
        assert_eq!(r.position(), 38);
        assert_eq!(r.len(), 40, "stepping back keeps the recorded future");
        r.forward();
        r.forward();
        assert_eq!(r.sim().now(), time);
        assert_eq!(r.recent(1), sentences);
    }

    #[test]
    fn seeking_far_back_fills_the_narration_window() {
        let mut r = run();
        for _ in 0..300 {
            r.forward();
        }
        r.seek(0);
        r.seek(250);
        let recent = r.recent(JOURNAL_WINDOW);
        assert_eq!(recent.len() as u64, JOURNAL_WINDOW);
        assert_eq!(recent.last().map(|(s, _)| *s), Some(250));
    }

    /// A long run keeps a bounded number of marks: the newest ones all, the older ones thinned
    /// but still over the whole run (the timeline is not blank where they were).
    #[test]
    fn a_long_run_keeps_the_newest_marks() {
        let mut r = Run::new(presets::wordcount()).unwrap();
        let mut most = 0;
        while r
            .sim()
            .coordinator()
            .checkpoints()
            .first()
            .map_or(0, |c| c.id)
            < 200
        {
            assert!(r.forward());
            most = most.max(r.marks().len());
        }
        assert!(most <= MARKS, "{most}");
        let marks = r.marks();
        // The thinned old ones and at least the newest quarter.
        assert!(marks.len() > MARKS / 4, "{}", marks.len());
        let newest = r.sim().coordinator().checkpoints().last().unwrap().id;
        assert_eq!(marks.last().map(|m| m.checkpoint), Some(newest));
        assert!(marks.windows(2).all(|w| w[0].step <= w[1].step));
        let len = r.len();
        assert!(
            marks[0].step < len / 10,
            "the first mark kept is at step {} of {len}",
            marks[0].step
        );
        // The newest quarter is complete: every checkpoint's trigger and end.
        let recent = &marks[marks.len() - marks.len() / 4..];
        let first = recent[0].checkpoint;
        for id in first + 1..newest {
            for kind in [MarkKind::Triggered, MarkKind::Completed] {
                assert!(
                    recent.iter().any(|m| m.checkpoint == id && m.kind == kind),
                    "{id} {kind:?}"
                );
            }
        }
    }

    #[test]
    fn a_user_action_from_the_past_forks_and_drops_later_marks() {
        let mut r = run();
        while r.marks().iter().all(|m| m.kind != MarkKind::Completed) {
            assert!(r.forward());
        }
        let done = r.marks().last().unwrap().step;
        r.seek(done - 5);
        let deliverable = r
            .sim()
            .enabled_actions()
            .into_iter()
            .find(|a| matches!(a, Action::Deliver { .. }))
            .unwrap();
        r.apply(deliverable).unwrap();
        assert_eq!(r.len(), done - 4);
        assert!(r.marks().iter().all(|m| m.step <= r.position()));
    }

    #[test]
    fn the_clock_runs_the_events_it_passes() {
        let mut r = run();
        // One second at 1×: every event up to time 10 has run, none after.
        let t = r.tick(1000.0, 1.0, 10_000);
        assert!(t.steps > 0 && !t.ended);
        assert!(r.sim().now() as f64 <= r.clock);
        assert!(r.sim().next_time().unwrap() as f64 > r.clock);
        // A step budget holds the clock back to the engine.
        let t = r.tick(60_000.0, 8.0, 5);
        assert_eq!(t.steps, 5);
        assert_eq!(r.clock, r.sim().now() as f64);
    }

    #[test]
    fn the_clock_eases_towards_the_engine_after_a_step() {
        let mut r = run();
        for _ in 0..5 {
            r.forward();
        }
        assert!(r.settle(16.0, true));
        assert!(r.clock > 0.0 && r.clock < r.sim().now() as f64);
        for _ in 0..200 {
            r.settle(16.0, true);
        }
        assert_eq!(r.clock, r.sim().now() as f64);
        // Reduced motion: it jumps.
        r.forward();
        assert!(!r.settle(16.0, false));
        assert_eq!(r.clock, r.sim().now() as f64);
    }

    #[test]
    fn the_journal_stays_one_window_around_the_newest_step() {
        let sentences = |n: u64| -> Rc<[Sentence]> {
            vec![Sentence::TriggerDeferred { savepoint: false }; n as usize % 3].into()
        };
        let mut j = Journal::default();
        for s in 10..20 {
            j.insert(s, sentences(s));
        }
        j.insert(9, sentences(9));
        assert_eq!((j.first, j.end()), (9, 20));
        assert_eq!(j.get(12).map(|b| b.len()), Some(0));
        assert_eq!(j.get(20), None);
        // A step with a gap to the window starts a new one.
        j.insert(100, sentences(100));
        assert_eq!((j.first, j.end()), (100, 101));
        assert!(j.get(12).is_none());
        j.forget_from(100);
        assert_eq!(j.end(), j.first);
        // Past the maximum, the end farther from the newest step goes.
        for s in 0..JOURNAL_MAX as u64 + 5 {
            j.insert(s, sentences(s));
        }
        assert_eq!(j.sentences.len(), JOURNAL_MAX);
        assert_eq!(j.end(), JOURNAL_MAX as u64 + 5);
    }

    #[test]
    fn playback_at_one_times_runs_the_virtual_clock_at_its_stated_pace() {
        for name in presets::NAMES {
            let mut r = Run::new(presets::by_name(name).unwrap()).unwrap();
            // Ten seconds at 60 frames per second.
            for _ in 0..600 {
                r.tick(1000.0 / 60.0, 1.0, 100_000);
            }
            let expected = 10.0 * TIME_PER_SECOND;
            assert!(
                (r.clock - expected).abs() < 0.01,
                "{name}: clock {}",
                r.clock
            );
            // Every event due by the clock has run; the engine is at most one event ahead.
            let now = r.sim().now() as f64;
            if let Some(next) = r.sim().next_time() {
                assert!(
                    next as f64 > r.clock,
                    "{name}: an event due at {next} did not run"
                );
            }
            assert!(
                now < r.clock + 50.0,
                "{name}: the engine ran ahead to {now}"
            );
        }
    }

    #[test]
    fn throughput_counts_records_at_the_sinks_per_bucket_and_forgets_a_replaced_future() {
        let mut r = Run::new(presets::backpressure()).unwrap();
        while r.sim().now() < 2_000 {
            r.forward();
        }
        let t = r.throughput().clone();
        let total: u32 = t.buckets.iter().sum();
        let sink = r.sim().physical().task_by_name("Sink#0").unwrap();
        let received = match r.sim().tasks()[sink as usize].state {
            crate::engine::snapshot::TaskState::Sink { received, .. } => received,
            _ => 0,
        };
        assert_eq!(u64::from(total), received);
        assert_eq!(
            t.buckets.len() as u64,
            r.sim().now() / THROUGHPUT_BUCKET + 1
        );
        // A fork from the middle forgets the later buckets.
        r.seek(r.position() / 2);
        let mid = r.sim().now() / THROUGHPUT_BUCKET;
        let choice = r.sim().enabled_actions()[0];
        r.apply(choice).unwrap();
        assert!(r.throughput().buckets.len() as u64 <= mid + 2);
    }
}
