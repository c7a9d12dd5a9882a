//! The checkpoint coordinator: the running checkpoints and the latest completed, each with its
//! status and how many tasks have acknowledged it; the rest are one click away in the
//! inspector's Checkpoints tab. Clicking one opens it there.

use yew::prelude::*;

use crate::engine::coordinator::{CheckpointStatus, CheckpointSummary};
use crate::engine::snapshot::Finding;
use crate::engine::CheckpointId;
use crate::i18n::Lang;
use crate::ui::fmt::escape;
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
        CheckpointStatus::Completed if !c.finding.is_consistent() => "⚠",
        CheckpointStatus::Completed => "✓",
        CheckpointStatus::Aborted { .. } => "✕",
    }
}

/// A checkpoint's name: "Checkpoint 3", "Savepoint 3", or Chandy-Lamport's "Snapshot 3".
pub fn checkpoint_name(s: &crate::i18n::Strings, c: &CheckpointSummary, snapshots: bool) -> String {
    if c.savepoint {
        format!("{} {}", s.savepoint, c.id)
    } else if snapshots {
        (s.snapshot)(c.id)
    } else {
        (s.checkpoint)(c.id)
    }
}

/// The status in words, with the finding of a completed one that is not consistent.
fn status_words(s: &crate::i18n::Strings, c: &CheckpointSummary) -> String {
    let status = (s.checkpoint_status)(&c.status);
    if c.finding.is_consistent() {
        status
    } else {
        format!("{status} — {}", finding_short(s, c.finding))
    }
}

/// A finding in a word or two, as the coordinator's list and the checkpoint table say it.
pub fn finding_short(s: &crate::i18n::Strings, f: Finding) -> &'static str {
    match f {
        Finding::Consistent => s.consistent_short,
        Finding::CarriesDuplicates => s.carries_duplicates_short,
        Finding::Inconsistent { .. } => s.inconsistent_short,
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
    let more = (p.checkpoints.len().min(super::MAX_ROWS)).saturating_sub(shown + earlier.len());
    // Written as markup (display only, redrawn with the app; smaller in the wasm than element
    // builders): one listener opens the checkpoint of the button clicked, by its `data-id`.
    use std::fmt::Write;
    let name = |c: &CheckpointSummary| checkpoint_name(s, c, p.snapshots);
    let open = |id| if p.open == Some(id) { " open" } else { "" };
    let mut o = String::from(r#"<ul class="checkpoints">"#);
    for c in p.checkpoints.iter().rev().take(shown) {
        let pct = if c.total == 0 {
            0.0
        } else {
            100.0 * c.acked as f64 / c.total as f64
        };
        let acked = escape(&(s.acked)(c.acked, c.total));
        let _ = write!(
            o,
            r#"<li><button data-id="{id}" class="checkpoint {st} {k}{op}{sp}" data-testid="checkpoint-{id}" data-status="{st}"><span class="swatch"></span><span class="cp-name">{name}</span><span class="cp-status">{icon} {words}</span><span class="progress" role="progressbar" aria-label="{acked}" aria-valuemin="0" aria-valuemax="{total}" aria-valuenow="{n}"><svg class="bar" viewBox="0 0 100 1" preserveAspectRatio="none"><rect width="{w}" height="1"/></svg></span><span class="cp-acked">{acked}</span></button></li>"#,
            id = c.id,
            st = c.status.name(),
            k = palette::checkpoint_class(c.id),
            op = open(c.id),
            sp = if c.savepoint { " savepoint" } else { "" },
            name = escape(&name(c)),
            icon = status_icon(c),
            words = escape(&status_words(s, c)),
            total = c.total,
            n = c.acked,
            w = crate::ui::fmt::num(pct, 0),
        );
    }
    o += "</ul>";
    if !earlier.is_empty() {
        let _ = write!(
            o,
            r#"<div class="earlier"><span class="hint">{}</span><ul class="chips">"#,
            escape(s.earlier)
        );
        for c in &earlier {
            let label = escape(&format!("{}: {}", name(c), status_words(s, c)));
            let _ = write!(
                o,
                r#"<li><button data-id="{id}" class="chip {st}{op}" data-testid="checkpoint-{id}" data-status="{st}" aria-label="{label}" title="{label}"><span class="swatch {k}"></span>{id} {icon}</button></li>"#,
                id = c.id,
                st = c.status.name(),
                op = open(c.id),
                k = palette::checkpoint_class(c.id),
                icon = status_icon(c),
            );
        }
        o += "</ul></div>";
    }
    let onclick = super::on_data_id("button[data-id]", p.on_open.clone());
    html! {
        <section class="panel coordinator" aria-labelledby="coordinator-title">
            <h2 id="coordinator-title">{ if p.snapshots { s.snapshots_title } else { s.coordinator } }</h2>
            if p.checkpoints.is_empty() {
                <p class="hint">{ if p.snapshots { s.no_snapshots } else { s.no_checkpoints } }</p>
            } else {
                <div onclick={onclick}>{ Html::from_html_unchecked(o.into()) }</div>
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
