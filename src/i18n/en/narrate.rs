//! The English narration: one sentence per beat of the run.

use super::plural;
use crate::engine::barrier::BarrierTake;
use crate::engine::record::{ItemKind, Payload};
use crate::engine::trace::AbortReason;
use crate::engine::trace::AckKind;
use crate::engine::view::Beat;
use crate::engine::BarrierMode;
use crate::i18n::Names;

pub(super) fn item(names: &Names, item: &ItemKind) -> String {
    match item {
        ItemKind::Record(_) => format!("“{}”", names.payload(item).unwrap_or_default()),
        ItemKind::Barrier(n) => format!("barrier {n}"),
        ItemKind::Cancel(n) => format!("the cancellation marker of checkpoint {n}"),
        ItemKind::EndOfPartition => "the end of partition".into(),
    }
}

/// " (3/5 acknowledged)" when the acknowledgement went with the snapshot.
pub(super) fn acked_note(acked: Option<(u32, u32)>) -> String {
    match acked {
        Some((a, t)) => format!(" ({a}/{t} acknowledged)"),
        None => String::new(),
    }
}

/// "input" for one other input, "3 inputs" for more.
pub(super) fn others(n: u32) -> String {
    if n == 1 {
        "input".into()
    } else {
        format!("{n} inputs")
    }
}

