//! Buffer debloating (Flink's FLIP-183): under backpressure every network buffer is full, so
//! an aligned barrier waits behind a full channel's worth of records at each stage. Flink's
//! answer is to size each input's buffers to what its task consumes in a target time (1 s
//! by default): throughput measured every period (200 ms, a fifth of the target), smoothed
//! over 20 samples, applied only when it moves by more than 25 %. Little in flight means
//! barriers pass sooner, and aligned checkpoints under backpressure approach unaligned ones
//! without storing any in-flight data.
//!
//! Here capacity is counted in records, and an input channel of task `r` is sized to
//! `throughput(r) × target / inputs(r)` records waiting at the receiver — a target's worth of
//! the task's input, shared alike by its inputs as Flink sizes the buffers of one input gate —
//! plus the records on its wire at the time (Flink's wire holds next to nothing; here a slow
//! channel would otherwise starve). Never below 1, never above the edge's capacity. This part
//! keeps the measurements and resizes the network's channels; the scheduler tells the
//! changes and recounts the senders' credit.

use super::channel::Channel;
use super::physical::Physical;
use super::vocab::ChannelId;

pub use super::model::{read_setting, BufferDebloat, DEFAULT_DEBLOAT_TARGET};

/// Flink's `buffer-debloat.samples`: the smoothing window, in periods.
const SAMPLES: u64 = 20;

/// Throughput is kept in records per this many ticks (per second, a tick being a millisecond).
pub const PER: u64 = 1000;

/// After this many periods in which no task took a record, the recalculations wait for the
/// next event (the job is idle: walking a long stretch period by period would only decay the
/// averages).
const IDLE_PERIODS: u32 = 32;

/// The measurements between two recalculations.
#[derive(Clone, Debug)]
pub(super) struct Debloater {
    pub(super) target: u64,
    period: u64,
    /// When the next recalculation is due.
    next_at: u64,
    /// Records taken from each channel by its receiver in this period.
    taken: Vec<u32>,
    /// Each task's smoothed throughput (records it takes from its inputs), per [`PER`]
    /// ticks; `None` until it first took a record.
    throughput: Vec<Option<u64>>,
    idle_periods: u32,
}

impl Debloater {
    pub(super) fn new(setting: BufferDebloat, channels: usize, tasks: usize, now: u64) -> Self {
        let target = setting.target.max(1);
        let period = (target / 5).max(1);
        Debloater {
            target,
            period,
            next_at: now.saturating_add(period),
            taken: vec![0; channels],
            throughput: vec![None; tasks],
            idle_periods: 0,
        }
    }

    pub(super) fn next_at(&self) -> u64 {
        self.next_at
    }

    /// The receiver of channel `c` took one of its records.
    pub(super) fn took(&mut self, c: ChannelId) {
        if let Some(n) = self.taken.get_mut(c as usize) {
            *n = n.saturating_add(1);
        }
    }

    /// After a failure: the restarted tasks measure afresh, as new tasks do.
    pub(super) fn reset(&mut self, now: u64) {
        self.taken.fill(0);
        self.throughput.fill(None);
        self.idle_periods = 0;
        self.next_at = now.saturating_add(self.period);
    }

    /// The period due at [`Debloater::next_at`] ends at `now`: each task's throughput is
    /// sampled and smoothed, and each input whose capacity should change gets the new one.
    /// Returns each resized channel with its new capacity, its receiver's throughput and
    /// whether it was full before (its sender's credit must be recounted). `next_event` is
    /// when the next thing happens in the job: a long idle stretch is skipped, not walked
    /// period by period.
    pub(super) fn recalculate(
        &mut self,
        phys: &Physical,
        channels: &mut [Channel],
        now: u64,
        next_event: u64,
    ) -> Vec<(ChannelId, u32, u64, bool)> {
        let mut resized = Vec::new();
        let any = self.taken.iter().any(|&n| n > 0);
        self.idle_periods = if any { 0 } else { self.idle_periods + 1 };
        for (t, info) in phys.tasks.iter().enumerate() {
            let inputs = &info.inputs;
            let took: u64 = inputs
                .iter()
                .map(|&c| u64::from(self.taken[c as usize]))
                .sum();
            let sample = took * PER / self.period;
            let smoothed = match self.throughput[t] {
                None if took == 0 => continue,
                None => sample,
                // An exponential moving average over `SAMPLES` periods (α = 2 / (n + 1)).
                Some(e) => (e * (SAMPLES - 1) + sample * 2) / (SAMPLES + 1),
            };
            self.throughput[t] = Some(smoothed);
            // A target's worth of the task's input, shared by its inputs alike (as Flink
            // sizes the buffers of one input gate).
            let waiting = smoothed
                .saturating_mul(self.target)
                .div_ceil(PER * inputs.len() as u64);
            for &c in inputs {
                let ch = &mut channels[c as usize];
                let (capacity, on_wire) = (ch.capacity, ch.records_on_wire(now));
                let max = phys.channels[c as usize].capacity;
                let want = (waiting.saturating_add(u64::from(on_wire)))
                    .clamp(1, u64::from(max.max(1))) as u32;
                // Flink's threshold: a change of 25 % or less is not worth making — unless
                // nearly all of the buffer is on the wire, where a slow channel would be held
                // to a small capacity by its own latency.
                let (w, c4) = (u64::from(on_wire) * 4, u64::from(capacity) * 4);
                let moved = u64::from(want.abs_diff(capacity)) * 4 > u64::from(capacity)
                    || want == 1
                    || (want > capacity && w >= c4 - u64::from(capacity));
                if want != capacity && moved {
                    resized.push((c, want, smoothed, ch.is_full()));
                    ch.capacity = want;
                }
            }
        }
        self.taken.fill(0);
        self.next_at = self.next_at.saturating_add(self.period);
        if self.idle_periods >= IDLE_PERIODS && next_event > self.next_at {
            // Nothing moves: further periods would only decay the averages toward nothing.
            let behind = (next_event - self.next_at) / self.period;
            self.next_at += behind * self.period;
        }
        resized
    }
}
