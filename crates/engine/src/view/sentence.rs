//! The narration's sentences, without their words: the case analysis of the narration, made
//! once for every language (`choose.rs`). An event says what happened and what the engine
//! decided; its sentence says how the page tells it — a barrier that blocks its input
//! (aligned), is saved past (unaligned), flows on (at-least-once) or is a Chandy-Lamport
//! marker; a back-edge's barrier coming round the loop; a token received rather than a record
//! processed. Each language has one template per sentence and decides nothing but its own
//! grammar (plurals, word order).

mod choose;

use crate::barrier::CheckpointId;
use crate::model::Partitioning;
use crate::record::{ItemKind, Record};
use crate::snapshot::{Crossing, Finding};
use crate::vocab::{ChannelId, TaskId};

/// An input of a task, as a sentence names it: the words find its number and its sender.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    pub task: TaskId,
    pub channel: ChannelId,
}

/// What a task does with the barrier after its snapshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Forward {
    /// It has no outputs.
    Nothing,
    /// Behind the records queued on its outputs.
    Queued,
    /// As a priority event that overtakes them (unaligned).
    Priority,
}

/// One sentence of the narration and its values. `n` is a checkpoint (a snapshot in
/// Chandy-Lamport's words); `acked` is `(acknowledged, of)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sentence {
    Triggered {
        n: CheckpointId,
    },
    /// Chandy-Lamport: the coordinator starts a snapshot round.
    SnapshotBegins {
        n: CheckpointId,
    },
    /// `savepoint`: a savepoint was asked for, and waits (it goes before any other trigger).
    TriggerDeferred {
        savepoint: bool,
    },
    /// The coordinator triggers savepoint `n`: aligned everywhere (`overtaking`: although
    /// this mode's barriers overtake); at-least-once (`!exactly_once`), tracked as any
    /// checkpoint is.
    SavepointTriggered {
        n: CheckpointId,
        overtaking: bool,
        exactly_once: bool,
    },
    /// Savepoint `n` completed: kept apart — no failover restores it, no sink commits on it,
    /// it subsumes nothing.
    SavepointCompleted {
        n: CheckpointId,
        finding: Finding,
    },
    /// Stop-the-world: the coordinator stops the sources for checkpoint `n`.
    WorldStops {
        n: CheckpointId,
    },
    /// Stop-the-world: every channel is empty; `tasks` tasks snapshot at once.
    Drained {
        n: CheckpointId,
        tasks: u32,
    },
    /// The one-token system: a process passes the token on `channel`.
    TokenPassed {
        task: TaskId,
        channel: ChannelId,
    },
    /// A process sends a message of its own (a transfer).
    Sent {
        task: TaskId,
        channel: ChannelId,
        record: Record,
    },
    Initiated {
        task: TaskId,
        n: CheckpointId,
    },
    /// Chandy-Lamport's initiator, in its own words.
    ProcessInitiates {
        task: TaskId,
        n: CheckpointId,
    },
    /// A source read a line (`record.replay`: again, after a restore).
    SourceRead {
        task: TaskId,
        offset: u64,
        record: Record,
    },
    /// A bounded source read its whole log and sent its end of data (`finishes_now`: with no
    /// final checkpoint to wait for).
    SourceEnded {
        task: TaskId,
        finishes_now: bool,
    },
    /// An input delivered its end of data.
    EndOfData {
        at: Input,
    },
    /// Every input of a task delivered its end of data: its operator finished.
    /// `looped`: the task heads a loop, whose end of data it sends round itself.
    DataEnded {
        task: TaskId,
        finishes_now: bool,
        looped: bool,
    },
    SourceSnapshot {
        task: TaskId,
        n: CheckpointId,
        offset: u64,
        acked: Option<(u32, u32)>,
    },
    /// Unaligned: the source's barrier goes out as a priority event.
    SourcePriorityBarrier {
        task: TaskId,
        n: CheckpointId,
        offset: u64,
        acked: Option<(u32, u32)>,
    },
    SourceMarkers {
        task: TaskId,
        n: CheckpointId,
        offset: u64,
    },
    BarrierIgnored {
        n: CheckpointId,
        at: Input,
    },
    BarrierOnOnlyInput {
        n: CheckpointId,
        task: TaskId,
    },
    /// Operator chaining: the task runs in its chain's head's thread and takes the
    /// checkpoint (`snapshot`: Chandy-Lamport's snapshot) with it, in the same call; no
    /// barrier crosses between them.
    ChainedBarrier {
        n: CheckpointId,
        at: Input,
        snapshot: bool,
    },
    /// Aligned, cyclic: the barrier came round the loop on a back-edge.
    LoopBarrierReturned {
        n: CheckpointId,
        at: Input,
    },
    /// Aligned, cyclic: the last regular input has it; the back-edge is not awaited.
    LastRegularInput {
        n: CheckpointId,
        at: Input,
    },
    AlignmentStarts {
        n: CheckpointId,
        at: Input,
        waiting: u32,
    },
    /// Barriers would overtake in this run, but an input edge with partitioning `by` keeps
    /// them aligned at this task, which aligns all its inputs: its first barrier blocks.
    KeptAlignedFirst {
        n: CheckpointId,
        at: Input,
        waiting: u32,
        by: Partitioning,
    },
    /// As [`Sentence::KeptAlignedFirst`], at a task with one input: the barrier came in line
    /// behind the records queued ahead of it, none of which is channel state.
    KeptAlignedOnlyInput {
        n: CheckpointId,
        task: TaskId,
        by: Partitioning,
    },
    AlignmentBlocksToo {
        n: CheckpointId,
        at: Input,
        have: u32,
        need: u32,
    },
    AlignmentComplete {
        n: CheckpointId,
        at: Input,
    },
    UnalignedFirst {
        n: CheckpointId,
        at: Input,
        waiting: u32,
    },
    UnalignedInputSaved {
        n: CheckpointId,
        at: Input,
        have: u32,
        need: u32,
    },
    UnalignedComplete {
        n: CheckpointId,
        at: Input,
    },
    TrackingFlows {
        n: CheckpointId,
        at: Input,
        have: u32,
        need: u32,
    },
    TrackingComplete {
        n: CheckpointId,
        at: Input,
    },
    MarkerIgnored {
        n: CheckpointId,
        at: Input,
    },
    MarkerFirst {
        n: CheckpointId,
        at: Input,
        waiting: u32,
    },
    MarkerOnOnlyInput {
        n: CheckpointId,
        at: Input,
    },
    MarkerStopsRecording {
        n: CheckpointId,
        at: Input,
        have: u32,
        need: u32,
    },
    MarkerLast {
        n: CheckpointId,
        at: Input,
    },
    Held {
        at: Input,
        item: ItemKind,
        held: u32,
    },
    Snapshot {
        task: TaskId,
        n: CheckpointId,
        forward: Forward,
        acked: Option<(u32, u32)>,
    },
    /// Chandy-Lamport: a process records its state and sends markers on `outputs` channels.
    ProcessRecords {
        task: TaskId,
        n: CheckpointId,
        outputs: u32,
    },
    /// Chandy-Lamport: a process with no outputs records its state.
    ProcessRecordsAlone {
        task: TaskId,
        n: CheckpointId,
    },
    Unblocked {
        task: TaskId,
        to_replay: u32,
    },
    UnblockedEmpty {
        task: TaskId,
    },
    Replayed {
        at: Input,
        item: ItemKind,
        left: u32,
    },
    TokenReceived {
        at: Input,
    },
    Received {
        at: Input,
        record: Record,
    },
    /// A record processed (`record.replay`: a replay), emitting `emitted` records.
    Processed {
        at: Input,
        record: Record,
        emitted: u32,
    },
    /// At-least-once: processed after barrier `n` on its input, before the snapshot.
    ProcessedEarly {
        at: Input,
        record: Record,
        emitted: u32,
        n: CheckpointId,
    },
    /// Aligned, cyclic: a record came round the loop before the barrier and is logged.
    LoopLogged {
        at: Input,
        n: CheckpointId,
        record: Record,
    },
    ChannelStateSaved {
        at: Input,
        n: CheckpointId,
        record: Record,
    },
    MarkerRecorded {
        at: Input,
        n: CheckpointId,
        record: Record,
    },
    CancelArrived {
        n: CheckpointId,
        at: Input,
    },
    TaskAborted {
        task: TaskId,
        n: CheckpointId,
    },
    AckFinished {
        task: TaskId,
        n: CheckpointId,
        acked: (u32, u32),
    },
    AckChannelState {
        task: TaskId,
        n: CheckpointId,
        acked: (u32, u32),
    },
    AckSnapshot {
        task: TaskId,
        n: CheckpointId,
        acked: (u32, u32),
    },
    ProcessDone {
        task: TaskId,
        n: CheckpointId,
        acked: (u32, u32),
    },
    /// Worded by its finding, as the coordinator's list and the inspector word it.
    Completed {
        n: CheckpointId,
        finding: Finding,
    },
    SnapshotCompleted {
        n: CheckpointId,
        finding: Finding,
    },
    AbortedSubsumed {
        n: CheckpointId,
    },
    AbortedDeclined {
        n: CheckpointId,
        task: TaskId,
    },
    AbortedExpired {
        n: CheckpointId,
    },
    AbortedFailover {
        n: CheckpointId,
    },
    SnapshotAbandoned {
        n: CheckpointId,
    },
    Committed {
        task: TaskId,
        n: CheckpointId,
        committed: u64,
    },
    PartitionEnded {
        at: Input,
    },
    /// The last task finished; `n` the final checkpoint (none: checkpoints after tasks
    /// finish are off).
    JobFinished {
        n: Option<CheckpointId>,
    },
    /// Checkpoints after tasks finish are off: a transactional sink's last records are never
    /// committed.
    NeverCommitted {
        task: TaskId,
        records: u64,
    },
    Backpressured {
        task: TaskId,
        channel: ChannelId,
    },
    Relieved {
        task: TaskId,
    },
    /// Too many checkpoints failed; the job restarts from `restore` (none: from the start).
    JobFailed {
        failed: u32,
        restore: Option<CheckpointId>,
    },
    /// The failed task's region stops (`task`: the one that failed; none: the job itself).
    /// `buffers`: items in alignment buffers were lost too (aligned). `region`: the tasks
    /// that stop, when not the whole job.
    Failed {
        task: Option<TaskId>,
        dropped: u32,
        restart_at: u64,
        buffers: bool,
        region: Option<Vec<TaskId>>,
    },
    TransactionAborted {
        task: TaskId,
        aborted: u64,
    },
    /// `partial`: only a region restarted.
    RestartedFresh {
        partial: bool,
    },
    Restored {
        n: CheckpointId,
        reinjected: u32,
        duplicates: Vec<Crossing>,
        partial: bool,
    },
    ProcessesRestored {
        n: CheckpointId,
        reinjected: u32,
    },
    Rewound {
        task: TaskId,
        from: u64,
        to: u64,
    },
    /// Checkpoint `n` was aborted before the task snapshotted it: a cancellation marker goes
    /// on instead of the barrier.
    SnapshotSkipped {
        task: TaskId,
        n: CheckpointId,
    },
    /// `n`: the completed checkpoint it waited for (none: checkpoints after tasks finish
    /// are off).
    TaskFinished {
        task: TaskId,
        n: Option<CheckpointId>,
    },
    ChannelPaused {
        channel: ChannelId,
    },
    ChannelResumed {
        channel: ChannelId,
    },
    AlignmentTimedOut {
        task: TaskId,
        n: CheckpointId,
    },
    BarrierOvertook {
        channel: ChannelId,
        n: CheckpointId,
        overtaken: u64,
    },
    FifoOn {
        channel: ChannelId,
    },
    FifoOff {
        channel: ChannelId,
    },
    LatencyChanged {
        channel: ChannelId,
        latency: u64,
    },
    /// Buffer debloating: `channel`'s receiver consumes `rate` (records per 1,000 ticks), so
    /// the channel now holds at most `capacity` records.
    BufferResized {
        channel: ChannelId,
        capacity: u32,
        rate: u64,
        target: u64,
    },
}
