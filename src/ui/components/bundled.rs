//! The inspector of the bundled drawing (the second player, a job of real size): an operator's
//! card or an edge's band opened. A list of 256 subtasks or 65,536 channels would say nothing,
//! so it shows the figures of the whole — the strip's counts, the band's totals — and then
//! the few worth a look first: the busiest subtasks and channels (most items waiting), and the
//! slowest subtasks of the checkpoint (still to acknowledge, then the latest to have done it).
//! Each is a button that opens it.

use yew::prelude::*;

use super::dataflow::bundles::{cell_words, totals, CELLS};
use crate::engine::view::{self, Lag};
use crate::engine::Simulation;
use crate::i18n::{Lang, Strings};
// Flink's names, in every language, as the scenario format writes them.
use crate::scenario::flink::plan::partitioning_name;
use crate::ui::kit::pick;
use crate::ui::state::Selection;

/// How many of the busiest or slowest are listed.
pub const LISTED: usize = 8;

/// The inspector for a card or a band; nothing for another selection.
pub fn details(
    sim: &Simulation,
    selection: Selection,
    lang: Lang,
    on_select: &Callback<Option<Selection>>,
) -> Html {
    match selection {
        Selection::Operator(o) => operator(sim, o, lang, on_select),
        Selection::Edge(e) => edge(sim, e, lang, on_select),
        _ => html! {},
    }
}

/// A row of a ranked list: the button that opens `sel`, named `name`, and what is said of it.
fn row(
    name: String,
    sel: Selection,
    text: String,
    on_select: &Callback<Option<Selection>>,
) -> Html {
    let on_select = on_select.clone();
    html! {
        <li>
            <button class="link" onclick={move |_| on_select.emit(Some(sel))}>{ name }</button>
            { " " }{ text }
        </li>
    }
}

/// A ranked list with its heading, "… and n more" under it, or `empty` when nothing is in it.
fn ranked(
    title: String,
    testid: &'static str,
    rows: Vec<Html>,
    more: usize,
    empty: String,
    s: &Strings,
) -> Html {
    html! {
        <>
            <h4>{ title }</h4>
            if rows.is_empty() {
                <p class="hint" data-testid={testid}>{ empty }</p>
            } else {
                <ol class="ranked" data-testid={testid}>{ for rows }</ol>
                if more > 0 {
                    <p class="hint">{ (s.rows_more)(more) }</p>
                }
            }
        </>
    }
}

fn operator(sim: &Simulation, o: u32, lang: Lang, on_select: &Callback<Option<Selection>>) -> Html {
    let s = lang.strings();
    let phys = sim.physical();
    let (Some(op), Some(tasks)) = (
        phys.graph.operators.get(o as usize),
        phys.operator_tasks.get(o as usize),
    ) else {
        return html! {};
    };
    // The strip's colours, counted: the legend's words with how many cells have each.
    let mut cells = [0u32; CELLS.len()];
    for &t in tasks {
        cells[super::dataflow::bundles::cell_class(sim, t)] += 1;
    }
    let states = cell_words(sim, s)
        .iter()
        .zip(cells)
        .filter(|(_, n)| *n > 0)
        .map(|(w, n)| format!("{w}: {n}"))
        .collect::<Vec<_>>()
        .join(" · ");
    let (busy, more_busy) = view::busiest_subtasks(sim, o, LISTED);
    let busy = busy
        .into_iter()
        .map(|(t, waiting)| {
            let status = super::dataflow::status_text(s, &view::task_status(sim, t));
            row(
                phys.tasks[t as usize].name.clone(),
                Selection::Task(t),
                format!("— {} · {status}", words::waiting(lang, waiting)),
                on_select,
            )
        })
        .collect();
    let slow = view::slowest_subtasks(sim, o, LISTED);
    let slow_title = match &slow {
        Some(slow) => words::slowest(lang, slow.checkpoint, slow.completed),
        None => words::slowest_none_title(lang),
    };
    let (slow_rows, more_slow) = match slow {
        Some(slow) => (
            slow.rows
                .into_iter()
                .map(|(t, lag)| {
                    row(
                        phys.tasks[t as usize].name.clone(),
                        Selection::Task(t),
                        format!("— {}", words::lag(lang, lag)),
                        on_select,
                    )
                })
                .collect(),
            slow.more,
        ),
        None => (Vec::new(), 0),
    };
    html! {
        <div class="details" data-testid="operator-details">
            <h3>{ format!("{} {}", s.operator, op.name) }</h3>
            <dl>
                <dt>{ words::kind(lang) }</dt><dd>{ (s.operator_kind)(&op.kind) }</dd>
                <dt>{ words::parallelism(lang) }</dt><dd>{ op.parallelism }</dd>
                <dt>{ s.subtask }</dt><dd data-testid="operator-states">{ states }</dd>
            </dl>
            { ranked(words::busiest_subtasks(lang), "busiest-subtasks", busy, more_busy, words::nothing_waits(lang), s) }
            { ranked(slow_title, "slowest-subtasks", slow_rows, more_slow, words::no_checkpoint(lang), s) }
        </div>
    }
}

