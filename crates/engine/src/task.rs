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
    /// It has sent its end of partition and does nothing more.
    pub finished: bool,
    /// Its data has ended (FLIP-147): a source read its whole log, or every input delivered
    /// its end of data; its operator finished and its own end of data went out. It keeps
    /// running — taking barriers, snapshotting — until its final checkpoint completes.
    pub data_ended: bool,
    /// The first checkpoint it snapshotted after its data ended: when this one (or a later
    /// one) completes, it may finish.
    pub final_checkpoint: Option<CheckpointId>,
    /// The checkpoint whose completion ended its wait: its final checkpoint, or a later one.
    pub final_done: Option<CheckpointId>,
    /// The newest checkpoint it has snapshotted (0: none), Flink's `lastCheckpointId`.
    pub(super) last_snapshot: CheckpointId,
    /// Checkpoints the coordinator aborted before this task snapshotted them (Flink's
    /// `notifyCheckpointAborted`): when it reaches one it does not snapshot, and sends a
    /// cancellation marker on instead of the barrier.
    pub(super) aborted: Vec<CheckpointId>,
    /// What the task measures and owes per checkpoint.
    pub(super) books: Bookkeeping,
    /// Round-robin position per outgoing edge.
    pub(super) round_robin: Vec<u32>,
    pub(super) replay_scheduled: bool,
    /// Channels whose delivery waits until the alignment buffer is drained.
    pub(super) parked: Vec<ChannelId>,
    /// Channels whose head has arrived while the task was busy; when it is free, the PRNG
    /// picks one of them (a tie between items that were all ready).
    pub(super) waiting: Vec<ChannelId>,
    pub(super) wake_scheduled: bool,
    /// A process's planned next act (passing the token, a transfer): a scheduled act at any
    /// other time is stale.
    pub(super) act_at: u64,
    /// A source: the offset it had read up to before the last failure. Reading below it
    /// again after a restart is a replay.
    pub(super) read_before: u64,
}

/// A task's checkpoint bookkeeping: the figures it measures per checkpoint for the
/// coordinator (when the first barrier came, what was held, what was persisted), the
/// snapshots it has yet to acknowledge and the checkpoints triggered on it directly.
#[derive(Clone, Debug, Default)]
pub(super) struct Bookkeeping {
    /// Checkpoints whose barrier reached this task, with the time of the first one.
    pub(super) first_barrier: Vec<(CheckpointId, u64)>,
    /// Records held in the alignment buffer per checkpoint being aligned.
    pub(super) held_records: Vec<(CheckpointId, u64)>,
    /// Records persisted as channel state per checkpoint (unaligned).
    pub(super) persisted: Vec<(CheckpointId, u64)>,
    /// Records processed between the first and the last barrier of a checkpoint (Flink's
    /// processed data).
    pub(super) processed: Vec<(CheckpointId, u64)>,
    /// Unaligned and Chandy-Lamport: snapshots taken but not yet acknowledged, because the
    /// task still records channel state for them (until every input has delivered that
    /// barrier or marker, or closed). Chandy-Lamport may have several at once.
    pub(super) awaiting_ack: Vec<(CheckpointId, TaskSnapshot)>,
    /// Checkpoints the coordinator triggered on this task directly because every task
    /// upstream had finished: it snapshots them when its own input has ended.
    pub(super) direct: Vec<CheckpointId>,
}

impl Bookkeeping {
    /// A barrier of checkpoint `n` reached the task at `now`; only the first one counts.
    pub(super) fn barrier_arrived(&mut self, n: CheckpointId, now: u64) {
        if !self.first_barrier.iter().any(|&(id, _)| id == n) {
            self.first_barrier.push((n, now));
        }
    }

    /// Checkpoint `n` ended without this task's snapshot: its figures go.
    pub(super) fn forget(&mut self, n: CheckpointId) {
        take(&mut self.first_barrier, n);
        take(&mut self.held_records, n);
        take(&mut self.persisted, n);
        take(&mut self.processed, n);
    }

    /// After a failure: nothing measured, nothing owed.
    fn clear(&mut self) {
        self.first_barrier.clear();
        self.held_records.clear();
        self.persisted.clear();
        self.processed.clear();
        self.awaiting_ack.clear();
        self.direct.clear();
    }
}

/// Adds one to checkpoint `n`'s counter.
pub(super) fn bump(counters: &mut Vec<(CheckpointId, u64)>, n: CheckpointId) {
    match counters.iter_mut().find(|(id, _)| *id == n) {
        Some((_, c)) => *c += 1,
        None => counters.push((n, 1)),
    }
}

/// Removes checkpoint `n`'s counter and returns it (0 if it had none).
pub(super) fn take(counters: &mut Vec<(CheckpointId, u64)>, n: CheckpointId) -> u64 {
    match counters.iter().position(|(id, _)| *id == n) {
        Some(i) => counters.swap_remove(i).1,
        None => 0,
    }
}

impl Task {
    /// A task at the job's start: `round_robin` is its first turn on each output edge.
    pub(super) fn new(
        handler: BarrierHandler<Record>,
        state: TaskState,
        round_robin: Vec<u32>,
    ) -> Task {
        Task {
            handler,
            state,
            busy_until: 0,
            finished: false,
            data_ended: false,
            final_checkpoint: None,
            final_done: None,
            last_snapshot: 0,
            aborted: Vec::new(),
            books: Bookkeeping::default(),
            round_robin,
            replay_scheduled: false,
            parked: Vec::new(),
            waiting: Vec::new(),
            wake_scheduled: false,
            act_at: 0,
            read_before: 0,
        }
    }

    /// The job failed at `now`: everything the running task was doing is gone (a fresh
    /// barrier handler replaces its alignment). Its operator state stays, for the page to
    /// show greyed out until the restore replaces it. Returns the items its alignment buffer
    /// held.
    pub(super) fn fail(&mut self, handler: BarrierHandler<Record>, now: u64) -> u32 {
        let held = self.handler.held_count();
        self.handler = handler;
        self.busy_until = now;
        self.data_ended = false;
        self.final_checkpoint = None;
        self.final_done = None;
        self.aborted.clear();
        self.books.clear();
        self.replay_scheduled = false;
        self.parked.clear();
        self.waiting.clear();
        self.wake_scheduled = false;
        held
    }

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
