//! Playback controls: step back, play/pause, step, the next key event, speed (log scale), reset, trigger a
//! checkpoint (or, in Flink's modes, a savepoint) now, manual delivery, and the step counter.

use yew::prelude::*;

use crate::i18n::Lang;
use crate::ui::fmt::num;
use crate::ui::state::{SPEED_MAX_EXP, SPEED_MIN_EXP};

#[derive(Properties, PartialEq, Clone)]
pub struct ControlsProps {
    pub playing: bool,
    pub speed_exp: f64,
    pub manual: bool,
    pub position: u64,
    pub time: u64,
    pub lang: Lang,
    pub on_step: Callback<()>,
    pub on_next_key: Callback<()>,
    pub on_back: Callback<()>,
    pub on_play: Callback<()>,
    pub on_speed: Callback<f64>,
    pub on_reset: Callback<()>,
    pub on_trigger: Callback<()>,
    pub on_manual: Callback<()>,
    /// The trigger button's label: "Trigger checkpoint", or Chandy-Lamport's "Start snapshot".
    pub trigger_label: AttrValue,
    /// A savepoint now: only in Flink's modes (aligned, unaligned, at-least-once).
    pub on_savepoint: Option<Callback<()>>,
}

/// "0.25×", "1×", "8×".
pub fn speed_label(exp: f64) -> String {
    format!("{}×", num(exp.exp2(), 2))
}

const BACK: &str = "M11 3L5 8l6 5zM4 3v10";
const STEP: &str = "M5 3l6 5-6 5zM12 3v10";
const NEXT_KEY: &str = "M2 3l6 5-6 5zM8 3l6 5-6 5z";
const PLAY: &str = "M5 3l8 5-8 5z";
const PAUSE: &str = "M4 3h3v10H4zM9 3h3v10H9z";

/// A 16×16 icon (fonts may lack the media symbols).
fn icon(d: &'static str) -> Html {
    html! {
        <svg class="icon" width="12" height="12" viewBox="0 0 16 16" aria-hidden="true">
            <path d={d} fill="currentColor" stroke="currentColor" stroke-width="1.2" stroke-linejoin="round" />
        </svg>
    }
}

pub fn controls(p: &ControlsProps) -> Html {
    let s = p.lang.strings();
    let emit = |cb: &Callback<()>| {
        let cb = cb.clone();
        Callback::from(move |_: MouseEvent| cb.emit(()))
    };
    let on_speed = {
        let cb = p.on_speed.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(v) = e
                .target_dyn_into::<web_sys::HtmlInputElement>()
                .map(|i| i.value_as_number())
                .filter(|v| v.is_finite())
            {
                cb.emit(v);
            }
        })
    };
    html! {
        <div class="controls" role="toolbar">
            <button data-testid="step-back" onclick={emit(&p.on_back)} title="←" disabled={p.position == 0}>
                { icon(BACK) }{ s.step_back }
            </button>
            <button class="primary" data-testid="play" onclick={emit(&p.on_play)} title="Space"
                aria-pressed={if p.playing { "true" } else { "false" }}>
                if p.playing {
                    { icon(PAUSE) }{ s.pause }
                } else {
                    { icon(PLAY) }{ s.play }
                }
            </button>
            <button data-testid="step" onclick={emit(&p.on_step)} title="→">
                { s.step }{ icon(STEP) }
            </button>
            <button data-testid="next-key" onclick={emit(&p.on_next_key)} title="N"
                aria-label={s.next_key}>
                <span class="label">{ s.next_key }</span>{ icon(NEXT_KEY) }
            </button>
            <label class="speed">
                <span>{ s.speed }</span>
                <input type="range" data-testid="speed" min={num(SPEED_MIN_EXP, 2)} max={num(SPEED_MAX_EXP, 2)}
                    step="0.25" value={num(p.speed_exp, 2)} oninput={on_speed} />
                <output>{ speed_label(p.speed_exp) }</output>
            </label>
            <span class="counter" data-testid="step-counter">{ format!("{} {}", s.step_counter, p.position) }</span>
            <span class="clock" title={s.time}>{ format!("t = {} ms", p.time) }</span>
            <span class="spacer"></span>
            <button data-testid="trigger-checkpoint" onclick={emit(&p.on_trigger)} title="B">{ p.trigger_label.clone() }</button>
            if let Some(cb) = &p.on_savepoint {
                <button data-testid="trigger-savepoint" onclick={emit(cb)} title={s.savepoint_hint}>{ s.savepoint }</button>
            }
            <button data-testid="manual-mode" onclick={emit(&p.on_manual)} title="M"
                aria-pressed={if p.manual { "true" } else { "false" }} class={if p.manual { "on" } else { "" }}>
                { s.manual }
            </button>
            <button data-testid="reset" onclick={emit(&p.on_reset)}>{ s.reset }</button>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::speed_label;

    #[test]
    fn speeds_read_naturally() {
        assert_eq!(speed_label(0.0), "1×");
        assert_eq!(speed_label(-2.0), "0.25×");
        assert_eq!(speed_label(3.0), "8×");
        assert_eq!(speed_label(-1.0), "0.5×");
    }
}
