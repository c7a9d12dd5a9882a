//! The engine's shared vocabulary: the ids, what may be done ([`Action`]) and why it is
//! refused ([`ActionError`]), the time queue's entries (`Due`) and the limits.
//!
//! Architecture invariant: a leaf. This file imports nothing else of the engine, so every
//! part can speak these words without importing another part.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Index of a subtask in the physical graph's tasks.
pub type TaskId = u32;
/// Index of a channel in the physical graph's channels.
pub type ChannelId = u32;
/// Checkpoint ids only grow, so a plain counter is enough to order them.
pub type CheckpointId = u64;
/// Globally unique record id; ids start at 1 so that 0 can mean "no parent".
pub type RecordId = u64;

/// One choice. The scheduler picks these in `step()`; in manual mode the user does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Hand the head of a channel to its receiving task's barrier handler.
    Deliver { channel: ChannelId },
    /// A non-FIFO channel delivers its `nth` queued item (0 is the head) ahead of those sent
    /// before it: on such a channel any item may arrive first. The exhaustive search's
    /// counterexamples are played in the player with it.
    DeliverNth { channel: ChannelId, nth: u32 },
    /// The task takes the next held item out of its alignment buffer (step ④).
    Replay { task: TaskId },
    /// A source subtask reads the next line of its log.
    Emit { task: TaskId },
    /// The coordinator triggers a new checkpoint (injects barriers at the sources).
    Trigger,
    /// The coordinator triggers a savepoint (Flink's `triggerSavepoint`): a checkpoint taken
    /// aligned in every mode of Flink's, that no later checkpoint subsumes, that no failover
    /// restores and on which no sink commits. Flink's modes only (aligned, unaligned,
    /// at-least-once).
    Savepoint,
    /// A checkpoint ran past its timeout and is aborted.
    Expire { checkpoint: CheckpointId },
    /// Aligned with a timeout: the checkpoint has run longer than the aligned-checkpoint
    /// timeout since its trigger and goes on unaligned — every task aligning it switches,
    /// its barriers still queued behind records overtake them.
    TimeOutAlignment { checkpoint: CheckpointId },
    /// Stop-the-world (synchronous mode): the sources are stopped for this checkpoint and
    /// every channel is empty, so every task snapshots its state at once; the checkpoint
    /// completes and the sources read again.
    SnapshotAll { checkpoint: CheckpointId },
    /// Pause or resume a channel (a paused channel delivers nothing).
    Pause { channel: ChannelId, paused: bool },
    /// Change a channel's latency (a slow channel), for items sent from now on.
    SetLatency { channel: ChannelId, latency: u64 },
    /// Chandy-Lamport: this process starts a new snapshot (records its state, sends markers).
    Initiate { task: TaskId },
    /// Make a channel FIFO or not (a later item may overtake an earlier one), for items sent
    /// from now on.
    SetFifo { channel: ChannelId, fifo: bool },
    /// The subtask fails (by hand, or as the scenario planned): every task is cancelled, the
    /// channels are emptied, and after the restart delay the job restores.
    Fail { task: TaskId },
    /// More checkpoints failed in a row than tolerated: the job fails the same way.
    FailJob,
    /// The restart delay is over: every task restores the latest completed checkpoint,
    /// channel state goes back on its channels, and the sources rewind.
    Restart,
    /// The next failure the scenario planned for this subtask will not happen (a different
    /// future, forked from the past).
    SkipFailure { task: TaskId },
}

/// Latencies above this are refused (a "slow" channel is at most this slow).
pub const MAX_LATENCY: u64 = 1_000_000;

