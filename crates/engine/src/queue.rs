//! The time queue: events bucketed by virtual time, ties broken by the seeded PRNG.

use super::rng::SplitMix64;
pub(super) use super::vocab::Due;

/// The event queue: events bucketed by virtual time. Among the events due at the same time the
/// seeded PRNG picks one uniformly — the tie-break rule — and buckets are few (times cluster
/// within one channel latency of now), so push and pop stay cheap at any graph size.
///
/// The buckets sit in a vector sorted latest first, so the earliest is popped from the end and
/// no other bucket moves. A `BTreeMap` does the same as fast but with far more code in the
/// page's wasm.
#[derive(Clone, Debug, Default)]
pub(super) struct TimeQueue {
    /// `(time, events due then)`, in decreasing time, no bucket empty.
    pub(super) buckets: Vec<(u64, Vec<Due>)>,
    /// Emptied buckets kept for reuse, so steady state allocates nothing.
    pub(super) spare: Vec<Vec<Due>>,
    /// Where the last push went. Events pushed together are often due together (a record sent
    /// on every channel of an edge), so it is tried before searching; a stale hint just misses.
    pub(super) last_push: usize,
}

impl TimeQueue {
    pub(super) fn push(&mut self, time: u64, due: Due) {
        if let Some((t, bucket)) = self.buckets.get_mut(self.last_push) {
            if *t == time {
                bucket.push(due);
                return;
            }
        }
        let at = self.buckets.partition_point(|&(t, _)| t > time);
        self.last_push = at;
        match self.buckets.get_mut(at) {
            Some((t, bucket)) if *t == time => bucket.push(due),
            _ => {
                let mut bucket = self.spare.pop().unwrap_or_default();
                bucket.push(due);
                self.buckets.insert(at, (time, bucket));
            }
        }
    }

    pub(super) fn pop(&mut self, rng: &mut SplitMix64) -> Option<(u64, Due)> {
        let (time, bucket) = self.buckets.last_mut()?;
        let time = *time;
        let due = bucket.swap_remove(rng.below(bucket.len() as u64) as usize);
        if bucket.is_empty() {
            if let Some((_, empty)) = self.buckets.pop() {
                self.spare.push(empty);
            }
        }
        Some((time, due))
    }

    /// The earliest event when it is the only one due at its time, with when the next is due.
    pub(super) fn lone_first(&self) -> Option<(u64, Due, Option<u64>)> {
        let [.., (time, bucket)] = self.buckets.as_slice() else {
            return None;
        };
        let &[due] = bucket.as_slice() else {
            return None;
        };
        let next = self.buckets.len().checked_sub(2).map(|i| self.buckets[i].0);
        Some((*time, due, next))
    }

    /// Keeps only the events `keep` says yes to (a region's failure drops its tasks').
    pub(super) fn retain(&mut self, mut keep: impl FnMut(&Due) -> bool) {
        for (_, bucket) in &mut self.buckets {
            bucket.retain(|due| keep(due));
        }
        self.buckets.retain(|(_, bucket)| !bucket.is_empty());
        self.last_push = 0;
    }

    pub(super) fn first_time(&self) -> Option<u64> {
        self.buckets.last().map(|&(time, _)| time)
    }
}
