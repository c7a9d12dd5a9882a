//! The choice of a beat's sentence: the case analysis that reads the mode and the graph
//! (which the events are to carry instead, so that this file can go).

use super::super::narration::Beat;
use super::{Forward, Input, Sentence};
use crate::barrier::BarrierTake;
use crate::physical::Physical;
use crate::record::Payload;
use crate::trace::{AbortReason, AckKind};
use crate::BarrierMode;

impl<'a> Sentence<'a> {
    /// The sentence that tells `beat` in `mode` on this graph.
    pub fn of(beat: &'a Beat, phys: &Physical, mode: BarrierMode) -> Sentence<'a> {
        let protocol = mode.description();
        let cl = mode.processes_initiate();
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
                priority,
            } => match (cl, priority) {
                (true, _) => Sentence::SourceMarkers { task, n, offset },
                (false, true) => Sentence::SourcePriorityBarrier {
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
                kept_aligned,
                timed_out,
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
                match (kept_aligned, take) {
                    (Some(by), _) if need < 2 => {
                        return Sentence::KeptAlignedOnlyInput { n, task, by }
                    }
                    (Some(by), BarrierTake::First) if have < need => {
                        return Sentence::KeptAlignedFirst { n, at, waiting, by }
                    }
                    _ if need < 2 => return Sentence::BarrierOnOnlyInput { n, task },
                    _ => {}
                }
                // The engine's decision: the protocol's handler, or the aligned one where the
                // task's inputs keep their barriers aligned.
                // An alignment that timed out goes on as an unaligned checkpoint: the barrier
                // ends a recording.
                let blocks = (protocol.blocks_inputs || kept_aligned.is_some()) && !timed_out;
                let records = protocol.persists_in_flight || timed_out;
                match take {
                    _ if blocks && phys.input_is_back_edge(task, i) => {
                        Sentence::LoopBarrierReturned { n, at }
                    }
                    _ if blocks && have == need && unawaited > 0 => {
                        Sentence::LastRegularInput { n, at }
                    }
                    BarrierTake::First if blocks && have < need => {
                        Sentence::AlignmentStarts { n, at, waiting }
                    }
                    _ if blocks && have < need => {
                        Sentence::AlignmentBlocksToo { n, at, have, need }
                    }
                    _ if blocks => Sentence::AlignmentComplete { n, at },
                    BarrierTake::First if records => Sentence::UnalignedFirst { n, at, waiting },
                    _ if records && have < need => {
                        Sentence::UnalignedInputSaved { n, at, have, need }
                    }
                    _ if records => Sentence::UnalignedComplete { n, at },
                    // Neither blocks nor records: tracking (no barrier flows in a stopped
                    // world; told as tracking if one did).
                    _ if have < need => Sentence::TrackingFlows { n, at, have, need },
                    _ => Sentence::TrackingComplete { n, at },
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
                priority,
            } => {
                let forward = match (forwarded, priority) {
                    (0, _) => Forward::Nothing,
                    (_, true) => Forward::Priority,
                    (_, false) => Forward::Queued,
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
                buffers: protocol.blocks_inputs,
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