fn edge(sim: &Simulation, e: u32, lang: Lang, on_select: &Callback<Option<Selection>>) -> Html {
    let s = lang.strings();
    let phys = sim.physical();
    let (Some(&(from, to)), Some(info)) = (
        phys.operator_edges.get(e as usize),
        phys.graph.edges.get(e as usize),
    ) else {
        return html! {};
    };
    let t = totals(sim).get(e as usize).copied().unwrap_or_default();
    let (busy, more) = view::busiest_channels(sim, e, LISTED);
    let busy = busy
        .into_iter()
        .map(|(c, waiting)| {
            let mut text = format!("— {}", words::waiting(lang, waiting));
            if view::is_blocked(sim, c) {
                text = format!("{text} · {}", s.blocked);
            }
            row(
                phys.channel_label(c),
                Selection::Channel(c),
                text,
                on_select,
            )
        })
        .collect();
    let name = |o: u32| phys.graph.operators[o as usize].name.clone();
    let first = phys
        .channels
        .iter()
        .position(|ch| ch.edge == e)
        .map(|c| c as crate::engine::physical::ChannelId);
    html! {
        <div class="details" data-testid="edge-details">
            <h3>{ format!("{} → {}", name(from), name(to)) }</h3>
            <dl>
                <dt>{ words::partitioning(lang) }</dt><dd>{ partitioning_name(info.partitioning) }</dd>
                <dt>{ words::channels(lang) }</dt><dd>{ t.channels }</dd>
                <dt>{ words::on_channels(lang) }</dt><dd data-testid="edge-totals">{ format!("● {} · ▌{}", t.records, t.barriers) }</dd>
                <dt>{ words::blocked_channels(lang) }</dt><dd>{ format!("{}/{}", t.blocked, t.channels) }</dd>
                if let Some(c) = first.filter(|_| sim.config().may_go_unaligned()) {
                    <dt>{ s.barriers }</dt><dd data-testid="edge-barriers">{ super::channel::barriers(s, sim, c) }</dd>
                }
            </dl>
            { ranked(words::busiest_channels(lang), "busiest-channels", busy, more, words::nothing_waits(lang), s) }
        </div>
    }
}

/// This view's words, English and Chinese (Simplified converted from the Traditional).
mod words {
    use super::*;

    pub fn kind(lang: Lang) -> String {
        pick(lang, "Kind", "種類")
    }

    pub fn parallelism(lang: Lang) -> String {
        pick(lang, "Parallelism", "並行度")
    }

    pub fn channels(lang: Lang) -> String {
        pick(lang, "Channels", "通道數")
    }

    pub fn on_channels(lang: Lang) -> String {
        pick(lang, "Records · barriers on them", "通道上的記錄 · 屏障")
    }

    pub fn blocked_channels(lang: Lang) -> String {
        pick(lang, "Blocked (alignment)", "被阻塞（對齊）")
    }

    pub fn partitioning(lang: Lang) -> String {
        pick(lang, "Partitioning", "分區方式")
    }

    pub fn busiest_subtasks(lang: Lang) -> String {
        pick(
            lang,
            "Busiest subtasks — most items waiting at their inputs",
            "最忙的子任務：輸入端等待的項目最多",
        )
    }

    pub fn busiest_channels(lang: Lang) -> String {
        pick(
            lang,
            "Busiest channels — most items waiting on them or held for them",
            "最忙的通道：通道上與為它緩衝的項目最多",
        )
    }

    pub fn nothing_waits(lang: Lang) -> String {
        pick(lang, "Nothing is waiting.", "沒有項目在等待。")
    }

    pub fn waiting(lang: Lang, n: u64) -> String {
        pick(lang, &format!("{n} waiting"), &format!("{n} 個等待中"))
    }

    pub fn slowest(lang: Lang, n: u64, completed: bool) -> String {
        match (completed, lang) {
            (false, Lang::En) => {
                format!("Slowest in checkpoint {n} (running) — still to acknowledge first")
            }
            (true, Lang::En) => {
                format!("Slowest in checkpoint {n} (completed) — latest to acknowledge first")
            }
            (false, _) => pick(
                lang,
                "",
                &format!("檢查點 {n}（進行中）最慢的子任務：尚未確認的在前"),
            ),
            (true, _) => pick(
                lang,
                "",
                &format!("檢查點 {n}（已完成）最慢的子任務：最晚確認的在前"),
            ),
        }
    }

    pub fn slowest_none_title(lang: Lang) -> String {
        pick(lang, "Slowest in a checkpoint", "檢查點中最慢的子任務")
    }

    pub fn no_checkpoint(lang: Lang) -> String {
        pick(lang, "No checkpoint yet.", "還沒有檢查點。")
    }

    pub fn lag(lang: Lang, lag: Lag) -> String {
        match lag {
            Lag::Waiting { inputs: 0, .. } => pick(lang, "not acknowledged yet", "尚未確認"),
            Lag::Waiting { arrived, inputs } => pick(
                lang,
                &format!("barrier on {arrived} of {inputs} inputs"),
                &format!("屏障已到 {arrived}/{inputs} 個輸入"),
            ),
            Lag::Acked { after, aligned: 0 } => pick(
                lang,
                &format!("acknowledged after {after} ms"),
                &format!("{after} ms 後確認"),
            ),
            Lag::Acked { after, aligned } => pick(
                lang,
                &format!("acknowledged after {after} ms, {aligned} ms of it from its first barrier to its snapshot"),
                &format!("{after} ms 後確認，其中從第一個屏障到快照 {aligned} ms"),
            ),
        }
    }
}
