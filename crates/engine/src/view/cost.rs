//! What consistency costs in one run: the figures the seed's argument is about — records per
//! time unit at the sinks, how long a record takes from its source to a sink, how long and how
//! large the checkpoints are, and how many records a recovery counts twice — measured from the
//! events of each step, so that runs of one scenario in different modes can be set side by
//! side (`abs-sim compare`).
//!
//! A record's latency is the virtual time from the read of the source record it derives from
//! to its processing at a sink. Derived records name their parent, so the origin's read time
//! travels down the graph one hop per processing: each processed record's origin is its own
//! (a source's) or its parent's.

use std::collections::HashMap;

use super::super::trace::Event;
use super::super::vocab::RecordId;
use super::super::Simulation;

/// Figures gathered step by step ([`Cost::observe`] after each).
#[derive(Clone, Debug, Default)]
pub struct Cost {
    /// The read time of the source record each record still to be seen derives from.
    origin: HashMap<RecordId, u64>,
    sink_records: u64,
    latencies: Vec<u64>,
    durations: Vec<u64>,
    sizes: Vec<u64>,
    /// The virtual time the run was first observed at.
    start: u64,
    /// Over time, when asked for ([`Cost::with_series`]).
    series: Option<Series>,
}

/// A run's figures over virtual time, in buckets of `bucket` time units from the start, for
/// charts: what reached the sinks, how late, what waited in alignment buffers; and each
/// completed checkpoint.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Series {
    pub bucket: u64,
    /// Records processed at the sinks, per bucket.
    pub sink: Vec<u32>,
    /// The latencies of those records, per bucket.
    pub latency: Vec<Vec<u32>>,
    /// The most items held in alignment buffers (all tasks together) at any step of a bucket.
    pub held: Vec<u32>,
    /// Each completed checkpoint: (completion time from the start, duration, checkpointed
    /// size in bytes).
    pub checkpoints: Vec<(u64, u64, u64)>,
}

impl Series {
    fn at(&mut self, t: u64) -> usize {
        let i = (t / self.bucket.max(1)) as usize;
        if self.sink.len() <= i {
            self.sink.resize(i + 1, 0);
            self.latency.resize(i + 1, Vec::new());
            self.held.resize(i + 1, 0);
        }
        i
    }
}

/// A run's figures, in the scenario's time units and bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct CostFigures {
    /// Records processed at the sinks per time unit, over the whole run.
    pub throughput: f64,
    /// Source read → sink, median and 99th percentile (nearest rank); 0 with no record.
    pub latency_p50: u64,
    pub latency_p99: u64,
    pub checkpoints_completed: u64,
    /// Trigger → completion, median over the completed checkpoints.
    pub checkpoint_duration_p50: u64,
    /// Checkpointed size (task state and persisted in-flight data), median.
    pub checkpoint_size_p50: u64,
    /// Records the restored states already held that the replays count again (at-least-once),
    /// over every recovery of the run.
    pub duplicates: u64,
    /// Records processed at the sinks, and the virtual time the run covered.
    pub sink_records: u64,
    pub time: u64,
}

/// The value at rank `p`% of `v` (nearest rank), 0 when empty.
pub fn percentile(v: &mut [u64], p: u64) -> u64 {
    if v.is_empty() {
        return 0;
    }
    v.sort_unstable();
    let rank = (p * v.len() as u64).div_ceil(100).max(1);
    v[(rank - 1) as usize]
}

impl Cost {
    /// Figures of `sim` from where it is now.
    pub fn new(sim: &Simulation) -> Cost {
        Cost {
            start: sim.now(),
            ..Cost::default()
        }
    }

    /// Figures of `sim` from where it is now, kept over time too in buckets of `bucket` time
    /// units.
    pub fn with_series(sim: &Simulation, bucket: u64) -> Cost {
        Cost {
            series: Some(Series {
                bucket: bucket.max(1),
                ..Series::default()
            }),
            ..Cost::new(sim)
        }
    }

    /// The figures over time, if kept.
    pub fn series(&self) -> Option<&Series> {
        self.series.as_ref()
    }

