//! The narration: each event of the last steps in one plain sentence, newest first, marked
//! with the seed's alignment step (①–④) where one applies. Clicking a sentence seeks there.

use yew::prelude::*;

use crate::i18n::{step_marker, Lang};
use crate::ui::palette;

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub step: u64,
    pub marker: Option<u8>,
    pub text: AttrValue,
    pub routine: bool,
    pub checkpoint: Option<u64>,
}

#[derive(Properties, PartialEq, Clone)]
pub struct NarrationProps {
    /// Oldest first.
    pub lines: Vec<Line>,
    pub position: u64,
    pub lang: Lang,
    pub on_seek: Callback<u64>,
}

pub fn narration(p: &NarrationProps) -> Html {
    let s = p.lang.strings();
    let items = p.lines.iter().rev().map(|l| {
        let on_seek = p.on_seek.clone();
        let step = l.step;
        let mut class = classes!("sentence");
        if l.routine {
            class.push("routine");
        }
        if l.step == p.position {
            class.push("current");
        }
        html! {
            <li class={class} onclick={move |_| on_seek.emit(step)} data-step={l.step.to_string()}>
                <span class="at">{ l.step }</span>
                <span class={classes!("marker", l.checkpoint.map(palette::checkpoint_class))}>
                    { l.marker.map(step_marker).unwrap_or("") }
                </span>
                <span class="text">{ l.text.clone() }</span>
            </li>
        }
    });
    // A screen reader hears the sentences of the step the run is at, once, from a live
    // region of their own; the list itself is for reading back (and focusable, to scroll it).
    let current: Vec<&str> = p
        .lines
        .iter()
        .filter(|l| l.step == p.position)
        .map(|l| l.text.as_str())
        .collect();
    html! {
        <section class="narration" aria-labelledby="narration-title">
            <h2 id="narration-title">{ s.narration }</h2>
            <p class="sr-only" aria-live="polite" data-testid="narration-live">{ current.join(" ") }</p>
            <ol data-testid="narration" tabindex="0" aria-labelledby="narration-title">
                if p.lines.is_empty() {
                    <li class="hint">{ s.narration_empty }</li>
                }
                { for items }
            </ol>
        </section>
    }
}
