//! The keyboard: Space play/pause, → step, N next key event, ← step back, B trigger, M manual, X fail the
//! selected subtask, ? shortcuts, Esc close; P the projector's larger text, T light or dark.
//!
//! They work wherever the focus is but in a text field, the Scenario and Mode menus included:
//! after a choice there, → steps rather than choosing again and Space plays. ↑ and ↓ still
//! choose in a menu, and Alt+↓ opens its list.

use super::state::Playback;
#[cfg(target_arch = "wasm32")]
use super::state::PlaybackAction;
use yew::prelude::*;

#[cfg(target_arch = "wasm32")]
pub fn listen(dispatcher: UseReducerDispatcher<Playback>) -> Option<gloo::events::EventListener> {
    use gloo::events::{EventListener, EventListenerOptions};
    use wasm_bindgen::JsCast;

    let window = web_sys::window()?;
    let options = EventListenerOptions::enable_prevent_default();
    Some(EventListener::new_with_options(
        &window,
        "keydown",
        options,
        move |e| {
            let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let target = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok());
            let tag = target.as_ref().map(|el| el.tag_name());
            // The language menu stays a plain menu: choosing there opens another page.
            let menu = target
                .as_ref()
                .and_then(|el| el.get_attribute("data-testid"))
                .is_some_and(|id| id == "preset" || id == "mode");
            let in_field = matches!(tag.as_deref(), Some("INPUT" | "SELECT" | "TEXTAREA")) && !menu;
            let key = e.key();
            if in_field && key != "Escape" {
                return;
            }
            // Space (and Enter) on a focused button or link presses that, not Play; on a
            // focused subtask or channel it selects that (the dataflow's own handler).
            let on_control = matches!(tag.as_deref(), Some("BUTTON" | "A"))
                || target.is_some_and(|el| el.has_attribute("data-sel"));
            if on_control && matches!(key.as_str(), " " | "Spacebar" | "Enter") {
                return;
            }
            if matches!(key.as_str(), "p" | "P" | "t" | "T") {
                e.prevent_default();
                display(key == "p" || key == "P");
                return;
            }
            let action = match key.as_str() {
                " " | "Spacebar" => PlaybackAction::TogglePlay,
                "ArrowRight" => PlaybackAction::Step,
                "n" | "N" => PlaybackAction::NextKey,
                "ArrowLeft" => PlaybackAction::StepBack,
                "b" | "B" => PlaybackAction::Trigger,
                "m" | "M" => PlaybackAction::ToggleManual,
                "x" | "X" => PlaybackAction::FailSelected,
                "?" => PlaybackAction::ToggleHelp,
                "Escape" => PlaybackAction::CloseOverlays,
                _ => return,
            };
            e.prevent_default();
            dispatcher.dispatch(action);
        },
    ))
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// The page's display, for a classroom (index.html): `true` the projector's larger text,
    /// `false` light and dark swapped whatever the system's; kept in the address.
    #[wasm_bindgen(js_name = absDisplay)]
    fn display(projector: bool);
}

/// The display the address keeps (`theme=…`, `projector`), as parameters to carry to another
/// build of the page (the language menu).
pub fn display_params() -> String {
    #[cfg(target_arch = "wasm32")]
    let search = web_sys::window()
        .and_then(|w| w.location().search().ok())
        .unwrap_or_default();
    #[cfg(not(target_arch = "wasm32"))]
    let search = String::new();
    search
        .trim_start_matches('?')
        .split('&')
        .filter(|p| p.starts_with("theme=") || p.split('=').next() == Some("projector"))
        .map(|p| format!("&{p}"))
        .collect()
}

/// Nothing to listen to outside the browser (server-side rendering).
#[cfg(not(target_arch = "wasm32"))]
pub struct Listener;

#[cfg(not(target_arch = "wasm32"))]
pub fn listen(_dispatcher: UseReducerDispatcher<Playback>) -> Option<Listener> {
    None
}
