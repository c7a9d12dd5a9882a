//! The second build (`bin/abs-views.rs`): the views a student's visit never opens, each a page
//! of its own that index.html loads for `?view=…` — the engineers' view of Flink checkpoints
//! (`view=flink`, `ui::flink`), the scenario editor (`view=edit`, `ui::edit`) and the search of
//! every run of a small system (`view=explore`, `ui::explore`), and the modes side by side
//! (`compare=aligned,unaligned,…`, `ui::compare`). This file only routes: what they share is
//! `ui::kit`.

use wasm_bindgen::JsCast;
use yew::BaseComponent;

use super::kit::{address, lang};
use super::routes::View;

/// Mounts the view the address asks for (`view=edit`: the editor; `view=explore`: every run of
/// a small system; otherwise the Flink view) in
/// the address's language.
pub fn start() {
    let document = web_sys::window().and_then(|w| w.document());
    let at = address();
    let view = View::of(at.view.as_deref(), at.compare.is_some());
    let (code, title): (&str, String) = match view {
        View::Compare => {
            let lang = lang(at.lang.as_deref());
            (lang.tag(), super::compare::words::Words(lang).short_title())
        }
        View::Explore => {
            let lang = lang(at.lang.as_deref());
            (lang.tag(), super::explore::words::Words(lang).start())
        }
        View::Edit => {
            let lang = lang(at.lang.as_deref());
            (lang.tag(), super::edit::words::Words(lang).title())
        }
        View::Flink => {
            let lang = super::flink::words::ViewLang::from_param(at.lang.as_deref());
            let code = if lang == super::flink::words::ViewLang::Zh {
                "zh"
            } else {
                "en"
            };
            (code, lang.words().title.to_string())
        }
    };
    if let Some(doc) = &document {
        if let Some(root) = doc.document_element() {
            let _ = root.set_attribute("lang", code);
        }
        doc.set_title(&title);
    }
    // Mounted into the page's `#app`, as the playground is; the static shell goes at once (the
    // playground keeps it two frames for its largest paint, which these views do not chase).
    let root = document.as_ref().and_then(|d| d.get_element_by_id("app"));
    match view {
        View::Compare => render::<super::compare::CompareView>(root),
        View::Explore => render::<super::explore::ExploreView>(root),
        View::Edit => render::<super::edit::EditorView>(root),
        View::Flink => render::<super::flink::FlinkView>(root),
    }
    if let Some(boot) = document.and_then(|d| d.query_selector_all("body > .boot").ok()) {
        for i in 0..boot.length() {
            if let Some(element) = boot
                .item(i)
                .and_then(|n| n.dyn_into::<web_sys::Element>().ok())
            {
                element.remove();
            }
        }
    }
}

fn render<C: BaseComponent<Properties = ()>>(root: Option<web_sys::Element>) {
    match root {
        Some(root) => yew::Renderer::<C>::with_root(root).render(),
        None => yew::Renderer::<C>::new().render(),
    };
}
