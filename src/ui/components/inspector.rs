//! The inspector: details of the selected subtask, channel or item, and the checkpoints tab —
//! each checkpoint with the figures Flink's web UI shows, and for a completed one its global
//! state as tables (every task's state, every channel's recorded state) with the verdict.

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
use crate::ui::palette;
use crate::ui::run::Run;
use crate::ui::state::{RunRef, Selection, Tab};

/// A simulated duration or time, with its unit (the engine's time unit is shown as a
/// simulated millisecond, as Flink's web UI shows its figures in ms).
fn ms(v: u64) -> String {
    format!("{v} ms")
}

/// Tables longer than this end with "… and n more".
pub const MAX_ROWS: usize = 40;

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
                    Tab::Details | Tab::Coordinator => details(s, &run, p.selection, &p.on_fifo, &p.on_fail, &p.on_select),
                    Tab::Checkpoints => checkpoints(s, sim, p.checkpoint, &p.on_open),
                } }
            </div>
        </section>
    }
}

fn row(label: &str, value: impl Into<Html>) -> Html {
    html! { <><dt>{ label.to_string() }</dt><dd>{ value.into() }</dd></> }
}

/// A table's header row.
fn head(labels: &[&'static str]) -> Html {
    html! { <thead><tr>{ for labels.iter().map(|&l| html! { <th>{ l }</th> }) }</tr></thead> }
}

/// Plain text cells of a row.
fn cells(texts: Vec<String>) -> Html {
    texts
        .into_iter()
        .map(|t| html! { <td>{ t }</td> })
        .collect()
}

fn details(
    s: &Strings,
    run: &Run,
    selection: Option<Selection>,
    on_fifo: &Callback<(ChannelId, bool)>,
    on_fail: &Callback<TaskId>,
    on_select: &Callback<Option<Selection>>,
) -> Html {
    let sim = run.sim();
    match selection {
        None => html! { <p class="hint">{ s.select_hint }</p> },
        Some(Selection::Task(t)) => task_details(s, run, t, on_fail),
        Some(Selection::Channel(c)) => channel_details(s, sim, c, on_fifo, on_select),
        Some(Selection::Item { channel, item }) => item_details(s, sim, channel, item),
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
    let inputs = info.inputs.iter().enumerate().map(|(i, &c)| {
        let blocked = view::is_blocked(sim, c);
        let held = view::held_items(sim, c);
        let has = view::has_barrier(sim, c);
        let from = &phys.tasks[phys.channels[c as usize].from as usize].name;
        html! {
            <li>
                { format!("{} ← {}", (s.input_n)(i as u32), from) }
                if blocked { <span class="tag blocked">{ s.blocked }</span> }
                if has && !blocked { <span class="tag">{ s.has_barrier }</span> }
                if !held.is_empty() { <span class="tag">{ format!("{} {}", held.len(), s.held) }</span> }
            </li>
        }
    });
    html! {
        <div class="details">
            <h3>{ format!("{} {}", s.subtask, info.name) }</h3>
            <dl>
                { row(s.operator, format!("{} ({})", op.name, (s.operator_kind)(&op.kind))) }
                { row(s.status, status_text(s, &status)) }
                { row(s.state, state_full(s, sim, &task.state, &twice)) }
                if let TaskState::Sink { received, committed, .. } = task.state {
                    { row("", if op.kind.is_transactional() {
                        (s.sink_committed)(committed, received.saturating_sub(committed))
                    } else {
                        (s.sink_emitted)(received)
                    }) }
                }
            </dl>
            if !info.inputs.is_empty() {
                <h4>{ s.inputs }</h4>
                <ul class="inputs">{ for inputs }</ul>
            }
            if !sim.job_finished() {
                <button class="fail" data-testid="fail-task" title="X"
                    onclick={on_fail.reform(move |_: MouseEvent| t)}>{ s.fail_task }</button>
            }
        </div>
    }
}

/// A task's whole state, as the inspector and the global state tables show it.
/// `twice`: words this task holds twice since a restart (at-least-once), highlighted.
fn state_full(s: &Strings, sim: &Simulation, state: &TaskState, twice: &[u32]) -> Html {
    match state {
        TaskState::Count { counts } if !counts.is_empty() => {
            let shown = counts.iter().take(60).enumerate().map(|(i, (w, n))| {
                let sep = if i > 0 { " · " } else { "" };
                let text = format!("{}={}", sim.word(*w), n);
                if twice.contains(w) {
                    html! { <>{ sep }<mark class="twice" data-testid="counted-twice" title={s.counted_twice}>{ text }</mark></> }
                } else {
                    html! { <>{ sep }{ text }</> }
                }
            });
            let more = counts.len().saturating_sub(60);
            html! {
                <span class="counts">
                    { format!("{} — ", (s.state_keys)(counts.len())) }{ for shown }
                    if more > 0 { { format!(" {}", (s.rows_more)(more)) } }
                </span>
            }
        }
        TaskState::Sink {
            received, recent, ..
        } if !recent.is_empty() => {
            let latest = recent.iter().enumerate().map(|(i, p)| {
                let sep = if i > 0 { " · " } else { "" };
                let word = match *p {
                    Payload::Word(w) | Payload::Count { word: w, .. } => Some(w),
                    _ => None,
                };
                if word.is_some_and(|w| twice.contains(&w)) {
                    html! { <>{ sep }<mark class="twice" data-testid="counted-twice" title={s.counted_twice}>{ sim.describe(p) }</mark></> }
                } else {
                    html! { <>{ sep }{ sim.describe(p) }</> }
                }
            });
            html! { <span>{ format!("{} — {}: ", (s.state_received)(*received), s.recent) }{ for latest }</span> }
        }
        other => html! { <span>{ state_text(s, sim, other) }</span> },
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
            .collect::<Html>()
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
                                    <svg width="12" height="14" aria-hidden="true">{ item_glyph(&ItemGlyphProps::new(item, 1.5, 2.5, 9.0)) }</svg>
                                </button>
                            }
                        }) }
                    </span></>
                }) }
                { row(s.held, html! {
                    <>{ held.len() }
                    <svg class="inline-items" width={width(held.len())} height="22">{ glyphs(held.clone()) }</svg></>
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
    html! {
        <div class="details">
            <h3>{ format!("{}: {}", s.item, (s.item_kind)(&kind)) }</h3>
            <dl>
                { row(s.channel, phys.channel_label(c)) }
                if let ItemKind::Record(r) = kind {
                    { row(s.payload, sim.describe(&r.payload)) }
                    if r.parent != 0 { { row(s.derived_from, format!("#{}", r.parent)) } }
                }
                if let Some(i) = found {
                    { row(s.sent_at, ms(i.sent_at)) }
                    { row(s.arrives_at, ms(i.arrives_at)) }
                }
            </dl>
            if found.is_none() { <p class="hint">{ s.item_gone }</p> }
        </div>
    }
}

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
    let rows = list.iter().skip(skip).rev().map(|c| {
        let gs = coord.global_state(c.id);
        let f = gs.map(view::checkpoint_figures);
        let e2e = match (c.end_time, &c.status) {
            (Some(end), _) => ms(end.saturating_sub(c.trigger_time)),
            (None, _) => format!("{}…", ms(sim.now().saturating_sub(c.trigger_time))),
        };
        let dash = || "—".to_string();
        let verdict = match c.consistent {
            Some(true) => format!("✓ {}", s.consistent_short),
            Some(false) => format!("⚠ {}", s.inconsistent_short),
            None => dash(),
        };
        let on_open = on_open.clone();
        let id = c.id;
        html! {
            <tr key={c.id} class={if open == Some(c.id) { "open" } else { "" }}
                onclick={move |_| on_open.emit(id)} data-status={c.status.name()}>
                <th scope="row">
                    <button class="link" data-testid={format!("checkpoint-row-{}", c.id)}
                        aria-label={(s.checkpoint)(c.id)}>
                        <span class={classes!("swatch", palette::checkpoint_class(c.id))}></span>{ c.id }
                    </button>
                </th>
                { cells([(s.checkpoint_status)(&c.status), verdict, e2e]
                    .into_iter()
                    .chain(mode_figures(figures, f.as_ref()))
                    .chain([f.map_or_else(dash, |f| format!("{} B", f.checkpointed_size))])
                    .collect()) }
            </tr>
        }
    });
    let chosen = open.or_else(|| coord.latest_completed().map(|g| g.checkpoint));
    let detail = chosen.map(|n| match coord.global_state(n) {
        Some(gs) => global_state(s, sim, gs),
        None => {
            // No summary: too old to be kept at all.
            let msg = match coord.summary(n).map(|c| &c.status) {
                Some(CheckpointStatus::Completed) | None => s.not_retained,
                _ => s.not_completed,
            };
            html! { <p class="hint">{ format!("{} — {}", (s.checkpoint)(n), msg) }</p> }
        }
    });
    html! {
        <div class="checkpoints-tab">
            <table class="figures">
                { head(&[&["#", s.status, s.verdict_column, s.end_to_end][..], &mode_heads(s, figures), &[s.state_size]].concat()) }
                <tbody>{ for rows }</tbody>
            </table>
            { for detail }
        </div>
    }
}

fn global_state(s: &Strings, sim: &Simulation, gs: &GlobalState) -> Html {
    let phys = sim.physical();
    let f = view::checkpoint_figures(gs);
    let v = &gs.verdict;
    let figures = Figures::of(sim);
    let task_rows = gs.tasks.iter().take(MAX_ROWS).map(|t| {
        let name = phys
            .tasks
            .get(t.task as usize)
            .map_or(String::new(), |i| i.name.clone());
        html! {
            <tr key={t.task}>
                <th scope="row">{ name }</th>
                <td class="state-cell">{ state_full(s, sim, &t.state, &[]) }</td>
                { cells(task_figures(figures, &t.metrics)) }
            </tr>
        }
    });
    let channel_rows = phys
        .channels
        .iter()
        .enumerate()
        .take(MAX_ROWS)
        .map(|(c, _)| {
            let recorded = gs.channel_state.get(&(c as ChannelId));
            let text = match recorded {
                Some(rs) if !rs.is_empty() => rs
                    .iter()
                    .map(|r| sim.describe(&r.payload))
                    .collect::<Vec<_>>()
                    .join(" · "),
                _ => s.no_channel_state.to_string(),
            };
            html! {
                <tr key={c}>
                    <th scope="row">{ phys.channel_label(c as ChannelId) }</th>
                    <td>{ recorded.map_or(0, |r| r.len()) }</td>
                    <td class="state-cell">{ text }</td>
                </tr>
            }
        });
    let more_tasks = gs.tasks.len().saturating_sub(MAX_ROWS);
    let more_channels = phys.channels.len().saturating_sub(MAX_ROWS);
    let aligned = sim.mode().blocks_inputs();
    let title = if sim.mode().processes_initiate() {
        (s.global_state_of_snapshot)(gs.checkpoint)
    } else {
        (s.global_state_of)(gs.checkpoint)
    };
    html! {
        // Focusable: its tables may scroll sideways, and a keyboard must be able to scroll them.
        <div class="global-state" data-testid="global-state" data-checkpoint={gs.checkpoint.to_string()}
            tabindex="0" role="region" aria-label={title.clone()}>
            <h3>
                <span class={classes!("swatch", palette::checkpoint_class(gs.checkpoint))}></span>
                { title }
            </h3>
            <p class={if v.ok() { "verdict ok" } else { "verdict bad" }} data-testid="verdict">
                { if v.consistent { s.consistent } else { s.inconsistent } }
                if !v.consistent { <br />{ (s.verdict_counts)(v.duplicated, v.lost) } }
                if let Some(w) = &v.word_check {
                    <br />
                    { if w.mismatches.is_empty() {
                        (s.word_check_ok)(w.words_checked)
                    } else if v.consistent {
                        // A consistent cut of a state that was already wrong: counted twice by
                        // an earlier recovery's replay (at-least-once).
                        (s.word_check_inherited)(w.mismatches.len())
                    } else {
                        (s.word_check_bad)(w.mismatches.len())
                    } }
                }
                if let Some(c) = &v.conservation {
                    <br /><span data-testid="conservation">{ (s.conservation)(c.what, c.expected, c.found) }</span>
                }
            </p>
            if !v.crossings.is_empty() {
                <ul class="crossings" data-testid="crossings">
                    { for v.crossings.iter().take(8).map(|x| {
                        let info = &phys.channels[x.channel as usize];
                        let from = &phys.tasks[info.from as usize].name;
                        let to = &phys.tasks[info.to as usize].name;
                        html! { <li>{ (s.crossing)(x.kind, &sim.describe(&x.record.payload), from, to) }</li> }
                    }) }
                    if v.crossings.len() > 8 { <li>{ (s.rows_more)(v.crossings.len() - 8) }</li> }
                </ul>
            }
            <dl class="figures-list">
                { row(s.trigger_time, ms(gs.trigger_time)) }
                { row(s.end_to_end, ms(f.end_to_end)) }
                if aligned {
                    { row(s.alignment_duration, ms(f.alignment_duration)) }
                    { row(s.records_held, f.records_held.to_string()) }
                }
                { row(s.state_size, format!("{} B", f.checkpointed_size)) }
                if sim.persists_in_flight() {
                    { row(s.persisted, (s.persisted_figure)(f.persisted_bytes, f.persisted_records)) }
                }
            </dl>
            <h4>{ s.task_states }</h4>
            <table class="state-table" data-testid="task-states">
                { head(&[&[s.subtask, s.state, s.start_delay, s.ack_time][..], &mode_heads(s, figures), &[s.state_size]].concat()) }
                <tbody>{ for task_rows }</tbody>
            </table>
            if more_tasks > 0 { <p class="hint">{ (s.rows_more)(more_tasks) }</p> }
            <h4>{ s.channel_states }</h4>
            // A cyclic graph's aligned checkpoint does hold channel state: the back-edge log.
            if aligned && !sim.holds_channel_state() { <p class="hint">{ s.aligned_no_channel_state }</p> }
            <table class="state-table" data-testid="channel-states">
                { head(&[s.channel, "n", s.state]) }
                <tbody>{ for channel_rows }</tbody>
            </table>
            if more_channels > 0 { <p class="hint">{ (s.rows_more)(more_channels) }</p> }
        </div>
    }
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
