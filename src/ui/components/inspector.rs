//! The inspector: details of the selected subtask, channel or item, and the checkpoints tab —
//! each checkpoint with the figures Flink's web UI shows, and for a completed one its global
//! state as tables (every task's state, every channel's recorded state) with the verdict.

use std::fmt::Write;

use yew::prelude::*;

use super::coordinator::status_icon;
use super::dataflow::{state_text, status_text};
use super::item::{item_glyph, ItemGlyphProps};
use super::recovery::final_differences;
use crate::engine::coordinator::CheckpointStatus;
use crate::engine::record::{ItemKind, Payload};
use crate::engine::snapshot::{GlobalState, TaskMetrics, TaskState};
use crate::engine::view;
use crate::engine::{ChannelId, CheckpointId, Simulation, TaskId};
use crate::i18n::{Lang, Strings};
use crate::ui::fmt::escape;
use crate::ui::palette;
use crate::ui::run::Run;
use crate::ui::state::{RunRef, Selection, Tab};

/// A simulated duration or time, with its unit (the engine's time unit is shown as a
/// simulated millisecond, as Flink's web UI shows its figures in ms).
fn ms(v: u64) -> String {
    format!("{v} ms")
}

use super::MAX_ROWS;

#[derive(Properties, PartialEq, Clone)]
pub struct InspectorProps {
    pub run: RunRef,
    pub version: u64,
    pub selection: Option<Selection>,
    pub tab: Tab,
    pub checkpoint: Option<CheckpointId>,
    pub lang: Lang,
    pub on_tab: Callback<Tab>,
    pub on_open: Callback<CheckpointId>,
    pub on_fifo: Callback<(ChannelId, bool)>,
    pub on_fail: Callback<TaskId>,
    /// Selects an item of the shown channel (its queue is a row of buttons).
    #[prop_or_default]
    pub on_select: Callback<Option<Selection>>,
}

pub fn inspector(p: &InspectorProps) -> Html {
    let s = p.lang.strings();
    let run = p.run.0.borrow();
    let sim = run.sim();
    // Wider than 1024 px the coordinator has its own place and its tab is hidden; the
    // inspector then shows the details.
    let wide_shown = p.tab == Tab::Coordinator;
    // The coordinator's tab says how the newest checkpoint is doing, so a glance is enough;
    // it is named as the panel it shows is (Chandy-Lamport's: "Snapshots").
    let name = if sim.mode().processes_initiate() {
        s.snapshots_title
    } else {
        s.coordinator
    };
    let coordinator_label = match sim.coordinator().checkpoints().last() {
        Some(c) => format!(
            "{} · {} {} {}/{}",
            name,
            c.id,
            status_icon(c),
            c.acked,
            c.total
        ),
        None => name.to_string(),
    };
    let tab = |t: Tab, label: &str, id: &'static str| {
        let on_tab = p.on_tab.clone();
        html! {
            <button role="tab" aria-selected={if p.tab == t { "true" } else { "false" }}
                aria-controls="side-tab-body"
                class={classes!("tab", (p.tab == t).then_some("active"),
                    (wide_shown && t == Tab::Details).then_some("wide-active"),
                    (t == Tab::Coordinator).then_some("narrow-only"))}
                data-testid={id} onclick={move |_| on_tab.emit(t)}>{ label.to_string() }</button>
        }
    };
    html! {
        <section class="panel inspector" aria-label={s.inspector}>
            <div class="tabs" role="tablist" aria-label={s.inspector}>
                { tab(Tab::Coordinator, &coordinator_label, "tab-coordinator") }
                { tab(Tab::Details, s.tab_details, "tab-details") }
                { tab(Tab::Checkpoints, s.tab_checkpoints, "tab-checkpoints") }
            </div>
            <div class="tab-body" id="side-tab-body" role="tabpanel">
                { match p.tab {
                    Tab::Details | Tab::Coordinator => details(p.lang, &run, p.selection, &p.on_fifo, &p.on_fail, &p.on_select),
                    Tab::Checkpoints => checkpoints(s, sim, p.checkpoint, &p.on_open),
                } }
            </div>
        </section>
    }
}

fn row(label: &str, value: impl Into<Html>) -> Html {
    html! { <><dt>{ label.to_string() }</dt><dd>{ value.into() }</dd></> }
}