/// Upper bounds of a job graph, that keep a hostile scenario from freezing the tab.
pub const MAX_TASKS: u32 = 4096;
pub const MAX_CHANNELS: u64 = 1 << 20;
pub const MAX_LINES: usize = 10_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    NoSuchChannel(ChannelId),
    NoSuchTask(TaskId),
    ChannelEmpty(ChannelId),
    ChannelPaused(ChannelId),
    /// A delivery out of order asked of a FIFO channel, or of an item it does not hold.
    NotOutOfOrder(ChannelId, u32),
    /// The task must first replay its alignment buffer (step ④) before reading new input.
    TaskReplaying(TaskId),
    NothingToReplay(TaskId),
    NotASource(TaskId),
    SourceFinished(TaskId),
    CannotTrigger,
    NotExpired(CheckpointId),
    /// The job has finished: nothing more can be checkpointed, nothing can fail.
    JobFinished,
    /// A task has finished and checkpoints after tasks finish are off: Flink triggers no
    /// more checkpoints.
    TasksFinished,
    /// The job is down after a failure: nothing runs until it restarts.
    Restarting,
    /// The job is running: there is nothing to restart.
    NotRestarting,
    /// No failure of this subtask is planned.
    NoPlannedFailure(TaskId),
    /// The task's output channel is full: it takes no input until the receiver consumes.
    Backpressured(TaskId),
    BadLatency(u64),
    /// The checkpoint cannot time out its alignment now: not aligned with a timeout, not
    /// running, already unaligned, or its timeout has not passed.
    NotAligning(CheckpointId),
    /// Only Chandy-Lamport lets a process initiate a snapshot.
    NotChandyLamport,
    /// A marker from this process could not reach every process.
    CannotReachAll(TaskId),
    /// Stop-the-world: the coordinator stopped the sources until its checkpoint is taken.
    SourceStopped(TaskId),
    /// Stop-the-world: the checkpoint is not waiting for the job to drain, or a channel still
    /// holds an item.
    NotDrained(CheckpointId),
    /// Savepoints are Flink's: Chandy-Lamport and stop-the-world take none.
    NoSavepoints,
    /// The channel joins two chained operators: it is a method call in one thread, with no
    /// queue to pause, slow down or reorder.
    Chained(ChannelId),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::NoSuchChannel(c) => write!(f, "there is no channel {c}"),
            ActionError::NoSuchTask(t) => write!(f, "there is no task {t}"),
            ActionError::ChannelEmpty(c) => write!(f, "channel {c} has nothing to deliver"),
            ActionError::ChannelPaused(c) => write!(f, "channel {c} is paused"),
            ActionError::NotOutOfOrder(c, n) => write!(
                f,
                "channel {c} cannot deliver its item {n} first: it is FIFO, or holds fewer items"
            ),
            ActionError::TaskReplaying(t) => write!(
                f,
                "task {t} must first drain its alignment buffer before it reads new input"
            ),
            ActionError::NothingToReplay(t) => write!(f, "task {t} holds nothing to replay"),
            ActionError::NotASource(t) => write!(f, "task {t} is not a source"),
            ActionError::SourceFinished(t) => write!(f, "source task {t} has read its whole log"),
            ActionError::CannotTrigger => write!(
                f,
                "no snapshot can be started now (as many as may run at once are in progress)"
            ),
            ActionError::NotExpired(n) => write!(f, "checkpoint {n} has not timed out"),
            ActionError::Backpressured(t) => write!(
                f,
                "task {t} is backpressured: an output channel is full, so it takes no input"
            ),
            ActionError::Restarting => write!(
                f,
                "the job is down after a failure: nothing runs until it restarts"
            ),
            ActionError::NotRestarting => write!(f, "the job is running: nothing to restart"),
            ActionError::NoPlannedFailure(t) => write!(f, "no failure of task {t} is planned"),
            ActionError::JobFinished => {
                write!(f, "the job has finished: no more checkpoints are triggered")
            }
            ActionError::TasksFinished => write!(
                f,
                "a task has finished and checkpoints after tasks finish are off: no more checkpoints are triggered"
            ),
            ActionError::BadLatency(l) => {
                write!(f, "latency {l} is out of range (1 to {MAX_LATENCY})")
            }
            ActionError::NotAligning(n) => write!(
                f,
                "checkpoint {n} cannot go on unaligned now (it is not running aligned past its \
                 aligned-checkpoint timeout)"
            ),
            ActionError::NotChandyLamport => write!(
                f,
                "only Chandy-Lamport lets a process initiate a snapshot (the ABS modes trigger \
                 at the sources)"
            ),
            ActionError::CannotReachAll(t) => write!(
                f,
                "task {t} cannot initiate: its markers could not reach every process"
            ),
            ActionError::SourceStopped(t) => write!(
                f,
                "source task {t} is stopped until the coordinator's synchronous checkpoint is taken"
            ),
            ActionError::NotDrained(n) => write!(
                f,
                "checkpoint {n} cannot snapshot every task now: it is not a synchronous \
                 checkpoint waiting, or a channel still holds an item"
            ),
            ActionError::NoSavepoints => write!(
                f,
                "savepoints are Flink's: only its modes (aligned, unaligned, at-least-once) take them"
            ),
            ActionError::Chained(c) => write!(
                f,
                "channel {c} is a method call between chained operators: nothing to pause, slow down or reorder"
            ),
        }
    }
}

impl std::error::Error for ActionError {}

/// What the time queue holds: an event due at some virtual time, and whose it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Due {
    Deliver(ChannelId, u32),
    Replay(TaskId),
    /// The task is free again: deliver one of its waiting channels.
    Wake(TaskId),
    Emit(TaskId),
    /// The periodic trigger's timer (of this generation: a newer timer drops it); the final
    /// checkpoint's trigger too.
    Trigger(u32),
    /// A trigger by hand (or a savepoint) that waited for a checkpoint to end.
    ManualTrigger,
    /// A periodic trigger that waited for a checkpoint to end.
    QueuedTrigger,
    /// A savepoint asked for ahead, at this time (`abs-sim run --savepoint`).
    PlannedSavepoint,
    Expire(CheckpointId),
    /// Aligned with a timeout: the checkpoint has run as long as the aligned-checkpoint
    /// timeout allows.
    AlignmentTimeout(CheckpointId),
    /// Stop-the-world: every channel may have drained; if so, every task snapshots.
    SnapshotAll(CheckpointId),
    /// Too many checkpoints failed in a row: the job fails.
    FailJob,
    /// The restart delay after a failure is over: every task restores.
    Restart,
}
