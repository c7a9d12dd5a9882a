//! The dataflow view: operators, subtasks, channels and alignment buffers in SVG, with the
//! moving items painted on a canvas over it every animation frame.
//!
//! The animation loop lives here: each frame it tells the reducer the time (which may run
//! engine events) and repaints the items if anything they depend on changed. Clicks are
//! resolved in one place: an item under the pointer first, else the subtask or channel whose
//! element carries `data-sel`.

use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::buffer::{alignment_buffer, BufferProps};
use super::channel::{Channel, ChannelProps};
use super::item::{self, Placed};
use super::operator::{operator, OperatorProps};
use super::subtask::{subtask, SubtaskProps};
use crate::engine::snapshot::TaskState;
use crate::engine::view::{self, TaskStatus};
use crate::engine::{Action, ChannelId, Simulation, TaskId};
use crate::i18n::{Lang, Strings};
use crate::ui::layout::Layout;
use crate::ui::state::{RunRef, Selection};

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

/// What a subtask's status badge says.
pub fn status_text(s: &Strings, status: &TaskStatus) -> String {
    match status {
        TaskStatus::Running => s.status_running.to_string(),
        TaskStatus::Aligning { checkpoint, .. } => (s.status_aligning)(*checkpoint),
        TaskStatus::Tracking { checkpoint, .. } => (s.status_tracking)(*checkpoint),
        TaskStatus::Persisting { checkpoint, .. } => (s.status_persisting)(*checkpoint),
        TaskStatus::Snapshotting { checkpoint } => (s.status_snapshotting)(*checkpoint),
        TaskStatus::Replaying { held } => (s.status_replaying)(*held),
        TaskStatus::Finished => s.status_finished.to_string(),
        TaskStatus::Backpressured => s.status_backpressured.to_string(),
        TaskStatus::Failed => s.status_failed.to_string(),
        TaskStatus::Cancelled => s.status_cancelled.to_string(),
    }
}

/// The state line under a subtask's badge: its state, and for a source replaying after a
/// recovery, up to where (↻).
fn task_text(s: &Strings, sim: &Simulation, task: &crate::engine::task::Task) -> String {
    let text = state_text(s, sim, &task.state);
    match task.state {
        TaskState::Source { offset } if offset < task.replays_until() => {
            format!("{text} ↻ {}", task.replays_until())
        }
        _ => text,
    }
}

