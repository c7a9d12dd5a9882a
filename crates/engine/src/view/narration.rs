//! The narration's raw material: a step's events grouped into beats, one sentence each.
//!
//! Events carry the decisions the engine made (how the barrier handler took a barrier, how many
//! inputs have it, what was held, why a task acknowledged), so this is a plain mapping: it reads
//! nothing back from the simulation but names, and never guesses what happened. Two things are
//! grouped: a snapshot and the acknowledgement it sent at once are one sentence, and a replayed
//! record's processing is told by the replay itself.

use crate::barrier::{BarrierTake, CheckpointId};
use crate::model::Partitioning;
use crate::physical::{ChannelId, Physical, TaskId};
use crate::record::{ItemKind, Record};
use crate::snapshot::Crossing;
use crate::trace::{AbortReason, AckKind, Event};

/// One sentence's worth of what a step did, without the words: the page's narration turns
/// each beat into a sentence of the chosen language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Beat {
    Triggered {
        checkpoint: CheckpointId,
    },
    TriggerDeferred,
    /// Stop-the-world: the job has drained and `tasks` tasks snapshot at once (their
    /// snapshots and acknowledgements are this one beat).
    Drained {
        checkpoint: CheckpointId,
        tasks: u32,
    },
    SourceRead {
        task: TaskId,
        offset: u64,
        record: Record,
    },
    SourceEnded {
        task: TaskId,
    },
    /// A process sent a message of its own (the token, a transfer) on `channel`.
    Sent {
        task: TaskId,
        channel: ChannelId,
        record: Record,
    },
    /// Chandy-Lamport: a process initiates a snapshot.
    Initiated {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A source recorded its offset and injected the barrier; `acked` is `(acked, total)` when
    /// it acknowledged in the same breath.
    SourceSnapshot {
        task: TaskId,
        checkpoint: CheckpointId,
        offset: u64,
        acked: Option<(u32, u32)>,
        /// The barriers overtook the queued records (the engine's decision).
        priority: bool,
    },
    /// The barrier handler took a barrier: `have` of the task's `need` inputs have it now.
    Barrier {
        task: TaskId,
        input: u32,
        checkpoint: CheckpointId,
        take: BarrierTake,
        have: u32,
        need: u32,
        /// Of `have`, inputs counted without awaiting their barrier (back-edges).
        unawaited: u32,
        /// The task aligns although the checkpoint's barriers would overtake: an input edge
        /// with this partitioning keeps them aligned (Flink's rule).
        kept_aligned: Option<Partitioning>,
        /// The task's alignment had timed out: this barrier ends a recording, not a wait.
        timed_out: bool,
    },
    /// An item arrived on a blocked input and waits in the alignment buffer (②), or a
    /// replayed one was held again.
    Held {
        task: TaskId,
        input: u32,
        item: ItemKind,
        held: u32,
    },
    /// The task snapshotted its state and forwarded the barrier on `forwarded` channels (③).
    /// `acked` is `(acked, total)` if it acknowledged at once; unaligned tasks acknowledge
    /// later, once their channel state is complete.
    Snapshot {
        task: TaskId,
        checkpoint: CheckpointId,
        forwarded: u32,
        acked: Option<(u32, u32)>,
        /// The barriers overtook the queued records (the engine's decision).
        priority: bool,
    },
    /// Alignment over: the inputs flow again, held items first (④).
    Unblocked {
        task: TaskId,
        to_replay: u32,
    },
    /// A held item left the buffer and was handled (④).
    Replayed {
        task: TaskId,
        input: u32,
        item: ItemKind,
        left: u32,
    },
    /// The operator processed a record. At-least-once: `early` is the checkpoint whose barrier
    /// this input already delivered — the record slips into that snapshot's state.
    Processed {
        task: TaskId,
        input: u32,
        record: Record,
        emitted: u32,
        early: Option<CheckpointId>,
    },
    /// Unaligned: an in-flight record became channel state.
    Persisted {
        task: TaskId,
        input: u32,
        checkpoint: CheckpointId,
        record: Record,
    },
    CancelArrived {
        task: TaskId,
        input: u32,
        checkpoint: CheckpointId,
    },
    TaskAborted {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// An acknowledgement that is not told with its snapshot: a finished task's final state,
    /// or an unaligned task whose channel state just became complete.
    Acknowledged {
        task: TaskId,
        checkpoint: CheckpointId,
        acked: u32,
        total: u32,
        why: AckKind,
    },
    Completed {
        checkpoint: CheckpointId,
        consistent: bool,
    },
    /// A transactional sink committed its output up to `committed` records (notify-complete).
    Committed {
        task: TaskId,
        checkpoint: CheckpointId,
        committed: u64,
    },
    Aborted {
        checkpoint: CheckpointId,
        reason: AbortReason,
    },
    PartitionEnded {
        task: TaskId,
        input: u32,
    },
    TaskFinished {
        task: TaskId,
    },
    JobFinished {
        checkpoint: CheckpointId,
    },
    JobFailed {
        failed_checkpoints: u32,
        restore: Option<CheckpointId>,
    },
    /// The task stopped taking input: its output `channel` is full.
    Backpressured {
        task: TaskId,
        channel: ChannelId,
    },
    Relieved {
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
    /// Buffer debloating resized a channel (`throughput` of its receiver, in records per 1,000
    /// ticks).
    BufferResized {
        channel: ChannelId,
        capacity: u32,
        throughput: u64,
        target: u64,
    },
    FifoChanged {
        channel: ChannelId,
        fifo: bool,
    },
    /// Aligned with a timeout: the checkpoint ran too long since its trigger, and the task
    /// goes on unaligned for it.
    AlignmentTimedOut {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A priority barrier arrived and overtook the records queued ahead of it.
    BarrierOvertook {
        channel: ChannelId,
        checkpoint: CheckpointId,
        overtaken: u64,
    },
    /// A task failed (none: too many failed checkpoints): the whole job is cancelled.
    Failed {
        task: Option<TaskId>,
        dropped: u32,
        restart_at: u64,
    },
    /// A transactional sink threw away its uncommitted records.
    TransactionAborted {
        task: TaskId,
        aborted: u64,
    },
    /// Every task restored `checkpoint` (none: started afresh).
    Restored {
        checkpoint: Option<CheckpointId>,
        reinjected: u32,
        /// At-least-once: records already in the restored state that the replay brings again.
        duplicates: Vec<Crossing>,
    },
    /// A source rewound its offset.
    Rewound {
        task: TaskId,
        from: u64,
        to: u64,
    },
}

impl Beat {
    /// The seed's alignment step (①–④) this beat shows. Only aligned checkpoints have them:
    /// `aligned` is false in the other modes, where only a task whose inputs keep their
    /// barriers aligned blocks (①), holds (②) and replays (④).
    pub fn alignment_step(&self, aligned: bool) -> Option<u8> {
        match self {
            Beat::Barrier {
                take: BarrierTake::First | BarrierTake::Counted,
                have,
                need,
                kept_aligned,
                ..
            } if (aligned || kept_aligned.is_some()) && *need > 1 && have < need => Some(1),
            Beat::Held { .. } => Some(2),
            Beat::Snapshot { .. } if aligned => Some(3),
            Beat::Unblocked { .. } | Beat::Replayed { .. } => Some(4),
            _ => None,
        }
    }

    /// Records flowing as usual: shown quietly so the checkpoint's beats stand out. A record
    /// that slips in after an early barrier (at-least-once) is not routine: it is the lesson.
    pub fn is_routine(&self) -> bool {
        matches!(
            self,
            Beat::SourceRead { .. }
                | Beat::Sent { .. }
                | Beat::Processed { early: None, .. }
                | Beat::SourceEnded { .. }
        )
    }

    /// The checkpoint this beat is about, if any.
    pub fn checkpoint(&self) -> Option<CheckpointId> {
        match self {
            Beat::Triggered { checkpoint }
            | Beat::Drained { checkpoint, .. }
            | Beat::Initiated { checkpoint, .. }
            | Beat::AlignmentTimedOut { checkpoint, .. }
            | Beat::BarrierOvertook { checkpoint, .. }
            | Beat::SourceSnapshot { checkpoint, .. }
            | Beat::Barrier { checkpoint, .. }
            | Beat::Snapshot { checkpoint, .. }
            | Beat::Persisted { checkpoint, .. }
            | Beat::CancelArrived { checkpoint, .. }
            | Beat::TaskAborted { checkpoint, .. }
            | Beat::Acknowledged { checkpoint, .. }
            | Beat::Completed { checkpoint, .. }
            | Beat::Committed { checkpoint, .. }
            | Beat::Aborted { checkpoint, .. }
            | Beat::Restored {
                checkpoint: Some(checkpoint),
                ..
            }
            | Beat::JobFinished { checkpoint } => Some(*checkpoint),
            Beat::Processed { early, .. } => *early,
            _ => None,
        }
    }
}

/// The beats of the step that produced `events`.
pub fn beats(phys: &Physical, events: &[Event]) -> Vec<Beat> {
    let input_of = |c: ChannelId| phys.channels.get(c as usize).map_or(0, |i| i.input_index);
    let mut out: Vec<Beat> = Vec::new();
    // A replayed record is told by its replay; its processing is not told again.
    let mut replayed: Option<(TaskId, u64)> = None;
    // A stopped world's snapshots are told by the one beat that says the job drained.
    let mut drained: Option<(CheckpointId, usize)> = None;
    for e in events {
        let beat = match *e {
            Event::Drained { checkpoint } => {
                drained = Some((checkpoint, out.len()));
                Beat::Drained {
                    checkpoint,
                    tasks: 0,
                }
            }
            Event::Snapshot { checkpoint, .. } | Event::Acknowledged { checkpoint, .. }
                if drained.is_some_and(|(n, _)| n == checkpoint) =>
            {
                if let (Event::Snapshot { .. }, Some((_, at))) = (e, drained) {
                    if let Some(Beat::Drained { tasks, .. }) = out.get_mut(at) {
                        *tasks += 1;
                    }
                }
                continue;
            }
            Event::SourceRead {
                task,
                offset,
                record,
            } => Beat::SourceRead {
                task,
                offset,
                record,
            },
            Event::SourceEnded { task } => Beat::SourceEnded { task },
            Event::Sent {
                task,
                channel,
                record,
            } => Beat::Sent {
                task,
                channel,
                record,
            },
            Event::Initiated { task, checkpoint } => Beat::Initiated { task, checkpoint },
            Event::Arrived {
                task,
                channel,
                item: ItemKind::Cancel(checkpoint),
            } => Beat::CancelArrived {
                task,
                input: input_of(channel),
                checkpoint,
            },
            Event::Arrived { .. } => continue,
            Event::Barrier {
                task,
                channel,
                checkpoint,
                take,
                have,
                need,
                unawaited,
                kept_aligned,
                timed_out,
            } => Beat::Barrier {
                task,
                input: input_of(channel),
                checkpoint,
                take,
                have,
                need,
                unawaited,
                kept_aligned,
                timed_out,
            },
            Event::Held {
                task,
                channel,
                item,
                held,
            } => Beat::Held {
                task,
                input: input_of(channel),
                item,
                held,
            },
            Event::Replayed {
                task,
                channel,
                item,
                left,
            } => {
                if let ItemKind::Record(r) = item {
                    replayed = Some((task, r.id));
                }
                Beat::Replayed {
                    task,
                    input: input_of(channel),
                    item,
                    left,
                }
            }
            Event::Processed {
                task,
                channel,
                record,
                emitted,
                early,
            } => {
                if replayed == Some((task, record.id)) {
                    replayed = None;
                    continue;
                }
                Beat::Processed {
                    task,
                    input: input_of(channel),
                    record,
                    emitted,
                    early,
                }
            }
            Event::Snapshot {
                task,
                checkpoint,
                forwarded,
                offset,
                priority,
            } => match offset {
                Some(offset) => Beat::SourceSnapshot {
                    task,
                    checkpoint,
                    offset,
                    acked: None,
                    priority,
                },
                None => Beat::Snapshot {
                    task,
                    checkpoint,
                    forwarded,
                    acked: None,
                    priority,
                },
            },
            Event::Acknowledged {
                task,
                checkpoint,
                acked,
                total,
                why,
            } => {
                // An acknowledgement sent with the snapshot is told in the same sentence.
                let with_snapshot = out.iter_mut().rev().find_map(|b| match b {
                    Beat::Snapshot {
                        task: bt,
                        checkpoint: n,
                        acked: a,
                        ..
                    }
                    | Beat::SourceSnapshot {
                        task: bt,
                        checkpoint: n,
                        acked: a,
                        ..
                    } if *bt == task && *n == checkpoint => Some(a),
                    _ => None,
                });
                match (why, with_snapshot) {
                    (AckKind::Snapshot, Some(a)) => {
                        *a = Some((acked, total));
                        continue;
                    }
                    _ => Beat::Acknowledged {
                        task,
                        checkpoint,
                        acked,
                        total,
                        why,
                    },
                }
            }
            // The handler reports an unblocking only when some input waited.
            Event::Unblocked { task, to_replay } => Beat::Unblocked { task, to_replay },
            Event::TaskAborted { task, checkpoint } => Beat::TaskAborted { task, checkpoint },
            Event::ChannelState {
                task,
                checkpoint,
                channel,
                record,
            } => Beat::Persisted {
                task,
                input: input_of(channel),
                checkpoint,
                record,
            },
            Event::CheckpointTriggered { checkpoint } => Beat::Triggered { checkpoint },
            Event::CheckpointCompleted {
                checkpoint,
                consistent,
            } => Beat::Completed {
                checkpoint,
                consistent,
            },
            Event::CheckpointAborted { checkpoint, reason } => Beat::Aborted { checkpoint, reason },
            Event::Committed {
                task,
                checkpoint,
                committed,
            } => Beat::Committed {
                task,
                checkpoint,
                committed,
            },
            Event::TriggerDeferred => Beat::TriggerDeferred,
            Event::PartitionEnded { task, channel } => Beat::PartitionEnded {
                task,
                input: input_of(channel),
            },
            Event::TaskFinished { task } => Beat::TaskFinished { task },
            Event::JobFinished { checkpoint } => Beat::JobFinished { checkpoint },
            Event::Backpressured { task, channel } => Beat::Backpressured { task, channel },
            Event::Relieved { task } => Beat::Relieved { task },
            Event::JobFailed {
                failed_checkpoints,
                restore,
            } => Beat::JobFailed {
                failed_checkpoints,
                restore,
            },
            Event::ChannelPaused { channel, paused } => Beat::ChannelPaused { channel, paused },
            Event::LatencyChanged { channel, latency } => Beat::LatencyChanged { channel, latency },
            Event::BufferResized {
                channel,
                capacity,
                throughput,
                target,
            } => Beat::BufferResized {
                channel,
                capacity,
                throughput,
                target,
            },
            Event::FifoChanged { channel, fifo } => Beat::FifoChanged { channel, fifo },
            Event::AlignmentTimedOut { task, checkpoint } => {
                Beat::AlignmentTimedOut { task, checkpoint }
            }
            Event::BarrierOvertook {
                channel,
                checkpoint,
                overtaken,
            } => Beat::BarrierOvertook {
                channel,
                checkpoint,
                overtaken,
            },
            Event::Failed {
                task,
                dropped,
                restart_at,
            } => Beat::Failed {
                task,
                dropped,
                restart_at,
            },
            Event::TransactionAborted { task, aborted } => {
                Beat::TransactionAborted { task, aborted }
            }
            Event::Restored {
                checkpoint,
                reinjected,
                ref duplicates,
            } => Beat::Restored {
                checkpoint,
                reinjected,
                duplicates: duplicates.clone(),
            },
            Event::Rewound { task, from, to } => Beat::Rewound { task, from, to },
        };
        out.push(beat);
    }
    out
}
