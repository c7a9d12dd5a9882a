//! The job graph a scenario describes, and the settings of its checkpoint coordinator.
//!
//! This is plain serde data: it is the scenario file format's core, and what the page edits.
//! [`crate::physical`] checks it and expands it into subtasks and channels.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize};

use super::barrier::BarrierMode;
use super::vocab::MAX_LATENCY;
use crate::text::Quoted;

/// Logical operators and the edges between them, as in Flink's job graph.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JobGraph {
    pub operators: Vec<Operator>,
    pub edges: Vec<Edge>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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

/// What an operator does.
///
/// Written as an object tagged by `type` (`{"type": "filter", "min_len": 4}`). Unknown fields
/// are refused, for the operators without settings too (`{"type": "map", "min_len": 4}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case", try_from = "OperatorKindFile")]
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
    /// Writes what reaches it to the outside world. A plain sink emits each record at once,
    /// so after a recovery it emits the replayed ones again. A `transactional` sink (Flink's
    /// two-phase-commit sink) writes into an open transaction, pre-commits it at the barrier
    /// and commits it when the checkpoint completes; a failure aborts what is not committed,
    /// so nothing is emitted twice.
    Sink { transactional: bool },
    /// A process of the seed's one-token system (Chandy-Lamport): it is `s1` while it holds
    /// the token and `s0` otherwise; it keeps the token `hold` time units, then passes it on
    /// (to its outputs in turn). At most one process starts with the token.
    Token { has_token: bool, hold: u64 },
    /// An iteration step (ABS for cyclic graphs): each word it receives goes round its
    /// feedback edge (a back-edge) `rounds` times before it leaves on the other outputs; the
    /// step counts, per word, the words that completed their rounds.
    Iterate { rounds: u32 },
    /// A bank account (Chandy-Lamport): every `interval` time units on average it sends a
    /// random transfer of 1 to `max_transfer` (never more than its balance) to a random
    /// neighbour, and it adds every transfer it receives to its balance.
    Account {
        balance: u64,
        interval: u64,
        max_transfer: u64,
    },
}

/// How [`OperatorKind`] is read from a file: one flat object, its `type` and every setting
/// any kind has, checked against the kind afterwards. (An internally tagged enum would do the
/// same in a few lines, but it buffers the object and costs the page's wasm about 20 kB; and
/// serde ignores extra fields next to the tag of a unit variant.)
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OperatorKindFile {
    #[serde(rename = "type")]
    pub kind: String,
    pub lines: Option<Vec<String>>,
    pub interval: Option<u64>,
    pub bounded: Option<bool>,
    pub min_len: Option<u32>,
    pub transactional: Option<bool>,
    pub has_token: Option<bool>,
    pub hold: Option<u64>,
    pub rounds: Option<u32>,
    pub balance: Option<u64>,
    pub max_transfer: Option<u64>,
}

/// The operator kinds as a file names them.
pub const KIND_NAMES: [&str; 10] = [
    "source", "split", "map", "filter", "count", "union", "sink", "token", "iterate", "account",
];

impl TryFrom<OperatorKindFile> for OperatorKind {
    type Error = String;

