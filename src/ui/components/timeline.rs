//! The timeline scrubber: every recorded step, with marks where checkpoints were triggered,
//! completed or aborted. Dragging it seeks the run.

use std::fmt::Write;

use yew::prelude::*;

use crate::engine::view::MarkKind;
use crate::i18n::Lang;
use crate::ui::marks::{clusters, Mark};
use crate::ui::palette;

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