pub(super) fn narrate(b: &Beat, names: &Names) -> String {
    if names.0.mode() == BarrierMode::ChandyLamport {
        if let Some(text) = narrate_cl(b, names) {
            return text;
        }
    }
    let input = |t, i: u32| {
        format!(
            "input {} of {} (from {})",
            i + 1,
            names.task(t),
            names.upstream(t, i)
        )
    };
    match b {
        Beat::Triggered { checkpoint: n } => format!(
            "The coordinator triggers checkpoint {n}: each source records its offset and injects barrier {n}."
        ),
        Beat::Sent { task, channel, record } => match record.payload {
            Payload::Token => format!(
                "{} passes the token to {}: it is s0 now, and the token is in flight on {}→{}.",
                names.task(*task),
                names.receiver(*channel),
                names.task(*task),
                names.receiver(*channel)
            ),
            _ => format!(
                "{} sends {} to {}.",
                names.task(*task),
                names.payload(&ItemKind::Record(*record)).unwrap_or_default(),
                names.receiver(*channel)
            ),
        },
        Beat::Initiated { task, checkpoint: n } => format!("{} initiates snapshot {n}.", names.task(*task)),
        Beat::TriggerDeferred => "A checkpoint is due, but the coordinator waits: too many are in progress.".into(),
        Beat::SourceRead { task, offset, record } => format!(
            "{} reads line {} of its log: “{}”{}.",
            names.task(*task),
            offset,
            names.payload(&ItemKind::Record(*record)).unwrap_or_default(),
            if record.replay { " — again, after the restore (a replay)" } else { "" }
        ),
        Beat::SourceEnded { task } => format!("{} reached the end of its log.", names.task(*task)),
        Beat::SourceSnapshot { task, checkpoint: n, offset, acked } => {
            let inject = if names.0.mode() == BarrierMode::Unaligned {
                format!("sends barrier {n} as a priority event: it crosses its channels and overtakes whatever is still queued when it arrives")
            } else {
                format!("injects barrier {n} into its output channels")
            };
            format!(
                "{} records offset {offset} in checkpoint {n} and {inject}{}.",
                names.task(*task),
                acked_note(*acked)
            )
        }
        Beat::Barrier { task, input: i, checkpoint: n, take, have, need, unawaited } => {
            let at = input(*task, *i);
            let (have, need) = (*have, *need);
            let waiting = need.saturating_sub(have);
            if *take == BarrierTake::Ignored {
                return format!(
                    "Barrier {n} arrived on {at} and is ignored: its checkpoint is over or was overtaken."
                );
            }
            if need < 2 {
                return format!(
                    "Barrier {n} arrived at {} on its only input: nothing to wait for.",
                    names.task(*task)
                );
            }
            match names.0.mode() {
                BarrierMode::Aligned if names.is_back_edge(*task, *i) => format!(
                    "Barrier {n} came round the loop to {at} (a back-edge): {}'s log of what came round the loop for checkpoint {n} is complete.",
                    names.task(*task)
                ),
                BarrierMode::Aligned if have == need && *unawaited > 0 => format!(
                    "Barrier {n} arrived on {at}, its last regular input: {} does not wait for its back-edge (that barrier would have to come round through itself) — it snapshots and forwards barrier {n} now, and logs what comes round the loop until barrier {n} does (ABS for cycles).",
                    names.task(*task)
                ),
                BarrierMode::Aligned => match take {
                    BarrierTake::First if have < need => format!(
                        "Barrier {n} arrived first on {at}; that input is now blocked until barrier {n} arrives on the other {}.",
                        others(waiting)
                    ),
                    _ if have < need => format!(
                        "Barrier {n} arrived on {at}; that input is blocked too ({have} of {need} inputs have it)."
                    ),
                    _ => format!(
                        "Barrier {n} arrived on {at}, the last input it was waiting for: the alignment is complete."
                    ),
                },
                BarrierMode::Unaligned | BarrierMode::ChandyLamport => match take {
                    BarrierTake::First => format!(
                        "Barrier {n} arrived first on {at}. Unaligned, the task does not wait for the other {}: it snapshots now; any record that arrives there before barrier {n} is saved as channel state.",
                        others(waiting)
                    ),
                    _ if have < need => format!(
                        "Barrier {n} arrived on {at}: every record of this input from before the barrier is now saved ({have} of {need} inputs have it)."
                    ),
                    _ => format!(
                        "Barrier {n} arrived on {at}, the last input: the channel state of checkpoint {n} is complete."
                    ),
                },
                BarrierMode::AtLeastOnce => match take {
                    _ if have < need => format!(
                        "Barrier {n} arrived on {at}. At-least-once does not block: records after it on this input keep flowing and will enter the state before the snapshot ({have} of {need} inputs have it)."
                    ),
                    _ => format!(
                        "Barrier {n} arrived on {at}, the last input: the task snapshots now, without having held anything back."
                    ),
                },
            }
        }
        Beat::Held { task, input: i, item: it, held } => format!(
            "{} arrived on blocked input {} of {} and waits in its alignment buffer ({} held).",
            capitalise(&item(names, it)),
            i + 1,
            names.task(*task),
            held
        ),
        Beat::Snapshot { task, checkpoint: n, forwarded, acked } => {
            let forward = if *forwarded == 0 {
                String::new()
            } else if names.0.mode() == BarrierMode::Unaligned {
                format!(", sends barrier {n} downstream as a priority event (it overtakes whatever is still queued when it arrives)")
            } else if *forwarded > 0 {
                format!(", forwards barrier {n} downstream")
            } else {
                String::new()
            };
            let ack = match acked {
                Some(_) => format!(" and acknowledges{}", acked_note(*acked)),
                None => " — it acknowledges once every input has delivered the barrier and its channel state is complete".into(),
            };
            format!(
                "{} snapshots its state for checkpoint {n}{forward}{ack}.",
                names.task(*task)
            )
        }
        Beat::Unblocked { task, to_replay } => {
            if *to_replay > 0 {
                format!(
                    "{} unblocks its inputs; it first takes the {} out of its buffer, before any new input.",
                    names.task(*task),
                    plural(*to_replay, "held item", "held items")
                )
            } else {
                format!("{} unblocks its inputs; its buffer is empty.", names.task(*task))
            }
        }
        Beat::Replayed { task, input: i, item: it, left } => format!(
            "{} takes {} (input {}) out of its buffer and handles it ({} left).",
            names.task(*task),
            item(names, it),
            i + 1,
            left
        ),
        Beat::Processed { task, input: i, record, .. } if matches!(record.payload, Payload::Token | Payload::Transfer { .. }) => {
            match record.payload {
                Payload::Token => format!(
                    "{} receives the token from {}: it is s1 now.",
                    names.task(*task),
                    names.upstream(*task, *i)
                ),
                _ => format!(
                    "{} receives {} from {}.",
                    names.task(*task),
                    names.payload(&ItemKind::Record(*record)).unwrap_or_default(),
                    names.upstream(*task, *i)
                ),
            }
        }
        Beat::Processed { task, input: i, record, emitted, early } => {
            let p = names.payload(&ItemKind::Record(*record)).unwrap_or_default();
            let what = if *emitted == 0 {
                format!("{} processes “{p}” from input {}", names.task(*task), i + 1)
            } else {
                format!(
                    "{} processes “{p}” from input {} and emits {}",
                    names.task(*task),
                    i + 1,
                    plural(*emitted, "record", "records")
                )
            };
            let what = if record.replay { format!("{what} (a replay)") } else { what };
            match early {
                Some(n) => format!(
                    "{what} — after barrier {n} on that input, so it enters the state before checkpoint {n}'s snapshot: after a recovery it would be replayed and counted twice."
                ),
                None => format!("{what}."),
            }
        }
        Beat::Persisted { task, input: i, checkpoint: n, record } if names.is_back_edge(*task, *i) => format!(
            "“{}” came round the loop to {} before barrier {n} did: it is processed, and also logged — the back-edge log is part of checkpoint {n}.",
            names.payload(&ItemKind::Record(*record)).unwrap_or_default(),
            names.task(*task)
        ),
        Beat::Persisted { task, input: i, checkpoint: n, record } => format!(
            "“{}” was in flight on {} before barrier {n}: it is saved as channel state of checkpoint {n}.",
            names.payload(&ItemKind::Record(*record)).unwrap_or_default(),
            input(*task, *i)
        ),
        Beat::CancelArrived { task, input: i, checkpoint: n } => format!(
            "The cancellation marker of checkpoint {n} arrived on {}.",
            input(*task, *i)
        ),
        Beat::TaskAborted { task, checkpoint: n } => format!(
            "{} gives up checkpoint {n} and sends cancellation markers downstream.",
            names.task(*task)
        ),
        Beat::Acknowledged { task, checkpoint: n, acked, total, why } => match why {
            AckKind::Finished => format!(
                "{} has finished and acknowledges checkpoint {n} with its final state ({acked}/{total}).",
                names.task(*task)
            ),
            AckKind::ChannelState => format!(
                "Every input of {} has delivered barrier {n}: its channel state is complete and it acknowledges checkpoint {n} ({acked}/{total}).",
                names.task(*task)
            ),
            AckKind::Snapshot => format!(
                "{} acknowledges checkpoint {n} ({acked}/{total}).",
                names.task(*task)
            ),
        },
        Beat::Completed { checkpoint: n, consistent } => format!(
            "Checkpoint {n} is complete: every task has acknowledged. {}",
            if *consistent {
                "Its global state is a consistent cut — open it in the inspector."
            } else {
                "Its global state is NOT a consistent cut — open it in the inspector."
            }
        ),
        Beat::Aborted { checkpoint: n, reason } => match reason {
            AbortReason::Subsumed => format!("Checkpoint {n} is aborted: a newer checkpoint completed first."),
            AbortReason::Declined { task } => {
                format!("Checkpoint {n} is aborted: {} gave it up.", names.task(*task))
            }
            AbortReason::Expired => format!("Checkpoint {n} is aborted: it ran past its timeout."),
            AbortReason::Failover => format!("Checkpoint {n} is abandoned: the job failed while it ran."),
        },
        Beat::Committed { task, checkpoint: n, committed } => format!(
            "Checkpoint {n} is complete, so {} commits its output: {committed} records are now final.",
            names.task(*task)
        ),
        Beat::PartitionEnded { task, input: i } => {
            format!("Input {} of {} has ended (end of partition).", i + 1, names.task(*task))
        }
        Beat::JobFinished { checkpoint: n } => format!(
            "Every task has finished and the final checkpoint {n} is complete (transactional sinks committed their last output): the job is finished."
        ),
        Beat::Backpressured { task, channel } => format!(
            "{} is backpressured: its output channel {} is full (no credit left), so it takes no more input until the receiver consumes — the pressure travels upstream.",
            names.task(*task),
            names.channel(*channel)
        ),
        Beat::Relieved { task } => format!(
            "{}'s output has room again: it resumes.",
            names.task(*task)
        ),
        Beat::JobFailed { failed_checkpoints, restore } => format!(
            "{} failed in a row, more than the job tolerates: the job fails and will restart {}.",
            plural(*failed_checkpoints, "checkpoint", "checkpoints"),
            match restore {
                Some(n) => format!("from checkpoint {n}, its latest completed one"),
                None => "from the beginning — no checkpoint has completed yet".into(),
            }
        ),
        Beat::Failed { task, dropped, restart_at } => format!(
            "{} As in Flink, the whole job stops: every task is cancelled, {} {} lost, and checkpoints in progress are abandoned. It restarts at t={restart_at}.",
            match task {
                Some(t) => format!("{} fails!", names.task(*t)),
                None => "The job fails.".into(),
            },
            plural(*dropped, "item", "items"),
            if names.0.mode() == BarrierMode::Aligned {
                "in flight or in alignment buffers are"
            } else {
                "in flight are"
            }
        ),
        Beat::TransactionAborted { task, aborted } => format!(
            "{} aborts its open transaction: the {aborted} records it had received but not committed are thrown away (its received count drops by {aborted}) and never committed — the replay brings them again.",
            names.task(*task)
        ),
        Beat::Restored { checkpoint: None, .. } => "No checkpoint had completed, so every task starts again from the beginning and the sources read their logs from offset 0.".into(),
        Beat::Restored { checkpoint: Some(n), reinjected, duplicates } => {
            let mut s = format!(
                "Recovery: every task restores checkpoint {n} — keyed counts, source offsets and sink transactions as the snapshot recorded them{}. This is the seed's fault tolerance: distributed snapshots plus sources that can replay part of their input.",
                if *reinjected > 0 {
                    format!("; the {} of its channel state go back on their channels, ahead of new input", plural(*reinjected, "in-flight record", "in-flight records"))
                } else {
                    String::new()
                }
            );
            if !duplicates.is_empty() {
                let words: Vec<String> = duplicates
                    .iter()
                    .take(4)
                    .map(|d| format!("“{}” at {}", names.payload(&ItemKind::Record(d.record)).unwrap_or_default(), names.receiver(d.channel)))
                    .collect();
                s += &format!(
                    " But checkpoint {n} was at-least-once: {} already in the restored state entered it after an early barrier, before the snapshot ({}{}) — their senders rewind to before them, so they will be counted twice.",
                    plural(duplicates.len() as u32, "record", "records"),
                    words.join(", "),
                    if duplicates.len() > 4 { ", …" } else { "" }
                );
            }
            s
        }
        Beat::Rewound { task, from, to } => format!(
            "{} rewinds from offset {from} to {to}: it reads {} again (replays, marked ↻).",
            names.task(*task),
            if from.saturating_sub(1) == *to { format!("line {to}") } else { format!("lines {to}–{}", from.saturating_sub(1)) }
        ),
        Beat::TaskFinished { task } => format!("{} has finished.", names.task(*task)),
        Beat::ChannelPaused { channel, paused } => {
            if *paused {
                format!("Channel {} is paused.", names.channel(*channel))
            } else {
                format!("Channel {} flows again.", names.channel(*channel))
            }
        }
        Beat::AlignmentTimedOut { task, checkpoint: n } => format!(
            "Checkpoint {n} was triggered longer ago than the aligned-checkpoint timeout, so {} goes on unaligned for it — it snapshots now, its barrier overtakes the records queued on its outputs, and what its other inputs still send before barrier {n} is saved as channel state. Its blocked inputs open; what they held comes after the snapshot.",
            names.task(*task)
        ),
        Beat::BarrierOvertook { channel, checkpoint: n, overtaken } => format!(
            "Barrier {n} arrives on {} and overtakes the {} still queued ahead of it, sent before it: {} saved as channel state of checkpoint {n}.",
            names.channel(*channel),
            plural(*overtaken as u32, "record", "records"),
            if *overtaken == 1 { "it is" } else { "they are" }
        ),
        Beat::FifoChanged { channel, fifo } => if *fifo {
            format!("Channel {} is FIFO again: items arrive in the order they were sent.", names.channel(*channel))
        } else {
            format!("Channel {} is no longer FIFO: a later item may overtake an earlier one — Chandy-Lamport's snapshots assume FIFO channels.", names.channel(*channel))
        },
        Beat::LatencyChanged { channel, latency } => format!(
            "Channel {} now takes {latency} ms.",
            names.channel(*channel)
        ),
    }
}