    fn try_from(f: OperatorKindFile) -> Result<Self, String> {
        let kind = f.kind.as_str();
        // Every setting given, by name, to refuse those this kind does not have.
        let given = [
            ("lines", f.lines.is_some()),
            ("interval", f.interval.is_some()),
            ("bounded", f.bounded.is_some()),
            ("min_len", f.min_len.is_some()),
            ("transactional", f.transactional.is_some()),
            ("has_token", f.has_token.is_some()),
            ("hold", f.hold.is_some()),
            ("rounds", f.rounds.is_some()),
            ("balance", f.balance.is_some()),
            ("max_transfer", f.max_transfer.is_some()),
        ];
        let own: &[&str] = match kind {
            "source" => &["lines", "interval", "bounded"],
            "filter" => &["min_len"],
            "sink" => &["transactional"],
            "token" => &["has_token", "hold"],
            "iterate" => &["rounds"],
            "account" => &["balance", "interval", "max_transfer"],
            "split" | "map" | "count" | "union" => &[],
            _ => {
                return Err(format!(
                    "unknown variant `{kind}`, expected one of `{}`",
                    KIND_NAMES.join("`, `")
                ))
            }
        };
        if let Some((name, _)) = given.iter().find(|(n, set)| *set && !own.contains(n)) {
            return Err(if own.is_empty() {
                format!("unknown field `{name}`: a {kind} operator has no settings")
            } else {
                format!(
                    "unknown field `{name}`: a {kind} operator has `{}`",
                    own.join("`, `")
                )
            });
        }
        let need = |v: Option<u64>, name: &str| {
            v.ok_or_else(|| format!("missing field `{name}` (a {kind} operator needs it)"))
        };
        Ok(match kind {
            "source" => OperatorKind::Source {
                lines: f
                    .lines
                    .ok_or("missing field `lines` (a source operator needs it)")?,
                interval: need(f.interval, "interval")?,
                bounded: f.bounded.unwrap_or(false),
            },
            "split" => OperatorKind::Split,
            "map" => OperatorKind::Map,
            "filter" => OperatorKind::Filter {
                min_len: need(f.min_len.map(u64::from), "min_len")? as u32,
            },
            "count" => OperatorKind::Count,
            "union" => OperatorKind::Union,
            "sink" => OperatorKind::Sink {
                transactional: f.transactional.unwrap_or(false),
            },
            "token" => OperatorKind::Token {
                has_token: f.has_token.unwrap_or(false),
                hold: need(f.hold, "hold")?,
            },
            "iterate" => OperatorKind::Iterate {
                rounds: need(f.rounds.map(u64::from), "rounds")? as u32,
            },
            _ => OperatorKind::Account {
                balance: need(f.balance, "balance")?,
                interval: need(f.interval, "interval")?,
                max_transfer: need(f.max_transfer, "max_transfer")?,
            },
        })
    }
}

impl OperatorKind {
    pub fn is_source(&self) -> bool {
        matches!(self, OperatorKind::Source { .. })
    }

    pub fn is_sink(&self) -> bool {
        matches!(self, OperatorKind::Sink { .. })
    }

    /// A two-phase-commit sink: only committed output counts.
    pub fn is_transactional(&self) -> bool {
        matches!(
            self,
            OperatorKind::Sink {
                transactional: true
            }
        )
    }

    /// A process of a Chandy-Lamport system (token holder, bank account): it acts on its own,
    /// has parallelism 1 and may sit on a cycle.
    pub fn is_process(&self) -> bool {
        matches!(
            self,
            OperatorKind::Token { .. } | OperatorKind::Account { .. }
        )
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
            OperatorKind::Sink { .. } => "sink",
            OperatorKind::Token { .. } => "token",
            OperatorKind::Iterate { .. } => "iterate",
            OperatorKind::Account { .. } => "account",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub partitioning: Partitioning,
    /// Virtual time an item spends on each channel of this edge: 1 to [`MAX_LATENCY`].
    #[serde(default = "default_latency")]
    pub latency: u64,
    /// Items each channel of this edge holds at most — in flight, queued at the receiver, or
    /// held in its alignment buffer — like Flink's network buffers with credit-based flow
    /// control: a sender with a full output channel takes no more input (it is backpressured)
    /// until the receiver consumes. At least 1.
    #[serde(default = "default_capacity")]
    pub capacity: u32,
    /// FIFO channels (the default, as Flink's and as Chandy-Lamport assumes). `false` lets a
    /// later item overtake an earlier one: each item takes a random time of 1 to twice the
    /// latency, and the channel delivers in arrival order.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub fifo: bool,
}

impl Edge {
    /// An edge with the file format's defaults for everything but its ends and partitioning.
    pub fn new(from: &str, to: &str, partitioning: Partitioning) -> Edge {
        Edge {
            from: from.to_string(),
            to: to.to_string(),
            partitioning,
            latency: default_latency(),
            capacity: default_capacity(),
            fifo: true,
        }
    }
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

fn default_latency() -> u64 {
    10
}

/// Enough that a healthy pipeline never fills a channel (latency × rate stays well below it),
/// small enough that a blocked or slow input backpressures its sender within a few records.
pub const DEFAULT_CAPACITY: u32 = 24;

fn default_capacity() -> u32 {
    DEFAULT_CAPACITY
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
    /// Round robin over a local group of downstream subtasks: pointwise, as Flink connects
    /// `rescale()` — each sender to a few receivers when there are more of them, a few
    /// senders to each receiver when there are fewer, one to one when the numbers match.
    Rescale,
}

impl Partitioning {
    /// Every partitioning, in the order menus and messages list them.
    pub const ALL: [Partitioning; 5] = [
        Partitioning::Forward,
        Partitioning::Rebalance,
        Partitioning::Hash,
        Partitioning::Broadcast,
        Partitioning::Rescale,
    ];

