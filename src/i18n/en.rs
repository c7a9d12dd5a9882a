use super::{Names, Strings};
use crate::engine::barrier::BarrierTake;
use crate::engine::coordinator::CheckpointStatus;
use crate::engine::record::{ItemKind, Payload};
use crate::engine::trace::AbortReason;
use crate::engine::trace::AckKind;
use crate::engine::view::Beat;
use crate::engine::{ActionError, BarrierMode, OperatorKind};

fn operator_kind(k: &OperatorKind) -> &'static str {
    match k {
        OperatorKind::Source { .. } => "source",
        OperatorKind::Split => "split",
        OperatorKind::Map => "map",
        OperatorKind::Filter { .. } => "filter",
        OperatorKind::Count => "count by key",
        OperatorKind::Union => "union",
        OperatorKind::Sink { .. } => "sink",
        OperatorKind::Token { .. } => "process (token)",
        OperatorKind::Iterate { .. } => "iterate",
        OperatorKind::Account { .. } => "bank account",
    }
}

fn mode_name(m: BarrierMode) -> &'static str {
    match m {
        BarrierMode::Aligned => "Aligned (exactly-once)",
        BarrierMode::AtLeastOnce => "At-least-once",
        BarrierMode::Unaligned => "Unaligned",
        BarrierMode::ChandyLamport => "Chandy-Lamport",
    }
}

/// The lesson of a preset in a mode other than aligned, where the aligned text would be wrong.
fn preset_lesson(name: &str, mode: BarrierMode) -> Option<&'static str> {
    Some(match (name, mode) {
        (_, BarrierMode::Aligned) | ("token" | "bank", _) => return None,
        ("recovery", BarrierMode::AtLeastOnce) => {
            "Count#1 fails after checkpoint 2 has completed, and every task restores it. But \
             at-least-once never blocks: some words entered Count's state after the barrier on one \
             input had arrived, before the snapshot — the restored state already holds them, and the \
             rewound sources send them again. The job ends with those words counted twice; the page \
             points at them, against a run without the failure."
        }
        ("recovery", BarrierMode::Unaligned) => {
            "Count#1 fails; every task restores the latest completed checkpoint, and the in-flight \
             records its barriers overtook (its channel state) go back on their channels ahead of new \
             input. The sources rewind, and the job ends with the counts of a run without the failure."
        }
        ("recovery", BarrierMode::ChandyLamport) => {
            "Count#1 fails; every task restores the latest completed snapshot, whose recorded channel \
             states go back on their channels, and the sources rewind. A Chandy-Lamport snapshot is a \
             consistent cut, so the job ends with the counts of a run without the failure."
        }
        (_, BarrierMode::ChandyLamport) => {
            "Chandy-Lamport on a dataflow: no marker can reach a source, so every source \
             initiates the snapshot. A task records its state at the first marker and then \
             records each other input until that input's marker arrives (ringed records). Like \
             unaligned checkpoints nothing blocks; unlike them, markers wait their turn behind \
             the records on a channel (FIFO) instead of overtaking them."
        }
        ("alignment", BarrierMode::AtLeastOnce) => {
            "At-least-once never blocks: barrier 1 reaches Merge from Src A first, and A's records \
             keep flowing into Merge's state until barrier 1 arrives from the slow Src B; only \
             then does Merge snapshot. Those records are in the snapshot although they came after \
             the barrier — after a recovery they would be counted twice."
        }
        ("alignment", BarrierMode::Unaligned) => {
            "Unaligned: each source's barrier 1 is a priority event. It still takes its channel's \
             latency, but when it arrives it overtakes the records still queued ahead of it — \
             those become channel state (ringed). Merge snapshots as soon as the first barrier 1 \
             arrives (from Src A) and acknowledges once it has come on both inputs; the records \
             reaching Merge on input B before B's barrier are recorded too. Nothing is ever \
             blocked."
        }
        ("wordcount", BarrierMode::AtLeastOnce) => {
            "With parallelism 2, Count has two inputs and barriers reach them at different times. \
             At-least-once does not block, so words that arrive after an early barrier are \
             already counted in the snapshot: the counts can exceed the words of the lines before \
             the offsets. Open a completed checkpoint and compare."
        }
        ("wordcount", BarrierMode::Unaligned) => {
            "Unaligned: a checkpoint's global state is the source offsets, the per-word counts and \
             the words still in flight (channel state); counts plus channel state equal the words \
             of exactly the lines before the offsets."
        }
        ("concurrent", BarrierMode::AtLeastOnce) => {
            "The pipeline takes three checkpoint intervals end to end: barriers 1, 2 and 3 travel \
             at the same time, in order, on the same channels, and each completes on its own. \
             Every task has one input, so at-least-once behaves exactly like aligned here."
        }
        ("concurrent", BarrierMode::Unaligned) => {
            "Flink runs no unaligned checkpoint concurrently with another: this scenario asks \
             for 3 at once, but unaligned only one runs, and the next is triggered as soon as it \
             completes — one every 90 ms instead of three. Each barrier still crosses the \
             pipeline in its latency; nothing blocks."
        }
        ("backpressure", BarrierMode::AtLeastOnce) => {
            "At-least-once under a very slow input: nothing blocks and the fast input keeps \
             flowing, so checkpoints cost no throughput — but records after an early barrier are \
             in the snapshot and would be counted twice after a recovery."
        }
        ("backpressure", BarrierMode::Unaligned) => {
            "Unaligned under a very slow input: Merge snapshots at the first barrier and forwards \
             it at once; each barrier overtakes the records still queued when it arrives, and \
             they become part of the snapshot as channel state (ringed). Nothing blocks; the \
             checkpoint is bigger instead — its checkpointed size includes that in-flight data."
        }
        _ => return None,
    })
}

