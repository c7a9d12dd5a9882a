//! The sinks' throughput over virtual time, which the run keeps for the chart under the
//! dataflow.

use std::collections::VecDeque;

/// Virtual time per bar of the throughput chart.
pub const THROUGHPUT_BUCKET: u64 = 50;
/// Bars the throughput chart keeps (older ones are dropped): 6,000 time units.
const THROUGHPUT_MAX: usize = 120;

/// Records reaching the sinks (tasks without outputs) per bucket of virtual time: the sinks'
/// throughput, which drops while an aligned checkpoint blocks an input under backpressure.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Throughput {
    /// Index of the first kept bucket.
    pub first: u64,
    /// Records per bucket, from `first` on.
    pub buckets: VecDeque<u32>,
}

impl Throughput {
    pub(super) fn record(
        &mut self,
        phys: &crate::engine::Physical,
        now: u64,
        events: &[crate::engine::Event],
    ) {
        let bucket = now / THROUGHPUT_BUCKET;
        // A new future from an earlier time (a fork) drops what the old one recorded later.
        if bucket < self.first {
            *self = Throughput {
                first: bucket,
                buckets: VecDeque::new(),
            };
        }
        let keep = (bucket - self.first + 1) as usize;
        self.buckets.truncate(keep);
        while self.buckets.len() < keep {
            self.buckets.push_back(0);
        }
        let arrived = events
            .iter()
            .filter(|e| match e {
                crate::engine::Event::Processed { task, .. } => phys
                    .tasks
                    .get(*task as usize)
                    .is_some_and(|t| t.outputs.iter().all(|o| o.is_empty())),
                _ => false,
            })
            .count() as u32;
        if let Some(last) = self.buckets.back_mut() {
            *last += arrived;
        }
        while self.buckets.len() > THROUGHPUT_MAX {
            self.buckets.pop_front();
            self.first += 1;
        }
    }
}
