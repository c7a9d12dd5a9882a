//! The clock: virtual time, the number of steps taken, the seeded PRNG and the time queue.
//! Every part asks it what time it is and plans its events with it; only the scheduler
//! (`Simulation::step`) takes events off it.

use super::queue::TimeQueue;
use super::rng::SplitMix64;
use super::vocab::Due;

/// The time at which nothing happens: planned for it, an event is dropped.
pub const NEVER: u64 = u64::MAX;

#[derive(Clone, Debug)]
pub struct Clock {
    /// Virtual time of the last event.
    pub(super) now: u64,
    /// Actions applied so far.
    pub(super) steps: u64,
    /// The only randomness of a run (tie-breaks, non-FIFO delays, processes' pauses).
    pub(super) rng: SplitMix64,
    queue: TimeQueue,
}

impl Clock {
    pub(super) fn new(seed: u64) -> Clock {
        Clock {
            now: 0,
            steps: 0,
            rng: SplitMix64::new(seed),
            queue: TimeQueue::default(),
        }
    }

    /// Plans `due` at virtual time `time`. The last time there is, [`NEVER`], is never:
    /// times are added saturating, so a sum that would pass it (a subtask whose processing
    /// takes 2^64 − 1 ms, a checkpoint with no timeout) means it does not happen, and it is
    /// not planned.
    pub(super) fn schedule(&mut self, time: u64, due: Due) {
        if time != NEVER {
            self.queue.push(time, due);
        }
    }

    /// The earliest planned event (ties broken by the PRNG), taken off the queue.
    pub(super) fn pop(&mut self) -> Option<(u64, Due)> {
        self.queue.pop(&mut self.rng)
    }

    /// The earliest planned event when it is alone at its time, with when the next is due.
    pub(super) fn lone_first(&self) -> Option<(u64, Due, Option<u64>)> {
        self.queue.lone_first()
    }

    /// Time of the earliest planned event (stale entries may make it early, never late).
    pub(super) fn first_time(&self) -> Option<u64> {
        self.queue.first_time()
    }

    /// Forgets every planned event (the job failed: nothing it planned will happen).
    /// Drops the planned events `keep` says no to.
    pub(super) fn retain_planned(&mut self, keep: impl FnMut(&super::queue::Due) -> bool) {
        self.queue.retain(keep);
    }

    pub(super) fn clear_planned(&mut self) {
        self.queue = TimeQueue::default();
    }
}
