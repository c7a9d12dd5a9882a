//! The clock: virtual time, the number of steps taken, the seeded PRNG and the time queue.
//! Every part asks it what time it is and plans its events with it; only the scheduler
//! (`Simulation::step`) takes events off it.

use super::queue::TimeQueue;
use super::rng::SplitMix64;
use super::vocab::Due;

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

    /// Plans `due` at virtual time `time`.
    pub(super) fn schedule(&mut self, time: u64, due: Due) {
        self.queue.push(time, due);
    }

    /// The earliest planned event (ties broken by the PRNG), taken off the queue.
    pub(super) fn pop(&mut self) -> Option<(u64, Due)> {
        self.queue.pop(&mut self.rng)
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
