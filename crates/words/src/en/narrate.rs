//! The English narration: the words of each sentence.

use super::plural;
use crate::Names;
use abs_engine::physical::TaskId;
use abs_engine::record::{ItemKind, Record};
use abs_engine::snapshot::Finding;
use abs_engine::view::{Forward, Input, Sentence};

pub(super) fn item(names: &Names, item: &ItemKind) -> String {
    match item {
        ItemKind::Record(_) => format!("“{}”", names.payload(item).unwrap_or_default()),
        ItemKind::Barrier(n) => format!("barrier {n}"),
        ItemKind::Cancel(n) => format!("the cancellation marker of checkpoint {n}"),
        ItemKind::EndOfData => "the end of data".into(),
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

/// "input 2 of Merge#0 (from Src B#0)".
fn input(names: &Names, at: Input) -> String {
    format!(
        "input {} of {} (from {})",
        names.input_number(at),
        names.task(at.task),
        names.sender(at)
    )
}

/// Chandy-Lamport's name of an input channel: "P→Q".
fn link(names: &Names, at: Input) -> String {
    format!("{}→{}", names.sender(at), names.task(at.task))
}

fn payload(names: &Names, record: &Record) -> String {
    names
        .payload(&ItemKind::Record(*record))
        .unwrap_or_default()
}

/// The words of a sentence (`Sentence::of` made the choice of it from the event).
pub(super) fn narrate(b: &Sentence, names: &Names) -> String {
    let task = |t: TaskId| names.task(t).to_string();
    match b.clone() {
        Sentence::Triggered { n } => format!(
            "The coordinator triggers checkpoint {n}: each source records its offset and injects barrier {n}."
        ),
        Sentence::SnapshotBegins { n } => format!("Snapshot {n} begins."),
        Sentence::WorldStops { n } => format!(
            "The coordinator triggers checkpoint {n}: it stops every source and waits until every channel is empty."
        ),
        Sentence::Drained { n, tasks } => format!(
            "Every channel is empty: all {tasks} tasks snapshot their state for checkpoint {n} at once — no barrier, no channel state. Then the sources read again."
        ),
        Sentence::TriggerDeferred { savepoint: false } => "A checkpoint was triggered by hand, but as many as may run at once are in progress: the coordinator starts it as soon as one ends.".into(),
        Sentence::TriggerDeferred { savepoint: true } => "A savepoint was asked for, but a checkpoint is in progress and, with unaligned checkpoints on, Flink does not force a savepoint past it: the coordinator starts it as soon as one ends, before any other trigger.".into(),
        Sentence::SavepointTriggered { n, exactly_once: false, .. } => format!(
            "The coordinator triggers savepoint {n}: each source records its offset and injects barrier {n}. At-least-once, a savepoint is taken as any checkpoint is: no input waits for its barriers."
        ),
        Sentence::SavepointTriggered { n, overtaking, .. } => format!(
            "The coordinator triggers savepoint {n}: each source records its offset and injects barrier {n}. A savepoint is always aligned{}: every task waits for barrier {n} on all its inputs before it snapshots, and nothing in flight is stored.",
            if overtaking { ", also in unaligned mode" } else { "" }
        ),
        Sentence::TokenPassed { task: t, channel } => format!(
            "{} passes the token to {}: it is s0 now, and the token is in flight on {}→{}.",
            task(t),
            names.receiver(channel),
            task(t),
            names.receiver(channel)
        ),
        Sentence::Sent { task: t, channel, record } => format!(
            "{} sends {} to {}.",
            task(t),
            payload(names, &record),
            names.receiver(channel)
        ),
        Sentence::Initiated { task: t, n } => format!("{} initiates snapshot {n}.", task(t)),
        Sentence::ProcessInitiates { task: t, n } => format!(
            "{} initiates snapshot {n}: it records its own state, sends a marker on every output, and from now on records every input until that input's marker arrives.",
            task(t)
        ),
        Sentence::SourceRead { task: t, offset, record } => format!(
            "{} reads line {} of its log: “{}”{}.",
            task(t),
            offset,
            payload(names, &record),
            if record.replay { " — again, after the restore (a replay)" } else { "" }
        ),
        Sentence::SourceEnded { task: t, finishes_now: false } => format!(
            "{} has read its whole log: it sends end of data downstream and keeps running — taking barriers like any task — until a checkpoint it takes from now on has completed (its final checkpoint).",
            task(t)
        ),
        Sentence::SourceEnded { task: t, finishes_now: true } => format!(
            "{} has read its whole log: it sends end of data and finishes at once — checkpoints after tasks finish are off, so there is no final checkpoint to wait for.",
            task(t)
        ),
        Sentence::EndOfData { at } => format!(
            "Input {} of {} (from {}) delivered end of data: no more records will come there, but barriers still will.",
            names.input_number(at),
            task(at.task),
            names.sender(at)
        ),
        Sentence::DataEnded { task: t, finishes_now, looped } => format!(
            "{} {} has ended its data{}: its operator finishes and it sends end of data on{}. {}",
            if looped { "Every regular input of" } else { "Every input of" },
            task(t),
            if looped { " and nothing is left going round its loop" } else { "" },
            if looped { ", round the loop to itself too" } else { "" },
            if finishes_now {
                "The task finishes as soon as its inputs close (checkpoints after tasks finish are off)."
            } else {
                "It keeps running until a checkpoint it takes from now on has completed."
            }
        ),
        Sentence::SourceSnapshot { task: t, n, offset, acked } => format!(
            "{} records offset {offset} in checkpoint {n} and injects barrier {n} into its output channels{}.",
            task(t),
            acked_note(acked)
        ),
        Sentence::SourcePriorityBarrier { task: t, n, offset, acked } => format!(
            "{} records offset {offset} in checkpoint {n} and sends barrier {n} as a priority event: it crosses its channels and overtakes whatever is still queued when it arrives{}.",
            task(t),
            acked_note(acked)
        ),
        Sentence::SourceMarkers { task: t, n, offset } => format!(
            "{} records offset {offset} for snapshot {n} and sends a marker on each output.",
            task(t)
        ),
        Sentence::BarrierIgnored { n, at } => format!(
            "Barrier {n} arrived on {} and is ignored: its checkpoint is over or was overtaken.",
            input(names, at)
        ),
        Sentence::BarrierOnOnlyInput { n, task: t } => format!(
            "Barrier {n} arrived at {} on its only input: nothing to wait for.",
            task(t)
        ),
        Sentence::LoopBarrierReturned { n, at } => format!(
            "Barrier {n} came round the loop to {} (a back-edge): {}'s log of what came round the loop for checkpoint {n} is complete.",
            input(names, at),
            task(at.task)
        ),
        Sentence::LastRegularInput { n, at } => format!(
            "Barrier {n} arrived on {}, its last regular input: {} does not wait for its back-edge (that barrier would have to come round through itself) — it snapshots and forwards barrier {n} now, and logs what comes round the loop until barrier {n} does (ABS for cycles).",
            input(names, at),
            task(at.task)
        ),
        Sentence::AlignmentStarts { n, at, waiting } => format!(
            "Barrier {n} arrived first on {}; that input is now blocked until barrier {n} arrives on the other {}.",
            input(names, at),
            others(waiting)
        ),
        Sentence::KeptAlignedFirst { n, at, waiting, by } => format!(
            "Barrier {n} arrived first on {}. {} takes it aligned: one of its inputs is a {} edge, over which Flink sends barriers only in line with the records (never unaligned, never timed out), and a task with such an input aligns all of them. That input is now blocked until barrier {n} arrives on the other {}.",
            input(names, at),
            task(at.task),
            by.as_str(),
            others(waiting)
        ),
        Sentence::ChainedBarrier { n, at, snapshot } => format!(
            "{} is chained to {}: one task, one thread, so it takes {} {n} in the same call. No channel joins them, so no barrier crosses between them and nothing waits.",
            task(at.task),
            names.sender(at),
            if snapshot { "snapshot" } else { "checkpoint" }
        ),
        Sentence::KeptAlignedOnlyInput { n, task: t, by } => format!(
            "Barrier {n} arrived at {} on its only input, in line behind every record sent before it: Flink sends no unaligned barrier over a {} edge, so nothing here becomes channel state.",
            task(t),
            by.as_str()
        ),
        Sentence::AlignmentBlocksToo { n, at, have, need } => format!(
            "Barrier {n} arrived on {}; that input is blocked too ({have} of {need} inputs have it).",
            input(names, at)
        ),
        Sentence::AlignmentComplete { n, at } => format!(
            "Barrier {n} arrived on {}, the last input it was waiting for: the alignment is complete.",
            input(names, at)
        ),
        Sentence::UnalignedFirst { n, at, waiting } => format!(
            "Barrier {n} arrived first on {}. Unaligned, the task does not wait for the other {}: it snapshots now; any record that arrives there before barrier {n} is saved as channel state.",
            input(names, at),
            others(waiting)
        ),
        Sentence::UnalignedInputSaved { n, at, have, need } => format!(
            "Barrier {n} arrived on {}: every record of this input from before the barrier is now saved ({have} of {need} inputs have it).",
            input(names, at)
        ),
        Sentence::UnalignedComplete { n, at } => format!(
            "Barrier {n} arrived on {}, the last input: the channel state of checkpoint {n} is complete.",
            input(names, at)
        ),
        Sentence::TrackingFlows { n, at, have, need } => format!(
            "Barrier {n} arrived on {}. At-least-once does not block: records after it on this input keep flowing and will enter the state before the snapshot ({have} of {need} inputs have it).",
            input(names, at)
        ),
        Sentence::TrackingComplete { n, at } => format!(
            "Barrier {n} arrived on {}, the last input: the task snapshots now, without having held anything back.",
            input(names, at)
        ),
        Sentence::MarkerIgnored { n, at } => format!(
            "A stray marker of snapshot {n} arrived on {} and is ignored.",
            link(names, at)
        ),
        Sentence::MarkerFirst { n, at, waiting } => {
            let c = link(names, at);
            format!(
                "The first marker of snapshot {n} reached {} on {c}: {} records its state now, records {c} as empty, and starts recording its other {} until {} arrive{}.",
                task(at.task),
                task(at.task),
                others(waiting),
                if waiting == 1 { "its marker" } else { "their markers" },
                if waiting == 1 { "s" } else { "" }
            )
        }
        Sentence::MarkerOnOnlyInput { n, at } => format!(
            "The marker of snapshot {n} reached {} on its only input {}: it records its state; that channel is recorded empty.",
            task(at.task),
            link(names, at)
        ),
        Sentence::MarkerStopsRecording { n, at, have, need } => format!(
            "The marker of snapshot {n} arrived on {}: {} stops recording that channel ({have} of {need} inputs done).",
            link(names, at),
            task(at.task)
        ),
        Sentence::MarkerLast { n, at } => format!(
            "The marker of snapshot {n} arrived on {}, the last input {} was recording: its part of the snapshot is complete.",
            link(names, at),
            task(at.task)
        ),
        Sentence::Held { at, item: it, held } => format!(
            "{} arrived on blocked input {} of {} and waits in its alignment buffer ({} held).",
            capitalise(&item(names, &it)),
            names.input_number(at),
            task(at.task),
            held
        ),
        Sentence::Snapshot { task: t, n, forward, acked } => {
            let forward = match forward {
                Forward::Nothing => String::new(),
                Forward::Priority => format!(", sends barrier {n} downstream as a priority event (it overtakes whatever is still queued when it arrives)"),
                Forward::Queued => format!(", forwards barrier {n} downstream"),
            };
            let ack = match acked {
                Some(_) => format!(" and acknowledges{}", acked_note(acked)),
                None => " — it acknowledges once every input has delivered the barrier and its channel state is complete".into(),
            };
            format!("{} snapshots its state for checkpoint {n}{forward}{ack}.", task(t))
        }
        Sentence::ProcessRecordsAlone { task: t, n } => format!(
            "{} records its state for snapshot {n} (it has no outputs to send a marker on).",
            task(t)
        ),
        Sentence::ProcessRecords { task: t, n, outputs } => format!(
            "{} records its state for snapshot {n} and sends a marker on {} (the marker rule).",
            task(t),
            if outputs == 1 { "its output".to_string() } else { format!("each of its {outputs} outputs") }
        ),
        Sentence::Unblocked { task: t, to_replay } => format!(
            "{} unblocks its inputs; it first takes the {} out of its buffer, before any new input.",
            task(t),
            plural(to_replay, "held item", "held items")
        ),
        Sentence::UnblockedEmpty { task: t } => format!("{} unblocks its inputs; its buffer is empty.", task(t)),
        Sentence::Replayed { at, item: it, left } => format!(
            "{} takes {} (input {}) out of its buffer and handles it ({} left).",
            task(at.task),
            item(names, &it),
            names.input_number(at),
            left
        ),
        Sentence::TokenReceived { at } => format!(
            "{} receives the token from {}: it is s1 now.",
            task(at.task),
            names.sender(at)
        ),
        Sentence::Received { at, record } => format!(
            "{} receives {} from {}.",
            task(at.task),
            payload(names, &record),
            names.sender(at)
        ),
        Sentence::Processed { at, record, emitted } => format!("{}.", processed(names, at, &record, emitted)),
        Sentence::ProcessedEarly { at, record, emitted, n } => format!(
            "{} — after barrier {n} on that input, so it enters the state before checkpoint {n}'s snapshot: after a recovery it would be replayed and counted twice.",
            processed(names, at, &record, emitted)
        ),
        Sentence::LoopLogged { at, n, record } => format!(
            "“{}” came round the loop to {} before barrier {n} did: it is processed, and also logged — the back-edge log is part of checkpoint {n}.",
            payload(names, &record),
            task(at.task)
        ),
        Sentence::ChannelStateSaved { at, n, record } => format!(
            "“{}” was in flight on {} before barrier {n}: it is saved as channel state of checkpoint {n}.",
            payload(names, &record),
            input(names, at)
        ),
        Sentence::MarkerRecorded { at, n, record } => format!(
            "{} arrived on {} while it is being recorded: it is part of snapshot {n}'s channel state (it was in flight when the cut was taken).",
            item(names, &ItemKind::Record(record)),
            link(names, at)
        ),
        Sentence::CancelArrived { n, at } => format!(
            "The cancellation marker of checkpoint {n} arrived on {}.",
            input(names, at)
        ),
        Sentence::TaskAborted { task: t, n } => format!(
            "{} gives up checkpoint {n} and sends cancellation markers downstream.",
            task(t)
        ),
        Sentence::AckFinished { task: t, n, acked: (a, total) } => format!(
            "{} has finished and acknowledges checkpoint {n} with its final state ({a}/{total}).",
            task(t)
        ),
        Sentence::AckChannelState { task: t, n, acked: (a, total) } => format!(
            "Every input of {} has delivered barrier {n}: its channel state is complete and it acknowledges checkpoint {n} ({a}/{total}).",
            task(t)
        ),
        Sentence::AckSnapshot { task: t, n, acked: (a, total) } => {
            format!("{} acknowledges checkpoint {n} ({a}/{total}).", task(t))
        }
        Sentence::ProcessDone { task: t, n, acked: (a, total) } => format!(
            "{} has the marker of snapshot {n} on every input: its state and channel states are recorded ({a}/{total} processes done).",
            task(t)
        ),
        Sentence::Completed { n, finding } => format!(
            "Checkpoint {n} is complete: every task has acknowledged. Its global state is {} — open it in the inspector.",
            match finding {
                Finding::Consistent => "a consistent cut",
                Finding::CarriesDuplicates => "a consistent cut whose counts carry the duplicates of an earlier replay (at-least-once)",
                Finding::Inconsistent { .. } => "NOT a consistent cut",
            }
        ),
        Sentence::SavepointCompleted { n, finding } => format!(
            "Savepoint {n} is complete: every task has acknowledged. Its global state is {} — open it in the inspector. It is kept apart from the checkpoints: no failover restores it (a new job is started from it by hand), no sink commits on it, and later checkpoints do not replace it.",
            match finding {
                Finding::Consistent => "a consistent cut",
                Finding::CarriesDuplicates => "a consistent cut whose counts carry the duplicates of an earlier replay (at-least-once)",
                Finding::Inconsistent { .. } => "NOT a consistent cut",
            }
        ),
        Sentence::SnapshotCompleted { n, finding } => format!(
            "Snapshot {n} is complete: every process recorded its state and every channel its messages. It is {}; open it in the inspector.",
            match finding {
                Finding::Consistent => "a consistent global state",
                Finding::CarriesDuplicates => "a consistent cut whose counts carry the duplicates of an earlier replay",
                Finding::Inconsistent { duplicated: 0, .. } => "NOT a consistent global state — a message sent before the cut arrived after the marker that followed it (channels are not FIFO), so nothing recorded it: it is lost",
                Finding::Inconsistent { lost: 0, .. } => "NOT a consistent global state — a message sent after the cut arrived before the marker ahead of it (channels are not FIFO): it is received inside the cut but sent outside it",
                Finding::Inconsistent { .. } => "NOT a consistent global state — messages overtook markers (channels are not FIFO): some are lost, some received inside the cut but sent outside it",
            }
        ),
        Sentence::AbortedSubsumed { n } => format!("Checkpoint {n} is aborted: a newer checkpoint completed first."),
        Sentence::AbortedDeclined { n, task: t } => format!("Checkpoint {n} is aborted: {} gave it up.", task(t)),
        Sentence::AbortedExpired { n } => format!("Checkpoint {n} is aborted: it ran past its timeout."),
        Sentence::AbortedFailover { n } => format!("Checkpoint {n} is abandoned: the job failed while it ran."),
        Sentence::SnapshotAbandoned { n } => format!("Snapshot {n} is abandoned: the job failed while it ran."),
        Sentence::Committed { task: t, n, committed } => format!(
            "Checkpoint {n} is complete, so {} commits its output: {committed} records are now final.",
            task(t)
        ),
        Sentence::PartitionEnded { at } => {
            format!("Input {} of {} has ended (end of partition).", names.input_number(at), task(at.task))
        }
        Sentence::JobFinished { n: Some(n) } => format!(
            "The last task has finished: the job is finished. Its final checkpoint was checkpoint {n}, the last one a task waited for."
        ),
        Sentence::JobFinished { n: None } => "The last task has finished: the job is finished, with no final checkpoint (checkpoints after tasks finish are off).".into(),
        Sentence::NeverCommitted { task: t, records } => format!(
            "{} finishes holding {records} records received since its last committed checkpoint: with no final checkpoint they are never committed — the exactly-once output loses them.",
            task(t)
        ),
        Sentence::Backpressured { task: t, channel } => format!(
            "{} is backpressured: its output channel {} is full (no credit left), so it takes no more input until the receiver consumes — the pressure travels upstream.",
            task(t),
            names.channel(channel)
        ),
        Sentence::Relieved { task: t } => format!("{}'s output has room again: it resumes.", task(t)),
        Sentence::JobFailed { failed, restore } => format!(
            "{} failed in a row, more than the job tolerates: the job fails and will restart {}.",
            plural(failed, "checkpoint", "checkpoints"),
            match restore {
                Some(n) => format!("from checkpoint {n}, its latest completed one"),
                None => "from the beginning — no checkpoint has completed yet".into(),
            }
        ),
        Sentence::Failed { task: t, dropped, restart_at, buffers, region } => format!(
            "{} {}, {} {} lost, and checkpoints in progress are abandoned. {} at t={restart_at}.",
            match t {
                Some(t) => format!("{} fails!", task(t)),
                None => "The job fails.".into(),
            },
            match (&region, t) {
                (Some(r), _) => format!(
                    "As in Flink, only its region stops — {}, the subtasks joined to it by channels — while the rest of the job runs on: they are cancelled",
                    r.iter().map(|&u| task(u)).collect::<Vec<_>>().join(", ")
                ),
                (None, Some(_)) => "As in Flink, its region stops — here the whole job, since its channels connect all its subtasks: every task is cancelled".into(),
                (None, None) => "As in Flink, the whole job stops: every task is cancelled".into(),
            },
            plural(dropped, "item", "items"),
            if buffers { "in flight or in alignment buffers are" } else { "in flight are" },
            if region.is_some() { "The region restarts" } else { "It restarts" }
        ),
        Sentence::TransactionAborted { task: t, aborted } => format!(
            "{} aborts its open transaction: the {aborted} records it had received but not committed are thrown away (its received count drops by {aborted}) and never committed — the replay brings them again.",
            task(t)
        ),
        Sentence::RestartedFresh { partial } => format!(
            "No checkpoint had completed, so {} starts again from the beginning and the sources read their logs from offset 0.",
            if partial { "every task of the region" } else { "every task" }
        ),
        Sentence::Restored { n, reinjected, duplicates, partial } => {
            let mut s = format!(
                "Recovery: {} checkpoint {n} — keyed counts, source offsets and sink transactions as the snapshot recorded them{}. This is fault tolerance as the ABS paper builds it: distributed snapshots plus sources that can replay part of their input.",
                if partial { "every task of the region restores its part of" } else { "every task restores" },
                if reinjected > 0 {
                    format!("; the {} of its channel state go back on their channels, ahead of new input", plural(reinjected, "in-flight record", "in-flight records"))
                } else {
                    String::new()
                }
            );
            if !duplicates.is_empty() {
                let words: Vec<String> = duplicates
                    .iter()
                    .take(4)
                    .map(|d| format!("“{}” at {}", payload(names, &d.record), names.receiver(d.channel)))
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
        Sentence::ProcessesRestored { n, reinjected } => format!(
            "Recovery: every process restores its state from snapshot {n}, and the {} it recorded go back on their channels, ahead of new messages. This is fault tolerance by distributed snapshots: the processes' states and the messages in flight across the cut are all it takes to go on.",
            plural(reinjected, "in-flight message", "in-flight messages")
        ),
        Sentence::Rewound { task: t, from, to } => format!(
            "{} rewinds from offset {from} to {to}: it reads {} again (replays, marked ↻).",
            task(t),
            if from.saturating_sub(1) == to { format!("line {to}") } else { format!("lines {to}–{}", from.saturating_sub(1)) }
        ),
        Sentence::TaskFinished { task: t, n: Some(n) } => format!(
            "{0}'s final checkpoint {n} has completed and nothing more can reach {0}: it sends end of partition and finishes.",
            task(t)
        ),
        Sentence::SnapshotSkipped { task: t, n } => format!(
            "Checkpoint {n} was aborted before {0} got to it, and the coordinator told every task: {0} does not snapshot, and sends a cancellation marker on in place of barrier {n}.",
            task(t)
        ),
        Sentence::TaskFinished { task: t, n: None } => {
            format!("{} sends end of partition and finishes.", task(t))
        }
        Sentence::ChannelPaused { channel } => format!("Channel {} is paused.", names.channel(channel)),
        Sentence::ChannelResumed { channel } => format!("Channel {} flows again.", names.channel(channel)),
        Sentence::AlignmentTimedOut { task: t, n } => format!(
            "Checkpoint {n} was triggered longer ago than the aligned-checkpoint timeout, so {} goes on unaligned for it — it snapshots now, and what its other inputs still send before barrier {n} is saved as channel state. Its blocked inputs open; what they held comes after the snapshot.",
            task(t)
        ),
        Sentence::BarrierOvertook { channel, n, overtaken } => format!(
            "Barrier {n} arrives on {} and overtakes the {} still queued ahead of it, sent before it: {} saved as channel state of checkpoint {n}.",
            names.channel(channel),
            plural(overtaken as u32, "record", "records"),
            if overtaken == 1 { "it is" } else { "they are" }
        ),
        Sentence::FifoOn { channel } => {
            format!("Channel {} is FIFO again: items arrive in the order they were sent.", names.channel(channel))
        }
        Sentence::FifoOff { channel } => format!(
            "Channel {} is no longer FIFO: a later item may overtake an earlier one — Chandy-Lamport's snapshots assume FIFO channels.",
            names.channel(channel)
        ),
        Sentence::LatencyChanged { channel, latency } => format!(
            "Channel {} now takes {latency} ms.",
            names.channel(channel)
        ),
        Sentence::BufferResized {
            channel,
            capacity,
            rate,
            target,
        } => format!(
            "Buffer debloating: {} consumes {} records/ms, so channel {} now holds at most {capacity} — what is on its wire plus its share of {target} ms of input.",
            names.receiver(channel),
            crate::per_tick(rate),
            names.channel(channel)
        ),
    }
}

/// "Count#0 processes “b” from input 1 and emits 2 records (a replay)", without the end.
fn processed(names: &Names, at: Input, record: &Record, emitted: u32) -> String {
    let p = payload(names, record);
    let what = if emitted == 0 {
        format!(
            "{} processes “{p}” from input {}",
            names.task(at.task),
            names.input_number(at)
        )
    } else {
        format!(
            "{} processes “{p}” from input {} and emits {}",
            names.task(at.task),
            names.input_number(at),
            plural(emitted, "record", "records")
        )
    };
    if record.replay {
        format!("{what} (a replay)")
    } else {
        what
    }
}

pub(super) fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
        None => String::new(),
    }
}
