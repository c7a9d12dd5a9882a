//! The job graph a scenario describes, and the settings of its checkpoint coordinator.
//!
//! This is plain serde data: it is the scenario file format's core, and what the page edits.
//! [`crate::engine::physical`] checks it and expands it into subtasks and channels.

use serde::{Deserialize, Serialize};

use super::barrier::BarrierMode;

/// Logical operators and the edges between them, as in Flink's job graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobGraph {
    pub operators: Vec<Operator>,
    pub edges: Vec<Edge>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Operator {
    /// Unique; shown on the page and used in test hooks (`operator-<name>`).
    pub name: String,
    pub kind: OperatorKind,
    pub parallelism: u32,
    /// Virtual time one record keeps a subtask busy.
    #[serde(default = "default_processing_time")]
    pub processing_time: u64,
}

fn default_processing_time() -> u64 {
    1
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum OperatorKind {
    /// A replayable log, like a Kafka partition: subtask `i` of `p` reads lines `i, i+p, i+2p …`
    /// of `lines`, one every `interval`. Unbounded sources read the log over and over (the
    /// offset keeps growing); a bounded one ends its partition after one pass.
    Source {
        lines: Vec<String>,
        interval: u64,
        #[serde(default)]
        bounded: bool,
    },
    /// Splits a line into words (a flat-map).
    Split,
    /// Passes records on unchanged (a stand-in for any stateless map).
    Map,
    /// Keeps words of at least `min_len` characters.
    Filter { min_len: u32 },
    /// Keyed count per word: the keyed state of word count. Emits `word=count` updates.
    Count,
    /// Merges all its inputs (two or more).
    Union,
    /// Collects what reaches it.
    Sink,
}

impl OperatorKind {
    pub fn is_source(&self) -> bool {
        matches!(self, OperatorKind::Source { .. })
    }

    /// Short lower-case name, as the page labels the operator kind.
    pub fn label(&self) -> &'static str {
        match self {
            OperatorKind::Source { .. } => "source",
            OperatorKind::Split => "split",
            OperatorKind::Map => "map",
            OperatorKind::Filter { .. } => "filter",
            OperatorKind::Count => "count",
            OperatorKind::Union => "union",
            OperatorKind::Sink => "sink",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub partitioning: Partitioning,
    /// Virtual time an item spends on each channel of this edge.
    #[serde(default = "default_latency")]
    pub latency: u64,
}

fn default_latency() -> u64 {
    10
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Partitioning {
    /// Subtask i to subtask i; both sides need the same parallelism.
    Forward,
    /// Round robin over all downstream subtasks.
    Rebalance,
    /// By the hash of the record's key (the word), as `keyBy` does.
    Hash,
    /// Every record to every downstream subtask.
    Broadcast,
}

/// The checkpoint coordinator's settings and the barrier-handling mode of every task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Config {
    pub mode: BarrierMode,
    /// Periodic trigger interval; `None` means checkpoints are only triggered by hand.
    pub checkpoint_interval: Option<u64>,
    /// Time of the first periodic trigger.
    pub first_trigger: u64,
    pub max_concurrent_checkpoints: u32,
    /// Least time between the end of one checkpoint and the trigger of the next.
    pub min_pause: u64,
    /// A checkpoint still running this long after its trigger is aborted.
    pub timeout: u64,
    /// Flink's "checkpoints after tasks finish" (on since 1.15).
    pub finished_channels_align: bool,
    /// How many completed checkpoints keep their full global state (Flink's retained
    /// checkpoints); older ones keep only their summary.
    pub retained_checkpoints: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            mode: BarrierMode::Aligned,
            checkpoint_interval: Some(100),
            first_trigger: 30,
            max_concurrent_checkpoints: 1,
            min_pause: 0,
            timeout: 10_000,
            finished_channels_align: true,
            retained_checkpoints: 16,
        }
    }
}
