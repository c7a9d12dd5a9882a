//! Step back, seek and fork: keyframes plus deterministic replay.
//!
//! The log holds one small entry per step (what was chosen); a keyframe is a full copy of the
//! simulation every `interval` steps. Seeking restores the nearest keyframe at or before the
//! target and replays the log from there — determinism makes that exact. Memory stays bounded:
//! when there are more than [`MAX_KEYFRAMES`] keyframes, every other one is dropped and the
//! interval doubles, so a run of any length keeps at most that many copies.

use super::action::ActionError;
use super::sim::Simulation;
use super::trace::Action;

pub const MAX_KEYFRAMES: usize = 32;
const FIRST_INTERVAL: u64 = 256;

/// One step of the log: the scheduler's pick, or the user's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Scheduled,
    Chosen(Action),
}

#[derive(Clone, Debug)]
pub struct History {
    log: Vec<Choice>,
    /// (step, simulation at that step), ascending; the first is step 0.
    keyframes: Vec<(u64, Simulation)>,
    interval: u64,
    current: Simulation,
}

impl History {
    pub fn new(initial: Simulation) -> History {
        History {
            log: Vec::new(),
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
        self.log.len() as u64
    }

    pub fn is_empty(&self) -> bool {
        self.log.is_empty()
    }

    pub fn choices(&self) -> &[Choice] {
        &self.log
    }

    /// Advances by one scheduled step. Stepping from a past position forks: the recorded
    /// future is dropped and a new one begins.
    pub fn step(&mut self) -> Option<Action> {
        let action = self.current.step()?;
        self.record(Choice::Scheduled);
        Some(action)
    }

    /// Applies a user's action; see [`History::step`] about forking.
    pub fn apply(&mut self, action: Action) -> Result<(), ActionError> {
        self.current.apply(action)?;
        self.record(Choice::Chosen(action));
        Ok(())
    }

    fn record(&mut self, choice: Choice) {
        let at = self.current.steps() - 1;
        if (self.log.len() as u64) > at {
            self.log.truncate(at as usize);
            self.keyframes.retain(|(s, _)| *s <= at);
        }
        self.log.push(choice);
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
        while self.position() < step {
            let i = self.position() as usize;
            let ok = match self.log[i] {
                Choice::Scheduled => self.current.step().is_some(),
                Choice::Chosen(a) => self.current.apply(a).is_ok(),
            };
            if !ok {
                // Cannot happen for a log this history recorded; stop rather than loop.
                self.log.truncate(i);
                break;
            }
        }
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
