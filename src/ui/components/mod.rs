//! One component per visual concept. Most are plain functions of their props, drawn again
//! whenever their parent is: a Yew component's machinery costs about 0.75 KB gzip of wasm each.
//! Yew components remain where they pay: views with state of their own (`Dataflow`, `Editor`)
//! and `Channel`, drawn thousands of times on a big graph, where comparing props
//! skips the unchanged ones (as a function it cost the `large` benchmark 1.7 points of
//! main-thread time and a 33 ms frame). The help and share dialogs are functions too: the app
//! moves the focus into them and back (`dialog::use_dialog_focus_while`).

pub mod buffer;
#[cfg(feature = "views")]
pub mod bundled;
#[cfg(feature = "views")]
pub mod chains;
pub mod channel;
pub mod controls;
pub mod coordinator;
pub mod dataflow;
pub mod dialog;
pub mod global_states;
pub mod header;
pub mod help;
pub mod inspector;
pub mod item;
pub mod legend;
pub mod narration;
pub mod operator;
pub mod recovery;
pub mod share;
pub mod spacetime;
pub mod subtask;
pub mod theory;
pub mod throughput;
pub mod timeline;

/// Tables and lists longer than this end with "… and n more" (the inspector's, and the
/// checkpoints the coordinator points to there).
pub const MAX_ROWS: usize = 40;

/// The element an event happened on, or the nearest ancestor of it that matches `selector`.
/// Yew listens at its root, so a view's listener finds what was clicked or focused this way
/// (markup written as strings has no listeners of its own).
/// A listener for markup written as a string: a click inside an element matching `selector`
/// emits that element's `data-id` (the checkpoint rows and cards).
pub fn on_data_id(
    selector: &'static str,
    emit: yew::Callback<u64>,
) -> yew::Callback<yew::MouseEvent> {
    yew::Callback::from(move |e: yew::MouseEvent| {
        let id = target_closest(&e, selector)
            .and_then(|el| el.get_attribute("data-id"))
            .and_then(|id| id.parse().ok());
        if let Some(id) = id {
            emit.emit(id);
        }
    })
}

pub fn target_closest(e: &web_sys::Event, selector: &str) -> Option<web_sys::Element> {
    use wasm_bindgen::JsCast;
    e.target()?
        .dyn_into::<web_sys::Element>()
        .ok()?
        .closest(selector)
        .ok()
        .flatten()
}
