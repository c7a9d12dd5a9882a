//! The English strings: every text of the page, and the narration (`narrate.rs`).

use super::Strings;
use abs_engine::coordinator::CheckpointStatus;
use abs_engine::record::ItemKind;
use abs_engine::trace::AbortReason;
use abs_engine::{ActionError, BarrierMode, OperatorKind};
use narrate::narrate;

mod narrate;

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
        BarrierMode::Synchronous => "Stop-the-world (synchronous)",
    }
}

fn plural(n: u32, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
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
        ItemKind::EndOfData => "end of data".into(),
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
    preset_text: abs_scenario::presets::text_en::preset_text,
    theory_title: "Why it matters",
    spacetime_title: "Space-time diagram",
    spacetime_hint: "A line per subtask, time left to right, the newest steps. A dot is a snapshot; \
        the line through one checkpoint's dots is its cut. A thick stretch along a line is a record \
        waiting in that subtask's alignment buffer until it is processed, which is what a cut counts. \
        A ringed record was in flight across a cut (channel state), a filled red one crossed it the wrong way, a red ring was in flight \
        but not recorded: the snapshot lost it.",
    cut_place: "Place your own cut",
    cut_own: "Show the snapshots' cuts",
    explore_open: "Explore all runs ↗",
    compare_open: "Modes side by side ↗",
    cut_keys: "Click or drag on a line to move its point. Keys: ↑ ↓ a line, ← → its point.",
    cut_consistent: |n| format!("Consistent: nothing received inside your cut was sent outside it. \
        In flight across it (ringed, its channel state): {n}."),
    cut_inconsistent: |n| format!("Not consistent: {n} orphan(s) (red), received inside your cut \
        but sent outside it."),
    cut_orphan: |id, from, to| format!("#{id}: {to} receives it inside your cut, {from} sends it outside."),
    theory_loading: "Loading…",
    theory_failed: "This text could not be loaded.",
    theory_before: |snapshot| {
        format!(
            "What follows is what the run shows once its first {} is under way: press Play or Step to get there.",
            if snapshot { "snapshot" } else { "checkpoint" }
        )
    },
    theory_retry: "Try again",
    seeing: "What you're seeing:",

    step: "Step",
    next_key: "Key event",
    step_back: "Back",
    play: "Play",
    pause: "Pause",
    reset: "Reset",
    trigger: "Trigger checkpoint",
    savepoint: "Savepoint",
    savepoint_hint: "A savepoint is aligned in every mode, no later checkpoint replaces it, no failover restores it and no sink commits on it",
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
        ("N", "next key event: ①–④, checkpoint done, failure"),
        ("←", "one step back"),
        ("B", "trigger checkpoint now"),
        ("M", "manual delivery on / off"),
        ("X", "fail the selected subtask"),
        ("P", "projector: larger text"),
        ("T", "light / dark, whatever the system"),
        ("?", "show these shortcuts"),
        ("Esc", "close"),
    ],
    close: "Close",

    dataflow: "Dataflow",
    pan_hint: "Scroll or swipe the graph to see all of it.",
    status_running: "running",
    status_aligning: |n| format!("aligning {n}"),
    status_tracking: |n| format!("tracking {n}"),
    status_persisting: |n| format!("recording {n}"),
    status_snapshotting: |n| format!("snapshot {n}"),
    status_replaying: |k| format!("draining buffer ({k})"),
    status_ending: "data ended",
    status_finished: "finished",
    status_backpressured: "backpressured",
    status_stopped: |n| format!("stopped for {n}"),
    status_failed: "failed",
    status_cancelled: "cancelled",
    fail_task: "Fail this subtask",
    recovery_planned: |t, at| format!("Planned: {t} fails at t={at}."),
    skip_failure: "Don't fail it",
    recovery_down: |t, at, n, partial| format!(
        "{} {}; at t={at} {} {}.",
        match t {
            Some(t) => format!("{t} failed."),
            None => "Too many checkpoints failed.".to_string(),
        },
        if partial {
            "Its region is down (greyed out), the rest runs on"
        } else {
            "The job is down"
        },
        if partial { "each task of the region" } else { "every task" },
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
    share_step: "As a step of a lesson file (add its text and question)",
    share_embed: "Embed it in a course page",
    share_hint: "The link replays the same run to the same step: the engine is deterministic.",
    copy: "Copy",
    open_full: "Open in the full playground ↗",
    broken_link: |why| format!("This link could not be followed ({why}); showing the scenario from its start."),
    link_error: |e| e.to_string(),
    scenario_error: |e| e.to_string(),
    lessons_open: "Guided lessons",
    editor_open: "Edit",
    edited_scenario: |title| format!("✎ {title} (edited)"),
    bad_scenario: |why| format!("The scenario could not be loaded ({why}); the current one is kept."),
    export_rows: [
        "Download the dataflow at this step, for slides:",
        "The space-time diagram alone:",
        "As data, with the fields abs-sim prints:",
    ],
    export_failed: "The file could not be made: ",
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
    buffer_size: |n| format!("buffer {n}"),
    blocked: "blocked",
    more: |n| format!("+{n}"),

    legend: "Legend",
    legend_record: "record",
    legend_barrier: "barrier n (colour per checkpoint)",
    legend_log: "record logged on a back-edge until the barrier comes round (ABS for cycles)",
    mode_aligned_timeout: |t| format!("Aligned, unaligned after {t} ms"),
    mode_aligned_debloat: "Aligned, buffer debloating",
    timeout_note: |t| format!("With a timeout (Flink's aligned-checkpoint-timeout, here {t} ms): once {t} ms have passed since a checkpoint's trigger (Flink's checkpoint start delay) it goes on unaligned — tasks still aligning snapshot at once, barriers still queued behind records overtake them, a task its barrier reaches later does not align, and what the inputs without the barrier still send becomes channel state (ringed). As in Flink, one checkpoint runs at a time."),
    legend_marker: "Chandy-Lamport marker of snapshot n (diamond)",
    token_states_title: "The four global states",
    fifo: "FIFO",
    snapshots_title: "Snapshots",
    snapshot: |n| format!("Snapshot {n}"),
    global_state_of_snapshot: |n| format!("Global state of snapshot {n}"),
    non_fifo: "not FIFO",
    kept_aligned: |p| format!("{p} · aligned"),
    barriers: "Barriers",
    barriers_kept: |p| format!(
        "aligned: the receiver has a {p} input, over which Flink sends no unaligned barrier, \
         so it aligns all its inputs and never times out"
    ),
    barriers_priority: "unaligned: they overtake the records queued ahead of them, which become channel state",
    barriers_timeout: "aligned; unaligned once the checkpoint's alignment times out",
    fifo_on: "on: items arrive in the order they were sent",
    fifo_off: "off: a later item may overtake an earlier one",
    conservation: |what, expected, found| {
        use abs_engine::snapshot::Conserved;
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
        use abs_engine::snapshot::CrossingKind;
        match kind {
            CrossingKind::Orphan => format!("{what} on {from}→{to}: sent after {from}'s snapshot, yet received before {to}'s — counted twice."),
            CrossingKind::RecordedAfterCut => format!("{what} on {from}→{to}: sent after {from}'s snapshot, yet recorded in the channel — counted twice."),
            CrossingKind::Lost => format!("{what} on {from}→{to}: sent before {from}'s snapshot, but neither received before {to}'s nor recorded — lost."),
        }
    },
    token_state: |place, p, q| {
        use abs_engine::view::TokenPlace;
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
    legend_eod: "end of data (only barriers follow)",
    legend_eop: "end of partition",
    legend_kept_aligned: "forward, rescale or broadcast edge: barriers stay aligned and its task aligns, as in Flink",
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
    process: "Process",
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
    subtask_stats: "Subtask statistics, as Flink reports them",
    async_duration: "Async",
    persisted_data: "Persisted data",
    processed_data: "Processed data",
    unaligned_checkpoint: "Unaligned",
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
    verdict_column: "Verdict",
    consistent_short: "consistent",
    inconsistent_short: "inconsistent",
    legend_keyed: "record, coloured by its word (its key): the same word is the same colour everywhere",
    legend_round: "a word on its 2nd time round the loop (↻ is a replay after a recovery)",
    legend_token: "the token",
    legend_money: "a transfer of money",
    carries_duplicates: "⚠ A consistent cut whose counts carry the duplicates of an earlier replay: every record a task counted as received was counted as sent, but the state it captured already held words counted twice after an earlier recovery (at-least-once replays).",
    carries_duplicates_short: "consistent cut, earlier duplicates",
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
    host_bad_number: |message, field, value| format!("The page embedding this player sent {message} with {field} “{value}”, which is not a whole number from 0; nothing changed."),
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
    ignored_cut: |v| format!("The link's cut “{v}” was ignored: it needs one time per line."),
    ignored_sel: |v| format!("The link selects “{v}”, which is not in this dataflow, so nothing is selected."),
    ignored_panel: |v| format!("The link's panel “{v}” is not one of the side panel's tabs, so it was ignored."),
    refused,
    ended: "Nothing is left to happen in this run.",
    dismiss: "Dismiss",
};

/// What the reader expected, as its message names it (`u32`, `struct Edge`, `a sequence`),
/// in plain words.
fn json_kind(wanted: &str) -> &str {
    match wanted {
        "u32" | "u64" => "a whole number (without quotes)",
        w if w.starts_with("struct ") => "an object { … }",
        w => w,
    }
}

/// A scenario reader's message in words (`Lang::syntax_words`).
pub(crate) fn syntax_words(m: &str) -> String {
    match crate::Syntax::of(m) {
        crate::Syntax::EndInString => {
            "the text ends inside a string: a closing quote \" is missing".into()
        }
        crate::Syntax::ControlInString => {
            "a line break stands inside a string (a closing quote \" may be missing)".into()
        }
        crate::Syntax::EndEarly => {
            "the text ends too early: a value or a closing } or ] is missing".into()
        }
        crate::Syntax::Expected("`,` or `}`") => {
            "a comma or a closing } is missing here (or a quote before it)".into()
        }
        crate::Syntax::Expected("`,` or `]`") => "a comma or a closing ] is missing here".into(),
        crate::Syntax::Expected("`:`") => "a colon : is missing after the field's name".into(),
        crate::Syntax::Expected("a string key") => {
            "a field name in double quotes belongs here (JSON allows no comma before a closing })"
                .into()
        }
        crate::Syntax::Expected("a quoted key") => {
            "a field's name is written in double quotes here (\"steps\": …, not steps: …)".into()
        }
        crate::Syntax::Expected("value") => {
            "a value belongs here (a number, \"text\", true, false, null, [ or {)".into()
        }
        crate::Syntax::Expected(what) => format!("{what} is expected here"),
        crate::Syntax::Trailing => "there is more text after the scenario's closing }".into(),
        crate::Syntax::Escape => "a backslash starts an escape JSON does not know".into(),
        crate::Syntax::LeadingZero => "a number may not start with 0 (write 17, not 017)".into(),
        crate::Syntax::TooDeep => "the text nests too deeply".into(),
        crate::Syntax::Missing(name) => format!("the field “{name}” is required here"),
        crate::Syntax::Duplicate(name) => format!("the field “{name}” appears twice"),
        crate::Syntax::UnknownField(name, known) => {
            format!("there is no field “{name}” here; the fields are {known}")
        }
        crate::Syntax::UnknownVariant(name, known) => format!("“{name}” is not one of {known}"),
        crate::Syntax::InvalidType(given, wanted) => {
            format!("{given} is given where {} is expected", json_kind(wanted))
        }
        crate::Syntax::OutOfRange(v, max, "") => {
            format!("{v} is not a whole number from 0 to {max}")
        }
        crate::Syntax::OutOfRange(v, max, what) => {
            format!("{v} is not {what}: a whole number from 0 to {max}")
        }
        crate::Syntax::NotASetting(name, kind, "") => {
            format!("a {kind} operator has no settings, so no field “{name}”")
        }
        crate::Syntax::NotASetting(name, kind, own) => {
            format!("a {kind} operator has no field “{name}”; its fields are {own}")
        }
        crate::Syntax::Other(m) => m.to_string(),
    }
}