pub(super) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

/// Chandy-Lamport's own words: processes, markers and snapshots rather than barriers and
/// checkpoints. `None` where the general sentence is right.
pub(super) fn narrate_cl(b: &Beat, names: &Names) -> Option<String> {
    let from = |t, i: u32| format!("{}→{}", names.upstream(t, i), names.task(t));
    Some(match b {
        Beat::Triggered { checkpoint: n } => format!("Snapshot {n} begins."),
        Beat::Initiated { task, checkpoint: n } => format!(
            "{} initiates snapshot {n}: it records its own state, sends a marker on every output, and from now on records every input until that input's marker arrives.",
            names.task(*task)
        ),
        Beat::Snapshot { task, checkpoint: n, forwarded: 0, .. } => format!(
            "{} records its state for snapshot {n} (it has no outputs to send a marker on).",
            names.task(*task)
        ),
        Beat::Snapshot { task, checkpoint: n, forwarded, .. } => format!(
            "{} records its state for snapshot {n} and sends a marker on {} (the marker rule).",
            names.task(*task),
            if *forwarded == 1 { "its output".to_string() } else { format!("each of its {forwarded} outputs") }
        ),
        Beat::SourceSnapshot { task, checkpoint: n, offset, .. } => format!(
            "{} records offset {offset} for snapshot {n} and sends a marker on each output.",
            names.task(*task)
        ),
        Beat::Barrier { task, input: i, checkpoint: n, take, have, need, .. } => {
            let c = from(*task, *i);
            match take {
                BarrierTake::Ignored => format!("A stray marker of snapshot {n} arrived on {c} and is ignored."),
                BarrierTake::First if have < need => format!(
                    "The first marker of snapshot {n} reached {} on {c}: {} records its state now, records {c} as empty, and starts recording its other {} until {} arrive{}.",
                    names.task(*task), names.task(*task), others(need - have),
                    if need - have == 1 { "its marker" } else { "their markers" },
                    if need - have == 1 { "s" } else { "" }
                ),
                BarrierTake::First => format!(
                    "The marker of snapshot {n} reached {} on its only input {c}: it records its state; that channel is recorded empty.",
                    names.task(*task)
                ),
                _ if have < need => format!(
                    "The marker of snapshot {n} arrived on {c}: {} stops recording that channel ({have} of {need} inputs done).",
                    names.task(*task)
                ),
                _ => format!(
                    "The marker of snapshot {n} arrived on {c}, the last input {} was recording: its part of the snapshot is complete.",
                    names.task(*task)
                ),
            }
        }
        Beat::Persisted { task, input: i, checkpoint: n, record } => format!(
            "{} arrived on {} while it is being recorded: it is part of snapshot {n}'s channel state (it was in flight when the cut was taken).",
            capitalise(&names.payload(&ItemKind::Record(*record)).unwrap_or_default()),
            from(*task, *i)
        ),
        Beat::Acknowledged { task, checkpoint: n, acked, total, why: AckKind::ChannelState } => format!(
            "{} has the marker of snapshot {n} on every input: its state and channel states are recorded ({acked}/{total} processes done).",
            names.task(*task)
        ),
        Beat::Aborted { checkpoint: n, reason: AbortReason::Failover } => {
            format!("Snapshot {n} is abandoned: the job failed while it ran.")
        }
        Beat::Restored { checkpoint: Some(n), reinjected, .. } => format!(
            "Recovery: every process restores its state from snapshot {n}, and the {} it recorded go back on their channels, ahead of new messages. This is the seed's fault tolerance: distributed snapshots plus sources that can replay part of their input.",
            plural(*reinjected, "in-flight message", "in-flight messages")
        ),
        Beat::Completed { checkpoint: n, consistent } => format!(
            "Snapshot {n} is complete: every process recorded its state and every channel its messages. {}",
            if *consistent {
                "It is a consistent global state — open it in the inspector."
            } else {
                "It is NOT a consistent global state — a message crossed the cut the wrong way (channels are not FIFO); open it in the inspector."
            }
        ),
        _ => return None,
    })
}
