//! The dataflow view: operators, subtasks, channels and alignment buffers in SVG, with the
//! moving items painted on a canvas over it every animation frame.
//!
//! The animation loop lives here (`animation.rs`): each frame it tells the reducer the time (which may run
//! engine events) and repaints the items if anything they depend on changed. Clicks are
//! resolved in one place (`pick.rs`): an item under the pointer first, else the subtask or channel whose
//! element carries `data-sel`.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::buffer::{alignment_buffer, BufferProps};
use super::channel::{Channel, ChannelProps};
use super::item::{self, Placed};
use super::operator::{operator, OperatorProps};
use super::subtask::{subtask, SubtaskProps};
use crate::engine::view;
use crate::engine::{Action, ChannelId, TaskId};
use crate::i18n::Lang;
use crate::ui::state::{RunRef, Selection};

mod animation;
#[cfg_attr(not(feature = "views"), allow(dead_code))]
pub(crate) mod bundles;
mod pick;
mod scene;
mod wording;

use pick::{pick, Picked};
use scene::Scene;
use wording::task_text;
pub use wording::{state_text, status_text};

#[cfg(target_arch = "wasm32")]
pub use animation::dark;
pub use animation::least_size_of;

/// The bundled drawing's style rules (the first picture of a bundled job carries them:
/// `ui::shell`).
#[cfg(all(not(target_arch = "wasm32"), feature = "views"))]
pub const BUNDLED_STYLE: &str = bundles::STYLE;

/// Adds the bundled drawing's style rules to the page (the build that draws bundled).
#[cfg(feature = "views")]
pub fn bundled_style() {
    crate::ui::kit::add_style(bundles::STYLE);
    crate::ui::kit::add_style(super::spacetime::GROUPED_STYLE);
}

/// Pixels per layout unit of the graph's own size (its `width` and `height`), which a phone
/// shows (style.css): the smallest text of the detailed drawing, 10.56 units
/// (`layout::SMALL_TEXT` of its font), is then at least 11 px on screen.
const READABLE: f64 = 1.1;

#[derive(Properties, PartialEq, Clone)]
pub struct DataflowProps {
    pub run: RunRef,
    pub version: u64,
    pub selection: Option<Selection>,
    pub manual: bool,
    pub lang: Lang,
    pub on_select: Callback<Option<Selection>>,
    pub on_deliver: Callback<ChannelId>,
    pub on_poke: Callback<TaskId>,
    /// Called with the timestamp of every animation frame.
    pub on_frame: Callback<f64>,
}

/// Everything the animation loop reads, refreshed on every render.
struct LoopInputs {
    run: RunRef,
    selection: Option<Selection>,
    on_frame: Callback<f64>,
}

