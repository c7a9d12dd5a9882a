//! What the user (or the scheduler) can do, and what happened as a result.
//!
//! Every step applies one [`Action`] and produces a few [`Event`]s. Events are plain data for
//! the narration, the space-time diagram and the golden traces; the engine's state is the
//! truth, events only explain how it changed.

use serde::{Deserialize, Serialize};

use super::barrier::{BarrierTake, CheckpointId};
use super::model::Partitioning;
use super::physical::{ChannelId, TaskId};
use super::record::{ItemKind, Record};
use super::snapshot::{Crossing, Finding};

pub use super::vocab::Action;

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
    /// A task failed while it ran: the job restarts and every running checkpoint is
    /// abandoned (not counted as a failed checkpoint).
    Failover,
}

impl AbortReason {
    /// Whether Flink counts this abort against the tolerable failed checkpoints: an expired
    /// checkpoint does; one subsumed, declined by a task (a newer barrier, a cancellation
    /// marker, an input that ended) or abandoned in a failover does not.
    pub fn counts_as_failure(self) -> bool {
        self == AbortReason::Expired
    }
}

/// Why a task acknowledged when it did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum AckKind {
    /// Right after its snapshot (step ③).
    Snapshot,
    /// Unaligned: the snapshot was taken at the first barrier; now every input has delivered
    /// the barrier, so the channel state is complete.
    ChannelState,
    /// The task has finished: it acknowledges with its final state.
    Finished,
}