/// One line of a subtask's state.
pub fn state_text(s: &Strings, sim: &Simulation, state: &TaskState) -> String {
    match state {
        TaskState::Source { offset } => (s.state_offset)(*offset),
        TaskState::Stateless { processed } => (s.state_processed)(*processed),
        TaskState::Token { token } => (s.state_token)(*token),
        TaskState::Account { balance } => (s.state_balance)(*balance),
        TaskState::Count { counts } => {
            if counts.is_empty() {
                return (s.state_keys)(0);
            }
            // Most frequent first, ties by word id; `!n` sorts descending in the shared sort.
            let mut top: Vec<(u64, u64)> =
                counts.iter().map(|(&w, &n)| (!n, u64::from(w))).collect();
            top.sort_unstable();
            let mut line = String::new();
            for (n, w) in top {
                let part = format!("{}={}", sim.word(w as u32), !n);
                if !line.is_empty() && line.chars().count() + part.chars().count() > 18 {
                    line.push('…');
                    break;
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line += &part;
            }
            line
        }
        TaskState::Sink { received, .. } => (s.state_received)(*received),
    }
}

/// The names and test hooks of one run's graph, made once rather than on every render.
struct Scene {
    operators: Vec<(AttrValue, AttrValue)>,
    subtasks: Vec<(AttrValue, AttrValue)>,
    channels: Vec<AttrValue>,
    /// Each channel's curve and the tail drawn at its input port when blocked, as SVG path data.
    paths: Vec<(AttrValue, AttrValue)>,
    buffers: Vec<AttrValue>,
}

impl Scene {
    fn new(phys: &crate::engine::Physical, layout: &Layout) -> Scene {
        Scene {
            operators: phys
                .graph
                .operators
                .iter()
                .map(|op| {
                    (
                        format!("operator-{}", op.name).into(),
                        op.name.clone().into(),
                    )
                })
                .collect(),
            subtasks: phys
                .tasks
                .iter()
                .map(|t| {
                    let op = &phys.graph.operators[t.operator as usize].name;
                    (
                        format!("subtask-{}-{}", op, t.subtask).into(),
                        t.name.clone().into(),
                    )
                })
                .collect(),
            channels: (0..phys.channel_count())
                .map(|c| format!("channel-{}", phys.channel_name(c)).into())
                .collect(),
            paths: layout
                .channels
                .iter()
                .map(|path| (path.svg_d().into(), path.tail_d().into()))
                .collect(),
            buffers: (0..phys.channel_count())
                .map(|c| format!("buffer-{}", phys.channel_name(c)).into())
                .collect(),
        }
    }
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
    let stage = use_node_ref();
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
        let inputs = inputs.clone();
        use_effect_with((), move |_| {
            let frames = animation::start(canvas, inputs);
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
    let channels = phys.channels.iter().enumerate().map(|(c, _)| {
        let id = c as ChannelId;
        let ch = &sim.channels()[c];
        let slow = ch.latency >= 2 * min_latency;
        // Only the detailed drawing shows the label: no string per channel otherwise.
        let slow_label = match (slow && detailed, !ch.fifo && detailed) {
            (true, true) => AttrValue::from(format!("{} · {}", (s.slow)(ch.latency), s.non_fifo)),
            (true, false) => AttrValue::from((s.slow)(ch.latency)),
            (false, true) => AttrValue::Static(s.non_fifo),
            (false, false) => AttrValue::Static(""),
        };
        let props = ChannelProps {
            id,
            testid: scene.channels[c].clone(),
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
            dropped: view::dropped_on(sim, id),
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
        let id = c as ChannelId;
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
            testid: scene.buffers[c].clone(),
            path: layout.channels[c].clone(),
            metrics: m,
            held,
            lang: p.lang,
            log: None,
        }))
    });
    let subtasks = phys.tasks.iter().enumerate().map(|(t, _)| {
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

    let onclick = {
        let run = p.run.clone();
        let stage = stage.clone();
        let manual = p.manual;
        let on_select = p.on_select.clone();
        let on_deliver = p.on_deliver.clone();
        let on_poke = p.on_poke.clone();
        Callback::from(move |e: MouseEvent| {
            let picked = pick(&run, &stage, &e);
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
            let id = |v: &str| v.parse::<u32>().ok();
            let picked = match sel.split_once(':') {
                Some(("t", v)) => id(v).map(Picked::Task),
                Some(("c", v)) => id(v).map(Picked::Channel),
                _ => None,
            };
            e.prevent_default();
            match picked {
                Some(Picked::Channel(c)) if manual => on_deliver.emit(c),
                Some(Picked::Channel(c)) => on_select.emit(Some(Selection::Channel(c))),
                Some(Picked::Task(t)) if manual => on_poke.emit(t),
                Some(Picked::Task(t)) => on_select.emit(Some(Selection::Task(t))),
                _ => {}
            }
        })
    };
    let mut class = classes!("stage");
    if p.manual {
        class.push("manual");
    }
    if !detailed {
        class.push("compact");
    }
    if sim.restarting_at().is_some() {
        class.push("down");
    }
    html! {
        <div class={class} ref={stage} onclick={onclick} onkeydown={onkeydown} data-testid="dataflow" data-items={in_flight.to_string()}>
            <svg class="graph" viewBox={format!("0 0 {} {}", layout.width.ceil() as u32, layout.height.ceil() as u32)}
                preserveAspectRatio="xMidYMid meet" role="group" aria-label={s.dataflow}
                style={format!("--font:{}px", super::item::fmt(m.font))}>
                <g class="operators">{ for operators }</g>
                <g class="channels">{ for channels }</g>
                <g class="subtasks">{ for subtasks }</g>
                <g class="buffers">{ for buffers }</g>
            </svg>
            <canvas class="items" ref={canvas} aria-hidden="true"></canvas>
        </div>
    }
}

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
enum Picked {
    Item(Placed),
    Channel(ChannelId),
    Task(TaskId),
    Nothing,
}

/// What a click on the stage points at.
fn pick(run: &RunRef, stage: &NodeRef, e: &MouseEvent) -> Picked {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        if let Some(el) = stage.cast::<web_sys::Element>() {
            let rect = el.get_bounding_client_rect();
            let run = run.0.borrow();
            let l = &run.layout;
            let f = crate::ui::layout::fit(l.width, l.height, rect.width(), rect.height());
            let at = f.to_layout(
                e.client_x() as f64 - rect.left(),
                e.client_y() as f64 - rect.top(),
            );
            let items = item::place(run.sim(), l, run.clock);
            if let Some(it) = item::hit(&items, at, &l.metrics) {
                return Picked::Item(it);
            }
        }
        let sel = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("[data-sel]").ok().flatten())
            .and_then(|el| el.get_attribute("data-sel"));
        if let Some(sel) = sel {
            let id = sel.get(2..).and_then(|n| n.parse::<u32>().ok());
            match (sel.get(..2), id) {
                (Some("c:"), Some(c)) => return Picked::Channel(c),
                (Some("t:"), Some(t)) => return Picked::Task(t),
                _ => {}
            }
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (run, stage, e, item::hit);
    Picked::Nothing
}

/// The requestAnimationFrame loop that drives playback and paints the items.
mod animation {
    use super::*;

    #[cfg(target_arch = "wasm32")]
    pub struct Frames {
        _state: Rc<Loop>,
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub struct Frames;

    #[cfg(target_arch = "wasm32")]
    type FrameCallback = wasm_bindgen::closure::Closure<dyn FnMut(f64)>;

    #[cfg(target_arch = "wasm32")]
    struct Loop {
        canvas: NodeRef,
        inputs: Rc<RefCell<LoopInputs>>,
        /// The one callback every frame is requested with (a new closure per frame would be
        /// garbage for the JS engine sixty times a second), and the pending request's id.
        callback: RefCell<Option<FrameCallback>>,
        request: std::cell::Cell<Option<i32>>,
        painted: RefCell<Option<PaintKey>>,
        /// Where the canvas sits in the stage (CSS px): only over the graph's fitted box, so
        /// the browser rasterises and composites no more pixels than the graph covers.
        placed: std::cell::Cell<(i32, i32, u32, u32)>,
        /// When the last paint happened (ms), and the fastest item's speed in layout units
        /// per unit of virtual time for the run it was computed for.
        last_paint: std::cell::Cell<f64>,
        fastest: std::cell::Cell<(usize, f64)>,
        dark: Option<web_sys::MediaQueryList>,
        stopped: std::cell::Cell<bool>,
        /// The items of the last paint, kept so that a frame allocates nothing.
        items: RefCell<Vec<Placed>>,
        /// The 2D context of the canvas element it was made for.
        ctx: RefCell<
            Option<(
                web_sys::HtmlCanvasElement,
                web_sys::CanvasRenderingContext2d,
            )>,
        >,
    }

    /// What the last paint showed; an identical frame is not painted again.
    #[cfg(target_arch = "wasm32")]
    #[derive(PartialEq)]
    struct PaintKey {
        run: usize,
        position: u64,
        clock: u64,
        size: (u32, u32),
        dark: bool,
        selection: Option<Selection>,
    }

    #[cfg(target_arch = "wasm32")]
    impl Drop for Frames {
        fn drop(&mut self) {
            self._state.stopped.set(true);
            if let (Some(id), Some(window)) = (self._state.request.take(), web_sys::window()) {
                let _ = window.cancel_animation_frame(id);
            }
            self._state.callback.borrow_mut().take();
        }
    }

    #[cfg(target_arch = "wasm32")]
    pub fn start(canvas: NodeRef, inputs: Rc<RefCell<LoopInputs>>) -> Frames {
        let dark = web_sys::window()
            .and_then(|w| w.match_media("(prefers-color-scheme: dark)").ok().flatten());
        let state = Rc::new(Loop {
            canvas,
            inputs,
            callback: RefCell::new(None),
            request: std::cell::Cell::new(None),
            painted: RefCell::new(None),
            placed: std::cell::Cell::new((0, 0, 0, 0)),
            last_paint: std::cell::Cell::new(0.0),
            fastest: std::cell::Cell::new((0, 0.0)),
            dark,
            stopped: std::cell::Cell::new(false),
            items: RefCell::new(Vec::new()),
            ctx: RefCell::new(None),
        });
        request(&state);
        Frames { _state: state }
    }

    #[cfg(not(target_arch = "wasm32"))]
    pub fn start(_canvas: NodeRef, _inputs: Rc<RefCell<LoopInputs>>) -> Frames {
        Frames
    }

    /// Asks for the next frame. The callback holds the loop weakly: dropping `Frames` ends it.
    #[cfg(target_arch = "wasm32")]
    fn request(state: &Rc<Loop>) {
        use wasm_bindgen::JsCast;

        let mut callback = state.callback.borrow_mut();
        let callback = callback.get_or_insert_with(|| {
            let weak = Rc::downgrade(state);
            wasm_bindgen::closure::Closure::new(move |ts: f64| {
                let Some(state) = weak.upgrade() else {
                    return;
                };
                state.request.set(None);
                if state.stopped.get() {
                    return;
                }
                frame(&state, ts);
                if !state.stopped.get() {
                    request(&state);
                }
            })
        });
        let id = web_sys::window().and_then(|w| {
            w.request_animation_frame(callback.as_ref().unchecked_ref())
                .ok()
        });
        state.request.set(id);
    }

    #[cfg(target_arch = "wasm32")]
    fn frame(state: &Loop, ts: f64) {
        let (on_frame, run, selection) = {
            let i = state.inputs.borrow();
            (i.on_frame.clone(), i.run.clone(), i.selection)
        };
        on_frame.emit(ts);
        let Some(canvas) = state.canvas.cast::<web_sys::HtmlCanvasElement>() else {
            return;
        };
        let Some(stage) = canvas.parent_element() else {
            return;
        };
        let (w, h) = (
            stage.client_width().max(0) as u32,
            stage.client_height().max(0) as u32,
        );
        if w == 0 || h == 0 {
            return;
        }
        let dark = state.dark.as_ref().is_some_and(|q| q.matches());
        let Ok(run) = run.0.try_borrow() else {
            return;
        };
        let key = PaintKey {
            run: Rc::as_ptr(&state.inputs.borrow().run.0) as usize,
            position: run.position(),
            clock: run.clock.to_bits(),
            size: (w, h),
            dark,
            selection,
        };
        let dpr = web_sys::window()
            .map_or(1.0, |w| w.device_pixel_ratio())
            .max(1.0);
        let l = &run.layout;
        let f = crate::ui::layout::fit(l.width, l.height, w as f64, h as f64);
        {
            let painted = state.painted.borrow();
            if let Some(prev) = painted.as_ref() {
                if *prev == key {
                    return;
                }
                // While playing, a typical item moving less than a pixel is not worth a
                // paint; a new step is shown within 50 ms at the latest.
                let same_view = prev.run == key.run
                    && prev.size == key.size
                    && prev.dark == key.dark
                    && prev.selection == key.selection;
                let (now, before) = (f64::from_bits(key.clock), f64::from_bits(prev.clock));
                if same_view && now > before {
                    if state.fastest.get().0 != key.run {
                        state.fastest.set((key.run, fastest(&run)));
                    }
                    let moved = (now - before) * state.fastest.get().1 * f.scale * dpr;
                    if moved < 1.0 && ts - state.last_paint.get() < 50.0 {
                        return;
                    }
                }
            }
        }
        let (bx, by) = (f.dx.floor(), f.dy.floor());
        let bw = ((f.dx + l.width * f.scale).ceil() - bx).max(1.0) as u32;
        let bh = ((f.dy + l.height * f.scale).ceil() - by).max(1.0) as u32;
        let placed = (bx as i32, by as i32, bw, bh);
        if state.placed.get() != placed {
            let _ = canvas.set_attribute(
                "style",
                &format!(
                    "left:{}px;top:{}px;width:{bw}px;height:{bh}px",
                    placed.0, placed.1
                ),
            );
            state.placed.set(placed);
        }
        let (pw, ph) = ((bw as f64 * dpr) as u32, (bh as f64 * dpr) as u32);
        if canvas.width() != pw || canvas.height() != ph {
            canvas.set_width(pw);
            canvas.set_height(ph);
        }
        let Some(ctx) = context(state, &canvas) else {
            return;
        };
        let _ = ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0);
        ctx.clear_rect(0.0, 0.0, pw as f64, ph as f64);
        let _ = ctx.set_transform(
            dpr * f.scale,
            0.0,
            0.0,
            dpr * f.scale,
            dpr * (f.dx - bx),
            dpr * (f.dy - by),
        );
        let mut items = state.items.borrow_mut();
        item::place_into(&mut items, run.sim(), l, run.clock);
        let theme = if dark {
            crate::ui::palette::DARK
        } else {
            crate::ui::palette::LIGHT
        };
        let selected = match selection {
            Some(Selection::Item { channel, item }) => Some((channel, item)),
            _ => None,
        };
        item::paint(
            &ctx,
            &items,
            &l.metrics,
            l.detailed,
            &theme,
            selected,
            run.sim().mode(),
        );
        *state.painted.borrow_mut() = Some(key);
        state.last_paint.set(ts);
    }

    /// The canvas's 2D context, made once per canvas element. It is `desynchronized`: the
    /// browser hands each painted frame to the compositor directly instead of copying the
    /// bitmap during the main thread's commit — with thousands of items that commit was the
    /// largest cost of a frame. (Browsers without the hint ignore it.)
    #[cfg(target_arch = "wasm32")]
    fn context(
        state: &Loop,
        canvas: &web_sys::HtmlCanvasElement,
    ) -> Option<web_sys::CanvasRenderingContext2d> {
        use wasm_bindgen::JsCast;

        let mut cached = state.ctx.borrow_mut();
        if let Some((element, ctx)) = cached.as_ref() {
            if element == canvas {
                return Some(ctx.clone());
            }
        }
        let options = js_sys::Object::new();
        let _ = js_sys::Reflect::set(&options, &"desynchronized".into(), &true.into());
        let ctx = canvas
            .get_context_with_context_options("2d", &options)
            .ok()
            .flatten()?
            .dyn_into::<web_sys::CanvasRenderingContext2d>()
            .ok()?;
        *cached = Some((canvas.clone(), ctx.clone()));
        Some(ctx)
    }

    /// How fast a typical item moves (the median over channels of path length over latency),
    /// in layout units per unit of virtual time.
    #[cfg(target_arch = "wasm32")]
    fn fastest(run: &crate::ui::run::Run) -> f64 {
        crate::ui::layout::typical_speed(
            run.layout
                .channels
                .iter()
                .zip(run.sim().channels())
                .map(|(p, c)| p.length() / c.latency.max(1) as f64),
        )
    }
}
