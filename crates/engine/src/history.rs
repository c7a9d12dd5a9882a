//! Step back, seek and fork: keyframes plus deterministic replay.
//!
//! The log holds how many steps were taken and the few the user chose (every other step was
//! the scheduler's pick, which replay takes again); a keyframe is a full copy of the simulation,
//! taken every `INTERVAL` (256) steps. Seeking restores the nearest keyframe at or before the
//! target and replays from there — determinism makes that exact.
//!
//! Memory stays bounded: a step the scheduler picked costs nothing, and past
//! [`MAX_KEYFRAMES`] a keyframe is dropped for each one taken (the one whose loss leaves the
//! shortest gap, never one of the recent ones), so a run of any length keeps that many copies,
//! spread over the run, dense near its end. Nothing in a simulation grows with the run's length
//! (the coordinator keeps a bounded checkpoint history), so neither do the copies.
//!
//! Step 0 is not copied (except in the student's page builds): it is built again when needed,
//! from the physical graph the copies share, the configuration, the seed and the failures
//! planned then (`Origin`) — for a job of real size a copy fewer, a sixth of its memory.
//!
//! A job of real size (issue 25: 131,000 channels) is a copy of ten megabytes or more: its
//! keyframes are fewer (as many as [`KEYFRAME_BYTES`] holds, at least [`MIN_KEYFRAMES`]) and
//! further apart (one every 256 steps per 2 MB of a copy), so that
//! taking them costs about the same share of the time at any size, and stepping back replays
//! at most one interval.

use super::action::ActionError;
use super::lifecycle::PlannedFailure;
use super::sim::Simulation;
use super::trace::Action;

/// The most keyframes kept.
pub const MAX_KEYFRAMES: usize = 32;
/// The fewest kept, however large the simulation: the first and the newest.
pub const MIN_KEYFRAMES: usize = 2;
/// What the keyframes of a large simulation may hold together, by [`footprint`].
pub const KEYFRAME_BYTES: usize = 32 << 20;
/// Whether step 0 is built again rather than kept: in every build that may run a job of real
/// size (natively, and the page's second player); the student's builds, which hand such a job
/// to the second player, keep the copy (small there) and 0.4 KB less code.
const REBUILD_FIRST: bool = cfg!(any(
    not(target_arch = "wasm32"),
    feature = "rebuild-step-zero"
));
/// A keyframe is taken every this many steps (times one per [`BYTES_PER_INTERVAL`] of a
/// copy), and the oldest thinned out.
const INTERVAL: u64 = 256;
const BYTES_PER_INTERVAL: usize = 2 << 20;
/// The steps within this many intervals of the newest recorded one keep every keyframe:
/// stepping back from the end of a long run (what a student does after playing) replays at
/// most one interval.
const RECENT: u64 = 4;

#[derive(Clone, Debug)]
pub struct History {
    /// How many steps are recorded (the current position may be earlier after a seek).
    len: u64,
    /// The steps the user chose, ascending: `(i, action)` took the run from step `i` to
    /// `i + 1`. Every other recorded step was the scheduler's pick.
    chosen: Vec<(u64, Action)>,
    /// Ascending by step; the first is step 0 (built again from `origin`, not kept).
    keyframes: Vec<Keyframe>,
    /// What builds step 0 again; `None` for a history begun after step 0 (its first keyframe
    /// is then a copy).
    origin: Option<Origin>,
    current: Simulation,
    /// Steps between keyframes, and how many are kept (both from the simulation's size).
    interval: u64,
    max_keyframes: usize,
}

/// The simulation at `step`; `None` for step 0, built again from the history's origin.
#[derive(Clone, Debug)]
struct Keyframe {
    step: u64,
    sim: Option<Simulation>,
}

/// What builds the simulation at step 0 again: the failures planned then (the rest — the
/// physical graph, the configuration, the seed — every copy of the simulation carries).
#[derive(Clone, Debug)]
struct Origin {
    planned: Vec<PlannedFailure>,
}

