//! The checkpoint coordinator: every checkpoint with its status and how many tasks have
//! acknowledged it. Clicking one opens it in the inspector's checkpoints tab.

use yew::prelude::*;

use crate::engine::coordinator::{CheckpointStatus, CheckpointSummary};
use crate::engine::CheckpointId;
use crate::i18n::Lang;
use crate::ui::palette;

#[derive(Properties, PartialEq, Clone)]
pub struct CoordinatorProps {
    pub checkpoints: Vec<CheckpointSummary>,
    pub open: Option<CheckpointId>,
    pub lang: Lang,
    pub on_open: Callback<CheckpointId>,
    /// Chandy-Lamport: they are snapshots, not checkpoints.
    #[prop_or_default]
    pub snapshots: bool,
}

pub fn status_attr(s: &CheckpointStatus) -> &'static str {
    match s {
        CheckpointStatus::InProgress => "in-progress",
        CheckpointStatus::Completed => "completed",
        CheckpointStatus::Aborted { .. } => "aborted",
    }
}

fn status_icon(s: &CheckpointStatus) -> &'static str {
    match s {
        CheckpointStatus::InProgress => "◔",
        CheckpointStatus::Completed => "✓",
        CheckpointStatus::Aborted { .. } => "✕",
    }
}

#[function_component(Coordinator)]
pub fn coordinator(p: &CoordinatorProps) -> Html {
    let s = p.lang.strings();
    // The newest first, and not too many: a long run triggers hundreds.
    let rows = p.checkpoints.iter().rev().take(12).map(|c| {
        let on_open = p.on_open.clone();
        let id = c.id;
        let pct = if c.total == 0 { 0.0 } else { 100.0 * c.acked as f64 / c.total as f64 };
        let colour = palette::checkpoint(c.id);
        let mut class = classes!("checkpoint", status_attr(&c.status));
        if p.open == Some(c.id) {
            class.push("open");
        }
        html! {
            <li key={c.id}>
                <button class={class} data-testid={format!("checkpoint-{}", c.id)}
                    data-status={status_attr(&c.status)} onclick={move |_| on_open.emit(id)}>
                    <span class="swatch" style={format!("background:{colour}")}></span>
                    <span class="cp-name">{ if p.snapshots { (s.snapshot)(c.id) } else { (s.checkpoint)(c.id) } }</span>
                    <span class="cp-status">{ format!("{} {}", status_icon(&c.status), (s.checkpoint_status)(&c.status)) }</span>
                    <span class="progress" role="progressbar" aria-valuemin="0"
                        aria-valuemax={c.total.to_string()} aria-valuenow={c.acked.to_string()}>
                        <span class="bar" style={format!("width:{}%;background:{colour}", crate::ui::fmt::num(pct, 0))}></span>
                    </span>
                    <span class="cp-acked">{ (s.acked)(c.acked, c.total) }</span>
                </button>
            </li>
        }
    });
    html! {
        <section class="panel coordinator" aria-labelledby="coordinator-title">
            <h2 id="coordinator-title">{ if p.snapshots { s.snapshots_title } else { s.coordinator } }</h2>
            if p.checkpoints.is_empty() {
                <p class="hint">{ s.no_checkpoints }</p>
            } else {
                <ul class="checkpoints">{ for rows }</ul>
            }
        </section>
    }
}