fn preset_text(name: &str) -> Option<(&'static str, &'static str)> {
    Some(match name {
        "alignment" => (
            "Alignment: two inputs, one slow channel",
            "Barrier 1 reaches Merge from Src A first: input A blocks (①) and its records wait in \
             the buffer (②) until barrier 1 arrives from the slow Src B; then Merge snapshots and \
             forwards the barrier (③) and drains the buffer before new input (④).",
        ),
        "wordcount" => (
            "Word count with parallelism 2",
            "A checkpoint's global state is the source offsets plus the per-word counts; the \
             counts equal the words of exactly the lines before the offsets. Open a completed \
             checkpoint to check it.",
        ),
        "concurrent" => (
            "Concurrent checkpoints",
            "The pipeline takes three checkpoint intervals end to end: barriers 1, 2 and 3 travel \
             at the same time, in order, on the same channels, and each checkpoint completes on \
             its own.",
        ),
        "backpressure" => (
            "Backpressure: aligned vs unaligned",
            "With a very slow input, aligned checkpoints block the fast input for a long time and \
             the buffer grows. Switch the mode: at-least-once never blocks but may count twice; \
             unaligned never blocks and puts the in-flight records into the snapshot.",
        ),
        "recovery" => (
            "Failure and recovery",
            "Count#1 fails after checkpoint 2 has completed. The whole job stops; after the restart \
             delay every task restores checkpoint 2, the sources rewind to the offsets it recorded and \
             read those lines again (↻), and the sink commits only what a completed checkpoint \
             covers. The job ends with exactly the counts of a run without the failure — try \
             at-least-once to see some words counted twice, or fail another task yourself.",
        ),
        "iteration" => (
            "Iteration: ABS for a cyclic graph",
            "Each word goes round Step's feedback loop three times before it leaves. Step cannot \
             wait for the barrier on its feedback edge — it would wait for itself: it snapshots and \
             forwards the barrier once the source delivered it, then logs the records coming round \
             the loop (ringed) until the barrier comes back. The snapshot is the states plus that log. \
             This is the ABS paper's algorithm for cycles, not Flink's: Flink never logged its \
             back-edges (its old iterations could lose records in a loop on failure) and Flink 2.0 \
             removed iterations.",
        ),
        "token" => (
            "Chandy-Lamport: one token, two processes",
            "p and q pass one token back and forth; each is s1 while it holds it, s0 otherwise. \
             A snapshot records each process's state and the messages in flight on each channel. \
             Start snapshots from p and from q at different moments: each of the four global \
             states can be captured — always with exactly one token.",
        ),
        "bank" => (
            "Chandy-Lamport: a bank",
            "Three accounts send each other random transfers. Every snapshot's balances plus the \
             transfers it recorded in flight add up to $300. Make a channel non-FIFO: some \
             snapshots then lose or double money — Chandy-Lamport assumes FIFO channels.",
        ),
        "large" => (
            "Large: 200 subtasks",
            "Nothing to learn here: 200 subtasks and thousands of items, to measure the page.",
        ),
        _ => return None,
    })
}

