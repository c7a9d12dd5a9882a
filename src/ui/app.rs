use yew::prelude::*;

use super::state::{Playback, PlaybackAction};
use crate::i18n::Lang;
use crate::scenario::presets;

#[function_component(App)]
pub fn app() -> Html {
    let playback = use_reducer(|| Playback::new(presets::alignment()));
    let s = Lang::En.strings();
    let sim = playback.history.current();
    let phys = sim.physical();
    let on_step = {
        let p = playback.dispatcher();
        Callback::from(move |_| p.dispatch(PlaybackAction::Step))
    };
    let on_back = {
        let p = playback.dispatcher();
        Callback::from(move |_| p.dispatch(PlaybackAction::StepBack))
    };
    html! {
        <div class="app">
            <header class="header">
                <h1>{ s.app_title }</h1>
                <span class="tagline">{ s.tagline }</span>
            </header>
            <main class="dataflow" data-testid="dataflow">
                <h2>{ format!("{} — {}", s.dataflow, playback.scenario.title) }</h2>
                <p data-testid="graph-size">
                    { format!("{} {} · {} {}", phys.task_count(), s.subtasks, phys.channel_count(), s.channels) }
                </p>
                <ul class="operators">
                    { for phys.graph.operators.iter().map(|op| html! {
                        <li data-testid={format!("operator-{}", op.name)}>
                            { format!("{} ×{}", op.name, op.parallelism) }
                        </li>
                    }) }
                </ul>
            </main>
            <footer class="controls">
                <button data-testid="step-back" onclick={on_back}>{ s.step_back }</button>
                <button data-testid="step" onclick={on_step}>{ s.step }</button>
                <span data-testid="step-counter">{ format!("{} {}", s.step_counter, playback.history.position()) }</span>
                <span data-testid="time">{ format!("{} {}", s.time, sim.now()) }</span>
            </footer>
        </div>
    }
}
