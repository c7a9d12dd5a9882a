//! Step back, seek and fork: keyframes plus deterministic replay.
//!
//! The log holds how many steps were taken and the few the user chose (every other step was
//! the scheduler's pick, which replay takes again); a keyframe is a full copy of the simulation
//! every `interval` steps. Seeking restores the nearest keyframe at or before the target and
//! replays from there — determinism makes that exact. Memory stays bounded: a step the
//! scheduler picked costs nothing, and when there are more than [`MAX_KEYFRAMES`] keyframes,
//! every other one is dropped and the interval doubles, so a run of any length keeps at most
//! that many copies (a million steps of autoplay take no more memory than a thousand).

use super::action::ActionError;
use super::sim::Simulation;
use super::trace::Action;

pub const MAX_KEYFRAMES: usize = 32;
const FIRST_INTERVAL: u64 = 256;

#[derive(Clone, Debug)]
pub struct History {
    /// How many steps are recorded (the current position may be earlier after a seek).
    len: u64,
    /// The steps the user chose, ascending: `(i, action)` took the run from step `i` to
    /// `i + 1`. Every other recorded step was the scheduler's pick.
    chosen: Vec<(u64, Action)>,
    /// (step, simulation at that step), ascending; the first is step 0.
    keyframes: Vec<(u64, Simulation)>,
    interval: u64,
    current: Simulation,
}

impl History {
    pub fn new(initial: Simulation) -> History {
        History {
            len: 0,
            chosen: Vec::new(),
            keyframes: vec![(0, initial.clone())],
            interval: FIRST_INTERVAL,
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
            self.keyframes.retain(|(s, _)| *s <= at);
        }
        self.len = at + 1;
        if let Some(action) = chosen {
            self.chosen.push((at, action));
        }
        let step = self.current.steps();
        if step.is_multiple_of(self.interval)
            && self.keyframes.last().is_some_and(|(s, _)| *s < step)
        {
            self.keyframes.push((step, self.current.clone()));
            if self.keyframes.len() > MAX_KEYFRAMES {
                self.interval *= 2;
                let interval = self.interval;
                self.keyframes.retain(|(s, _)| s % interval == 0);
            }
        }
    }

    /// Moves to `step` (clamped to the recorded length) without changing the log.
    pub fn seek(&mut self, step: u64) {
        let step = step.min(self.len());
        if step == self.position() {
            return;
        }
        if step < self.position() || self.nearest_keyframe(step) > self.position() {
            let (at, sim) = &self.keyframes[self.keyframe_index(step)];
            debug_assert!(*at <= step);
            self.current = sim.clone();
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
            .partition_point(|(s, _)| *s <= step)
            .saturating_sub(1)
    }

    fn nearest_keyframe(&self, step: u64) -> u64 {
        self.keyframes[self.keyframe_index(step)].0
    }

    pub fn keyframe_count(&self) -> usize {
        self.keyframes.len()
    }

    /// The steps at which keyframes are kept, ascending (the first is 0). Seeking to the step
    /// just before one replays the most.
    pub fn keyframe_steps(&self) -> impl Iterator<Item = u64> + '_ {
        self.keyframes.iter().map(|(s, _)| *s)
    }
}
