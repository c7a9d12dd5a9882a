//! A checkpoint history as a table, one row per checkpoint, the newest first as in Flink's web
//! UI, the imported job's and the run's alike (so the two read side by side); a click on a row
//! draws that checkpoint's subtasks, on an axis the view may share between the two tables.
//! The rows' `data-*` attributes are the figures unformatted, for tests and for copying.

use std::rc::Rc;

use yew::prelude::*;

use super::bars::{own_end, SubtaskBars};
use super::words::{bytes, trigger, ViewLang};
use crate::scenario::flink::{CheckpointHistory, HistorySource, HistoryStatus};

#[derive(Properties, PartialEq, Clone)]
pub struct TableProps {
    pub lang: ViewLang,
    pub history: Rc<CheckpointHistory>,
    /// The table's test id (`flink-checkpoints`, `sim-checkpoints`).
    pub testid: AttrValue,
    pub caption: AttrValue,
    /// Told the end of the chosen checkpoint's drawing (none: nothing chosen), so that the
    /// view can draw both tables' subtasks on one axis.
    #[prop_or_default]
    pub on_chosen: Callback<Option<u64>>,
    /// The shared axis's end (see [`SubtaskBars`]).
    #[prop_or_default]
    pub axis_end: Option<u64>,
}

/// How a status is written in `data-status`.
pub fn status_code(s: HistoryStatus) -> &'static str {
    match s {
        HistoryStatus::Completed => "completed",
        HistoryStatus::Failed => "failed",
        HistoryStatus::InProgress => "in_progress",
    }
}

#[function_component(CheckpointTable)]
pub fn checkpoint_table(p: &TableProps) -> Html {
    let w = p.lang.words();
    let selected = use_state(|| None::<u64>);
    // A new history (another import) starts with nothing selected.
    {
        let selected = selected.clone();
        use_effect_with(p.history.clone(), move |_| selected.set(None));
    }
    let chosen = selected.and_then(|id| p.history.checkpoints.iter().find(|c| c.id == id));
    // The view hears where the chosen checkpoint's drawing ends.
    {
        let end = chosen
            .filter(|c| !c.subtasks.is_empty())
            .map(|c| own_end(&c.subtasks));
        let on_chosen = p.on_chosen.clone();
        use_effect_with(end, move |end| on_chosen.emit(*end));
    }
    let simulated = p.history.source == HistorySource::Simulation;
    // The newest first, as Flink's web UI lists them.
    let rows = p.history.checkpoints.iter().rev().map(|c| {
        let id = c.id;
        let onclick = {
            let selected = selected.clone();
            Callback::from(move |_: MouseEvent| selected.set(Some(id)))
        };
        let status = match c.status {
            HistoryStatus::Completed => w.completed,
            HistoryStatus::Failed => w.failed,
            HistoryStatus::InProgress => w.in_progress,
        };
        let class = classes!("flink-row", (*selected == Some(id)).then_some("selected"));
        html! {
            <tr key={id} class={class} tabindex="0" {onclick} title={c.failure.clone()}
                data-id={id.to_string()} data-status={status_code(c.status)}
                data-duration-ms={c.duration_ms.to_string()}
                data-persisted-bytes={c.persisted_bytes.to_string()}
                data-unaligned={c.unaligned.to_string()}>
                <td>{ id }{ if c.savepoint { format!(" ({})", w.savepoint) } else { String::new() } }</td>
                <td>{ status }</td>
                <td>{ trigger(c.trigger_ms, simulated) }</td>
                <td class="num">{ format!("{} ms", c.duration_ms) }</td>
                <td class="num">{ bytes(c.checkpointed_size) }</td>
                <td class="num">{ bytes(c.persisted_bytes) }</td>
                <td>{ if c.unaligned { w.yes } else { w.no } }</td>
            </tr>
        }
    });
    let detail = match chosen {
        None => html! { <p class="hint">{ w.pick_row }</p> },
        Some(c) if c.subtasks.is_empty() => html! {
            <p class="hint" data-testid={format!("{}-no-subtasks", p.testid)}>{ w.no_subtasks }</p>
        },
        Some(c) => html! {
            <SubtaskBars lang={p.lang} checkpoint={c.id} subtasks={Rc::new(c.subtasks.clone())}
                testid={format!("{}-bars", p.testid)} axis_end={p.axis_end} />
        },
    };
    html! {
        <section class="flink-history">
            <h2>{ p.caption.clone() }</h2>
            if p.history.checkpoints.is_empty() {
                <p class="hint">{ w.empty }</p>
            }
            // The table scrolls sideways in its own box on a narrow screen, not the page.
            <div class="flink-scroll">
            <table data-testid={p.testid.clone()}>
                <thead><tr>
                    <th>{ w.id }</th><th>{ w.status }</th><th>{ w.trigger }</th>
                    <th>{ w.duration }</th><th>{ w.size }</th><th>{ w.persisted }</th>
                    <th>{ w.unaligned }</th>
                </tr></thead>
                <tbody>{ for rows }</tbody>
            </table>
            </div>
            { detail }
        </section>
    }
}