    /// Reads what the step `sim` just took did.
    pub fn observe(&mut self, sim: &Simulation) {
        let now = sim.now();
        let phys = sim.physical();
        let since = now.saturating_sub(self.start);
        if let Some(series) = &mut self.series {
            let held: u32 = (0..phys.task_count())
                .map(|t| super::held_count(sim, t))
                .sum();
            let i = series.at(since);
            series.held[i] = series.held[i].max(held);
        }
        for e in sim.last_events() {
            match e {
                Event::SourceRead { record, .. } => {
                    self.origin.insert(record.id, now);
                }
                Event::Processed { task, record, .. } => {
                    let origin = match self.origin.get(&record.id) {
                        Some(&o) => Some(o),
                        None => self.origin.get(&record.parent).copied(),
                    };
                    if phys.operator_of(*task).kind.is_sink() {
                        self.sink_records += 1;
                        self.origin.remove(&record.id);
                        let latency = origin.map(|o| now.saturating_sub(o));
                        if let Some(l) = latency {
                            self.latencies.push(l);
                        }
                        if let Some(series) = &mut self.series {
                            let i = series.at(since);
                            series.sink[i] += 1;
                            if let Some(l) = latency {
                                series.latency[i].push(l.min(u64::from(u32::MAX)) as u32);
                            }
                        }
                    } else if let Some(o) = origin {
                        self.origin.insert(record.id, o);
                    }
                }
                Event::CheckpointCompleted { checkpoint, .. } => {
                    if let Some(gs) = sim.coordinator().global_state(*checkpoint) {
                        let duration = gs.completion_time.saturating_sub(gs.trigger_time);
                        let size = super::checkpoint_figures(gs).checkpointed_size;
                        self.durations.push(duration);
                        self.sizes.push(size);
                        if let Some(series) = &mut self.series {
                            series.checkpoints.push((since, duration, size));
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// The figures so far, `sim` being the run observed.
    pub fn figures(&self, sim: &Simulation) -> CostFigures {
        let time = sim.now().saturating_sub(self.start);
        let mut latencies = self.latencies.clone();
        let mut durations = self.durations.clone();
        let mut sizes = self.sizes.clone();
        CostFigures {
            throughput: if time == 0 {
                0.0
            } else {
                self.sink_records as f64 / time as f64
            },
            latency_p50: percentile(&mut latencies, 50),
            latency_p99: percentile(&mut latencies, 99),
            checkpoints_completed: self.durations.len() as u64,
            checkpoint_duration_p50: percentile(&mut durations, 50),
            checkpoint_size_p50: percentile(&mut sizes, 50),
            duplicates: sim
                .recoveries()
                .iter()
                .map(|r| r.duplicates.len() as u64)
                .sum(),
            sink_records: self.sink_records,
            time,
        }
    }
}

/// Runs `sim` for `steps` steps (or to its end) and measures it.
pub fn measure(mut sim: Simulation, steps: u64) -> CostFigures {
    let mut cost = Cost::new(&sim);
    for _ in 0..steps {
        if sim.step().is_none() {
            break;
        }
        cost.observe(&sim);
    }
    cost.figures(&sim)
}

/// Runs `sim` until its job has finished (at most `max_steps` steps) and returns the virtual
/// time its sinks processed their last record at — the time the bounded input took, without
/// the wait for the final checkpoint a finishing job makes (FLIP-147), which would charge a
/// long checkpoint interval for up to one interval — or `None` if it did not finish.
pub fn drain_time(mut sim: Simulation, max_steps: u64) -> Option<u64> {
    let mut last = 0;
    for _ in 0..max_steps {
        if sim.job_finished() {
            return Some(last);
        }
        if sim.step().is_none() {
            break;
        }
        let phys = sim.physical();
        for e in sim.last_events() {
            if let Event::Processed { task, .. } = e {
                if phys.operator_of(*task).kind.is_sink() {
                    last = sim.now();
                }
            }
        }
    }
    sim.job_finished().then_some(last)
}
