//! The seed's figure of the one-token system, live: its four global states (token at p, in
//! p→q, at q, in q→p) in the order the token visits them, the current one lit, and the one a
//! completed snapshot captured ringed in that snapshot's colour.

use yew::prelude::*;

use crate::engine::view::{self, TokenPlace};
use crate::engine::CheckpointId;
use crate::i18n::Lang;
use crate::ui::fmt::px;
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
    let states = TokenPlace::ALL.iter().map(|&place| {
        let (x, y) = cell(place);
        let is_now = now == Some(place);
        let caught = captured.filter(|(pl, _)| *pl == place).map(|(_, n)| n);
        let (label, detail) = (s.token_state)(place, &pn, &qn);
        html! {
            <g data-testid="global-state-node" data-state={place.as_str()}
                data-current={is_now.to_string()} data-captured={caught.is_some().to_string()}
                class={if is_now { "gs-node now" } else { "gs-node" }}>
                <rect x={px(x)} y={px(y)} width={px(W)} height={px(H)} rx="6" />
                if let Some(n) = caught {
                    <rect class="gs-captured" x={px(x - 3.0)} y={px(y - 3.0)}
                        width={px(W + 6.0)} height={px(H + 6.0)} rx="8"
                        fill="none" stroke={palette::checkpoint(n)} stroke-width="2.5" />
                    <text class="gs-tag" x={px(x + W - 4.0)} y={px(y + 11.0)} text-anchor="end"
                        fill={palette::checkpoint(n)}>{ format!("#{n}") }</text>
                }
                <text x={px(x + 8.0)} y={px(y + 16.0)} class="gs-label">{ label }</text>
                <text x={px(x + 8.0)} y={px(y + 30.0)} class="gs-detail">{ detail }</text>
            </g>
        }
    });
    let caption = match captured {
        Some((_, n)) => (s.token_states_caption)(Some(n)),
        None => (s.token_states_caption)(None),
    };
    html! {
        <section class="panel global-states" aria-labelledby="gs-title">
            <h2 id="gs-title">{ s.token_states_title }</h2>
            <svg viewBox="0 0 232 100" role="img" aria-label={s.token_states_title}>
                <defs>
                    <marker id="gs-arrow" viewBox="0 0 8 8" refX="7" refY="4" markerWidth="6" markerHeight="6" orient="auto">
                        <path d="M0 0L8 4L0 8z" class="gs-arrowhead" />
                    </marker>
                </defs>
                // The transitions, clockwise: p sends, q receives, q sends, p receives.
                <path class="gs-edge" d="M108 23H122" marker-end="url(#gs-arrow)" />
                <path class="gs-edge" d="M176 42V56" marker-end="url(#gs-arrow)" />
                <path class="gs-edge" d="M124 77H110" marker-end="url(#gs-arrow)" />
                <path class="gs-edge" d="M56 58V44" marker-end="url(#gs-arrow)" />
                // One child per global state, and nothing else.
                <g data-testid="global-state-diagram">{ for states }</g>
            </svg>
            <p class="hint">{ caption }</p>
        </section>
    }
}
