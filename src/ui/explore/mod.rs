//! The explore view (`?view=explore`, in the second build): every interleaving of a small
//! system searched in slices on the page, with a progress bar and a stop button, and the
//! shortest run to an inconsistent snapshot told move by move and opened in the player.

pub mod player;
pub mod words;

use std::cell::Cell;
use std::rc::Rc;
use std::time::Duration;

use yew::prelude::*;

use crate::engine::explore::{self, Explorer, Options, Outcome};
use crate::engine::modes::modes_for;
use crate::engine::BarrierMode;
use crate::i18n::Lang;
use crate::scenario::Scenario;
use crate::ui::kit::{add_style, address};
use words::Words;

/// The view's own style, added to the page's sheet when it opens (as the other views do).
const STYLE: &str = ".explore-view{max-width:60rem;margin:0 auto;padding:1rem}\
.explore-view a{color:var(--accent)}\
.explore-view fieldset{border:1px solid #8886;border-radius:4px;display:flex;flex-wrap:wrap;gap:.5rem 1.25rem;align-items:center}\
.explore-view input[type=number]{width:7rem}\
.explore-view progress{width:100%;height:1rem}\
.explore-figures{border-collapse:collapse;margin:.5rem 0;width:auto}\
.explore-figures th,.explore-figures td{border-bottom:1px solid #8884;padding:.2rem .6rem;text-align:left}\
.explore-figures td{text-align:right;font-variant-numeric:tabular-nums}\
.explore-view ol li{margin:.15rem 0}.explore-view .global-state{overflow-x:auto}\
.explore-view pre{white-space:pre-wrap;word-break:break-all;font-size:.8rem}\
.explore-error{color:#c0392b;font-weight:bold}";

/// Scenarios with more tasks than this are warned about: the search will likely not end.
const SMALL_TASKS: u32 = 6;

/// The limit of states the page starts with: about 100 MB of wasm memory at most.
const DEFAULT_MAX_STATES: u64 = 100_000;

/// Where the search is.
#[derive(Clone, Debug, Default, PartialEq)]
struct Progress {
    outcome: Outcome,
    frontier: u64,
    running: bool,
    stopped: bool,
    millis: u64,
    max_states: u64,
}

/// The shortest violation, told and linked.
#[derive(Clone, Debug, PartialEq)]
struct Found {
    steps: Vec<String>,
    /// The link that opens it in the player, when the player can play it.
    link: Option<String>,
    /// The link places a cut, which opens the space-time diagram.
    diagram: bool,
    json: String,
    /// The inconsistent snapshot's global state, as the page's inspector writes it.
    global_state: Option<String>,
}

fn now_ms() -> f64 {
    js_sys::Date::now()
}

/// The scenario the search runs: the playground's, in the mode chosen, FIFO or not.
fn searched(base: &Scenario, mode: BarrierMode, non_fifo: bool) -> Scenario {
    let mut s = base.with_mode(mode);
    if non_fifo {
        for e in &mut s.graph.edges {
            e.fifo = false;
        }
    }
    s
}

/// The counterexample as the view shows it.
fn found(lang: Lang, s: &Scenario, title: &str, outcome: &Outcome) -> Option<Found> {
    let moves = outcome.counterexample.as_ref()?;
    let w = Words(lang);
    let json = serde_json::Value::Array(moves.iter().map(|m| m.to_json()).collect()).to_string();
    let replayed = player::replay(s, moves);
    let Ok(replayed) = replayed else {
        return Some(Found {
            steps: vec![replayed.err().unwrap_or_default()],
            link: None,
            diagram: false,
            json,
            global_state: None,
        });
    };
    let steps = replayed.steps.iter().map(|m| w.step(m)).collect();
    let p = player::player_scenario(s, w.player_title(title));
    // A cut placed at the snapshot's times shows its orphans; a snapshot that only lost
    // records has a consistent cut (what it missed is channel state it did not record, which
    // the diagram's own cut rings in red): no cut is placed for it.
    let orphans = replayed.violation.is_some_and(|n| {
        replayed.end.coordinator().global_state(n).is_some_and(|g| {
            g.verdict
                .crossings
                .iter()
                .any(|c| c.kind == crate::engine::snapshot::CrossingKind::Orphan)
        })
    });
    let link = player::player_choices(s, &p, moves).map(|choices| {
        let cut = replayed
            .violation
            .filter(|_| orphans)
            .and_then(|n| player::player_cut(&p, &choices, n));
        player::player_link(
            &p,
            &choices,
            replayed.violation,
            cut.as_deref(),
            Some(lang.code()),
        )
    });
    let global_state = replayed.violation.and_then(|n| {
        let gs = replayed.end.coordinator().global_state(n)?;
        Some(crate::ui::components::inspector::global_state(
            lang.strings(),
            &replayed.end,
            gs,
        ))
    });
    Some(Found {
        steps,
        link,
        diagram: orphans,
        json,
        global_state,
    })
}

