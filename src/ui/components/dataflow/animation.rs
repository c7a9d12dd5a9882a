//! The requestAnimationFrame loop that drives playback and paints the items: each frame it
//! tells the reducer the time (which may run engine events) and repaints the moving items on
//! the canvas if anything they depend on changed.

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
    /// The SVG, whose box the graph is fitted into (the stage's, or wider on a phone).
    graph: NodeRef,
    inputs: Rc<RefCell<LoopInputs>>,
    /// The one callback every frame is requested with (a new closure per frame would be
    /// garbage for the JS engine sixty times a second), and the pending request's id.
    callback: RefCell<Option<FrameCallback>>,
    request: std::cell::Cell<Option<i32>>,
    painted: RefCell<Option<PaintKey>>,
    /// Where the canvas sits over the SVG (CSS px): only over the graph's fitted box, so
    /// the browser rasterises and composites no more pixels than the graph covers.
    placed: std::cell::Cell<(i32, i32, u32, u32)>,
    /// When the last paint happened (ms), and the fastest item's speed in layout units
    /// per unit of virtual time for the run it was computed for.
    last_paint: std::cell::Cell<f64>,
    fastest: std::cell::Cell<(usize, f64)>,
    stopped: std::cell::Cell<bool>,
    /// Whether the graph is larger than its stage, which then scrolls (and says so), and the
    /// least size (CSS px) the SVG's box was given.
    pans: std::cell::Cell<bool>,
    least: std::cell::Cell<(u32, u32)>,
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
pub fn start(canvas: NodeRef, graph: NodeRef, inputs: Rc<RefCell<LoopInputs>>) -> Frames {
    let state = Rc::new(Loop {
        canvas,
        graph,
        inputs,
        callback: RefCell::new(None),
        request: std::cell::Cell::new(None),
        painted: RefCell::new(None),
        placed: std::cell::Cell::new((0, 0, 0, 0)),
        last_paint: std::cell::Cell::new(0.0),
        fastest: std::cell::Cell::new((0, 0.0)),
        stopped: std::cell::Cell::new(false),
        pans: std::cell::Cell::new(false),
        least: std::cell::Cell::new((0, 0)),
        items: RefCell::new(Vec::new()),
        ctx: RefCell::new(None),
    });
    request(&state);
    Frames { _state: state }
}

#[cfg(not(target_arch = "wasm32"))]
pub fn start(_canvas: NodeRef, _graph: NodeRef, _inputs: Rc<RefCell<LoopInputs>>) -> Frames {
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

/// Whether the page shows its dark colours: the reader's choice (T, or the address's `theme`:
/// the root's `data-theme`), else the system's.
#[cfg(target_arch = "wasm32")]
pub fn dark() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    let theme = window
        .document()
        .and_then(|d| d.document_element())
        .and_then(|root| root.get_attribute("data-theme"));
    match theme.as_deref() {
        Some("dark") => true,
        Some("light") => false,
        _ => window
            .match_media("(prefers-color-scheme: dark)")
            .ok()
            .flatten()
            .is_some_and(|q| q.matches()),
    }
}

/// The smallest text on screen (px) wherever the graph is drawn: an embed, a compare lane,
/// the lesson page. A stage too small to fit the graph at that size scrolls instead.
const MIN_TEXT: f64 = 9.0;

/// The least box (px) the graph's SVG is given, for a drawing `width` × `height` units (its
/// view box) whose font is `font` units: its smallest text at `MIN_TEXT`. style.css sizes that
/// text `layout::SMALL_TEXT` of the drawing's font (an operator's kind, a slow channel's
/// line, a chain's label); the bundled drawing's labels are 10 units. The first picture (`ui::shell`) reads
/// the same from the rendered SVG.
pub fn least_size_of(width: f64, height: f64, font: f64, bundled: bool) -> (u32, u32) {
    let least = MIN_TEXT
        / if bundled {
            10.0
        } else {
            crate::ui::layout::SMALL_TEXT * font
        };
    ((width * least) as u32 + 1, (height * least) as u32 + 1)
}

/// [`least_size_of`] a layout, by its view box.
#[cfg(target_arch = "wasm32")]
fn least_size(l: &crate::ui::layout::Layout) -> (u32, u32) {
    least_size_of(l.width.ceil(), l.height.ceil(), l.metrics.font, l.bundled)
}

#[cfg(target_arch = "wasm32")]
fn frame(state: &Loop, ts: f64) {
    use wasm_bindgen::JsCast;

    let (on_frame, run, selection) = {
        let i = state.inputs.borrow();
        (i.on_frame.clone(), i.run.clone(), i.selection)
    };
    on_frame.emit(ts);
    let Some(canvas) = state.canvas.cast::<web_sys::HtmlCanvasElement>() else {
        return;
    };
    let Some(graph) = state.graph.cast::<web_sys::Element>() else {
        return;
    };
    let (w, h) = (
        graph.client_width().max(0) as u32,
        graph.client_height().max(0) as u32,
    );
    if w == 0 || h == 0 {
        return;
    }
    if let Some(stage) = graph.parent_element() {
        // Marked on the SVG, which Yew leaves this attribute to: style.css shows the hint to
        // scroll under a stage whose graph is larger than it.
        let pans = w as i32 > stage.client_width() + 1 || h as i32 > stage.client_height() + 1;
        if pans != state.pans.replace(pans) {
            let _ = graph.set_attribute("data-pans", if pans { "1" } else { "" });
        }
    }
    let dark = dark();
    let Ok(run) = run.0.try_borrow() else {
        return;
    };
    let l = &run.layout;
    // Never fitted smaller than its text allows: the SVG's box is at least the graph at
    // `least_scale` (through the style object: the content security policy refuses inline
    // style attributes), and the stage scrolls to the rest.
    let min = least_size(l);
    if state.least.replace(min) != min {
        graph
            .unchecked_ref::<web_sys::HtmlElement>()
            .style()
            .set_css_text(&format!(
                "min-width:max(100%,{}px);min-height:{}px",
                min.0, min.1
            ));
    }
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
        // Through the style object: the page's content security policy refuses inline style
        // attributes.
        canvas.style().set_css_text(&format!(
            "left:{}px;top:{}px;width:{bw}px;height:{bh}px",
            placed.0, placed.1
        ));
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
