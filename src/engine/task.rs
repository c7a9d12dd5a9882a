//! One subtask as it is now: its barrier handler, its operator state and what it is doing
//! (busy, finished, aligning, acknowledging). What it does with what arrives is `input.rs`'s.

use super::barrier::{BarrierHandler, CheckpointId};
use super::record::Record;
use super::snapshot::{TaskSnapshot, TaskState};
use super::vocab::ChannelId;

/// One subtask, as it is now.
#[derive(Clone, Debug)]
pub struct Task {
    pub(super) handler: BarrierHandler<Record>,
    pub state: TaskState,
    pub busy_until: u64,
    pub finished: bool,
    /// Checkpoints whose barrier reached this task, with the time of the first one.
    pub(super) first_barrier: Vec<(CheckpointId, u64)>,
    /// Records held in the alignment buffer per checkpoint being aligned.
    pub(super) held_records: Vec<(CheckpointId, u64)>,
    /// Records persisted as channel state per checkpoint (unaligned).
    pub(super) persisted: Vec<(CheckpointId, u64)>,
    /// Round-robin position per outgoing edge.
    pub(super) round_robin: Vec<u32>,
    pub(super) replay_scheduled: bool,
    /// Channels whose delivery waits until the alignment buffer is drained.
    pub(super) parked: Vec<ChannelId>,
    /// Channels whose head has arrived while the task was busy; when it is free, the PRNG
    /// picks one of them (a tie between items that were all ready).
    pub(super) waiting: Vec<ChannelId>,
    pub(super) wake_scheduled: bool,
    /// Unaligned and Chandy-Lamport: snapshots taken but not yet acknowledged, because the
    /// task still records channel state for them (until every input has delivered that
    /// barrier or marker, or closed). Chandy-Lamport may have several at once.
    pub(super) awaiting_ack: Vec<(CheckpointId, TaskSnapshot)>,
    /// A process's planned next act (passing the token, a transfer): a scheduled act at any
    /// other time is stale.
    pub(super) act_at: u64,
    /// Checkpoints the coordinator triggered on this task directly because every task
    /// upstream had finished: it snapshots them when its own input has ended.
    pub(super) direct: Vec<CheckpointId>,
    /// A source: the offset it had read up to before the last failure. Reading below it
    /// again after a restart is a replay.
    pub(super) read_before: u64,
}

impl Task {
    /// The checkpoint this task is aligning (or, unaligned, has pending), if any.
    pub fn aligning(&self) -> Option<CheckpointId> {
        self.handler.current_checkpoint()
    }

    /// A source after a recovery: the offset it had read up to before the failure. Reading
    /// below it again is a replay.
    pub fn replays_until(&self) -> u64 {
        self.read_before
    }
}