#[function_component(Dataflow)]
pub fn dataflow(p: &DataflowProps) -> Html {
    let s = p.lang.strings();
    let canvas = use_node_ref();
    let graph = use_node_ref();
    let inputs = use_mut_ref(|| LoopInputs {
        run: p.run.clone(),
        selection: p.selection,
        on_frame: p.on_frame.clone(),
    });
    {
        let mut i = inputs.borrow_mut();
        i.run = p.run.clone();
        i.selection = p.selection;
        i.on_frame = p.on_frame.clone();
    }
    {
        let canvas = canvas.clone();
        let graph = graph.clone();
        let inputs = inputs.clone();
        use_effect_with((), move |_| {
            let frames = animation::start(canvas, graph, inputs);
            move || {
                let _keep_until_unmount = frames;
            }
        });
    }

    let run = p.run.0.borrow();
    let sim = run.sim();
    let phys = sim.physical();
    // The run's layout is made with it, so the run's serial stands for both.
    let scene = use_memo(run.serial, |_| Scene::new(phys, &run.layout));
    let layout = &run.layout;
    let m = layout.metrics;
    let detailed = layout.detailed;
    let deliverable: Vec<ChannelId> = if p.manual {
        sim.enabled_actions()
            .into_iter()
            .filter_map(|a| match a {
                Action::Deliver { channel } => Some(channel),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let pokeable: Vec<TaskId> = if p.manual {
        sim.enabled_actions()
            .into_iter()
            .filter_map(|a| match a {
                Action::Replay { task } | Action::Emit { task } => Some(task),
                _ => None,
            })
            .collect()
    } else {
        Vec::new()
    };
    let min_latency = sim.channels().iter().map(|c| c.latency).min().unwrap_or(1);
    // Buffer debloating: every channel's capacity is drawn, and those this step resized stand
    // out.
    let debloating = sim.config().buffer_debloat.is_some();
    let resized: Vec<ChannelId> = sim
        .last_events()
        .iter()
        .filter_map(|e| match *e {
            crate::engine::Event::BufferResized { channel, .. } => Some(channel),
            _ => None,
        })
        .collect();
    let in_flight: usize = sim.channels().iter().map(|c| c.items().len()).sum();
    let acked_in_progress = |t: TaskId| {
        sim.coordinator()
            .in_progress()
            .filter(|&n| sim.coordinator().acked_by(n, t))
            .last()
    };

    let operators = phys.graph.operators.iter().enumerate().map(|(o, op)| {
        operator(&OperatorProps {
            testid: scene.operators[o].0.clone(),
            name: scene.operators[o].1.clone(),
            kind: AttrValue::Static((s.operator_kind)(&op.kind)),
            parallelism: op.parallelism,
            rect: layout.operators[o].rect,
            font: layout.metrics.font,
        })
    });
    // The compact drawing folds its plain channels (nothing to show but blocked or not) into
    // three paths — lines, blocked lines, blocked tails: with thousands of channels, an
    // element each made every step's render and the first paint slow. A folded line is not
    // clicked on its own, nor drawn slow, nor labelled with a debloated capacity or the items
    // a failure dropped (the detailed drawing does all that; the narration and the recovery
    // panel say what was dropped).
    let mut folded = [String::new(), String::new(), String::new()];
    // The channels drawn one by one.
    let mut shown: Vec<usize> = Vec::new();
    let bundled = crate::ui::layout::BUNDLES && layout.bundled;
    // Bundled, no channel is drawn on its own (the bands are, below).
    let per_channel = if bundled { &[][..] } else { sim.channels() };
    for (c, ch) in per_channel.iter().enumerate() {
        let id = c as ChannelId;
        let fold = !(detailed
            || !ch.fifo
            || deliverable.contains(&id)
            || (cfg!(feature = "views") && sim.chains().is_chained(id))
            || p.selection == Some(Selection::Channel(id))
            || view::persisting_checkpoint(sim, id).is_some());
        if !fold {
            shown.push(c);
        } else {
            let (d, tail) = &scene.paths[c];
            let blocked = view::is_blocked(sim, id);
            folded[usize::from(blocked)].push_str(d);
            if blocked {
                folded[2].push_str(tail);
            }
        }
    }
    // Path data is numbers and letters: nothing to escape.
    let folded = Html::from_html_unchecked(
        if detailed {
            String::new()
        } else if bundled {
            bundles::markup(sim, layout, p.selection, s)
        } else {
            format!(
                r#"<g class="channel folded"><path class="line" d="{}"/><path class="line stuck" d="{}"/><path class="blocked-tail" d="{}"/></g>"#,
                folded[0], folded[1], folded[2]
            )
        }
        .into(),
    );
    let channels = shown.iter().map(|&c| {
        let id = c as ChannelId;
        let ch = &sim.channels()[c];
        let slow = ch.latency >= 2 * min_latency;
        // Only the detailed drawing shows the label: no string per channel otherwise.
        let slow_label = if detailed {
            let mut parts = Vec::new();
            if slow {
                parts.push((s.slow)(ch.latency));
            }
            if !ch.fifo {
                parts.push(s.non_fifo.to_string());
            }
            if let Some(by) = sim.kept_aligned(id) {
                parts.push((s.kept_aligned)(by.as_str()));
            }
            if debloating {
                parts.push((s.buffer_size)(ch.capacity()));
            }
            AttrValue::from(parts.join(" · "))
        } else {
            AttrValue::Static("")
        };
        let props = ChannelProps {
            id,
            testid: AttrValue::from(format!("channel-{}", phys.channel_name(id))),
            path: layout.channels[c].clone(),
            d: scene.paths[c].clone(),
            blocked: view::is_blocked(sim, id),
            queued: if detailed { ch.items().len() as u32 } else { 0 },
            deliverable: deliverable.contains(&id),
            selected: p.selection == Some(Selection::Channel(id)),
            slow,
            detailed,
            blocked_label: AttrValue::Static(s.blocked),
            slow_label,
            recording: view::persisting_checkpoint(sim, id),
            non_fifo: !ch.fifo,
            kept_aligned: sim.kept_aligned(id).map(|p| AttrValue::Static(p.as_str())),
            chained: cfg!(feature = "views") && sim.chains().is_chained(id),
            dropped: view::dropped_on(sim, id),
            capacity: debloating.then(|| ch.capacity()),
            resized: resized.contains(&id),
            label: detailed.then(|| {
                AttrValue::from(format!(
                    "{} {} → {}",
                    s.channel,
                    phys.tasks[phys.channels[c].from as usize].name,
                    phys.tasks[phys.channels[c].to as usize].name
                ))
            }),
        };
        html! { <Channel key={c} ..props /> }
    });
    let buffers = phys.channels.iter().enumerate().filter_map(|(c, _)| {
        if bundled {
            return None;
        }
        let id = c as ChannelId;
        // A chained channel is a method call: nothing waits at its receiver's port.
        if cfg!(feature = "views") && sim.chains().is_chained(id) {
            return None;
        }
        if let Some((n, log)) = view::back_edge_log(sim, id) {
            return Some(alignment_buffer(&BufferProps {
                testid: AttrValue::from(format!("log-{}", phys.channel_name(id))),
                path: layout.channels[c].clone(),
                metrics: m,
                held: log,
                lang: p.lang,
                log: Some(n),
            }));
        }
        let held = view::held_items(sim, id);
        if held.is_empty() && !detailed {
            return None;
        }
        Some(alignment_buffer(&BufferProps {
            testid: AttrValue::from(format!("buffer-{}", phys.channel_name(id))),
            path: layout.channels[c].clone(),
            metrics: m,
            held,
            lang: p.lang,
            log: None,
        }))
    });
    // Bundled, the subtasks are the cards' strips (in `folded`).
    let subtasks = phys
        .tasks
        .iter()
        .enumerate()
        .filter(|_| !bundled)
        .map(|(t, _)| {
            let id = t as TaskId;
            let status = view::task_status(sim, id);
            let task = &sim.tasks()[t];
            subtask(&SubtaskProps {
                id,
                testid: scene.subtasks[t].0.clone(),
                name: scene.subtasks[t].1.clone(),
                rect: layout.subtasks[t].rect,
                ports: layout.subtasks[t].inputs.clone(),
                status_text: AttrValue::from(status_text(s, &status)),
                state_text: AttrValue::from(if detailed {
                    task_text(s, sim, task)
                } else {
                    String::new()
                }),
                status,
                acked: acked_in_progress(id),
                pokeable: pokeable.contains(&id),
                selected: p.selection == Some(Selection::Task(id)),
                detailed,
            })
        });

    // Operator chaining: a frame round each chain, one task in Flink (the second build's).
    #[cfg(feature = "views")]
    let frames = super::chains::frames(sim, layout, p.lang);
    #[cfg(not(feature = "views"))]
    let frames = Html::default();

    let onclick = {
        let run = p.run.clone();
        let graph = graph.clone();
        let manual = p.manual;
        let on_select = p.on_select.clone();
        let on_deliver = p.on_deliver.clone();
        let on_poke = p.on_poke.clone();
        Callback::from(move |e: MouseEvent| {
            let picked = pick(&run, &graph, &e);
            match picked {
                Picked::Item(it) if manual => on_deliver.emit(it.channel),
                Picked::Item(it) => on_select.emit(Some(Selection::Item {
                    channel: it.channel,
                    item: it.kind,
                })),
                Picked::Channel(c) if manual => on_deliver.emit(c),
                Picked::Channel(c) => on_select.emit(Some(Selection::Channel(c))),
                Picked::Task(t) if manual => on_poke.emit(t),
                Picked::Task(t) => on_select.emit(Some(Selection::Task(t))),
                #[cfg(feature = "views")]
                Picked::Open(sel) => on_select.emit(Some(sel)),
                Picked::Nothing => on_select.emit(None),
            }
        })
    };

    // The keyboard's click: Enter or Space on a focused subtask or channel.
    let onkeydown = {
        let manual = p.manual;
        let on_select = p.on_select.clone();
        let on_deliver = p.on_deliver.clone();
        let on_poke = p.on_poke.clone();
        Callback::from(move |e: KeyboardEvent| {
            if !matches!(e.key().as_str(), "Enter" | " ") {
                return;
            }
            let Some(sel) = e
                .target_dyn_into::<web_sys::Element>()
                .and_then(|el| el.get_attribute("data-sel"))
            else {
                return;
            };
            let picked = pick::named(&sel);
            e.prevent_default();
            match picked {
                Some(Picked::Channel(c)) if manual => on_deliver.emit(c),
                Some(Picked::Channel(c)) => on_select.emit(Some(Selection::Channel(c))),
                Some(Picked::Task(t)) if manual => on_poke.emit(t),
                Some(Picked::Task(t)) => on_select.emit(Some(Selection::Task(t))),
                #[cfg(feature = "views")]
                Some(Picked::Open(sel)) => on_select.emit(Some(sel)),
                _ => {}
            }
        })
    };
    let (w, h) = (layout.width.ceil(), layout.height.ceil());
    // The graph's own size is at READABLE px per unit: what a phone shows, the stage scrolling
    // sideways; elsewhere style.css fits it to the stage instead.
    let size = |v: f64| ((v * READABLE).ceil() as u32).to_string();
    let mut class = classes!("stage");
    if p.manual {
        class.push("manual");
    }
    if !detailed {
        class.push("compact");
    }
    if bundled {
        class.push("bundled");
    }
    if sim.restarting_at().is_some() && sim.down_region().is_none() {
        // The whole job is down; a region's tasks show it on their own.
        class.push("down");
    }
    html! {
        <>
        <div class={class} onclick={onclick} onkeydown={onkeydown} data-testid="dataflow" data-items={in_flight.to_string()}>
            <svg class="graph" ref={graph} viewBox={format!("0 0 {} {}", w as u32, h as u32)} width={size(w)} height={size(h)}
                preserveAspectRatio="xMidYMid meet" role="group" aria-label={s.dataflow}
                font-size={format!("{}px", super::item::fmt(m.font))}>
                <g class="operators">{ for operators }</g>
                <g class="channels">
                    { folded }
                    { for channels }
                </g>
                <g class="chains">{ frames }</g>
                <g class="subtasks">{ for subtasks }</g>
                <g class="buffers">{ for buffers }</g>
            </svg>
            <canvas class="items" ref={canvas} aria-hidden="true"></canvas>
        </div>
        <p class="pan-hint" data-testid="pan-hint">{ s.pan_hint }</p>
        </>
    }
}
