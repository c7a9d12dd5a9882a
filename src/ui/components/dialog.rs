//! What every dialog does with the keyboard focus: take it when it opens (on the control
//! given), keep it inside while open (Tab and Shift+Tab cycle through its controls), and give
//! it back to whatever had it when it closes. Escape is the page's (it closes overlays).

use yew::prelude::*;

/// Focuses `first` when the dialog mounts and gives the focus back when it unmounts.
#[hook]
pub fn use_dialog_focus(first: NodeRef) {
    use_dialog_focus_while(true, first);
}

/// The same for a dialog that the app draws as a plain function of its props (no hooks of its
/// own): focuses `first` when `open` turns true, and gives the focus back when it turns false.
#[hook]
pub fn use_dialog_focus_while(open: bool, first: NodeRef) {
    use_effect_with(open, move |&open| {
        #[cfg(target_arch = "wasm32")]
        let before = open
            .then(|| {
                web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.active_element())
            })
            .flatten();
        #[cfg(target_arch = "wasm32")]
        if let Some(el) = first.cast::<web_sys::HtmlElement>().filter(|_| open) {
            let _ = el.focus();
        }
        #[cfg(not(target_arch = "wasm32"))]
        let _ = (open, first);
        move || {
            #[cfg(target_arch = "wasm32")]
            {
                use wasm_bindgen::JsCast;
                if let Some(el) = before.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
                    let _ = el.focus();
                }
            }
        }
    });
}

/// The dialog's `onkeydown`: Tab from its last control goes to its first, Shift+Tab from its
/// first to its last, so the focus never leaves it for the page behind.
pub fn trap_focus() -> Callback<KeyboardEvent> {
    Callback::from(|e: KeyboardEvent| {
        if e.key() == "Tab" {
            cycle(&e);
        }
    })
}

#[cfg(not(target_arch = "wasm32"))]
fn cycle(_e: &KeyboardEvent) {}

#[cfg(target_arch = "wasm32")]
fn cycle(e: &KeyboardEvent) {
    use wasm_bindgen::JsCast;
    // Yew listens at its root, so the dialog is found from the focused element.
    let Some(dialog) = super::target_closest(e, "[role=dialog]") else {
        return;
    };
    let Ok(list) = dialog.query_selector_all(
        "button:not([disabled]), input, select, textarea, a[href], [tabindex=\"0\"]",
    ) else {
        return;
    };
    let controls: Vec<web_sys::HtmlElement> = (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<web_sys::HtmlElement>().ok())
        .filter(|el| el.offset_parent().is_some())
        .collect();
    let (Some(first), Some(last)) = (controls.first(), controls.last()) else {
        e.prevent_default();
        return;
    };
    let active = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element());
    let is = |el: &web_sys::HtmlElement| {
        active
            .as_ref()
            .is_some_and(|a| a == el.unchecked_ref::<web_sys::Element>())
    };
    let inside = controls.iter().any(is);
    if e.shift_key() && (is(first) || !inside) {
        e.prevent_default();
        let _ = last.focus();
    } else if !e.shift_key() && (is(last) || !inside) {
        e.prevent_default();
        let _ = first.focus();
    }
}
