//! The seed's figure of the one-token system, live: its four global states (token at p, in
//! p→q, at q, in q→p) in the order the token visits them, the current one lit, and the one a
//! completed snapshot captured ringed in that snapshot's colour.

use std::fmt::Write;

use yew::prelude::*;

use crate::engine::view::{self, TokenPlace};
use crate::engine::CheckpointId;
use crate::i18n::Lang;
use crate::ui::fmt::{escape, px};
use crate::ui::palette;
use crate::ui::state::RunRef;

/// What the figure is drawn from. A plain function of these, not a component: the page saves a
/// component's machinery (kilobytes of wasm) for a figure that is redrawn with the app anyway.
#[derive(Properties, PartialEq, Clone)]
pub struct GlobalStatesProps {
    pub run: RunRef,
    pub version: u64,
    /// The snapshot open in the inspector; the latest completed one otherwise.
    pub checkpoint: Option<CheckpointId>,
    pub lang: Lang,
}

/// Where each state sits in the 2×2 figure: the token goes round clockwise.
fn cell(place: TokenPlace) -> (f64, f64) {
    match place {
        TokenPlace::AtP => (4.0, 4.0),
        TokenPlace::InPq => (124.0, 4.0),
        TokenPlace::AtQ => (124.0, 58.0),
        TokenPlace::InQp => (4.0, 58.0),
    }
}

const W: f64 = 104.0;
const H: f64 = 38.0;

pub fn global_states(p: &GlobalStatesProps) -> Html {
    let s = p.lang.strings();
    let run = p.run.0.borrow();
    let sim = run.sim();
    let Some(sys) = view::token_system(sim) else {
        return Html::default();
    };
    let name = |t| sim.physical().tasks[t as usize].name.clone();
    let (pn, qn) = (name(sys.p), name(sys.q));
    let now = view::token_place_now(sim, &sys);
    let coordinator = sim.coordinator();
    let snapshot = match p.checkpoint {
        Some(n) => coordinator.global_state(n),
        None => coordinator.latest_completed(),
    };
    let captured =
        snapshot.and_then(|g| view::token_place_captured(g, &sys).map(|pl| (pl, g.checkpoint)));
    // The figure is written as one string of SVG (names escaped): it only shows.
    let mut svg = String::from(concat!(
        r#"<defs><marker id="gs-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto"><path d="M0 0L8 4L0 8z" class="gs-arrowhead"/></marker></defs>"#,
        // The transitions, clockwise: p sends, q receives, q sends, p receives.
        r#"<path class="gs-edge" d="M108 23H122" marker-end="url(#gs-arrow)"/><path class="gs-edge" d="M176 42V56" marker-end="url(#gs-arrow)"/><path class="gs-edge" d="M124 77H110" marker-end="url(#gs-arrow)"/><path class="gs-edge" d="M56 58V44" marker-end="url(#gs-arrow)"/>"#,
        // One child per global state, and nothing else.
        r#"<g data-testid="global-state-diagram">"#
    ));
    for place in TokenPlace::ALL {
        let (x, y) = cell(place);
        let is_now = now == Some(place);
        let caught = captured.filter(|(pl, _)| *pl == place).map(|(_, n)| n);
        let (label, detail) = (s.token_state)(place, &pn, &qn);
        let _ = write!(
            svg,
            r#"<g data-testid="global-state-node" data-state="{}" data-current="{is_now}" data-captured="{}" class="gs-node{}"><rect x="{}" y="{}" width="{}" height="{}" rx="6"/>"#,
            place.as_str(),
            caught.is_some(),
            if is_now { " now" } else { "" },
            px(x),
            px(y),
            px(W),
            px(H)
        );
        if let Some(n) = caught {
            let k = palette::checkpoint(n);
            let _ = write!(
                svg,
                r#"<rect class="gs-captured" x="{}" y="{}" width="{}" height="{}" rx="8" fill="none" stroke="{k}" stroke-width="2.5"/><text class="gs-tag" x="{}" y="{}" text-anchor="end" fill="{k}">#{n}</text>"#,
                px(x - 3.0),
                px(y - 3.0),
                px(W + 6.0),
                px(H + 6.0),
                px(x + W - 4.0),
                px(y + 11.0)
            );
        }
        let _ = write!(
            svg,
            r#"<text x="{lx}" y="{}" class="gs-label">{}</text><text x="{lx}" y="{}" class="gs-detail">{}</text></g>"#,
            px(y + 16.0),
            escape(&label),
            px(y + 30.0),
            escape(&detail),
            lx = px(x + 8.0)
        );
    }
    let caption = match captured {
        Some((_, n)) => (s.token_states_caption)(Some(n)),
        None => (s.token_states_caption)(None),
    };
    let _ = write!(svg, r#"</g></svg><p class="hint">{}</p>"#, escape(&caption));
    let head = format!(
        r#"<svg viewBox="0 0 232 100" role="img" aria-label="{}">"#,
        s.token_states_title
    );
    html! {
        <section class="panel global-states" aria-labelledby="gs-title">
            <h2 id="gs-title">{ s.token_states_title }</h2>
            { Html::from_html_unchecked((head + &svg).into()) }
        </section>
    }
}
