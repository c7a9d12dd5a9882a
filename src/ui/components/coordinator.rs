//! The checkpoint coordinator: the running checkpoints and the latest completed, each with its
//! status and how many tasks have acknowledged it; the rest are one click away in the
//! inspector's Checkpoints tab. Clicking one opens it there.

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
    /// The scenario asks for more concurrent checkpoints than the mode runs: `(runs, asked)`.
    #[prop_or_default]
    pub capped: Option<(u32, u32)>,
    /// Shows every checkpoint (the inspector's Checkpoints tab).
    pub on_more: Callback<()>,
}

/// The most checkpoints the coordinator lists as cards; the Checkpoints tab has them all.
pub const SHORT_LIST: usize = 4;
/// The most earlier checkpoints it lists as chips below the cards.
pub const EARLIER_CHIPS: usize = 16;

/// How many checkpoints the coordinator lists, newest first: the running ones down to the
/// latest that completed (so the list never skips one), at most [`SHORT_LIST`].
pub fn short_list(checkpoints: &[CheckpointSummary]) -> usize {
    let to_completed = checkpoints
        .iter()
        .rev()
        .position(|c| c.status == CheckpointStatus::Completed)
        .map_or(checkpoints.len(), |i| i + 1);
    to_completed.min(SHORT_LIST).max(checkpoints.len().min(1))
}

/// A checkpoint's mark: running, completed (✓ when its global state is consistent, ⚠ when it
/// is not — a completed snapshot is not a correct one), aborted.
pub fn status_icon(c: &CheckpointSummary) -> &'static str {
    match c.status {
        CheckpointStatus::InProgress => "◔",
        CheckpointStatus::Completed if c.consistent == Some(false) => "⚠",
        CheckpointStatus::Completed => "✓",
        CheckpointStatus::Aborted { .. } => "✕",
    }
}

/// The status in words, with the verdict of a completed one that is not consistent.
fn status_words(s: &crate::i18n::Strings, c: &CheckpointSummary) -> String {
    let status = (s.checkpoint_status)(&c.status);
    if c.consistent == Some(false) {
        format!("{status} — {}", s.inconsistent_short)
    } else {
        status
    }
}

pub fn coordinator(p: &CoordinatorProps) -> Html {
    let s = p.lang.strings();
    let shown = short_list(&p.checkpoints);
    // The earlier ones as small chips (the latest of them), the rest in the Checkpoints tab.
    let earlier: Vec<&CheckpointSummary> = p
        .checkpoints
        .iter()
        .rev()
        .skip(shown)
        .take(EARLIER_CHIPS)
        .collect();
    // What the Checkpoints tab lists besides these (its newest rows).
    let more =
        (p.checkpoints.len().min(super::inspector::MAX_ROWS)).saturating_sub(shown + earlier.len());
    let chips = earlier.iter().map(|c| {
        let on_open = p.on_open.clone();
        let id = c.id;
        let name = if p.snapshots { (s.snapshot)(c.id) } else { (s.checkpoint)(c.id) };
        let label = format!("{name}: {}", status_words(s, c));
        html! {
            <li key={c.id}>
                <button class={classes!("chip", c.status.name(), (p.open == Some(c.id)).then_some("open"))}
                    data-testid={format!("checkpoint-{}", c.id)} data-status={c.status.name()}
                    aria-label={label.clone()} title={label} onclick={move |_| on_open.emit(id)}>
                    <span class={classes!("swatch", palette::checkpoint_class(c.id))}></span>
                    { format!("{} {}", c.id, status_icon(c)) }
                </button>
            </li>
        }
    });
    let rows = p.checkpoints.iter().rev().take(shown).map(|c| {
        let on_open = p.on_open.clone();
        let id = c.id;
        let pct = if c.total == 0 { 0.0 } else { 100.0 * c.acked as f64 / c.total as f64 };
        let mut class = classes!("checkpoint", c.status.name(), palette::checkpoint_class(c.id));
        if p.open == Some(c.id) {
            class.push("open");
        }
        html! {
            <li key={c.id}>
                <button class={class} data-testid={format!("checkpoint-{}", c.id)}
                    data-status={c.status.name()} onclick={move |_| on_open.emit(id)}>
                    <span class="swatch"></span>
                    <span class="cp-name">{ if p.snapshots { (s.snapshot)(c.id) } else { (s.checkpoint)(c.id) } }</span>
                    <span class="cp-status">{ format!("{} {}", status_icon(c), status_words(s, c)) }</span>
                    <span class="progress" role="progressbar" aria-label={(s.acked)(c.acked, c.total)} aria-valuemin="0"
                        aria-valuemax={c.total.to_string()} aria-valuenow={c.acked.to_string()}>
                        <svg class="bar" viewBox="0 0 100 1" preserveAspectRatio="none">
                            <rect width={crate::ui::fmt::num(pct, 0)} height="1" />
                        </svg>
                    </span>
                    <span class="cp-acked">{ (s.acked)(c.acked, c.total) }</span>
                </button>
            </li>
        }
    });
    html! {
        <section class="panel coordinator" aria-labelledby="coordinator-title">
            <h2 id="coordinator-title">{ if p.snapshots { s.snapshots_title } else { s.coordinator } }</h2>
            if let Some((_, asked)) = p.capped {
                <p class="hint" data-testid="concurrency-capped">{ (s.concurrency_capped)(asked) }</p>
            }
            if p.checkpoints.is_empty() {
                <p class="hint">{ if p.snapshots { s.no_snapshots } else { s.no_checkpoints } }</p>
            } else {
                <ul class="checkpoints">{ for rows }</ul>
                if !earlier.is_empty() {
                    <div class="earlier">
                        <span class="hint">{ s.earlier }</span>
                        <ul class="chips">{ for chips }</ul>
                    </div>
                }
                if more > 0 {
                    <button class="link more" data-testid="more-checkpoints"
                        onclick={p.on_more.reform(|_: MouseEvent| ())}>{ (s.more_checkpoints)(more) }</button>
                }
            }
        </section>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(statuses: &[CheckpointStatus]) -> Vec<CheckpointSummary> {
        let mut sim = crate::scenario::presets::alignment().simulation().unwrap();
        while sim.coordinator().checkpoints().is_empty() {
            sim.step();
        }
        let one = sim.coordinator().checkpoints()[0];
        statuses
            .iter()
            .enumerate()
            .map(|(i, s)| CheckpointSummary {
                id: i as u64 + 1,
                status: *s,
                ..one
            })
            .collect()
    }

    #[test]
    fn the_short_list_runs_from_the_newest_down_to_the_latest_completed() {
        use CheckpointStatus::{Completed, InProgress};
        assert_eq!(short_list(&[]), 0);
        assert_eq!(short_list(&list(&[InProgress])), 1);
        assert_eq!(short_list(&list(&[Completed, Completed, Completed])), 1);
        assert_eq!(
            short_list(&list(&[Completed, Completed, InProgress, InProgress])),
            3
        );
        let aborted = CheckpointStatus::Aborted {
            reason: crate::engine::trace::AbortReason::Expired,
        };
        assert_eq!(
            short_list(&list(&[Completed, aborted, InProgress])),
            3,
            "an aborted one between is listed too"
        );
        assert_eq!(
            short_list(&list(&[
                Completed, aborted, InProgress, InProgress, InProgress
            ])),
            SHORT_LIST
        );
    }
}
