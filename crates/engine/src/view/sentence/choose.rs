//! The choice of an event's sentence: the case analysis of the narration. It reads the event
//! (which carries what the engine decided: how the handler took a barrier, whether a snapshot's
//! barriers overtook, whether a channel closes a loop) and the protocol's description (whose
//! words: a marker or a barrier, a snapshot round or a checkpoint), never the mode or the graph.

use super::{Forward, Input, Sentence};
use crate::barrier::{BarrierTake, Description, Initiation};
use crate::record::{ItemKind, Payload};
use crate::trace::{AbortReason, AckKind, Event};

impl Sentence {
    /// The sentence that tells `event` in a run of `protocol`; none for an event that is not
    /// told (an item arriving in a channel's buffer).
    pub fn of(event: &Event, protocol: &Description) -> Option<Sentence> {
        let cl = protocol.initiation == Initiation::AnyProcess;
        let input = |task, channel| Input { task, channel };
        Some(match *event {
            Event::CheckpointTriggered { checkpoint: n, .. } if cl => {
                Sentence::SnapshotBegins { n }
            }
            Event::CheckpointTriggered { checkpoint: n, .. }
                if protocol.initiation == Initiation::StopsTheWorld =>
            {
                Sentence::WorldStops { n }
            }
            Event::CheckpointTriggered {
                checkpoint: n,
                savepoint: true,
            } => Sentence::SavepointTriggered {
                n,
                overtaking: protocol.priority_barriers,
                exactly_once: protocol.blocks_inputs || protocol.persists_in_flight,
            },
            Event::CheckpointTriggered { checkpoint: n, .. } => Sentence::Triggered { n },
            // A stopped world's drain is told with the number of tasks that snapshot (the
            // narration counts them).
            Event::Drained { checkpoint: n } => Sentence::Drained { n, tasks: 0 },
            Event::TriggerDeferred { savepoint } => Sentence::TriggerDeferred { savepoint },
            Event::Sent {
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
            Event::Initiated {
                task,
                checkpoint: n,
            } if cl => Sentence::ProcessInitiates { task, n },
            Event::Initiated {
                task,
                checkpoint: n,
            } => Sentence::Initiated { task, n },
            Event::SourceRead {
                task,
                offset,
                record,
            } => Sentence::SourceRead {
                task,
                offset,
                record,
            },
            Event::SourceEnded { task, finishes_now } => {
                Sentence::SourceEnded { task, finishes_now }
            }
            Event::EndOfData { task, channel } => Sentence::EndOfData {
                at: input(task, channel),
            },
            Event::DataEnded {
                task,
                finishes_now,
                looped,
            } => Sentence::DataEnded {
                task,
                finishes_now,
                looped,
            },
            Event::Snapshot {
                task,
                checkpoint: n,
                offset: Some(offset),
                priority,
                ..
            } => match (cl, priority) {
                (true, _) => Sentence::SourceMarkers { task, n, offset },
                (false, true) => Sentence::SourcePriorityBarrier {
                    task,
                    n,
                    offset,
                    acked: None,
                },
                _ => Sentence::SourceSnapshot {
                    task,
                    n,
                    offset,
                    acked: None,
                },
            },
            Event::Snapshot {
                task,
                checkpoint: n,
                forwarded: 0,
                ..
            } if cl => Sentence::ProcessRecordsAlone { task, n },
            Event::Snapshot {
                task,
                checkpoint: n,
                forwarded,
                ..
            } if cl => Sentence::ProcessRecords {
                task,
                n,
                outputs: forwarded,
            },
            Event::Snapshot {
                task,
                checkpoint: n,
                forwarded,
                priority,
                ..
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
                    acked: None,
                }
            }
            Event::Barrier {
                task,
                channel,
                checkpoint: n,
                take,
                have,
                need,
                unawaited,
                kept_aligned,
                timed_out,
                back_edge,
                savepoint,
                chained,
            } => {
                let at = input(task, channel);
                if chained && crate::chaining::BUILT {
                    return Some(Sentence::ChainedBarrier {
                        n,
                        at,
                        snapshot: cl,
                    });
                }
                let waiting = need.saturating_sub(have);
                if cl {
                    return Some(match take {
                        BarrierTake::Ignored => Sentence::MarkerIgnored { n, at },
                        BarrierTake::First if have < need => {
                            Sentence::MarkerFirst { n, at, waiting }
                        }
                        BarrierTake::First => Sentence::MarkerOnOnlyInput { n, at },
                        _ if have < need => Sentence::MarkerStopsRecording { n, at, have, need },
                        _ => Sentence::MarkerLast { n, at },
                    });
                }
                if take == BarrierTake::Ignored {
                    return Some(Sentence::BarrierIgnored { n, at });
                }
                match (kept_aligned, take) {
                    (Some(by), _) if need < 2 => {
                        return Some(Sentence::KeptAlignedOnlyInput { n, task, by })
                    }
                    (Some(by), BarrierTake::First) if have < need => {
                        return Some(Sentence::KeptAlignedFirst { n, at, waiting, by })
                    }
                    _ if need < 2 => return Some(Sentence::BarrierOnOnlyInput { n, task }),
                    _ => {}
                }
                // The engine's decisions: the protocol's handler, or the aligned one where
                // the task's inputs keep their barriers aligned; an alignment that timed out
                // goes on as an unaligned checkpoint, so the barrier ends a recording.
                // A savepoint is aligned everywhere.
                let blocks =
                    (protocol.blocks_inputs || kept_aligned.is_some() || savepoint) && !timed_out;
                let records = (protocol.persists_in_flight && !savepoint) || timed_out;
                match take {
                    _ if blocks && back_edge => Sentence::LoopBarrierReturned { n, at },
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
            Event::Held {
                task,
                channel,
                item,
                held,
            } => Sentence::Held {
                at: input(task, channel),
                item,
                held,
            },
            Event::Unblocked { task, to_replay: 0 } => Sentence::UnblockedEmpty { task },
            Event::Unblocked { task, to_replay } => Sentence::Unblocked { task, to_replay },
            Event::Replayed {
                task,
                channel,
                item,
                left,
            } => Sentence::Replayed {
                at: input(task, channel),
                item,
                left,
            },
            Event::Processed {
                task,
                channel,
                record,
                emitted,
                early,
            } => {
                let at = input(task, channel);
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
            Event::ChannelState {
                task,
                channel,
                checkpoint: n,
                record,
                back_edge,
            } => {
                let at = input(task, channel);
                if cl {
                    Sentence::MarkerRecorded { at, n, record }
                } else if back_edge {
                    Sentence::LoopLogged { at, n, record }
                } else {
                    Sentence::ChannelStateSaved { at, n, record }
                }
            }
            Event::Arrived {
                task,
                channel,
                item: ItemKind::Cancel(n),
            } => Sentence::CancelArrived {
                n,
                at: input(task, channel),
            },
            Event::Arrived { .. } => return None,
            Event::TaskAborted {
                task,
                checkpoint: n,
            } => Sentence::TaskAborted { task, n },
            Event::Acknowledged {
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
            Event::CheckpointCompleted {
                checkpoint: n,
                finding,
                ..
            } if cl => Sentence::SnapshotCompleted { n, finding },
            Event::CheckpointCompleted {
                checkpoint: n,
                finding,
                savepoint: true,
                ..
            } => Sentence::SavepointCompleted { n, finding },
            Event::CheckpointCompleted {
                checkpoint: n,
                finding,
                ..
            } => Sentence::Completed { n, finding },
            Event::CheckpointAborted {
                checkpoint: n,
                reason,
            } => match reason {
                AbortReason::Failover if cl => Sentence::SnapshotAbandoned { n },
                AbortReason::Failover => Sentence::AbortedFailover { n },
                AbortReason::Subsumed => Sentence::AbortedSubsumed { n },
                AbortReason::Declined { task } => Sentence::AbortedDeclined { n, task },
                AbortReason::Expired => Sentence::AbortedExpired { n },
            },
            Event::Committed {
                task,
                checkpoint: n,
                committed,
            } => Sentence::Committed { task, n, committed },
            Event::PartitionEnded { task, channel } => Sentence::PartitionEnded {
                at: input(task, channel),
            },
            Event::TaskFinished { task, checkpoint } => Sentence::TaskFinished {
                task,
                n: checkpoint,
            },
            Event::JobFinished { checkpoint: n } => Sentence::JobFinished { n },
            Event::SnapshotSkipped { task, checkpoint } => Sentence::SnapshotSkipped {
                task,
                n: checkpoint,
            },
            Event::NeverCommitted { task, records } => Sentence::NeverCommitted { task, records },
            Event::JobFailed {
                failed_checkpoints,
                restore,
            } => Sentence::JobFailed {
                failed: failed_checkpoints,
                restore,
            },
            Event::Backpressured { task, channel } => Sentence::Backpressured { task, channel },
            Event::Relieved { task } => Sentence::Relieved { task },
            Event::ChannelPaused {
                channel,
                paused: true,
            } => Sentence::ChannelPaused { channel },
            Event::ChannelPaused {
                channel,
                paused: false,
            } => Sentence::ChannelResumed { channel },
            Event::LatencyChanged { channel, latency } => {
                Sentence::LatencyChanged { channel, latency }
            }
            Event::BufferResized {
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
            Event::FifoChanged {
                channel,
                fifo: true,
            } => Sentence::FifoOn { channel },
            Event::FifoChanged {
                channel,
                fifo: false,
            } => Sentence::FifoOff { channel },
            Event::AlignmentTimedOut {
                task,
                checkpoint: n,
            } => Sentence::AlignmentTimedOut { task, n },
            Event::BarrierOvertook {
                channel,
                checkpoint: n,
                overtaken,
            } => Sentence::BarrierOvertook {
                channel,
                n,
                overtaken,
            },
            Event::Failed {
                task,
                dropped,
                restart_at,
                ref region,
            } => Sentence::Failed {
                task,
                dropped,
                restart_at,
                buffers: protocol.blocks_inputs,
                region: region.clone(),
            },
            Event::TransactionAborted { task, aborted } => {
                Sentence::TransactionAborted { task, aborted }
            }
            Event::Restored {
                checkpoint: None,
                ref region,
                ..
            } => Sentence::RestartedFresh {
                partial: region.is_some(),
            },
            Event::Restored {
                checkpoint: Some(n),
                reinjected,
                ..
            } if cl => Sentence::ProcessesRestored { n, reinjected },
            Event::Restored {
                checkpoint: Some(n),
                reinjected,
                ref duplicates,
                ref region,
            } => Sentence::Restored {
                n,
                reinjected,
                duplicates: duplicates.clone(),
                partial: region.is_some(),
            },
            Event::Rewound { task, from, to } => Sentence::Rewound { task, from, to },
        })
    }
}
