//! A subtask: its name, a status badge (running · aligning n with a tick per input that has
//! the barrier · snapshotting · draining the buffer) and a line of its state.

use yew::prelude::*;

use super::item::fmt;
use crate::engine::view::TaskStatus;
use crate::engine::CheckpointId;
use crate::ui::layout::{Point, Rect};
use crate::ui::palette;

#[derive(Properties, PartialEq, Clone)]
pub struct SubtaskProps {
    pub id: u32,
    pub testid: AttrValue,
    pub name: AttrValue,
    pub rect: Rect,
    pub ports: Vec<Point>,
    pub status: TaskStatus,
    pub status_text: AttrValue,
    pub state_text: AttrValue,
    /// The running checkpoint this subtask has already acknowledged (its snapshot is taken).
    pub acked: Option<CheckpointId>,
    pub pokeable: bool,
    pub selected: bool,
    pub detailed: bool,
}

/// The checkpoint a status is about, for its colour.
fn status_checkpoint(s: &TaskStatus) -> Option<CheckpointId> {
    match s {
        TaskStatus::Aligning { checkpoint, .. }
        | TaskStatus::Tracking { checkpoint, .. }
        | TaskStatus::Persisting { checkpoint, .. }
        | TaskStatus::Snapshotting { checkpoint }
        | TaskStatus::Stopped { checkpoint } => Some(*checkpoint),
        _ => None,
    }
}

fn status_class(s: &TaskStatus) -> &'static str {
    match s {
        TaskStatus::Running => "running",
        TaskStatus::Aligning { .. } => "aligning",
        TaskStatus::Tracking { .. } => "tracking",
        TaskStatus::Persisting { .. } => "persisting",
        TaskStatus::Snapshotting { .. } => "snapshotting",
        TaskStatus::Replaying { .. } => "replaying",
        TaskStatus::Ending => "ending",
        TaskStatus::Finished => "finished",
        TaskStatus::Backpressured => "backpressured",
        TaskStatus::Stopped { .. } => "stopped",
        TaskStatus::Failed => "failed",
        TaskStatus::Cancelled => "cancelled",
    }
}

pub fn subtask(p: &SubtaskProps) -> Html {
    let r = p.rect;
    // A status about a checkpoint draws the box, badge and ticks in its colour (style.css's
    // `.subtask.kc` and `.tick`; `--k` from the checkpoint's class).
    let checkpoint = status_checkpoint(&p.status);
    let mut class = classes!("subtask", status_class(&p.status));
    if let Some(n) = checkpoint {
        class.push("kc");
        class.push(palette::checkpoint_class(n));
    }
    if p.selected {
        class.push("selected");
    }
    if p.pokeable {
        class.push("pokeable");
    }
    let delivered: &[bool] = match &p.status {
        TaskStatus::Aligning { delivered, .. }
        | TaskStatus::Tracking { delivered, .. }
        | TaskStatus::Persisting { delivered, .. } => delivered,
        _ => &[],
    };
    let ticks = p.ports.iter().zip(delivered).map(|(port, &has)| {
        let size = if p.detailed { 3.6 } else { 1.6 };
        html! { <circle class={if has { "tick" } else { "tick open" }} cx={fmt(port.x + size + 2.0)} cy={fmt(port.y)} r={fmt(size)} /> }
    });
    // Wide (CJK) characters take about twice the width of Latin ones.
    let text_w: f64 = p
        .status_text
        .chars()
        .map(|c| if c.is_ascii() { 6.6 } else { 12.0 })
        .sum();
    let badge_w = (text_w + 14.0).min(r.w - 20.0);
    html! {
        <g class={class} data-testid={p.testid.clone()} data-status={status_class(&p.status)} data-sel={format!("t:{}", p.id)}
            tabindex={p.detailed.then_some("0")} role="button" aria-pressed={if p.selected { "true" } else { "false" }}
            aria-label={format!("{}: {}", p.name, p.status_text)}>
            <rect class="box" x={fmt(r.x)} y={fmt(r.y)} width={fmt(r.w)} height={fmt(r.h)} rx={if p.detailed { "6" } else { "2" }} />
            if p.detailed {
                <text class="name" x={fmt(r.x + 16.0)} y={fmt(r.y + 16.0)}>{ p.name.clone() }</text>
                <g class="badge">
                    <rect x={fmt(r.x + 14.0)} y={fmt(r.y + 22.0)} width={fmt(badge_w)} height="16" rx="8" />
                    <text x={fmt(r.x + 21.0)} y={fmt(r.y + 34.0)}>{ p.status_text.clone() }</text>
                </g>
                <text class="state" x={fmt(r.x + 16.0)} y={fmt(r.y + 53.0)}>{ p.state_text.clone() }</text>
                if let Some(n) = p.acked {
                    <g class="acked" transform={format!("translate({} {})", fmt(r.x + r.w - 14.0), fmt(r.y + 12.0))}>
                        <circle r="7" fill={palette::checkpoint(n)} />
                        <path d="M-3.2 0.2L-0.8 2.6L3.4 -2.4" fill="none" stroke="#fff" stroke-width="1.8" />
                    </g>
                }
            } else {
                <text class="name compact" x={fmt(r.x + 6.0)} y={fmt(r.y + r.h * 0.72)}>{ p.name.clone() }</text>
                if let Some(n) = p.acked {
                    <rect x={fmt(r.x + r.w - 6.0)} y={fmt(r.y + 2.0)} width="4" height={fmt(r.h - 4.0)} fill={palette::checkpoint(n)} />
                }
            }
            { for ticks }
        </g>
    }
}
