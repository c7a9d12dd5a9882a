//! The timeline scrubber: every recorded step, with marks where checkpoints were triggered,
//! completed or aborted. Dragging it seeks the run.

use std::fmt::Write;

use yew::prelude::*;

use crate::engine::view::MarkKind;
use crate::i18n::Lang;
use crate::ui::palette;
use crate::ui::run::Mark;

#[derive(Properties, PartialEq, Clone)]
pub struct TimelineProps {
    pub position: u64,
    pub len: u64,
    pub marks: Vec<Mark>,
    pub lang: Lang,
    pub on_seek: Callback<u64>,
}

pub fn timeline(p: &TimelineProps) -> Html {
    let s = p.lang.strings();
    let max = p.len.max(1);
    let oninput = {
        let on_seek = p.on_seek.clone();
        Callback::from(move |e: InputEvent| {
            let value = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .map(|i| i.value_as_number());
            if let Some(v) = value.filter(|v| v.is_finite()) {
                on_seek.emit(v.max(0.0) as u64);
            }
        })
    };
    // Marks close together are drawn as one, so they stay readable at any run length. Display
    // only but for a click, which the timeline's one listener finds by `data-step`: written as
    // one string of markup. SVG text is placed by its `x` attribute: an inline style would be
    // refused by the page's content security policy. (Not for the keyboard: the slider is.)
    let mut svg = String::from(r#"<svg class="marks" aria-hidden="true">"#);
    for (m, n) in clusters(&p.marks, max) {
        let left = 100.0 * m.step as f64 / max as f64;
        let (glyph, kind) = match m.kind {
            MarkKind::Triggered => ("▲", "triggered"),
            MarkKind::Completed => ("✓", "completed"),
            MarkKind::Aborted => ("✕", "aborted"),
            MarkKind::Failed => ("⚡", "failed"),
        };
        let (colour, what) = if m.kind == MarkKind::Failed {
            ("", s.status_failed.to_string())
        } else {
            (
                palette::checkpoint_class(m.checkpoint),
                (s.checkpoint)(m.checkpoint),
            )
        };
        let _ = write!(
            svg,
            r#"<text class="mark {kind} {colour}" x="{}%" y="11" data-count="{n}" data-step="{}">{glyph}<title>{what} · {} {}{}</title></text>"#,
            crate::ui::fmt::num(left, 2),
            m.step,
            s.step_counter,
            m.step,
            if n > 1 {
                format!(" (+{})", n - 1)
            } else {
                String::new()
            }
        );
    }
    svg += "</svg>";
    let onclick = {
        let on_seek = p.on_seek.clone();
        Callback::from(move |e: MouseEvent| {
            let step = super::target_closest(&e, "[data-step]")
                .and_then(|t| t.get_attribute("data-step"))
                .and_then(|v| v.parse().ok());
            if let Some(step) = step {
                on_seek.emit(step);
            }
        })
    };
    html! {
        <div class="timeline" {onclick}>
            { Html::from_html_unchecked(svg.into()) }
            <input type="range" min="0" max={max.to_string()} step="1" value={p.position.to_string()}
                data-testid="timeline" aria-label={s.timeline} oninput={oninput} />
        </div>
    }
}

/// Marks are drawn in this many stretches of the timeline at most.
pub const CLUSTERS: u64 = 90;

/// How telling a mark is: a failure, then an abort, a completion, a trigger.
fn rank(k: MarkKind) -> u8 {
    match k {
        MarkKind::Failed => 3,
        MarkKind::Aborted => 2,
        MarkKind::Completed => 1,
        MarkKind::Triggered => 0,
    }
}

/// The marks to draw (`marks` in step order, the timeline `len` steps long): one per stretch of
/// 1/[`CLUSTERS`] of the timeline — the most telling of the marks in it, the earliest of those
/// — with how many marks it stands for.
pub fn clusters(marks: &[Mark], len: u64) -> Vec<(Mark, u32)> {
    let len = len.max(1);
    let mut out: Vec<(u64, Mark, u32)> = Vec::new();
    for m in marks {
        let at = m.step.min(len).saturating_mul(CLUSTERS) / len;
        match out.last_mut() {
            Some((stretch, best, n)) if *stretch == at => {
                *n += 1;
                if rank(m.kind) > rank(best.kind) {
                    *best = *m;
                }
            }
            _ => out.push((at, *m, 1)),
        }
    }
    out.into_iter().map(|(_, m, n)| (m, n)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(step: u64, kind: MarkKind) -> Mark {
        Mark {
            step,
            time: step,
            checkpoint: 1,
            kind,
        }
    }

    #[test]
    fn marks_close_together_are_one_and_the_most_telling_shows() {
        let marks: Vec<Mark> = (0..10_000u64)
            .map(|i| {
                mark(
                    i,
                    if i % 3 == 0 {
                        MarkKind::Triggered
                    } else {
                        MarkKind::Completed
                    },
                )
            })
            .chain([mark(5_000, MarkKind::Failed)])
            .collect();
        let mut sorted = marks.clone();
        sorted.sort_by_key(|m| m.step);
        let shown = clusters(&sorted, 10_000);
        assert!(shown.len() as u64 <= CLUSTERS + 1, "{}", shown.len());
        assert_eq!(
            shown.iter().map(|(_, n)| u64::from(*n)).sum::<u64>(),
            10_001
        );
        assert!(shown.iter().any(|(m, _)| m.kind == MarkKind::Failed));
        // A short run keeps every mark apart.
        let few = [mark(1, MarkKind::Triggered), mark(40, MarkKind::Completed)];
        assert_eq!(clusters(&few, 100).len(), 2);
    }
}