impl History {
    pub fn new(initial: Simulation) -> History {
        let bytes = footprint(&initial).max(1);
        History {
            interval: INTERVAL * (bytes / BYTES_PER_INTERVAL).max(1) as u64,
            max_keyframes: (KEYFRAME_BYTES / bytes).clamp(MIN_KEYFRAMES, MAX_KEYFRAMES),
            len: 0,
            chosen: Vec::new(),
            keyframes: vec![Keyframe {
                step: 0,
                sim: (!REBUILD_FIRST || initial.steps() > 0).then(|| initial.clone()),
            }],
            origin: (REBUILD_FIRST && initial.steps() == 0).then(|| Origin {
                planned: initial.life.planned.clone(),
            }),
            current: initial,
        }
    }

    pub fn current(&self) -> &Simulation {
        &self.current
    }

    /// The step the current simulation is at.
    pub fn position(&self) -> u64 {
        self.current.steps()
    }

    /// Steps recorded (the current position may be earlier after a seek).
    pub fn len(&self) -> u64 {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The steps the user chose, `(step, action)`, ascending.
    pub fn choices(&self) -> &[(u64, Action)] {
        &self.chosen
    }

    /// Advances by one scheduled step. Stepping from a past position forks: the recorded
    /// future is dropped and a new one begins.
    pub fn step(&mut self) -> Option<Action> {
        let action = self.current.step()?;
        self.record(None);
        Some(action)
    }

    /// Applies a user's action; see [`History::step`] about forking.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        self.current.apply(action)?;
        self.record(Some(action));
        Ok(())
    }

    fn record(&mut self, chosen: Option<Action>) {
        let at = self.current.steps() - 1;
        if self.len > at {
            self.truncate(at);
            self.keyframes.retain(|k| k.step <= at);
        }
        self.len = at + 1;
        if let Some(action) = chosen {
            self.chosen.push((at, action));
        }
        let step = self.current.steps();
        if step.is_multiple_of(self.interval)
            && self.keyframes.last().is_some_and(|k| k.step < step)
        {
            // Thinned before the copy, so that no more than the kept number of copies (ten
            // megabytes each for a job of real size) is ever held at once.
            if self.keyframes.len() >= self.max_keyframes {
                self.thin(step);
            }
            self.keyframes.push(Keyframe {
                step,
                sim: Some(self.current.clone()),
            });
        }
    }

    /// Drops the keyframe whose loss leaves the shortest gap, sparing the first and the
    /// recent ones: the rest stay spread evenly over the run (no gap more than about twice
    /// another), and their number stays the same from then on instead of halving and filling
    /// up again, which would make a long run's memory saw up and down. When every one but the
    /// first is recent (a large simulation keeps few), the oldest of them goes.
    fn thin(&mut self, step: u64) {
        let k = &self.keyframes;
        // The gap a loss leaves: to the next keyframe, or to the one about to be taken.
        let gap = |i: usize| k.get(i + 1).map_or(step, |n| n.step) - k[i - 1].step;
        let loss = (1..k.len())
            .filter(|&i| k[i].step + RECENT * self.interval <= step)
            .min_by_key(|&i| gap(i))
            .unwrap_or(1);
        if loss < k.len() {
            self.keyframes.remove(loss);
        }
    }

    /// Moves to `step` (clamped to the recorded length) without changing the log.
    pub fn seek(&mut self, step: u64) {
        let step = step.min(self.len());
        if step == self.position() {
            return;
        }
        if step < self.position() || self.nearest_keyframe(step) > self.position() {
            let k = &self.keyframes[self.keyframe_index(step)];
            debug_assert!(k.step <= step);
            match &k.sim {
                Some(sim) => {
                    // The current one's arrays go first: no third copy, even for a moment.
                    if REBUILD_FIRST {
                        self.current.let_go();
                    }
                    self.current = sim.clone();
                }
                None => match self.first() {
                    Some(sim) => self.current = sim,
                    // Cannot happen: step 0 was built once from the same parts.
                    None => return,
                },
            }
        }
        let mut next = self.chosen.partition_point(|(i, _)| *i < self.position());
        while self.position() < step {
            let i = self.position();
            let ok = match self.chosen.get(next) {
                Some(&(at, action)) if at == i => {
                    next += 1;
                    self.current.apply(action).is_ok()
                }
                _ => self.current.step().is_some(),
            };
            if !ok {
                // Cannot happen for a log this history recorded; stop rather than loop.
                self.truncate(i);
                break;
            }
        }
    }

