//! What the user (or the scheduler) can do, and what happened as a result.
//!
//! Every step applies one [`Action`] and produces a few [`Event`]s. Events are plain data for
//! the narration, the space-time diagram and the golden traces; the engine's state is the
//! truth, events only explain how it changed.

use serde::{Deserialize, Serialize};

use super::barrier::CheckpointId;
use super::physical::{ChannelId, TaskId};
use super::record::{ItemKind, Record};

pub use super::action::Action;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AbortReason {
    /// A newer checkpoint completed first.
    Subsumed,
    /// A task gave it up (a newer barrier overtook its alignment, a cancellation marker, or
    /// an end of partition with checkpoints-after-finish off).
    Declined { task: TaskId },
    /// It ran past the coordinator's timeout.
    Expired,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// A source read the line at `offset` of its log and emitted it.
    SourceRead {
        task: TaskId,
        offset: u64,
        record: Record,
    },
    /// A bounded source reached the end of its log.
    SourceEnded {
        task: TaskId,
    },
    /// An item reached the task's barrier handler from `channel`.
    Arrived {
        task: TaskId,
        channel: ChannelId,
        item: ItemKind,
    },
    /// The item was taken back out of the alignment buffer (step ④).
    Replayed {
        task: TaskId,
        channel: ChannelId,
        item: ItemKind,
    },
    /// A barrier newer than any seen started an alignment (step ①).
    AlignmentStarted {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// The channel is blocked: its later items wait in the buffer (step ①).
    Blocked {
        task: TaskId,
        channel: ChannelId,
        checkpoint: CheckpointId,
    },
    /// The item went into the alignment buffer instead of the operator (step ②).
    Held {
        task: TaskId,
        channel: ChannelId,
        item: ItemKind,
    },
    /// The operator processed a record and emitted `emitted` records.
    Processed {
        task: TaskId,
        channel: ChannelId,
        record: Record,
        emitted: u32,
    },
    /// The task snapshotted its state and forwarded the barrier (step ③).
    Snapshot {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// All channels of the task flow again.
    Unblocked {
        task: TaskId,
    },
    /// The task gave up the checkpoint and sent cancellation markers downstream.
    TaskAborted {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// Unaligned: a record was persisted as in-flight channel state of a checkpoint.
    ChannelState {
        task: TaskId,
        checkpoint: CheckpointId,
        channel: ChannelId,
        record: Record,
    },
    Acknowledged {
        task: TaskId,
        checkpoint: CheckpointId,
        acked: u32,
        total: u32,
    },
    CheckpointTriggered {
        checkpoint: CheckpointId,
    },
    CheckpointCompleted {
        checkpoint: CheckpointId,
    },
    /// Notify-complete reached a transactional sink: it committed everything up to
    /// `committed` records.
    Committed {
        task: TaskId,
        checkpoint: CheckpointId,
        committed: u64,
    },
    CheckpointAborted {
        checkpoint: CheckpointId,
        reason: AbortReason,
    },
    /// The trigger was due but the coordinator must wait (too many running, or min pause).
    TriggerDeferred,
    PartitionEnded {
        task: TaskId,
        channel: ChannelId,
    },
    TaskFinished {
        task: TaskId,
    },
    ChannelPaused {
        channel: ChannelId,
        paused: bool,
    },
    LatencyChanged {
        channel: ChannelId,
        latency: u64,
    },
}