fn item(names: &Names, item: &ItemKind) -> String {
    match item {
        ItemKind::Record(_) => format!("“{}”", names.payload(item).unwrap_or_default()),
        ItemKind::Barrier(n) => format!("barrier {n}"),
        ItemKind::Cancel(n) => format!("the cancellation marker of checkpoint {n}"),
        ItemKind::EndOfPartition => "the end of partition".into(),
    }
}

/// " (3/5 acknowledged)" when the acknowledgement went with the snapshot.
fn acked_note(acked: Option<(u32, u32)>) -> String {
    match acked {
        Some((a, t)) => format!(" ({a}/{t} acknowledged)"),
        None => String::new(),
    }
}

/// "input" for one other input, "3 inputs" for more.
fn others(n: u32) -> String {
    if n == 1 {
        "input".into()
    } else {
        format!("{n} inputs")
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

fn narrate(b: &Beat, names: &Names) -> String {
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

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}

fn checkpoint_status(s: &CheckpointStatus) -> String {
    match s {
        CheckpointStatus::InProgress => "in progress".into(),
        CheckpointStatus::Completed => "completed".into(),
        CheckpointStatus::Aborted { reason } => match reason {
            AbortReason::Subsumed => "aborted (subsumed)".into(),
            AbortReason::Declined { .. } => "aborted (declined)".into(),
            AbortReason::Expired => "aborted (timed out)".into(),
            AbortReason::Failover => "aborted (the job failed)".into(),
        },
    }
}

fn item_kind(k: &ItemKind) -> String {
    match k {
        ItemKind::Record(r) => format!("record #{}", r.id),
        ItemKind::Barrier(n) => format!("barrier {n}"),
        ItemKind::Cancel(n) => format!("cancellation marker {n}"),
        ItemKind::EndOfPartition => "end of partition".into(),
    }
}

fn refused(e: &ActionError) -> String {
    match e {
        ActionError::CannotTrigger => {
            "No checkpoint can be triggered now: the coordinator allows no more at the same time."
                .into()
        }
        ActionError::TaskReplaying(_) => {
            "That subtask must first drain its alignment buffer (step ④): click the subtask.".into()
        }
        ActionError::ChannelEmpty(_) => "That channel has nothing to deliver.".into(),
        other => format!("Not possible now: {other}."),
    }
}

pub const STRINGS: Strings = Strings {
    app_title: "ABS Playground",
    page_title: "ABS Playground — Flink's asynchronous barrier snapshots, step by step",
    tagline: "Flink's asynchronous barrier snapshots, step by step",
    preset_label: "Scenario",
    mode_label: "Mode",
    lang_label: "Language",
    mode_name,
    preset_text,
    preset_lesson,
    theory_title: "Why it matters",
    theory_loading: "Loading…",
    theory_failed: "This text could not be loaded.",
    theory_retry: "Try again",
    seeing: "What you're seeing:",

    step: "Step",
    step_back: "Back",
    play: "Play",
    pause: "Pause",
    reset: "Reset",
    trigger: "Trigger checkpoint",
    start_snapshot: "Start snapshot",
    start_snapshot_at: |p| format!("Start snapshot at {p}"),
    manual: "Manual delivery",
    manual_hint: "Manual delivery: click a channel to deliver its head item; click a subtask to drain its buffer or to read the next line of a source.",
    speed: "Speed",
    step_counter: "Step",
    time: "Simulated time: at 1× speed one simulated ms takes a quarter of a second",
    timeline: "Timeline",
    shortcuts: "Keyboard shortcuts",
    shortcut_list: &[
        ("Space", "play / pause"),
        ("→", "one step"),
        ("←", "one step back"),
        ("B", "trigger checkpoint now"),
        ("M", "manual delivery on / off"),
        ("X", "fail the selected subtask"),
        ("?", "show these shortcuts"),
        ("Esc", "close"),
    ],
    close: "Close",

    dataflow: "Dataflow",
    pan_hint: "Swipe the graph sideways to see all of it.",
    status_running: "running",
    status_aligning: |n| format!("aligning {n}"),
    status_tracking: |n| format!("tracking {n}"),
    status_persisting: |n| format!("recording {n}"),
    status_snapshotting: |n| format!("snapshot {n}"),
    status_replaying: |k| format!("draining buffer ({k})"),
    status_finished: "finished",
    status_backpressured: "backpressured",
    status_failed: "failed",
    status_cancelled: "cancelled",
    fail_task: "Fail this subtask",
    recovery_planned: |t, at| format!("Planned: {t} fails at t={at}."),
    skip_failure: "Don't fail it",
    recovery_down: |t, at, n| format!(
        "{} The job is down; at t={at} every task {}.",
        match t {
            Some(t) => format!("{t} failed."),
            None => "Too many checkpoints failed.".to_string(),
        },
        match n {
            Some(n) => format!("restores checkpoint {n}"),
            None => "starts from the beginning (no checkpoint has completed)".to_string(),
        }
    ),
    recovery_restored: |n, at| match n {
        Some(n) => format!("Restored checkpoint {n} at t={at}; replayed records are marked ↻."),
        None => format!("Restarted from the beginning at t={at}; replayed records are marked ↻."),
    },
    recovery_rewound: |t, from, to| format!("{t} rewound {from} → {to}"),
    recovery_duplicates: |n| format!("{n} records in the restored state will be counted twice (at-least-once)."),
    final_same: "The job ended with exactly the counts of a run without the failure ✓",
    final_differs: |n| format!("{n} words ended higher than in a run without the failure ✗ — counted twice:"),
    final_word: |w, here, without| format!("{w} {here} (without the failure {without})"),
    counted_twice: "counted twice",
    sink_committed: |c, p| format!("committed {c} · pending {p}"),
    sink_emitted: |n| format!("emitted {n} (a plain sink emits replays again)"),
    legend_replay: "record replayed after a recovery",
    share: "Share",
    share_title: "Share this moment",
    share_link: "Link to this exact moment (step, choices, what is open)",
    share_embed: "Embed it in a course page",
    share_hint: "The link replays the same run to the same step: the engine is deterministic.",
    copy: "Copy",
    open_full: "Open in the full playground ↗",
    broken_link: |why| format!("This link could not be followed ({why}); showing the scenario from its start."),
    link_error: |e| e.to_string(),
    scenario_error: |e| e.to_string(),
    editor_open: "Edit",
    editor_title: "Scenario editor",
    editor_hint: "The running scenario as JSON: the job graph, the coordinator's settings, the seed and planned failures (the fields are described in docs/scenario.md). Apply starts the edited scenario from step 0; until then the current run is kept.",
    editor_apply: "Apply",
    editor_from_preset: "Start from preset",
    editor_download: "Download .json",
    editor_open_file: "Open a file",
    editor_syntax: |line, column, field, message| {
        if field.is_empty() {
            format!("Line {line}, column {column}: {message}")
        } else {
            format!("Line {line}, column {column}, in {field}: {message}")
        }
    },
    editor_invalid: |why| format!("Not applied: {why}"),
    edited_scenario: |title| format!("✎ {title} (edited)"),
    bad_scenario: |why| format!("The scenario could not be loaded ({why}); the current one is kept."),
    export_svg: "SVG",
    export_png: "PNG",
    export_title: "Download the dataflow at this step, for slides:",
    more_checkpoints: |n| format!("{n} more in the Checkpoints tab →"),
    earlier: "Earlier:",
    throughput_title: "Throughput at the sinks",
    throughput_latest: |v, avg, per| format!("latest {v}, average {avg} per {per} ms"),
    throughput_hint: |top| format!("Records reaching the sinks per 50 ms of simulated time, on a scale of 0 to {top} (what the sinks can take, the same in every mode); dashed line: checkpoint triggered, solid: completed."),
    state_offset: |o| format!("offset {o}"),
    state_processed: |n| format!("processed {n}"),
    state_keys: |n| format!("{n} words counted"),
    state_received: |n| format!("received {n}"),
    state_token: |t| if t { "s1 · has the token".into() } else { "s0 · no token".into() },
    state_balance: |b| format!("balance ${b}"),
    operator_kind,
    slow: |l| format!("slow · latency {l} ms"),
    blocked: "blocked",
    more: |n| format!("+{n}"),

    legend: "Legend",
    legend_record: "record",
    legend_barrier: "barrier n (colour per checkpoint)",
    legend_log: "record logged on a back-edge until the barrier comes round (ABS for cycles)",
    mode_aligned_timeout: |t| format!("Aligned, unaligned after {t} ms"),
    timeout_note: |t| format!("With a timeout (Flink's aligned-checkpoint-timeout, here {t} ms): once {t} ms have passed since a checkpoint's trigger (Flink's checkpoint start delay) it goes on unaligned — tasks still aligning snapshot at once, barriers still queued behind records overtake them, a task its barrier reaches later does not align, and what the inputs without the barrier still send becomes channel state (ringed). As in Flink, one checkpoint runs at a time."),
    legend_marker: "Chandy-Lamport marker of snapshot n (diamond)",
    token_states_title: "The four global states",
    fifo: "FIFO",
    snapshots_title: "Snapshots",
    snapshot: |n| format!("Snapshot {n}"),
    global_state_of_snapshot: |n| format!("Global state of snapshot {n}"),
    non_fifo: "not FIFO",
    fifo_on: "on: items arrive in the order they were sent",
    fifo_off: "off: a later item may overtake an earlier one",
    conservation: |what, expected, found| {
        use crate::engine::snapshot::Conserved;
        let (unit, name) = match what {
            Conserved::Tokens => ("", "Tokens"),
            Conserved::Money => ("$", "Money"),
        };
        if expected == found {
            format!("{name}: {unit}{found} in the snapshot, as at the start ✓")
        } else {
            format!("{name}: {unit}{found} in the snapshot, but {unit}{expected} at the start ✗")
        }
    },
    crossing: |kind, what, from, to| {
        use crate::engine::snapshot::CrossingKind;
        match kind {
            CrossingKind::Orphan => format!("{what} on {from}→{to}: sent after {from}'s snapshot, yet received before {to}'s — counted twice."),
            CrossingKind::RecordedAfterCut => format!("{what} on {from}→{to}: sent after {from}'s snapshot, yet recorded in the channel — counted twice."),
            CrossingKind::Lost => format!("{what} on {from}→{to}: sent before {from}'s snapshot, but neither received before {to}'s nor recorded — lost."),
        }
    },
    token_state: |place, p, q| {
        use crate::engine::view::TokenPlace;
        match place {
            TokenPlace::AtP => (format!("token at {p}"), format!("{p}: s1 · {q}: s0")),
            TokenPlace::InPq => (format!("in {p}→{q}"), format!("{p}: s0 · {q}: s0")),
            TokenPlace::AtQ => (format!("token at {q}"), format!("{p}: s0 · {q}: s1")),
            TokenPlace::InQp => (format!("in {q}→{p}"), format!("{p}: s0 · {q}: s0")),
        }
    },
    token_states_caption: |n| match n {
        Some(n) => format!("Lit: where the token is now. Ringed: the state snapshot {n} captured."),
        None => "Lit: where the token is now. A completed snapshot rings the state it captured.".into(),
    },
    legend_recorded: "message recorded as channel state",
    legend_cancel: "cancellation marker",
    legend_eop: "end of partition",
    legend_blocked: "blocked input (①)",
    legend_held: "held in the alignment buffer (②)",
    legend_persisted: "record saved as channel state (unaligned)",
    legend_slips: "record that will slip into the snapshot after an early barrier (at-least-once)",
    legend_ticks: "inputs that delivered the barrier",

    coordinator: "Checkpoint coordinator",
    no_checkpoints: "No checkpoint yet. The coordinator triggers one periodically; press “Trigger checkpoint” (B) for one now.",
    no_snapshots: "No snapshot yet. One starts periodically; press “Start snapshot” (B) for one now.",
    shortcut_snapshot: "start snapshot now",
    checkpoint: |n| format!("Checkpoint {n}"),
    checkpoint_status,
    acked: |a, t| format!("{a}/{t} acknowledged"),

    inspector: "Inspector",
    tab_details: "Details",
    tab_checkpoints: "Checkpoints",
    select_hint: "Click a subtask, a channel or a moving item to see its details here.",
    subtask: "Subtask",
    operator: "Operator",
    status: "Status",
    state: "State",
    inputs: "Inputs",
    input_n: |i| format!("input {}", i + 1),
    held: "held",
    has_barrier: "has the barrier",
    channel: "Channel",
    from: "From",
    to: "To",
    latency: "Latency",
    in_flight: "Items on the channel",
    records_sent: "Records sent",
    records_received: "Records received",
    yes: "yes",
    no: "no",
    item: "Item",
    item_kind,
    payload: "Payload",
    derived_from: "Derived from record",
    sent_at: "Sent at",
    arrives_at: "Arrives at",
    item_gone: "This item has left the channel.",
    recent: "Latest records",

    trigger_time: "Triggered at",
    end_to_end: "End to end duration",
    alignment_duration: "Alignment duration",
    records_held: "Records held",
    state_size: "Checkpointed size",
    persisted: "Persisted in-flight",
    ack_time: "Acknowledged at",
    start_delay: "Start delay",
    global_state_of: |n| format!("Global state of checkpoint {n}"),
    task_states: "Task states",
    channel_states: "Channel states",
    no_channel_state: "—",
    aligned_no_channel_state: "Aligned checkpoints record no channel state: alignment moved everything in flight before the barrier into the task states.",
    not_retained: "Only the most recent completed checkpoints keep their global state.",
    not_completed: "The global state exists once every task has acknowledged.",
    consistent: "✓ Consistent cut: every record a task counted as received was counted as sent by its sender.",
    inconsistent: "✕ Not a consistent cut: some records are counted on one side of the cut only.",
    verdict_counts: |d, l| format!("{d} would be processed twice after a recovery, {l} would be lost."),
    word_check_ok: |n| format!("✓ The word counts equal the words of exactly the lines before the offsets ({n} words)."),
    word_check_bad: |n| format!("✕ {n} word counts differ from the lines before the offsets."),
    persisted_figure: |bytes, records| format!("{bytes} B ({})", plural(records as u32, "record", "records")),
    concurrency_capped: |asked| format!("Flink runs no unaligned checkpoint concurrently with another: the scenario asks for {asked} at once, one runs at a time."),
    verdict_column: "Verdict",
    consistent_short: "consistent",
    inconsistent_short: "inconsistent",
    legend_keyed: "record, coloured by its word (its key): the same word is the same colour everywhere",
    legend_round: "a word on its 2nd time round the loop (↻ is a replay after a recovery)",
    legend_token: "the token",
    legend_money: "a transfer of money",
    word_check_inherited: |n| format!("✕ {n} word counts differ from the lines before the offsets, although the cut is consistent: the state it captured already held words counted twice after an earlier recovery (at-least-once replays)."),
    syntax_words: |m| match crate::i18n::Syntax::of(m) {
        crate::i18n::Syntax::EndInString => "the text ends inside a string: a closing quote \" is missing".into(),
        crate::i18n::Syntax::ControlInString => "a line break stands inside a string (a closing quote \" may be missing)".into(),
        crate::i18n::Syntax::EndEarly => "the text ends too early: a value or a closing } or ] is missing".into(),
        crate::i18n::Syntax::Expected("`,` or `}`") => "a comma or a closing } is missing here (or a quote before it)".into(),
        crate::i18n::Syntax::Expected("`,` or `]`") => "a comma or a closing ] is missing here".into(),
        crate::i18n::Syntax::Expected("`:`") => "a colon : is missing after the field's name".into(),
        crate::i18n::Syntax::Expected("a string key") => "a field name in double quotes belongs here (JSON allows no comma before a closing })".into(),
        crate::i18n::Syntax::Expected("value") => "a value belongs here (a number, \"text\", true, false, null, [ or {)".into(),
        crate::i18n::Syntax::Expected(what) => format!("{what} is expected here"),
        crate::i18n::Syntax::Trailing => "there is more text after the scenario's closing }".into(),
        crate::i18n::Syntax::Escape => "a backslash starts an escape JSON does not know".into(),
        crate::i18n::Syntax::LeadingZero => "a number may not start with 0 (write 17, not 017)".into(),
        crate::i18n::Syntax::TooDeep => "the text nests too deeply".into(),
        crate::i18n::Syntax::Missing(name) => format!("the field “{name}” is required here"),
        crate::i18n::Syntax::Duplicate(name) => format!("the field “{name}” appears twice"),
        crate::i18n::Syntax::UnknownField(name, known) => format!("there is no field “{name}” here; the fields are {known}"),
        crate::i18n::Syntax::UnknownVariant(name, known) => format!("“{name}” is not one of {known}"),
        crate::i18n::Syntax::InvalidType(given, wanted) => format!("{given} is given where {wanted} is expected"),
        crate::i18n::Syntax::OutOfRange(v, max) => format!("{v} is not a whole number from 0 to {max}"),
        crate::i18n::Syntax::NotASetting(name, kind, "") => format!("a {kind} operator has no settings, so no field “{name}”"),
        crate::i18n::Syntax::NotASetting(name, kind, own) => format!("a {kind} operator has no field “{name}”; its fields are {own}"),
        crate::i18n::Syntax::Other(m) => m.to_string(),
    },
    rows_more: |n| format!("… and {n} more"),

    narration: "What happened",
    narration_empty: "Press Step (→) or Play (Space): each event is explained here, one sentence each. Click a sentence to go back to it.",
    narrate,

    bad_param: |param, value, used| {
        format!("The address asks for {param} “{value}”, which does not exist; showing “{used}” instead.")
    },
    host_bad_param: |param, value, used| {
        format!("The page embedding this player asks for {param} “{value}”, which does not exist; showing “{used}” instead.")
    },
    host_load_empty: "The page embedding this player sent abs:load without a preset or a scenario; nothing was loaded.",
    mode_unavailable: |mode, scenario, used| {
        format!("The mode “{mode}” is not available for this scenario (“{scenario}”); showing it in “{used}” instead.")
    },
    step_past_end: |shown, ended| {
        if ended {
            format!("The link's step is past the end of this run, which ends at step {shown}: showing its last step.")
        } else {
            format!("The link's step is further than a link goes (at most {shown} steps): showing step {shown}.")
        }
    },
    ignored_step: |v| format!("The link's step “{v}” is not a step number, so it was ignored: showing step 0."),
    ignored_open: |v, snapshot| {
        let what = if snapshot { "snapshot" } else { "checkpoint" };
        format!("The link opens {what} “{v}”, which has not completed at this step, so nothing is opened.")
    },
    ignored_sel: |v| format!("The link selects “{v}”, which is not in this dataflow, so nothing is selected."),
    ignored_panel: |v| format!("The link's panel “{v}” is not one of the side panel's tabs, so it was ignored."),
    refused,
    ended: "Nothing is left to happen in this run.",
    dismiss: "Dismiss",
};

/// Chandy-Lamport's own words: processes, markers and snapshots rather than barriers and
/// checkpoints. `None` where the general sentence is right.
fn narrate_cl(b: &Beat, names: &Names) -> Option<String> {
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
