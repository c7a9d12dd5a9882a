//! The page's start: mounts the app into `#app`, then removes the static shell.

use wasm_bindgen::{closure::Closure, JsCast};

/// Mounts the app, then drops the static shell the page was drawn with (`main.rs` and
/// `bin/abs-playground-zh.rs`, the page's two builds, each call this).
pub fn start() {
    super::crash::install();
    let document = web_sys::window().and_then(|w| w.document());
    // The app mounts into its own element (index.html), not the body: mounting clears its root,
    // and the body also holds the static shell that draws the default page before the wasm
    // arrives.
    match document.as_ref().and_then(|d| d.get_element_by_id("app")) {
        Some(root) => yew::Renderer::<super::App>::with_root(root).render(),
        None => yew::Renderer::<super::App>::new().render(),
    };
    // The shell is hidden by style.css as soon as the app is in. It is removed two frames
    // later, once the app's first frame is painted: the browser takes the page's largest
    // contentful paint from the shell only if the shell is still in the document when it next
    // paints after showing it.
    after_frames(2, || {
        if let Some(document) = web_sys::window().and_then(|w| w.document()) {
            if let Ok(boot) = document.query_selector_all("body > .boot") {
                for i in 0..boot.length() {
                    if let Some(node) = boot.item(i) {
                        if let Some(element) = node.dyn_ref::<web_sys::Element>() {
                            element.remove();
                        }
                    }
                }
            }
        }
    });
}

/// Runs `f` before the `n`th animation frame from now.
fn after_frames(n: u32, f: impl FnOnce() + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if n == 0 {
        f();
        return;
    }
    let next = Closure::once_into_js(move || after_frames(n - 1, f));
    let _ = window.request_animation_frame(next.unchecked_ref());
}
