//! The inspector's checkpoints tab: a row per checkpoint with the figures Flink's web UI
//! shows, and for the open one its global state as tables with the verdict.

use std::fmt::Write;

use yew::prelude::*;

use super::super::MAX_ROWS;
use super::{dt, ms, state_full};
use crate::engine::coordinator::CheckpointStatus;
use crate::engine::snapshot::{Finding, GlobalState, TaskMetrics};
use crate::engine::view;
use crate::engine::{ChannelId, CheckpointId, Simulation};
use crate::i18n::Strings;
use crate::ui::components::coordinator::{checkpoint_name, finding_short, status_icon};
use crate::ui::fmt::escape;
use crate::ui::palette;

/// The checkpoints tab: a row per checkpoint with Flink's figures (a click on a row opens
/// it) and the open one's global state. Markup written as one string; the rows are opened by
/// one listener on the tab, which reads the row's `data-id`.
pub(super) fn checkpoints(
    s: &Strings,
    sim: &Simulation,
    open: Option<CheckpointId>,
    on_open: &Callback<CheckpointId>,
) -> Html {
    let coord = sim.coordinator();
    let list = coord.checkpoints();
    if list.is_empty() {
        return html! { <p class="hint">{ s.no_checkpoints }</p> };
    }
    let skip = list.len().saturating_sub(MAX_ROWS);
    let figures = Figures::of(sim);
    let mut o = String::from(r#"<table class="figures">"#);
    let heads = [
        &["#", s.status, s.verdict_column, s.end_to_end][..],
        &mode_heads(s, figures),
        &[s.state_size],
    ]
    .concat();
    table_head(&mut o, &heads);
    for c in list.iter().skip(skip).rev() {
        let gs = coord.global_state(c.id);
        let f = gs.map(view::checkpoint_figures);
        let e2e = match c.end_time {
            Some(end) => ms(end.saturating_sub(c.trigger_time)),
            None => format!("{}…", ms(sim.now().saturating_sub(c.trigger_time))),
        };
        let dash = || "—".to_string();
        let verdict = match c.consistent {
            Some(_) => format!("{} {}", status_icon(c), finding_short(s, c.finding)),
            None => dash(),
        };
        let name = escape(&checkpoint_name(s, c, false));
        let _ = write!(
            o,
            r#"<tr data-id="{id}" class="{}" data-status="{}" data-kind="{}"><th scope="row"><button class="link" data-testid="checkpoint-row-{id}" aria-label="{name}"><span class="swatch {}"></span>{}</button></th>"#,
            if open == Some(c.id) { "open" } else { "" },
            c.status.name(),
            c.kind(),
            palette::checkpoint_class(c.id),
            if c.savepoint {
                name.clone()
            } else {
                c.id.to_string()
            },
            id = c.id,
        );
        let cells = [(s.checkpoint_status)(&c.status), verdict, e2e]
            .into_iter()
            .chain(mode_figures(figures, f.as_ref()))
            .chain([f.map_or_else(dash, |f| format!("{} B", f.checkpointed_size))]);
        labelled_cells(&mut o, &heads[1..], cells);
        o += "</tr>";
    }
    o += "</tbody></table>";
    let chosen = open.or_else(|| coord.latest_completed().map(|g| g.checkpoint));
    if let Some(n) = chosen {
        match coord.global_state(n) {
            Some(gs) => o += &global_state(s, sim, gs),
            None => {
                // No summary: too old to be kept at all.
                let msg = match coord.summary(n).map(|c| &c.status) {
                    Some(CheckpointStatus::Completed) | None => s.not_retained,
                    _ => s.not_completed,
                };
                let _ = write!(o, r#"<p class="hint">{} — {msg}</p>"#, (s.checkpoint)(n));
            }
        }
    }
    let onclick = super::super::on_data_id("tr[data-id]", on_open.clone());
    html! {
        <div class="checkpoints-tab" onclick={onclick}>{ Html::from_html_unchecked(o.into()) }</div>
    }
}

/// What the tables call a task: a process in a Chandy-Lamport system, a subtask otherwise.
fn who(s: &Strings, sim: &Simulation) -> &'static str {
    let graph = &sim.physical().graph;
    if graph.operators.iter().all(|o| o.kind.is_process()) {
        s.process
    } else {
        s.subtask
    }
}

/// What a global state is called: a snapshot's (Chandy-Lamport), a savepoint's or a
/// checkpoint's. The inspector's heading and the share dialog's export say it alike.
pub(crate) fn global_state_title(s: &Strings, sim: &Simulation, gs: &GlobalState) -> String {
    if sim.mode().processes_initiate() {
        (s.global_state_of_snapshot)(gs.checkpoint)
    } else if gs.savepoint {
        format!("{} · {}", (s.global_state_of)(gs.checkpoint), s.savepoint)
    } else {
        (s.global_state_of)(gs.checkpoint)
    }
}

/// A completed checkpoint's global state: title, verdict, figures, the task and channel
/// state tables. Written as one string of markup (names and payloads escaped): it only shows.
pub(crate) fn global_state(s: &Strings, sim: &Simulation, gs: &GlobalState) -> String {
    let phys = sim.physical();
    let f = view::checkpoint_figures(gs);
    let v = &gs.verdict;
    let figures = Figures::of(sim);
    let aligned = sim.mode().blocks_inputs();
    let title = escape(&global_state_title(s, sim, gs));
    // Focusable: its tables may scroll sideways, and a keyboard must be able to scroll them.
    let mut o = format!(
        r#"<div class="global-state" data-testid="global-state" data-checkpoint="{}" tabindex="0" role="region" aria-label="{title}"><h3><span class="swatch {}"></span>{title}</h3><p class="verdict {}" data-testid="verdict">{}"#,
        gs.checkpoint,
        palette::checkpoint_class(gs.checkpoint),
        if v.ok() { "ok" } else { "bad" },
        match v.finding() {
            Finding::Consistent => s.consistent,
            Finding::CarriesDuplicates => s.carries_duplicates,
            Finding::Inconsistent { .. } => s.inconsistent,
        },
    );
    if !v.consistent {
        let _ = write!(o, "<br>{}", (s.verdict_counts)(v.duplicated, v.lost));
    }
    if gs.savepoint {
        let _ = write!(
            o,
            r#"<br><span data-testid="savepoint-note">{}</span>"#,
            s.savepoint_hint
        );
    }
    if let Some(w) = &v.word_check {
        let text = if w.mismatches.is_empty() {
            (s.word_check_ok)(w.words_checked)
        } else {
            (s.word_check_bad)(w.mismatches.len())
        };
        let _ = write!(o, "<br>{text}");
    }
    if let Some(c) = &v.conservation {
        let _ = write!(
            o,
            r#"<br><span data-testid="conservation">{}</span>"#,
            escape(&(s.conservation)(c.what, c.expected, c.found))
        );
    }
    o += "</p>";
    if !v.crossings.is_empty() {
        o += r#"<ul class="crossings" data-testid="crossings">"#;
        for x in v.crossings.iter().take(8) {
            let info = &phys.channels[x.channel as usize];
            let from = &phys.tasks[info.from as usize].name;
            let to = &phys.tasks[info.to as usize].name;
            let text = (s.crossing)(x.kind, &sim.describe(&x.record.payload), from, to);
            let _ = write!(o, "<li>{}</li>", escape(&text));
        }
        if v.crossings.len() > 8 {
            let _ = write!(o, "<li>{}</li>", (s.rows_more)(v.crossings.len() - 8));
        }
        o += "</ul>";
    }
    let mut rows = vec![
        (s.trigger_time, ms(gs.trigger_time)),
        (s.end_to_end, ms(f.end_to_end)),
    ];
    if aligned {
        rows.push((s.alignment_duration, ms(f.alignment_duration)));
        rows.push((s.records_held, f.records_held.to_string()));
    }
    rows.push((s.state_size, format!("{} B", f.checkpointed_size)));
    if sim.persists_in_flight() {
        rows.push((
            s.persisted,
            (s.persisted_figure)(f.persisted_bytes, f.persisted_records),
        ));
    }
    o += r#"<dl class="figures-list">"#;
    for (label, value) in rows {
        dt(&mut o, label, &value);
    }
    let heads = [
        &[who(s, sim), s.state, s.start_delay, s.ack_time][..],
        &mode_heads(s, figures),
        &[s.state_size],
    ]
    .concat();
    let _ = write!(
        o,
        r#"</dl><h4>{}</h4><table class="state-table" data-testid="task-states">"#,
        s.task_states
    );
    table_head(&mut o, &heads);
    for t in gs.tasks.iter().take(MAX_ROWS) {
        let name = phys
            .tasks
            .get(t.task as usize)
            .map_or("", |i| i.name.as_str());
        let _ = write!(
            o,
            r#"<tr><th scope="row">{}</th><td class="state-cell" data-l="{}">{}</td>"#,
            escape(name),
            heads[1],
            state_full(s, sim, &t.state, &[])
        );
        labelled_cells(&mut o, &heads[2..], task_figures(figures, &t.metrics));
        o += "</tr>";
    }
    o += "</tbody></table>";
    let more = |o: &mut String, n: usize| {
        if n > 0 {
            let _ = write!(o, r#"<p class="hint">{}</p>"#, (s.rows_more)(n));
        }
    };
    more(&mut o, gs.tasks.len().saturating_sub(MAX_ROWS));
    // Each subtask's figures as Flink's REST API lists them (`abs-sim run`'s "subtasks") that
    // the task-state table above does not already show (start delay, checkpointed size; the
    // synchronous part, always 0 here, is left out): plain numbers, the unit in the heading,
    // so that the table fits the panel.
    let _ = write!(
        o,
        r#"<h4>{}</h4><table class="state-table stats-table" data-testid="subtask-stats">"#,
        s.subtask_stats
    );
    let unit = |label: &str, unit: &str| format!("{label} ({unit})");
    let heads = [
        who(s, sim).to_string(),
        unit(s.alignment_duration, "ms"),
        unit(s.async_duration, "ms"),
        unit(s.persisted_data, "B"),
        unit(s.processed_data, "B"),
        s.unaligned_checkpoint.to_string(),
    ];
    let heads: Vec<&str> = heads.iter().map(String::as_str).collect();
    table_head(&mut o, &heads);
    for t in gs.tasks.iter().take(MAX_ROWS) {
        let m = &t.metrics;
        let name = phys
            .tasks
            .get(t.task as usize)
            .map_or("", |i| i.name.as_str());
        let _ = write!(o, r#"<tr><th scope="row">{}</th>"#, escape(name));
        let cells = [
            m.alignment_duration.to_string(),
            m.async_duration.to_string(),
            m.persisted_bytes().to_string(),
            m.processed_bytes().to_string(),
            (if m.unaligned { "✓" } else { "—" }).to_string(),
        ];
        labelled_cells(&mut o, &heads[1..], cells);
        o += "</tr>";
    }
    o += "</tbody></table>";
    more(&mut o, gs.tasks.len().saturating_sub(MAX_ROWS));
    let _ = write!(o, "<h4>{}</h4>", s.channel_states);
    // A cyclic graph's aligned checkpoint does hold channel state: the back-edge log.
    if aligned && !sim.holds_channel_state() {
        let _ = write!(o, r#"<p class="hint">{}</p>"#, s.aligned_no_channel_state);
    }
    o += r#"<table class="state-table" data-testid="channel-states">"#;
    table_head(&mut o, &[s.channel, "n", s.state]);
    for c in 0..phys.channels.len().min(MAX_ROWS) {
        let recorded = gs.channel_state.get(&(c as ChannelId));
        let text = match recorded {
            Some(rs) if !rs.is_empty() => rs
                .iter()
                .map(|r| sim.describe(&r.payload))
                .collect::<Vec<_>>()
                .join(" · "),
            _ => s.no_channel_state.to_string(),
        };
        let _ = write!(
            o,
            r#"<tr><th scope="row">{}</th><td data-l="n">{}</td><td class="state-cell" data-l="{}">{}</td></tr>"#,
            escape(&phys.channel_label(c as ChannelId)),
            recorded.map_or(0, |r| r.len()),
            s.state,
            escape(&text)
        );
    }
    o += "</tbody></table>";
    more(&mut o, phys.channels.len().saturating_sub(MAX_ROWS));
    o + "</div>"
}

/// A row's cells after its header, each carrying its column's name (`data-l`): a side panel
/// too narrow for the table shows each row as a card of named figures (style.css).
fn labelled_cells(o: &mut String, labels: &[&str], cells: impl IntoIterator<Item = String>) {
    for (label, cell) in labels.iter().zip(cells) {
        let _ = write!(o, r#"<td data-l="{label}">{cell}</td>"#);
    }
}

/// A table's header row and the start of its body, as markup.
fn table_head(o: &mut String, labels: &[&str]) {
    o.push_str("<thead><tr>");
    for l in labels {
        let _ = write!(o, "<th>{l}</th>");
    }
    o.push_str("</tr></thead><tbody>");
}

/// Which figures a checkpoint's row shows, as the engine answers for the run: alignment where
/// tasks align, in-flight records where snapshots persist them, neither for at-least-once (it
/// neither waits nor records).
#[derive(Clone, Copy)]
enum Figures {
    Alignment,
    InFlight,
    None,
}

impl Figures {
    #[inline(never)]
    fn of(sim: &Simulation) -> Figures {
        let caps = sim.capabilities();
        // The protocol's own columns: an unaligned run whose tasks behind a forward edge align
        // (Flink's partitioner rule) still shows what it persisted.
        if sim.mode().blocks_inputs() {
            Figures::Alignment
        } else if caps.persists_in_flight {
            Figures::InFlight
        } else {
            Figures::None
        }
    }
}

fn mode_heads(s: &Strings, figures: Figures) -> Vec<&'static str> {
    match figures {
        Figures::Alignment => vec![s.alignment_duration, s.records_held],
        Figures::InFlight => vec![s.persisted],
        Figures::None => vec![],
    }
}

fn mode_figures(figures: Figures, f: Option<&view::CheckpointFigures>) -> Vec<String> {
    let show = |n: fn(&view::CheckpointFigures) -> u64| {
        f.map_or_else(|| "—".to_string(), |f| n(f).to_string())
    };
    match figures {
        Figures::Alignment => vec![
            f.map_or_else(|| "—".to_string(), |f| ms(f.alignment_duration)),
            show(|f| f.records_held),
        ],
        Figures::InFlight => {
            vec![f.map_or_else(|| "—".to_string(), |f| format!("{} B", f.persisted_bytes))]
        }
        Figures::None => vec![],
    }
}

/// A subtask's figures for one checkpoint, as Flink's checkpoint details list them: when its
/// first barrier came after the trigger (start delay) and when it acknowledged, then what its
/// mode adds, then its checkpointed size.
fn task_figures(figures: Figures, m: &TaskMetrics) -> Vec<String> {
    let mut out = vec![ms(m.start_delay), ms(m.ack_time)];
    out.extend(match figures {
        Figures::Alignment => vec![ms(m.alignment_duration), m.records_held.to_string()],
        Figures::InFlight => vec![format!("{} B", m.persisted_bytes())],
        Figures::None => vec![],
    });
    out.push(format!("{} B", m.checkpointed_size()));
    out
}