#[function_component(ExploreView)]
pub fn explore_view() -> Html {
    use_effect_with((), |_| add_style(STYLE));
    let at = use_memo((), |_| address());
    let lang = crate::ui::kit::lang(at.lang.as_deref());
    let w = Words(lang);
    let s = lang.strings();
    let base = use_memo((), {
        let at = at.clone();
        move |_| at.playground_scenario()
    });
    let first_mode = (*base)
        .as_ref()
        .map_or(BarrierMode::default(), |b| b.config.mode);
    let mode = use_state(|| first_mode);
    let non_fifo = use_state(|| false);
    let snapshots = use_state(|| 2u64);
    let max_states = use_state(|| DEFAULT_MAX_STATES);
    let bad = use_state(|| None::<String>);
    let progress = use_state(Progress::default);
    let counter = use_state(|| None::<Rc<Found>>);
    // Which search is current (a new one makes the old loop end quietly) and whether it was
    // asked to stop.
    let generation = use_mut_ref(|| Rc::new(Cell::new(0u64)));
    let stop = use_mut_ref(|| Rc::new(Cell::new(false)));

    let base = match &*base {
        Ok(b) => b.clone(),
        Err(e) => {
            let text = (s.link_error)(e);
            return html! {
                <main class="explore-view" data-testid="explore-view">
                    <p><a href={at.back.clone()} data-testid="explore-back">{ w.back() }</a></p>
                    <p class="explore-error" role="alert">{ w.cannot_run(&text) }</p>
                </main>
            };
        }
    };
    // A preset is titled in the view's language, as the playground titles it.
    let title = if at.scenario.is_none() {
        (s.preset_text)(&base.name).map_or(base.title.clone(), |(t, _)| t.to_string())
    } else {
        base.title.clone()
    };
    let tasks = base
        .simulation()
        .map_or(0, |sim| sim.physical().task_count());

    let start = {
        let (progress, counter, bad) = (progress.clone(), counter.clone(), bad.clone());
        let (generation, stop) = (generation.borrow().clone(), stop.borrow().clone());
        let (base, title) = (base.clone(), title.clone());
        let (mode, non_fifo, snapshots, max_states) = (*mode, *non_fifo, *snapshots, *max_states);
        Callback::from(move |_: MouseEvent| {
            let scenario = searched(&base, mode, non_fifo);
            let root = match explore::model(&scenario.graph, &scenario.config, scenario.seed) {
                Ok(root) => root,
                Err(e) => {
                    bad.set(Some(w.cannot_run(&e.to_string())));
                    return;
                }
            };
            bad.set(None);
            counter.set(None);
            let my = generation.get() + 1;
            generation.set(my);
            stop.set(false);
            let options = Options {
                max_states,
                snapshots,
            };
            let (progress, counter, generation, stop) = (
                progress.clone(),
                counter.clone(),
                generation.clone(),
                stop.clone(),
            );
            let title = title.clone();
            yew::platform::spawn_local(async move {
                let mut explorer = Explorer::new(root, options);
                let began = now_ms();
                loop {
                    // A slice of about 30 ms, then the page gets the thread back.
                    let slice = now_ms();
                    let mut over = false;
                    while !over && now_ms() - slice < 30.0 {
                        over = explorer.run(32);
                    }
                    if generation.get() != my {
                        return;
                    }
                    let stopped = stop.get() && !over;
                    progress.set(Progress {
                        outcome: explorer.outcome().clone(),
                        frontier: explorer.frontier() as u64,
                        running: !over && !stopped,
                        stopped,
                        millis: (now_ms() - began) as u64,
                        max_states,
                    });
                    if over || stopped {
                        let f = found(lang, &scenario, &title, explorer.outcome());
                        counter.set(f.map(Rc::new));
                        return;
                    }
                    yew::platform::time::sleep(Duration::ZERO).await;
                }
            });
        })
    };
    let on_stop = {
        let stop = stop.borrow().clone();
        Callback::from(move |_: MouseEvent| stop.set(true))
    };
    let on_mode = {
        let mode = mode.clone();
        Callback::from(move |e: Event| {
            if let Some(m) = e
                .target_dyn_into::<web_sys::HtmlSelectElement>()
                .and_then(|s| s.value().parse::<BarrierMode>().ok())
            {
                mode.set(m);
            }
        })
    };
    let on_fifo = {
        let non_fifo = non_fifo.clone();
        Callback::from(move |e: Event| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                non_fifo.set(input.checked());
            }
        })
    };
    let number = |state: UseStateHandle<u64>, label: String| {
        let bad = bad.clone();
        Callback::from(move |e: Event| {
            let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() else {
                return;
            };
            match input.value().trim().parse::<u64>() {
                Ok(n) if n >= 1 => {
                    state.set(n);
                    bad.set(None);
                }
                _ => bad.set(Some(w.bad_number(&label))),
            }
        })
    };
    let on_snapshots = number(snapshots.clone(), w.snapshots());
    let on_max = number(max_states.clone(), w.max_states());

    let modes = modes_for(&base.graph, &base.config);
    let p = &*progress;
    let o = &p.outcome;
    let started = p.running || p.millis > 0 || o.states > 0;
    let status = if !started {
        String::new()
    } else if p.running {
        w.running(o.states, p.frontier)
    } else if p.stopped {
        w.stopped()
    } else {
        w.over(o.complete, o.violations, o.snapshots)
    };
    let labels = w.figures();
    let values = [
        o.states.to_string(),
        o.transitions.to_string(),
        o.snapshots.to_string(),
        o.violations.to_string(),
        w.yes_no(o.complete),
        o.depth.to_string(),
        format!("{:.1} s", p.millis as f64 / 1000.0),
    ];
    let rows = labels
        .iter()
        .zip(values)
        .map(|(l, v)| html! { <tr><th scope="row">{ l.clone() }</th><td>{ v }</td></tr> });
    let figures = started.then(|| {
        html! {
            <table class="explore-figures" data-testid="explore-figures" data-states={o.states.to_string()}
                data-transitions={o.transitions.to_string()} data-snapshots={o.snapshots.to_string()}
                data-violations={o.violations.to_string()} data-complete={o.complete.to_string()}
                data-running={p.running.to_string()}>
                { for rows }
            </table>
        }
    });
    let counterexample = counter.as_ref().map(|f| {
        let steps = f.steps.iter().map(|t| html! { <li>{ t.clone() }</li> });
        html! {
            <section data-testid="explore-counterexample">
                <h2>{ w.counterexample(f.steps.len()) }</h2>
                <ol>{ for steps }</ol>
                if let Some(link) = &f.link {
                    <p><a href={link.clone()} data-testid="explore-open-player">{ w.open_player(f.diagram) }</a></p>
                    <p class="hint" data-testid="explore-player-time">{ w.player_time() }</p>
                } else {
                    <p class="hint" data-testid="explore-not-in-player">{ w.not_in_player() }</p>
                }
                if let Some(gs) = &f.global_state {
                    { Html::from_html_unchecked(gs.clone().into()) }
                }
                <details>
                    <summary>{ w.replay_file() }</summary>
                    <pre data-testid="explore-moves">{ f.json.clone() }</pre>
                </details>
            </section>
        }
    });
    let options = modes.iter().map(|m| {
        html! { <option value={m.as_str()} selected={*m == *mode}>{ (s.mode_name)(*m) }</option> }
    });
    html! {
        <main class="explore-view" data-testid="explore-view">
            <h1>{ w.title(&title) }</h1>
            <p><a href={at.back.clone()} data-testid="explore-back">{ w.back() }</a></p>
            <p>{ w.intro() }</p>
            if tasks > SMALL_TASKS {
                <p class="hint" data-testid="explore-big">{ w.big(tasks) }</p>
            }
            <fieldset disabled={p.running}>
                <label>{ w.mode() }{ " " }
                    <select onchange={on_mode} data-testid="explore-mode">{ for options }</select></label>
                <label><input type="checkbox" checked={*non_fifo} onchange={on_fifo} data-testid="explore-non-fifo" />{ " " }{ w.non_fifo() }</label>
                <label>{ w.snapshots() }{ " " }
                    <input type="number" min="1" value={snapshots.to_string()} onchange={on_snapshots} data-testid="explore-snapshots" /></label>
                <label>{ w.max_states() }{ " " }
                    <input type="number" min="1" value={max_states.to_string()} onchange={on_max} data-testid="explore-max-states" /></label>
            </fieldset>
            if let Some(text) = &*bad {
                <p class="explore-error" role="alert" data-testid="explore-error">{ text.clone() }</p>
            }
            <p>
                <button onclick={start} disabled={p.running || bad.is_some()} data-testid="explore-start">{ w.start() }</button>
                { " " }
                <button onclick={on_stop} disabled={!p.running} data-testid="explore-stop">{ w.stop() }</button>
            </p>
            <label for="explore-progress">{ w.progress() }{ format!(": {} / {}", o.states, p.max_states.max(*max_states)) }</label>
            <progress id="explore-progress" data-testid="explore-progress"
                max={p.max_states.max(1).to_string()}
                value={(if o.complete { p.max_states } else { o.states }).to_string()} />
            <p role="status" data-testid="explore-status">{ status }</p>
            { for figures }
            { for counterexample }
        </main>
    }
}
