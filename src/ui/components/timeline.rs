//! The timeline scrubber: every recorded step, with marks where checkpoints were triggered,
//! completed or aborted. Dragging it seeks the run.

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

#[function_component(Timeline)]
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
    // Too many marks say nothing: keep the latest 200.
    let skip = p.marks.len().saturating_sub(200);
    let marks = p.marks.iter().skip(skip).map(|m| {
        let left = 100.0 * m.step as f64 / max as f64;
        let (glyph, kind) = match m.kind {
            MarkKind::Triggered => ("▲", "triggered"),
            MarkKind::Completed => ("✓", "completed"),
            MarkKind::Aborted => ("✕", "aborted"),
            MarkKind::Failed => ("⚡", "failed"),
        };
        let on_seek = p.on_seek.clone();
        let step = m.step;
        let (colour, what) = if m.kind == MarkKind::Failed {
            ("var(--bad)", s.status_failed.to_string())
        } else {
            (palette::checkpoint(m.checkpoint), (s.checkpoint)(m.checkpoint))
        };
        html! {
            <button class={classes!("mark", kind)} style={format!("left:{}%;color:{}", crate::ui::fmt::num(left, 2), colour)}
                title={format!("{} · {} {}", what, s.step_counter, m.step)}
                onclick={move |_| on_seek.emit(step)} tabindex="-1">{ glyph }</button>
        }
    });
    html! {
        <div class="timeline">
            <div class="marks" aria-hidden="true">{ for marks }</div>
            <input type="range" min="0" max={max.to_string()} step="1" value={p.position.to_string()}
                data-testid="timeline" aria-label={s.timeline} oninput={oninput} />
        </div>
    }
}
