//! Which sentence tells a beat, without its words: the case analysis of the narration, made
//! once for every language. A beat says what happened; a sentence also says how the page tells
//! it in this mode — a barrier that blocks its input (aligned), is saved past (unaligned),
//! flows on (at-least-once) or is a Chandy-Lamport marker; a back-edge's barrier coming round
//! the loop; a token received rather than a record processed. Each language (`i18n`) has one
//! template per sentence and decides nothing but its own grammar (plurals, word order).

use super::narration::Beat;
use crate::barrier::{BarrierTake, CheckpointId};
use crate::physical::{ChannelId, Physical, TaskId};
use crate::record::{ItemKind, Payload, Record};
use crate::snapshot::Crossing;
use crate::trace::{AbortReason, AckKind};
use crate::BarrierMode;

/// An input of a task, as a sentence names it (its number, the task, where it comes from).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Input {
    pub task: TaskId,
    pub input: u32,
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
pub enum Sentence<'a> {
    Triggered {
        n: CheckpointId,
    },
    /// Chandy-Lamport: the coordinator starts a snapshot round.
    SnapshotBegins {
        n: CheckpointId,
    },
    TriggerDeferred,
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
    SourceEnded {
        task: TaskId,
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
        item: &'a ItemKind,
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
        item: &'a ItemKind,
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
    Completed {
        n: CheckpointId,
        consistent: bool,
    },
    SnapshotCompleted {
        n: CheckpointId,
        consistent: bool,
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
    JobFinished {
        n: CheckpointId,
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
    /// The job stops (`task`: the one that failed; none: the job itself). `buffers`: items
    /// in alignment buffers were lost too (aligned).
    Failed {
        task: Option<TaskId>,
        dropped: u32,
        restart_at: u64,
        buffers: bool,
    },
    TransactionAborted {
        task: TaskId,
        aborted: u64,
    },
    RestartedFresh,
    Restored {
        n: CheckpointId,
        reinjected: u32,
        duplicates: &'a [Crossing],
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
    TaskFinished {
        task: TaskId,
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

impl<'a> Sentence<'a> {
    /// The sentence that tells `beat` in `mode` on this graph.
    pub fn of(beat: &'a Beat, phys: &Physical, mode: BarrierMode) -> Sentence<'a> {
        let cl = mode == BarrierMode::ChandyLamport;
        let input = |task, input| Input { task, input };
        match *beat {
            Beat::Triggered { checkpoint: n } if cl => Sentence::SnapshotBegins { n },
            Beat::Triggered { checkpoint: n } if mode.stops_the_world() => {
                Sentence::WorldStops { n }
            }
            Beat::Triggered { checkpoint: n } => Sentence::Triggered { n },
            Beat::Drained {
                checkpoint: n,
                tasks,
            } => Sentence::Drained { n, tasks },
            Beat::TriggerDeferred => Sentence::TriggerDeferred,
            Beat::Sent {
                task,
                channel,
                record,
            } => match record.payload {
                Payload::Token => Sentence::TokenPassed { task, channel },
                _ => Sentence::Sent {
                    task,
                    channel,
                    record,
                },
            },
            Beat::Initiated {
                task,
                checkpoint: n,
            } if cl => Sentence::ProcessInitiates { task, n },
            Beat::Initiated {
                task,
                checkpoint: n,
            } => Sentence::Initiated { task, n },
            Beat::SourceRead {
                task,
                offset,
                record,
            } => Sentence::SourceRead {
                task,
                offset,
                record,
            },
            Beat::SourceEnded { task } => Sentence::SourceEnded { task },
            Beat::SourceSnapshot {
                task,
                checkpoint: n,
                offset,
                acked,
            } => match mode {
                BarrierMode::ChandyLamport => Sentence::SourceMarkers { task, n, offset },
                BarrierMode::Unaligned => Sentence::SourcePriorityBarrier {
                    task,
                    n,
                    offset,
                    acked,
                },
                _ => Sentence::SourceSnapshot {
                    task,
                    n,
                    offset,
                    acked,
                },
            },
            Beat::Barrier {
                task,
                input: i,
                checkpoint: n,
                take,
                have,
                need,
                unawaited,
            } => {
                let at = input(task, i);
                let waiting = need.saturating_sub(have);
                if cl {
                    return match take {
                        BarrierTake::Ignored => Sentence::MarkerIgnored { n, at },
                        BarrierTake::First if have < need => {
                            Sentence::MarkerFirst { n, at, waiting }
                        }
                        BarrierTake::First => Sentence::MarkerOnOnlyInput { n, at },
                        _ if have < need => Sentence::MarkerStopsRecording { n, at, have, need },
                        _ => Sentence::MarkerLast { n, at },
                    };
                }
                if take == BarrierTake::Ignored {
                    return Sentence::BarrierIgnored { n, at };
                }
                if need < 2 {
                    return Sentence::BarrierOnOnlyInput { n, task };
                }
                match mode {
                    BarrierMode::Aligned if phys.input_is_back_edge(task, i) => {
                        Sentence::LoopBarrierReturned { n, at }
                    }
                    BarrierMode::Aligned if have == need && unawaited > 0 => {
                        Sentence::LastRegularInput { n, at }
                    }
                    BarrierMode::Aligned => match take {
                        BarrierTake::First if have < need => {
                            Sentence::AlignmentStarts { n, at, waiting }
                        }
                        _ if have < need => Sentence::AlignmentBlocksToo { n, at, have, need },
                        _ => Sentence::AlignmentComplete { n, at },
                    },
                    BarrierMode::Unaligned | BarrierMode::ChandyLamport => match take {
                        BarrierTake::First => Sentence::UnalignedFirst { n, at, waiting },
                        _ if have < need => Sentence::UnalignedInputSaved { n, at, have, need },
                        _ => Sentence::UnalignedComplete { n, at },
                    },
                    // No barrier flows in a stopped world: told as tracking if one did.
                    BarrierMode::AtLeastOnce | BarrierMode::Synchronous if have < need => {
                        Sentence::TrackingFlows { n, at, have, need }
                    }
                    BarrierMode::AtLeastOnce | BarrierMode::Synchronous => {
                        Sentence::TrackingComplete { n, at }
                    }
                }
            }
            Beat::Held {
                task,
                input: i,
                ref item,
                held,
            } => Sentence::Held {
                at: input(task, i),
                item,
                held,
            },
            Beat::Snapshot {
                task,
                checkpoint: n,
                forwarded: 0,
                ..
            } if cl => Sentence::ProcessRecordsAlone { task, n },
            Beat::Snapshot {
                task,
                checkpoint: n,
                forwarded,
                ..
            } if cl => Sentence::ProcessRecords {
                task,
                n,
                outputs: forwarded,
            },
            Beat::Snapshot {
                task,
                checkpoint: n,
                forwarded,
                acked,
            } => {
                let forward = match (forwarded, mode) {
                    (0, _) => Forward::Nothing,
                    (_, BarrierMode::Unaligned) => Forward::Priority,
                    _ => Forward::Queued,
                };
                Sentence::Snapshot {
                    task,
                    n,
                    forward,
                    acked,
                }
            }
            Beat::Unblocked { task, to_replay: 0 } => Sentence::UnblockedEmpty { task },
            Beat::Unblocked { task, to_replay } => Sentence::Unblocked { task, to_replay },
            Beat::Replayed {
                task,
                input: i,
                ref item,
                left,
            } => Sentence::Replayed {
                at: input(task, i),
                item,
                left,
            },
            Beat::Processed {
                task,
                input: i,
                record,
                emitted,
                early,
            } => {
                let at = input(task, i);
                match (record.payload, early) {
                    (Payload::Token, _) => Sentence::TokenReceived { at },
                    (Payload::Transfer { .. }, _) => Sentence::Received { at, record },
                    (_, Some(n)) => Sentence::ProcessedEarly {
                        at,
                        record,
                        emitted,
                        n,
                    },
                    (_, None) => Sentence::Processed {
                        at,
                        record,
                        emitted,
                    },
                }
            }
            Beat::Persisted {
                task,
                input: i,
                checkpoint: n,
                record,
            } => {
                let at = input(task, i);
                if cl {
                    Sentence::MarkerRecorded { at, n, record }
                } else if phys.input_is_back_edge(task, i) {
                    Sentence::LoopLogged { at, n, record }
                } else {
                    Sentence::ChannelStateSaved { at, n, record }
                }
            }
            Beat::CancelArrived {
                task,
                input: i,
                checkpoint: n,
            } => Sentence::CancelArrived {
                n,
                at: input(task, i),
            },
            Beat::TaskAborted {
                task,
                checkpoint: n,
            } => Sentence::TaskAborted { task, n },
            Beat::Acknowledged {
                task,
                checkpoint: n,
                acked,
                total,
                why,
            } => {
                let acked = (acked, total);
                match why {
                    AckKind::ChannelState if cl => Sentence::ProcessDone { task, n, acked },
                    AckKind::ChannelState => Sentence::AckChannelState { task, n, acked },
                    AckKind::Finished => Sentence::AckFinished { task, n, acked },
                    AckKind::Snapshot => Sentence::AckSnapshot { task, n, acked },
                }
            }
            Beat::Completed {
                checkpoint: n,
                consistent,
            } if cl => Sentence::SnapshotCompleted { n, consistent },
            Beat::Completed {
                checkpoint: n,
                consistent,
            } => Sentence::Completed { n, consistent },
            Beat::Aborted {
                checkpoint: n,
                reason,
            } => match reason {
                AbortReason::Failover if cl => Sentence::SnapshotAbandoned { n },
                AbortReason::Failover => Sentence::AbortedFailover { n },
                AbortReason::Subsumed => Sentence::AbortedSubsumed { n },
                AbortReason::Declined { task } => Sentence::AbortedDeclined { n, task },
                AbortReason::Expired => Sentence::AbortedExpired { n },
            },
            Beat::Committed {
                task,
                checkpoint: n,
                committed,
            } => Sentence::Committed { task, n, committed },
            Beat::PartitionEnded { task, input: i } => {
                Sentence::PartitionEnded { at: input(task, i) }
            }
            Beat::TaskFinished { task } => Sentence::TaskFinished { task },
            Beat::JobFinished { checkpoint: n } => Sentence::JobFinished { n },
            Beat::JobFailed {
                failed_checkpoints,
                restore,
            } => Sentence::JobFailed {
                failed: failed_checkpoints,
                restore,
            },
            Beat::Backpressured { task, channel } => Sentence::Backpressured { task, channel },
            Beat::Relieved { task } => Sentence::Relieved { task },
            Beat::ChannelPaused {
                channel,
                paused: true,
            } => Sentence::ChannelPaused { channel },
            Beat::ChannelPaused {
                channel,
                paused: false,
            } => Sentence::ChannelResumed { channel },
            Beat::LatencyChanged { channel, latency } => {
                Sentence::LatencyChanged { channel, latency }
            }
            Beat::BufferResized {
                channel,
                capacity,
                throughput,
                target,
            } => Sentence::BufferResized {
                channel,
                capacity,
                rate: throughput,
                target,
            },
            Beat::FifoChanged {
                channel,
                fifo: true,
            } => Sentence::FifoOn { channel },
            Beat::FifoChanged {
                channel,
                fifo: false,
            } => Sentence::FifoOff { channel },
            Beat::AlignmentTimedOut {
                task,
                checkpoint: n,
            } => Sentence::AlignmentTimedOut { task, n },
            Beat::BarrierOvertook {
                channel,
                checkpoint: n,
                overtaken,
            } => Sentence::BarrierOvertook {
                channel,
                n,
                overtaken,
            },
            Beat::Failed {
                task,
                dropped,
                restart_at,
            } => Sentence::Failed {
                task,
                dropped,
                restart_at,
                buffers: mode == BarrierMode::Aligned,
            },
            Beat::TransactionAborted { task, aborted } => {
                Sentence::TransactionAborted { task, aborted }
            }
            Beat::Restored {
                checkpoint: None, ..
            } => Sentence::RestartedFresh,
            Beat::Restored {
                checkpoint: Some(n),
                reinjected,
                ..
            } if cl => Sentence::ProcessesRestored { n, reinjected },
            Beat::Restored {
                checkpoint: Some(n),
                reinjected,
                ref duplicates,
            } => Sentence::Restored {
                n,
                reinjected,
                duplicates,
            },
            Beat::Rewound { task, from, to } => Sentence::Rewound { task, from, to },
        }
    }
}
