//! Hit-testing: what a click on the stage points at — an item under the pointer first (items
//! are painted on a canvas, so they are found by geometry), else the subtask or channel whose
//! element carries `data-sel`.

use super::*;

#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub(super) enum Picked {
    Item(Placed),
    Channel(ChannelId),
    Task(TaskId),
    /// Bundled: an operator's card or an edge's band, opened in the inspector.
    #[cfg(feature = "views")]
    Open(Selection),
    Nothing,
}

/// What an element's `data-sel` names: `t:` a subtask, `c:` a channel, and bundled `o:` an
/// operator's card, `e:` an edge's band.
pub(super) fn named(sel: &str) -> Option<Picked> {
    let (kind, id) = sel.split_once(':')?;
    let id = id.parse::<u32>().ok()?;
    match kind {
        "t" => Some(Picked::Task(id)),
        "c" => Some(Picked::Channel(id)),
        #[cfg(feature = "views")]
        "o" => Some(Picked::Open(Selection::Operator(id))),
        #[cfg(feature = "views")]
        "e" => Some(Picked::Open(Selection::Edge(id))),
        _ => None,
    }
}

/// What a click on the stage points at (`graph`: the SVG, whose box the graph is fitted into).
pub(super) fn pick(run: &RunRef, graph: &NodeRef, e: &MouseEvent) -> Picked {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        if let Some(el) = graph.cast::<web_sys::Element>() {
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
            // Bundled, a subtask is a cell of its card's strip, drawn in one path.
            if crate::ui::layout::BUNDLES && l.bundled {
                if let Some(t) = l.subtasks.iter().position(|b| b.rect.contains(at)) {
                    return Picked::Task(t as TaskId);
                }
            }
        }
        let sel = e
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|el| el.closest("[data-sel]").ok().flatten())
            .and_then(|el| el.get_attribute("data-sel"));
        if let Some(picked) = sel.as_deref().and_then(named) {
            return picked;
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (run, graph, e, item::hit);
    Picked::Nothing
}