fn details(
    lang: Lang,
    run: &Run,
    selection: Option<Selection>,
    on_fifo: &Callback<(ChannelId, bool)>,
    on_fail: &Callback<TaskId>,
    on_select: &Callback<Option<Selection>>,
) -> Html {
    let (s, sim) = (lang.strings(), run.sim());
    match selection {
        None => html! { <p class="hint">{ s.select_hint }</p> },
        Some(Selection::Task(t)) => task_details(s, run, t, on_fail),
        Some(Selection::Channel(c)) => channel_details(s, sim, c, on_fifo, on_select),
        Some(Selection::Item { channel, item }) => item_details(s, sim, channel, item),
        // A card or a band of the bundled drawing.
        #[cfg(feature = "views")]
        Some(sel @ (Selection::Operator(_) | Selection::Edge(_))) => {
            super::bundled::details(sim, sel, lang, on_select)
        }
    }
}

fn task_details(s: &Strings, run: &Run, t: TaskId, on_fail: &Callback<TaskId>) -> Html {
    let sim = run.sim();
    // Words this task holds twice: the restored duplicates it took in, and once a run that
    // failed has ended, every word that ended higher than without the failures.
    let mut twice = view::counted_twice(sim, t);
    if let Some(differ) = final_differences(run) {
        twice.extend(differ.iter().filter(|d| d.1 > d.2).map(|d| d.0));
    }
    let phys = sim.physical();
    let (Some(info), Some(task)) = (phys.tasks.get(t as usize), sim.tasks().get(t as usize)) else {
        return html! {};
    };
    let op = &phys.graph.operators[info.operator as usize];
    let status = view::task_status(sim, t);
    let mut o = format!("<h3>{} {}</h3><dl>", s.subtask, escape(&info.name));
    dt(
        &mut o,
        s.operator,
        &escape(&format!("{} ({})", op.name, (s.operator_kind)(&op.kind))),
    );
    dt(&mut o, s.status, &status_text(s, &status));
    dt(&mut o, s.state, &state_full(s, sim, &task.state, &twice));
    if let TaskState::Sink {
        received,
        committed,
        ..
    } = task.state
    {
        let text = if op.kind.is_transactional() {
            (s.sink_committed)(committed, received.saturating_sub(committed))
        } else {
            (s.sink_emitted)(received)
        };
        dt(&mut o, "", &text);
    }
    o += "</dl>";
    if !info.inputs.is_empty() {
        let _ = write!(o, r#"<h4>{}</h4><ul class="inputs">"#, s.inputs);
        for (i, &c) in info.inputs.iter().enumerate() {
            let blocked = view::is_blocked(sim, c);
            let held = view::held_items(sim, c);
            let from = &phys.tasks[phys.channels[c as usize].from as usize].name;
            let _ = write!(o, "<li>{} ← {}", (s.input_n)(i as u32), escape(from));
            if blocked {
                let _ = write!(o, r#"<span class="tag blocked">{}</span>"#, s.blocked);
            }
            if view::has_barrier(sim, c) && !blocked {
                let _ = write!(o, r#"<span class="tag">{}</span>"#, s.has_barrier);
            }
            if !held.is_empty() {
                let _ = write!(o, r#"<span class="tag">{} {}</span>"#, held.len(), s.held);
            }
            o += "</li>";
        }
        o += "</ul>";
    }
    html! {
        <div class="details">
            { Html::from_html_unchecked(o.into()) }
            if !sim.job_finished() {
                <button class="fail" data-testid="fail-task" title="X"
                    onclick={on_fail.reform(move |_: MouseEvent| t)}>{ s.fail_task }</button>
            }
        </div>
    }
}

/// A `<dt>`/`<dd>` pair of a details list; `value` is markup.
fn dt(o: &mut String, label: &str, value: &str) {
    let _ = write!(o, "<dt>{label}</dt><dd>{value}</dd>");
}

/// A task's whole state, as the inspector and the global state tables show it, as markup
/// (words and payloads escaped). `twice`: words this task holds twice since a restart
/// (at-least-once), highlighted.
fn state_full(s: &Strings, sim: &Simulation, state: &TaskState, twice: &[u32]) -> String {
    let mark = |out: &mut String, i: usize, text: String, on: bool| {
        if i > 0 {
            *out += " · ";
        }
        if on {
            let _ = write!(
                out,
                r#"<mark class="twice" data-testid="counted-twice" title="{}">{}</mark>"#,
                s.counted_twice,
                escape(&text)
            );
        } else {
            *out += &escape(&text);
        }
    };
    match state {
        TaskState::Count { counts } if !counts.is_empty() => {
            let mut out = format!(
                r#"<span class="counts">{} — "#,
                (s.state_keys)(counts.len())
            );
            for (i, (w, n)) in counts.iter().take(60).enumerate() {
                mark(
                    &mut out,
                    i,
                    format!("{}={}", sim.word(*w), n),
                    twice.contains(w),
                );
            }
            let more = counts.len().saturating_sub(60);
            if more > 0 {
                let _ = write!(out, " {}", (s.rows_more)(more));
            }
            out + "</span>"
        }
        TaskState::Sink {
            received, recent, ..
        } if !recent.is_empty() => {
            let mut out = format!("<span>{} — {}: ", (s.state_received)(*received), s.recent);
            for (i, p) in recent.iter().enumerate() {
                let word = match *p {
                    Payload::Word(w) | Payload::Count { word: w, .. } => Some(w),
                    _ => None,
                };
                mark(
                    &mut out,
                    i,
                    sim.describe(p),
                    word.is_some_and(|w| twice.contains(&w)),
                );
            }
            out + "</span>"
        }
        other => format!("<span>{}</span>", escape(&state_text(s, sim, other))),
    }
}

fn channel_details(
    s: &Strings,
    sim: &Simulation,
    c: ChannelId,
    on_fifo: &Callback<(ChannelId, bool)>,
    on_select: &Callback<Option<Selection>>,
) -> Html {
    let phys = sim.physical();
    let (Some(info), Some(ch)) = (
        phys.channels.get(c as usize),
        sim.channels().get(c as usize),
    ) else {
        return html! {};
    };
    let held = view::held_items(sim, c);
    let glyphs = |items: Vec<ItemKind>| {
        items
            .into_iter()
            .take(24)
            .enumerate()
            .map(|(k, it)| item_glyph(&ItemGlyphProps::new(it, 2.0 + 12.0 * k as f64, 6.0, 9.0)))
            .collect::<String>()
    };
    let queue: Vec<ItemKind> = ch.items().iter().map(|i| i.kind).collect();
    let width = |n: usize| (n.min(24) * 12 + 8).to_string();
    html! {
        <div class="details">
            <h3>{ format!("{} {}", s.channel, phys.channel_label(c)) }</h3>
            <dl>
                { row(s.from, phys.tasks[info.from as usize].name.clone()) }
                { row(s.to, format!("{} ({})", phys.tasks[info.to as usize].name, (s.input_n)(info.input_index))) }
                { row(s.latency, ms(ch.latency)) }
                { row(s.fifo, {
                    let on_fifo = on_fifo.clone();
                    let fifo = ch.fifo;
                    html! {
                        <label class="fifo-switch">
                            <input type="checkbox" data-testid="fifo-toggle" checked={fifo}
                                onchange={move |_| on_fifo.emit((c, !fifo))} />
                            { if fifo { s.fifo_on } else { s.fifo_off } }
                        </label>
                    }
                }) }
                { row(s.blocked, if view::is_blocked(sim, c) { s.yes } else { s.no }) }
                { row(s.in_flight, html! {
                    <>{ queue.len() }
                    // Each item in flight is a button: the keyboard's way to select one.
                    <span class="item-buttons" data-testid="queue-items">
                        { for queue.iter().take(24).map(|&item| {
                            let on_select = on_select.clone();
                            html! {
                                <button class="item-button" aria-label={(s.item_kind)(&item)} title={(s.item_kind)(&item)}
                                    onclick={move |_| on_select.emit(Some(Selection::Item { channel: c, item }))}>
                                    <svg width="12" height="14" aria-hidden="true">{ Html::from_html_unchecked(item_glyph(&ItemGlyphProps::new(item, 1.5, 2.5, 9.0)).into()) }</svg>
                                </button>
                            }
                        }) }
                    </span></>
                }) }
                { row(s.held, html! {
                    <>{ held.len() }
                    <svg class="inline-items" width={width(held.len())} height="22">{ Html::from_html_unchecked(glyphs(held.clone()).into()) }</svg></>
                }) }
                { row(s.records_sent, ch.records_sent.to_string()) }
                { row(s.records_received, ch.records_received.to_string()) }
            </dl>
        </div>
    }
}

fn item_details(s: &Strings, sim: &Simulation, c: ChannelId, kind: ItemKind) -> Html {
    let phys = sim.physical();
    let found = sim
        .channels()
        .get(c as usize)
        .and_then(|ch| ch.items().iter().find(|i| i.kind == kind));
    let mut o = format!(
        r#"<div class="details"><h3>{}: {}</h3><dl>"#,
        s.item,
        (s.item_kind)(&kind)
    );
    dt(&mut o, s.channel, &escape(&phys.channel_label(c)));
    if let ItemKind::Record(r) = kind {
        dt(&mut o, s.payload, &escape(&sim.describe(&r.payload)));
        if r.parent != 0 {
            dt(&mut o, s.derived_from, &format!("#{}", r.parent));
        }
    }
    if let Some(i) = found {
        dt(&mut o, s.sent_at, &ms(i.sent_at));
        dt(&mut o, s.arrives_at, &ms(i.arrives_at));
    }
    o += "</dl>";
    if found.is_none() {
        let _ = write!(o, r#"<p class="hint">{}</p>"#, s.item_gone);
    }
    Html::from_html_unchecked((o + "</div>").into())
}

/// The checkpoints tab: a row per checkpoint with Flink's figures (a click on a row opens
/// it) and the open one's global state. Markup written as one string; the rows are opened by
/// one listener on the tab, which reads the row's `data-id`.
fn checkpoints(
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
            Some(true) => format!("✓ {}", s.consistent_short),
            Some(false) => format!("⚠ {}", s.inconsistent_short),
            None => dash(),
        };
        let _ = write!(
            o,
            r#"<tr data-id="{id}" class="{}" data-status="{}"><th scope="row"><button class="link" data-testid="checkpoint-row-{id}" aria-label="{}"><span class="swatch {}"></span>{id}</button></th>"#,
            if open == Some(c.id) { "open" } else { "" },
            c.status.name(),
            (s.checkpoint)(c.id),
            palette::checkpoint_class(c.id),
            id = c.id,
        );
        let cells = [(s.checkpoint_status)(&c.status), verdict, e2e]
            .into_iter()
            .chain(mode_figures(figures, f.as_ref()))
            .chain([f.map_or_else(dash, |f| format!("{} B", f.checkpointed_size))]);
        for cell in cells {
            let _ = write!(o, "<td>{cell}</td>");
        }
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
    let onclick = super::on_data_id("tr[data-id]", on_open.clone());
    html! {
        <div class="checkpoints-tab" onclick={onclick}>{ Html::from_html_unchecked(o.into()) }</div>
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
    let title = escape(&if sim.mode().processes_initiate() {
        (s.global_state_of_snapshot)(gs.checkpoint)
    } else {
        (s.global_state_of)(gs.checkpoint)
    });
    // Focusable: its tables may scroll sideways, and a keyboard must be able to scroll them.
    let mut o = format!(
        r#"<div class="global-state" data-testid="global-state" data-checkpoint="{}" tabindex="0" role="region" aria-label="{title}"><h3><span class="swatch {}"></span>{title}</h3><p class="verdict {}" data-testid="verdict">{}"#,
        gs.checkpoint,
        palette::checkpoint_class(gs.checkpoint),
        if v.ok() { "ok" } else { "bad" },
        if v.consistent {
            s.consistent
        } else {
            s.inconsistent
        },
    );
    if !v.consistent {
        let _ = write!(o, "<br>{}", (s.verdict_counts)(v.duplicated, v.lost));
    }
    if let Some(w) = &v.word_check {
        let text = if w.mismatches.is_empty() {
            (s.word_check_ok)(w.words_checked)
        } else if v.consistent {
            // A consistent cut of a state that was already wrong: counted twice by an
            // earlier recovery's replay (at-least-once).
            (s.word_check_inherited)(w.mismatches.len())
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
        &[s.subtask, s.state, s.start_delay, s.ack_time][..],
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
            r#"<tr><th scope="row">{}</th><td class="state-cell">{}</td>"#,
            escape(name),
            state_full(s, sim, &t.state, &[])
        );
        for cell in task_figures(figures, &t.metrics) {
            let _ = write!(o, "<td>{cell}</td>");
        }
        o += "</tr>";
    }
    o += "</tbody></table>";
    let more = |o: &mut String, n: usize| {
        if n > 0 {
            let _ = write!(o, r#"<p class="hint">{}</p>"#, (s.rows_more)(n));
        }
    };
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
            r#"<tr><th scope="row">{}</th><td>{}</td><td class="state-cell">{}</td></tr>"#,
            escape(&phys.channel_label(c as ChannelId)),
            recorded.map_or(0, |r| r.len()),
            escape(&text)
        );
    }
    o += "</tbody></table>";
    more(&mut o, phys.channels.len().saturating_sub(MAX_ROWS));
    o + "</div>"
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
        if caps.blocks_inputs {
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
