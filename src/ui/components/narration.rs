//! The narration: each event of the last steps in one plain sentence, newest first, marked
//! with the seed's alignment step (①–④) where one applies. Clicking a sentence seeks there.

use yew::prelude::*;

use crate::i18n::{step_marker, Lang};
use crate::ui::fmt::escape;
use crate::ui::palette;

#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    pub step: u64,
    pub marker: Option<u8>,
    pub text: AttrValue,
    pub routine: bool,
    pub checkpoint: Option<u64>,
}

impl Line {
    /// The sentences of the last `n` steps of `run` (oldest first), in `lang`.
    pub fn recent(run: &crate::ui::run::Run, lang: Lang, n: u64) -> Vec<Line> {
        let sim = run.sim();
        let (s, names) = (lang.strings(), crate::i18n::Names(sim));
        let blocks = sim.mode().blocks_inputs();
        run.recent(n)
            .iter()
            .flat_map(|(step, sentences)| {
                sentences.iter().map(|b| Line {
                    step: *step,
                    marker: b.alignment_step(blocks),
                    text: AttrValue::from((s.narrate)(b, &names)),
                    routine: b.is_routine(),
                    checkpoint: b.checkpoint(),
                })
            })
            .collect()
    }
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
    use std::fmt::Write;
    let s = p.lang.strings();
    // The list is written as one string of markup (sentences escaped): it only shows, and a
    // click anywhere on a sentence is found from the list's one listener.
    let mut list = String::new();
    if p.lines.is_empty() {
        let _ = write!(list, r#"<li class="hint">{}</li>"#, s.narration_empty);
    }
    for l in p.lines.iter().rev() {
        let _ = write!(
            list,
            r#"<li class="sentence{}{}" data-step="{}"><span class="at">{}</span><span class="marker {}">{}</span><span class="text">{}</span></li>"#,
            if l.routine { " routine" } else { "" },
            if l.step == p.position { " current" } else { "" },
            l.step,
            l.step,
            l.checkpoint.map_or("", palette::checkpoint_class),
            l.marker.map_or("", step_marker),
            escape(&l.text)
        );
    }
    let onclick = {
        let on_seek = p.on_seek.clone();
        Callback::from(move |e: MouseEvent| {
            let step = super::target_closest(&e, "li[data-step]")
                .and_then(|li| li.get_attribute("data-step"))
                .and_then(|v| v.parse().ok());
            if let Some(step) = step {
                on_seek.emit(step);
            }
        })
    };
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
            <ol data-testid="narration" tabindex="0" aria-labelledby="narration-title" {onclick}>
                { Html::from_html_unchecked(list.into()) }
            </ol>
        </section>
    }
}