    /// Connects each sender to some receivers only (forward and rescale), not to all.
    pub fn is_pointwise(self) -> bool {
        matches!(self, Partitioning::Forward | Partitioning::Rescale)
    }

    /// Flink sends no unaligned barrier over such an edge (`StreamPartitioner`'s
    /// `isSupportsUnalignedCheckpoint` is false for pointwise and broadcast partitioners):
    /// there a barrier stays behind the records queued ahead of it, never times out, and the
    /// receiving task takes every checkpoint aligned on all its inputs.
    pub fn keeps_barriers_aligned(self) -> bool {
        self.is_pointwise() || self == Partitioning::Broadcast
    }

    /// The spelling in scenarios and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Partitioning::Forward => "forward",
            Partitioning::Rebalance => "rebalance",
            Partitioning::Hash => "hash",
            Partitioning::Broadcast => "broadcast",
            Partitioning::Rescale => "rescale",
        }
    }
}

impl JobGraph {
    /// Refuses edge latencies the engine cannot honour (0, or above [`MAX_LATENCY`]), naming
    /// the edge, instead of letting them be clamped.
    pub fn check_settings(&self) -> Result<(), SettingError> {
        for (i, e) in self.edges.iter().enumerate() {
            if e.capacity == 0 {
                return Err(SettingError::Capacity {
                    edge: u32::try_from(i).unwrap_or(u32::MAX),
                    from: e.from.clone(),
                    to: e.to.clone(),
                });
            }
            if !(1..=MAX_LATENCY).contains(&e.latency) {
                return Err(SettingError::Latency {
                    edge: u32::try_from(i).unwrap_or(u32::MAX),
                    from: e.from.clone(),
                    to: e.to.clone(),
                    latency: e.latency,
                });
            }
        }
        Ok(())
    }
}

/// The checkpoint coordinator's settings and the barrier-handling mode of every task.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
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
    /// Flink's tolerable failed checkpoints: the job fails when more checkpoints than this fail
    /// in a row (expired ones count; subsumed, declined and failed-over ones do not, as in
    /// Flink; a completed one resets the count). 0 by default, Flink's default; `None`
    /// (`null` in a scenario) tolerates any number.
    pub tolerable_failed_checkpoints: Option<u32>,
    /// Chandy-Lamport: the subtasks (by name) that initiate the periodic snapshots, in turn.
    /// Empty: every source at once if the graph has sources, else every process in turn.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub initiators: Vec<String>,
    /// Flink's aligned-checkpoint-timeout (aligned mode): once a checkpoint has run this long
    /// since its trigger (Flink's checkpoint start delay), it goes on unaligned — every task
    /// still aligning it, every barrier still queued behind records, every task its barrier
    /// reaches later. `None`: align for as long as it takes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aligned_checkpoint_timeout: Option<u64>,
    /// After a failure, how long the job stays down before every task restores the latest
    /// completed checkpoint (Flink's fixed-delay restart strategy).
    pub restart_delay: u64,
    /// Buffer debloating (Flink's FLIP-183): each channel's capacity follows what its
    /// receiver consumes in the target time. `None`: every channel keeps its edge's capacity.
    #[serde(
        skip_serializing_if = "Option::is_none",
        deserialize_with = "read_setting"
    )]
    pub buffer_debloat: Option<BufferDebloat>,
    /// Operator chaining (Flink's `pipeline.operator-chaining.enabled`, on by default in
    /// Flink): an operator whose only input is a forward edge from one of equal parallelism
    /// runs in its sender's task — no channel, no barrier between them. Off here unless a
    /// scenario asks (the presets show every channel); imported Flink plans follow Flink.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub chaining: bool,
}

/// The restart delay when a scenario sets none.
pub const DEFAULT_RESTART_DELAY: u64 = 20;

impl Default for Config {
    fn default() -> Self {
        Config {
            mode: BarrierMode::default(),
            checkpoint_interval: Some(100),
            first_trigger: 30,
            max_concurrent_checkpoints: 1,
            min_pause: 0,
            timeout: 10_000,
            finished_channels_align: true,
            retained_checkpoints: 16,
            tolerable_failed_checkpoints: Some(0),
            initiators: Vec::new(),
            aligned_checkpoint_timeout: None,
            restart_delay: DEFAULT_RESTART_DELAY,
            buffer_debloat: None,
            chaining: false,
        }
    }
}