    /// Replays the recorded steps `from+1 ..= to` on a copy (from the nearest keyframe):
    /// hands the simulation at `from` to `start`, then to `each` after every step; the history
    /// itself does not move. What a view that needs a stretch of past steps (the space-time
    /// diagram) reads.
    pub fn replay(
        &self,
        from: u64,
        to: u64,
        start: impl FnOnce(&Simulation),
        mut each: impl FnMut(&Simulation),
    ) {
        let to = to.min(self.len());
        let from = from.min(to);
        let first = &self.keyframes[self.keyframe_index(from)];
        let Some(mut sim) = first.sim.clone().or_else(|| self.first()) else {
            return;
        };
        let mut next = self.chosen.partition_point(|(i, _)| *i < sim.steps());
        let mut start = Some(start);
        if sim.steps() == from {
            if let Some(start) = start.take() {
                start(&sim);
            }
        }
        while sim.steps() < to {
            let i = sim.steps();
            let ok = match self.chosen.get(next) {
                Some(&(at, action)) if at == i => {
                    next += 1;
                    sim.apply(action).is_ok()
                }
                _ => sim.step().is_some(),
            };
            if !ok {
                break;
            }
            if sim.steps() == from {
                if let Some(start) = start.take() {
                    start(&sim);
                }
            } else if sim.steps() > from {
                each(&sim);
            }
        }
    }

    /// The simulation at step 0, built again (`None` if it cannot be, which cannot happen:
    /// it was built once from the same parts).
    fn first(&self) -> Option<Simulation> {
        match &self.keyframes[0].sim {
            Some(sim) => Some(sim.clone()),
            None if REBUILD_FIRST => self.current.rebuilt(&self.origin.as_ref()?.planned).ok(),
            None => None,
        }
    }

    /// Forgets the steps from `len` on.
    fn truncate(&mut self, len: u64) {
        self.len = len;
        let keep = self.chosen.partition_point(|(i, _)| *i < len);
        self.chosen.truncate(keep);
    }

    pub fn step_back(&mut self) {
        self.seek(self.position().saturating_sub(1));
    }

    fn keyframe_index(&self, step: u64) -> usize {
        self.keyframes
            .partition_point(|k| k.step <= step)
            .saturating_sub(1)
    }

    fn nearest_keyframe(&self, step: u64) -> u64 {
        self.keyframes[self.keyframe_index(step)].step
    }

    /// Steps between keyframes (more for a larger simulation).
    pub fn interval(&self) -> u64 {
        self.interval
    }

    /// The most keyframes kept (fewer for a larger simulation).
    pub fn max_keyframes(&self) -> usize {
        self.max_keyframes
    }

    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }

    /// The steps at which keyframes are kept, ascending (the first is 0). Seeking to the step
    /// just before one replays the most.
    pub fn keyframe_steps(&self) -> impl Iterator<Item = u64> + '_ {
        self.keyframes.iter().map(|k| k.step)
    }
}

/// About the bytes a copy of `sim` holds: its channels and tasks (not what they hold, nor the
/// physical graph, which copies share). Right within a small factor on any target (`huge`'s
/// 17.3 MB against 17.4 MB counted on a 64-bit machine), which is all the keyframes' spacing
/// needs.
pub fn footprint(sim: &Simulation) -> usize {
    std::mem::size_of_val(sim.channels()) + std::mem::size_of_val(sim.tasks())
}