fn is_zero<N: Default + PartialEq>(n: &N) -> bool {
    *n == N::default()
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
    /// A process (token holder, account) sent a message of its own on `channel`.
    Sent {
        task: TaskId,
        channel: ChannelId,
        record: Record,
    },
    /// Chandy-Lamport: the process initiates snapshot `checkpoint` — it records its state and
    /// sends markers (the `Snapshot` event that follows), then records every input.
    Initiated {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A bounded source reached the end of its log: it sends its end of data (FLIP-147) and
    /// keeps running until its final checkpoint completes.
    SourceEnded {
        task: TaskId,
        /// Checkpoints after tasks finish are off: it finishes at once, with no final
        /// checkpoint to wait for.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        finishes_now: bool,
    },
    /// The end of data arrived on `channel`: no more records will come there, barriers will.
    EndOfData {
        task: TaskId,
        channel: ChannelId,
    },
    /// Every input of the task delivered its end of data (a loop head: and its loop
    /// drained): its operator finishes, its own end of data goes out, and it keeps running
    /// until a checkpoint it snapshots from now on completes.
    DataEnded {
        task: TaskId,
        /// As for [`Event::SourceEnded`].
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        finishes_now: bool,
        /// The task heads a loop: its regular inputs ended and nothing is left going round;
        /// its back-edge's end of data is the one it sends now, and comes round later.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        looped: bool,
    },
    /// An item reached the task's barrier handler from `channel`.
    Arrived {
        task: TaskId,
        channel: ChannelId,
        item: ItemKind,
    },
    /// The item was taken back out of the alignment buffer (step ④); `left` are still held.
    Replayed {
        task: TaskId,
        channel: ChannelId,
        item: ItemKind,
        left: u32,
    },
    /// The barrier handler took a barrier (one that was not held): the first of a newer
    /// checkpoint (aligned: its channel blocks, ①; unaligned: the task snapshots at once),
    /// another input's (aligned: blocks too), or ignored. `have` of the task's `need` inputs
    /// have now delivered it or closed.
    Barrier {
        task: TaskId,
        channel: ChannelId,
        checkpoint: CheckpointId,
        take: BarrierTake,
        have: u32,
        need: u32,
        /// Of `have`, the inputs counted without awaiting their barrier (back-edges, aligned
        /// on a cyclic graph); written only when there are some.
        #[serde(default, skip_serializing_if = "is_zero")]
        unawaited: u32,
        /// The checkpoint's barriers would overtake, but the task's inputs keep them aligned
        /// because one of its input edges has this partitioning (forward, rescale or
        /// broadcast): the task aligns. The engine's decision, told by the narration as it is.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        kept_aligned: Option<Partitioning>,
        /// The task's alignment of this checkpoint had timed out: it snapshotted already, and
        /// the barrier ends the recording of this input's channel state.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        timed_out: bool,
        /// A savepoint's barrier, taken aligned by a task whose protocol would not align
        /// (unaligned): Flink's savepoints are always aligned.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        savepoint: bool,
        /// The barrier came round a loop (a back-edge of an iteration).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        back_edge: bool,
        /// The barrier was handed over inside a chain (operator chaining): the task takes
        /// the checkpoint with its chain's head, in the same call — no barrier crossed.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        chained: bool,
    },
    /// The item arrived on a blocked channel and went into the alignment buffer, which now
    /// holds `held` items of that channel (step ②).
    Held {
        task: TaskId,
        channel: ChannelId,
        item: ItemKind,
        held: u32,
    },
    /// The operator processed a record and emitted `emitted` records. At-least-once: `early`
    /// names the pending checkpoint whose barrier this input had already delivered — the record
    /// enters the state before that snapshot and will be replayed after a recovery.
    Processed {
        task: TaskId,
        channel: ChannelId,
        record: Record,
        emitted: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        early: Option<CheckpointId>,
    },
    /// The task snapshotted its state and forwarded the barrier on `forwarded` output channels
    /// (step ③). A source's snapshot names its `offset`. `priority`: the barriers went out as
    /// priority events, overtaking the records queued on those outputs (unaligned, or an
    /// aligned checkpoint gone unaligned after its timeout) — the engine's decision, which the
    /// narration tells without working it out again.
    Snapshot {
        task: TaskId,
        checkpoint: CheckpointId,
        forwarded: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offset: Option<u64>,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        priority: bool,
    },
    /// An alignment ended: all channels of the task flow again, `to_replay` held items first.
    Unblocked {
        task: TaskId,
        to_replay: u32,
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
        /// The channel is a back-edge: the record was logged going round the loop.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        back_edge: bool,
    },
    /// The task's acknowledgement reached the coordinator (`acked` of `total` tasks now).
    Acknowledged {
        task: TaskId,
        checkpoint: CheckpointId,
        acked: u32,
        total: u32,
        why: AckKind,
    },
    /// `savepoint`: it is a savepoint (written only then).
    CheckpointTriggered {
        checkpoint: CheckpointId,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        savepoint: bool,
    },
    /// Stop-the-world: the sources are stopped and every channel is empty, so every task
    /// snapshots checkpoint `checkpoint` now (the snapshots follow).
    Drained {
        checkpoint: CheckpointId,
    },
    /// Every task acknowledged; `consistent` is the checker's verdict on the global state,
    /// `finding` what is wrong with it when it is not (left out when it is consistent).
    CheckpointCompleted {
        checkpoint: CheckpointId,
        consistent: bool,
        #[serde(default, skip_serializing_if = "Finding::is_consistent")]
        finding: Finding,
        /// A savepoint: kept apart — nothing commits on it, nothing is subsumed by it, no
        /// failover restores it (written only then).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        savepoint: bool,
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
    /// A trigger by hand (`savepoint`: of a savepoint, written only then) came while the most
    /// checkpoints ran that may: it waits, and starts one as soon as one ends (as Flink queues
    /// a triggered checkpoint; a savepoint goes first).
    TriggerDeferred {
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        savepoint: bool,
    },
    PartitionEnded {
        task: TaskId,
        channel: ChannelId,
    },
    /// The task's final checkpoint has completed and its inputs have closed: it sends its end
    /// of partition and finishes.
    TaskFinished {
        task: TaskId,
        /// The completed checkpoint it waited for (its final one, or a later one); none when
        /// checkpoints after tasks finish are off.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        checkpoint: Option<CheckpointId>,
    },
    /// The task wanted to take input but its output `channel` is full (no credit): it is
    /// backpressured and takes nothing until the receiver consumes.
    Backpressured {
        task: TaskId,
        channel: ChannelId,
    },
    /// The task's outputs have room again: it resumes.
    Relieved {
        task: TaskId,
    },
    /// More checkpoints failed in a row than tolerated: the job fails, and restarts from
    /// `restore`, its latest completed checkpoint (none: from the beginning).
    JobFailed {
        failed_checkpoints: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        restore: Option<CheckpointId>,
    },
    /// A task failed (`task`, or none when too many checkpoints failed): every task of its
    /// region (`region`, or the whole job) is cancelled, the `dropped` items in flight and in
    /// alignment buffers there are lost, and they restart after the restart delay, at
    /// `restart_at`.
    Failed {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        task: Option<TaskId>,
        dropped: u32,
        restart_at: u64,
        /// Flink restarts only the failed task's pipelined region: its tasks, when that is
        /// not the whole job (the rest runs on); none: every task.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        region: Option<Vec<TaskId>>,
    },
    /// Every task restored its state from `checkpoint` (none completed: from the beginning);
    /// `reinjected` records of its channel state are back on their channels ahead of new
    /// input. At-least-once: `duplicates` records are in the restored state although their
    /// senders' snapshots had not sent them yet — the replay counts them a second time.
    Restored {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        checkpoint: Option<CheckpointId>,
        reinjected: u32,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        duplicates: Vec<Crossing>,
        /// Only these tasks restored (a region); none: every task.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        region: Option<Vec<TaskId>>,
    },
    /// A source went back to the offset it restored: it had read up to `from`, it reads from
    /// `to` again.
    Rewound {
        task: TaskId,
        from: u64,
        to: u64,
    },
    /// The coordinator had aborted `checkpoint` (and told every task) before this task got to
    /// snapshot it: it does not, and sends a cancellation marker on instead of the barrier.
    SnapshotSkipped {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A transactional sink aborted its open transaction at the failure: `aborted` records
    /// it had received but not committed are discarded.
    TransactionAborted {
        task: TaskId,
        aborted: u64,
    },
    /// The job finished with checkpoints after tasks finish off: transactional sink `task`
    /// had `records` received since its last committed checkpoint, and no checkpoint will
    /// commit them (Flink's committer commits only on a checkpoint while checkpointing is on).
    NeverCommitted {
        task: TaskId,
        records: u64,
    },
    /// The last task has finished: the job is over and nothing more is triggered.
    /// `checkpoint` is the final checkpoint, on which transactional sinks committed their
    /// last output; none when checkpoints after tasks finish are off.
    JobFinished {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        checkpoint: Option<CheckpointId>,
    },
    ChannelPaused {
        channel: ChannelId,
        paused: bool,
    },
    /// Aligned with a timeout: `checkpoint` has run longer than the timeout since its trigger
    /// and the task, aligning it (or just reached by its first barrier), goes on unaligned
    /// for it (snapshot now, barrier overtakes its outputs, the inputs still without the
    /// barrier are recorded as channel state).
    AlignmentTimedOut {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A priority barrier (unaligned, or of a checkpoint gone unaligned) arrived on `channel`
    /// and overtook the `overtaken` records still queued ahead of it, sent before it: they are
    /// channel state of `checkpoint`, persisted by the receiver. `Arrived` follows.
    BarrierOvertook {
        channel: ChannelId,
        checkpoint: CheckpointId,
        overtaken: u64,
    },
    /// A channel became FIFO or not.
    FifoChanged {
        channel: ChannelId,
        fifo: bool,
    },
    LatencyChanged {
        channel: ChannelId,
        latency: u64,
    },
    /// Buffer debloating: the receiver of `channel` consumes `throughput` records per 1,000
    /// ticks (smoothed over the last periods), so the channel now holds at most `capacity`
    /// records — its share of `target` ticks of that input plus what is on its wire. One
    /// event per channel resized.
    BufferResized {
        channel: ChannelId,
        capacity: u32,
        throughput: u64,
        /// The scenario's target time (ticks of input waiting at the receiver).
        target: u64,
    },
}