impl Config {
    /// Whether checkpoints may go unaligned: the unaligned mode, and aligned with a timeout.
    pub fn may_go_unaligned(&self) -> bool {
        self.mode.has_priority_barriers()
            || (self.mode.blocks_inputs() && self.aligned_checkpoint_timeout.is_some())
    }

    /// Whether Flink refuses to start a job with these settings because unaligned checkpoints
    /// (or the aligned timeout, which needs them) are on with more than one checkpoint at once
    /// (`CheckpointCoordinatorConfiguration`): how many it asks for. A stopped world and
    /// Chandy-Lamport's processes are not Flink's modes and are not refused.
    pub fn flink_refuses_concurrency(&self) -> Option<u32> {
        (self.may_go_unaligned() && self.max_concurrent_checkpoints > 1)
            .then_some(self.max_concurrent_checkpoints)
    }

    /// Refuses settings that have no sensible meaning (a periodic trigger every 0 ticks).
    pub fn check_settings(&self) -> Result<(), SettingError> {
        if self.checkpoint_interval == Some(0) {
            return Err(SettingError::ZeroCheckpointInterval);
        }
        // The coordinator would otherwise treat each of these as 1.
        for (field, value) in [
            (
                "max_concurrent_checkpoints",
                u64::from(self.max_concurrent_checkpoints),
            ),
            ("timeout", self.timeout),
            ("retained_checkpoints", u64::from(self.retained_checkpoints)),
            (
                "buffer_debloat.target",
                self.buffer_debloat.map_or(1, |b| b.target),
            ),
        ] {
            if value == 0 {
                return Err(SettingError::Zero(field));
            }
        }
        Ok(())
    }
}

/// A setting of a job graph or a config outside what the engine accepts. Scenario files are
/// checked with [`JobGraph::check_settings`] and [`Config::check_settings`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingError {
    /// `checkpoint_interval: 0`.
    ZeroCheckpointInterval,
    /// An edge whose latency is 0 or above [`MAX_LATENCY`]; `edge` is its index.
    Latency {
        edge: u32,
        from: String,
        to: String,
        latency: u64,
    },
    /// An edge whose channels could hold nothing (`capacity: 0`).
    Capacity { edge: u32, from: String, to: String },
    /// A coordinator setting that must be at least 1 (`max_concurrent_checkpoints`,
    /// `timeout`, `retained_checkpoints`) is 0.
    Zero(&'static str),
}

impl fmt::Display for SettingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingError::Zero(field) => write!(f, "{field} is 0; it must be at least 1"),
            SettingError::ZeroCheckpointInterval => write!(
                f,
                "checkpoint_interval is 0; it must be at least 1 \
                 (or null, to trigger checkpoints only by hand)"
            ),
            SettingError::Latency {
                edge,
                from,
                to,
                latency,
            } => write!(
                f,
                "edge {edge} ({} → {}) has latency {latency}; \
                 it must be 1 to {MAX_LATENCY}",
                Quoted(from),
                Quoted(to)
            ),
            SettingError::Capacity { edge, from, to } => write!(
                f,
                "edge {edge} ({} → {}) has capacity 0; a channel must hold at least 1 item",
                Quoted(from),
                Quoted(to)
            ),
        }
    }
}

impl std::error::Error for SettingError {}

/// The scenario's setting: `"buffer_debloat": {"target": T}` (or `true`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferDebloat {
    /// How long, in ticks, the records waiting at an input should take to consume.
    pub target: u64,
}

/// `buffer_debloat` as a scenario may write it: `true` (the default target), `false` (off)
/// or `{"target": T}`.
pub fn read_setting<'de, D: Deserializer<'de>>(d: D) -> Result<Option<BufferDebloat>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Form {
        On(bool),
        Set(BufferDebloat),
    }
    Ok(match Option::<Form>::deserialize(d)? {
        None | Some(Form::On(false)) => None,
        Some(Form::On(true)) => Some(BufferDebloat {
            target: DEFAULT_DEBLOAT_TARGET,
        }),
        Some(Form::Set(b)) => Some(b),
    })
}

/// `"buffer_debloat": true` takes this target: Flink's default of 1 s on the scale where the
/// restart delay's 20 ticks stand for Flink's default fixed delay of 1 s.
pub const DEFAULT_DEBLOAT_TARGET: u64 = 20;
