//! A channel between two subtasks: its path, and — when its receiver is aligning and this
//! input already delivered the barrier — the blocked look: dashed, in the blocked colour,
//! with a lock at the input port and the word "blocked" (never colour alone).

use yew::prelude::*;

use super::item::fmt;
use crate::ui::layout::ChannelPath;
use crate::ui::palette;

#[derive(Properties, PartialEq, Clone)]
pub struct ChannelProps {
    pub id: u32,
    pub testid: AttrValue,
    pub path: ChannelPath,
    /// `path` as SVG path data: the curve, and its tail at the input port (made once per run).
    pub d: (AttrValue, AttrValue),
    pub blocked: bool,
    /// Items on the channel now.
    pub queued: u32,
    /// Manual mode: clicking delivers the head.
    pub deliverable: bool,
    pub selected: bool,
    pub slow: bool,
    pub detailed: bool,
    pub blocked_label: AttrValue,
    pub slow_label: AttrValue,
    /// The checkpoint (snapshot) whose channel state is being recorded from this channel: its
    /// receiver has snapshotted and this input's barrier (marker) has not come yet.
    #[prop_or_default]
    pub recording: Option<u64>,
    /// A later item may overtake an earlier one here.
    #[prop_or_default]
    pub non_fifo: bool,
    /// Its barriers stay aligned although the run's would overtake: the partitioning of the
    /// receiver's input that keeps them so (Flink's rule).
    #[prop_or_default]
    pub kept_aligned: Option<AttrValue>,
    /// It joins two chained operators (operator chaining): a method call in one task, drawn
    /// as a solid link with nothing on it (its links across: `chains.rs`).
    #[prop_or_default]
    pub chained: bool,
    /// While the job is down after a failure: the items this channel lost.
    #[prop_or_default]
    pub dropped: u32,
    /// Buffer debloating: the channel's capacity now (drawn in its label).
    #[prop_or_default]
    pub capacity: Option<u32>,
    /// Buffer debloating resized it in this step.
    #[prop_or_default]
    pub resized: bool,
    /// What a screen reader says of it ("Channel Split#0 → Count#1"); with it the channel
    /// takes the keyboard focus (Enter selects it, or delivers its head in manual mode).
    #[prop_or_default]
    pub label: Option<AttrValue>,
}

#[function_component(Channel)]
pub fn channel(p: &ChannelProps) -> Html {
    let d = &p.d;
    let mut class = classes!("channel");
    if p.blocked {
        class.push("blocked");
    }
    if p.deliverable {
        class.push("deliverable");
    }
    if p.selected {
        class.push("selected");
    }
    if p.slow {
        class.push("slow");
    }
    if p.non_fifo {
        class.push("non-fifo");
    }
    if p.resized {
        class.push("resized");
    }
    if p.kept_aligned.is_some() {
        class.push("kept-aligned");
    }
    if p.chained {
        class.push("chained");
    }
    let to = p.path.to;
    // Over the tail, or under it where another input's items would be under the word.
    let label = p.path.blocked_label_at();
    let sel = format!("c:{}", p.id);
    // The slow label sits just past the sender's port, on the side the curve leaves from, so
    // neither the moving items nor the sender's box cross it.
    let from = p.path.from;
    let label_y = if p.path.to.y <= from.y {
        from.y + 18.0
    } else {
        from.y - 9.0
    };
    html! {
        <g class={class} data-testid={p.testid.clone()} data-blocked={if p.blocked { "true" } else { "false" }}
            data-queue={p.queued.to_string()} data-sel={sel}
            tabindex={p.label.as_ref().map(|_| "0")} role={p.label.as_ref().map(|_| "button")}
            aria-label={p.label.clone()} aria-pressed={p.label.as_ref().map(|_| if p.selected { "true" } else { "false" })}
            data-recording={p.recording.map(|n| n.to_string())} data-fifo={if p.non_fifo { "false" } else { "true" }}
            data-capacity={p.capacity.map(|n| n.to_string())}
            data-kept-aligned={p.kept_aligned.clone()} data-chained={p.chained.then_some("true")}>
            if let Some(n) = p.recording {
                <path class="recording" d={d.0.clone()} stroke={palette::checkpoint(n)} />
            }
            <path class="hit" d={d.0.clone()} />
            <path class="line" d={d.0.clone()} />
            if p.kept_aligned.is_some() {
                // Two bars across the line near the sender (as in the legend): barriers go in line.
                <path class="kept-bars" d={{
                    let at = p.path.point_at(p.path.length() * 0.6);
                    format!("M{} {}v8M{} {}v8", fmt(at.x - 2.0), fmt(at.y - 4.0), fmt(at.x + 2.0), fmt(at.y - 4.0))
                }} />
            }
            if p.blocked {
                <path class="blocked-tail" d={d.1.clone()} />
                // The compact drawing's tail alone, as its folded lines have.
                if p.detailed {
                    <g class="lock" transform={format!("translate({} {})", fmt(to.x - 12.0), fmt(to.y - 4.0))}>
                        <path class="shackle" d="M1.8 0V-2.6a2.7 2.7 0 0 1 5.4 0V0" fill="none" stroke={palette::BLOCKED} stroke-width="1.6" />
                        <rect x="0" y="0" width="9" height="7.5" rx="1.2" fill={palette::BLOCKED} />
                    </g>
                    <text class="blocked-label" x={fmt(label.x)} y={fmt(label.y)} text-anchor="end">{ p.blocked_label.clone() }</text>
                }
            }
            if p.dropped > 0 {
                <text class="dropped-label" data-testid="dropped" x={fmt((from.x + to.x) / 2.0)}
                    y={fmt((from.y + to.y) / 2.0 - 5.0)} text-anchor="middle">{ format!("✕ {}", p.dropped) }</text>
            }
            if !p.slow_label.is_empty() && p.detailed {
                <text class="slow-label" x={fmt(from.x + 10.0)} y={fmt(label_y)}>{ p.slow_label.clone() }</text>
            }
        </g>
    }
}

/// How barriers cross channel `c` in a run whose checkpoints may go unaligned (the same on
/// every channel of an edge).
pub fn barriers(
    s: &crate::i18n::Strings,
    sim: &crate::engine::Simulation,
    c: crate::engine::ChannelId,
) -> String {
    let policy = sim.barrier_policy(c);
    match policy.kept_aligned {
        Some(by) => (s.barriers_kept)(by.as_str()),
        None if policy.priority => s.barriers_priority.to_string(),
        None => s.barriers_timeout.to_string(),
    }
}
