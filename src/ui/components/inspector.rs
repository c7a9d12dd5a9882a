//! The inspector: details of the selected subtask, channel or item, and the checkpoints tab —
//! each checkpoint with the figures Flink's web UI shows, and for a completed one its global
//! state as tables (every task's state, every channel's recorded state) with the verdict.

use std::fmt::Write;

use yew::prelude::*;

use super::coordinator::status_icon;
use super::dataflow::{state_text, status_text};
use super::item::{item_glyph, ItemGlyphProps};
use super::recovery::final_differences;
use crate::engine::record::{ItemKind, Payload};
use crate::engine::snapshot::TaskState;
use crate::engine::view;
use crate::engine::{ChannelId, CheckpointId, Simulation, TaskId};
use crate::i18n::{Lang, Strings};
use crate::ui::fmt::escape;
use crate::ui::run::Run;
use crate::ui::state::{RunRef, Selection, Tab};

/// A simulated duration or time, with its unit (the engine's time unit is shown as a
/// simulated millisecond, as Flink's web UI shows its figures in ms).
fn ms(v: u64) -> String {
    format!("{v} ms")
}

mod checkpoints;
use checkpoints::checkpoints;
#[cfg(feature = "views")]
pub(crate) use checkpoints::global_state;
pub(crate) use checkpoints::global_state_title;

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
        // A chained link: what chaining removes (the second build; the student's builds send a
        // scenario with chaining there).
        #[cfg(feature = "views")]
        Some(Selection::Channel(c)) if sim.chains().is_chained(c) => {
            super::chains::details(sim, c, lang)
        }
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
    // A process of a Chandy-Lamport system is no subtask of a dataflow.
    let who = if op.kind.is_process() {
        s.process
    } else {
        s.subtask
    };
    let mut o = format!("<h3>{who} {}</h3><dl>", escape(&info.name));
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
            if !sim.job_finished() && !sim.is_down(t) {
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
                if sim.config().may_go_unaligned() {
                    { row(s.barriers, super::channel::barriers(s, sim, c)) }
                }
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
