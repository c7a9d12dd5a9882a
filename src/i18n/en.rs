use super::{Names, Strings};
use crate::engine::coordinator::CheckpointStatus;
use crate::engine::record::ItemKind;
use crate::engine::trace::AbortReason;
use crate::engine::view::{BarrierTake, Beat};
use crate::engine::{ActionError, BarrierMode, OperatorKind};

fn operator_kind(k: &OperatorKind) -> &'static str {
    match k {
        OperatorKind::Source { .. } => "source",
        OperatorKind::Split => "split",
        OperatorKind::Map => "map",
        OperatorKind::Filter { .. } => "filter",
        OperatorKind::Count => "count by key",
        OperatorKind::Union => "union",
        OperatorKind::Sink => "sink",
    }
}

fn mode_name(m: BarrierMode) -> &'static str {
    match m {
        BarrierMode::Aligned => "Aligned (exactly-once)",
        BarrierMode::AtLeastOnce => "At-least-once",
        BarrierMode::Unaligned => "Unaligned",
    }
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

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

fn narrate(b: &Beat, names: &Names) -> String {
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
        Beat::TriggerDeferred => "A checkpoint is due, but the coordinator waits: too many are in progress.".into(),
        Beat::SourceRead { task, offset, record } => format!(
            "{} reads line {} of its log: “{}”.",
            names.task(*task),
            offset,
            names.payload(&ItemKind::Record(*record)).unwrap_or_default()
        ),
        Beat::SourceEnded { task } => format!("{} reached the end of its log.", names.task(*task)),
        Beat::SourceSnapshot { task, checkpoint: n, offset, acked, total } => format!(
            "{} records offset {offset} in checkpoint {n} and injects barrier {n} into its output channels ({acked}/{total} acknowledged).",
            names.task(*task)
        ),
        Beat::Barrier { task, input: i, checkpoint: n, take } => {
            let at = input(*task, *i);
            match *take {
                BarrierTake::First { inputs } => format!(
                    "Barrier {n} arrived first on {at}; that input is now blocked until barrier {n} arrives on the other {}.",
                    plural(inputs - 1, "input", "inputs")
                ),
                BarrierTake::Blocked { have, inputs } => format!(
                    "Barrier {n} arrived on {at}; that input is blocked too ({have} of {inputs} inputs have it)."
                ),
                BarrierTake::Completes { inputs } => match names.0.mode() {
                    BarrierMode::Unaligned if inputs > 1 => format!(
                        "Barrier {n} arrived on {at}; unaligned, the task does not wait for the other inputs."
                    ),
                    _ if inputs > 1 => format!(
                        "Barrier {n} arrived on {at}, the last input it was waiting for: the alignment is complete."
                    ),
                    _ => format!("Barrier {n} arrived at {} on its only input: nothing to align.", names.task(*task)),
                },
                BarrierTake::Counted { have, inputs } => match names.0.mode() {
                    BarrierMode::Unaligned => format!(
                        "Barrier {n} arrived on {at}; records of this input that came before it are all saved now ({have} of {inputs} inputs)."
                    ),
                    _ => format!(
                        "Barrier {n} arrived on {at}; at-least-once does not block, records keep flowing ({have} of {inputs} inputs have it)."
                    ),
                },
                BarrierTake::Ignored => format!(
                    "Barrier {n} arrived on {at} and is ignored: its checkpoint is over or was overtaken."
                ),
            }
        }
        Beat::Held { task, input: i, item: it, held } => format!(
            "{} arrived on blocked input {} of {} and waits in its alignment buffer ({} held).",
            capitalise(&item(names, it)),
            i + 1,
            names.task(*task),
            held
        ),
        Beat::Snapshot { task, checkpoint: n, acked, total } => format!(
            "{} snapshots its state for checkpoint {n}, forwards barrier {n} downstream and acknowledges ({acked}/{total} tasks).",
            names.task(*task)
        ),
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
        Beat::Processed { task, input: i, record, emitted } => {
            let p = names.payload(&ItemKind::Record(*record)).unwrap_or_default();
            if *emitted == 0 {
                format!("{} processes “{p}” from input {}.", names.task(*task), i + 1)
            } else {
                format!(
                    "{} processes “{p}” from input {} and emits {}.",
                    names.task(*task),
                    i + 1,
                    plural(*emitted, "record", "records")
                )
            }
        }
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
        Beat::Acknowledged { task, checkpoint: n, acked, total } => format!(
            "{} has finished and acknowledges checkpoint {n} with its final state ({acked}/{total}).",
            names.task(*task)
        ),
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
        },
        Beat::Committed { task, checkpoint: n, committed } => format!(
            "Checkpoint {n} is complete, so {} commits its output: {committed} records are now final.",
            names.task(*task)
        ),
        Beat::PartitionEnded { task, input: i } => {
            format!("Input {} of {} has ended (end of partition).", i + 1, names.task(*task))
        }
        Beat::TaskFinished { task } => format!("{} has finished.", names.task(*task)),
        Beat::ChannelPaused { channel, paused } => {
            if *paused {
                format!("Channel {} is paused.", names.channel(*channel))
            } else {
                format!("Channel {} flows again.", names.channel(*channel))
            }
        }
        Beat::LatencyChanged { channel, latency } => format!(
            "Channel {} now takes {latency} time units.",
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
    tagline: "Flink's asynchronous barrier snapshots, step by step",
    preset_label: "Scenario",
    mode_label: "Mode",
    lang_label: "Language",
    mode_name,
    preset_text,
    seeing: "What you're seeing:",

    step: "Step",
    step_back: "Back",
    play: "Play",
    pause: "Pause",
    reset: "Reset",
    trigger: "Trigger checkpoint",
    manual: "Manual delivery",
    manual_hint: "Manual delivery: click a channel to deliver its head item; click a subtask to drain its buffer or to read the next line of a source.",
    speed: "Speed",
    step_counter: "Step",
    time: "time",
    timeline: "Timeline",
    timeline_legend: "▲ triggered · ✓ completed · ✕ aborted",
    shortcuts: "Keyboard shortcuts",
    shortcut_list: &[
        ("Space", "play / pause"),
        ("→", "one step"),
        ("←", "one step back"),
        ("B", "trigger a checkpoint now"),
        ("M", "manual delivery on / off"),
        ("?", "show these shortcuts"),
        ("Esc", "close"),
    ],
    close: "Close",

    dataflow: "Dataflow",
    status_running: "running",
    status_aligning: |n| format!("aligning {n}"),
    status_tracking: |n| format!("counting barrier {n}"),
    status_persisting: |n| format!("saving in-flight {n}"),
    status_snapshotting: |n| format!("snapshot {n}"),
    status_replaying: |k| format!("draining buffer ({k})"),
    status_finished: "finished",
    state_offset: |o| format!("offset {o}"),
    state_processed: |n| format!("processed {n}"),
    state_keys: |n| format!("{n} words counted"),
    state_received: |n| format!("received {n}"),
    operator_kind,
    slow: |l| format!("slow · latency {l}"),
    blocked: "blocked",
    more: |n| format!("+{n}"),

    legend: "Legend",
    legend_record: "record",
    legend_barrier: "barrier n (colour per checkpoint)",
    legend_cancel: "cancellation marker",
    legend_eop: "end of partition",
    legend_blocked: "blocked input (①)",
    legend_held: "held in the alignment buffer (②)",
    legend_persisted: "record saved as channel state (unaligned)",
    legend_ticks: "inputs that delivered the barrier",

    coordinator: "Checkpoint coordinator",
    no_checkpoints: "No checkpoint yet. The coordinator triggers one periodically; press “Trigger checkpoint” (B) for one now.",
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
    counts: "Counts",
    recent: "Latest records",

    trigger_time: "Triggered at",
    end_to_end: "End to end duration",
    alignment_duration: "Alignment duration",
    records_held: "Records held",
    state_size: "State size",
    persisted: "Persisted in-flight",
    ack_time: "Acknowledged at",
    start_delay: "Start delay",
    open_global_state: "Global state",
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
    rows_more: |n| format!("… and {n} more"),

    narration: "What happened",
    narration_empty: "Press Step (→) or Play (Space): each event is explained here, one sentence each. Click a sentence to go back to it.",
    narrate,

    bad_param: |param, value, used| {
        format!("The address asks for {param} “{value}”, which does not exist; showing “{used}” instead.")
    },
    refused,
    ended: "Nothing is left to happen in this run.",
    dismiss: "Dismiss",
};
