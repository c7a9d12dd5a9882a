//! The keyboard: Space play/pause, → step, ← step back, B trigger, M manual, X fail the
//! selected subtask, ? shortcuts, Esc close.
//!
//! A choice from the Scenario or Mode menu picked from its open list (with the pointer, or
//! Enter) hands the focus to Play, so that the shortcuts the page names work at once: Space
//! plays, → steps. A choice made with the arrow keys on the closed menu keeps the focus there,
//! so that the next arrow goes on choosing, as a menu does.

use super::state::Playback;
#[cfg(target_arch = "wasm32")]
use super::state::PlaybackAction;
use yew::prelude::*;

#[cfg(target_arch = "wasm32")]
pub fn listen(
    dispatcher: UseReducerDispatcher<Playback>,
) -> Option<[gloo::events::EventListener; 2]> {
    use gloo::events::{EventListener, EventListenerOptions};
    use std::cell::Cell;
    use std::rc::Rc;
    use wasm_bindgen::JsCast;

    let window = web_sys::window()?;
    let options = EventListenerOptions::enable_prevent_default();
    // Whether the last key pressed on a menu was one that chooses on the closed menu (an
    // arrow, Home, End, a letter): its change keeps the focus on the menu.
    let choosing = Rc::new(Cell::new(false));
    let picked = {
        let choosing = choosing.clone();
        EventListener::new(&window, "change", move |e| {
            let menu = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok())
                .filter(|m| {
                    matches!(
                        m.get_attribute("data-testid").as_deref(),
                        Some("preset" | "mode")
                    )
                });
            if menu.is_some() && !choosing.replace(false) {
                let play = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.query_selector("[data-testid=play]").ok().flatten())
                    .and_then(|b| b.dyn_into::<web_sys::HtmlElement>().ok());
                if let Some(play) = play {
                    let _ = play.focus();
                }
            }
        })
    };
    let keys = EventListener::new_with_options(
        &window,
        "keydown",
        options,
        move |e| {
            let Some(e) = e.dyn_ref::<web_sys::KeyboardEvent>() else {
                return;
            };
            let tag = e
                .target()
                .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                .map(|el| el.tag_name());
            let key = e.key();
            if tag.as_deref() == Some("SELECT") {
                // Space and Enter open the list; what is picked there goes to Play.
                choosing.set(
                    key.starts_with("Arrow")
                        || matches!(key.as_str(), "Home" | "End" | "PageUp" | "PageDown")
                        || (key.chars().count() == 1 && key != " "),
                );
            }
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let in_field = matches!(tag.as_deref(), Some("INPUT" | "SELECT" | "TEXTAREA"));
            if in_field && key != "Escape" {
                return;
            }
            // Space (and Enter) on a focused button or link presses that, not Play; on a
            // focused subtask or channel it selects that (the dataflow's own handler).
            let on_control = matches!(tag.as_deref(), Some("BUTTON" | "A"))
                || e.target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| el.has_attribute("data-sel"));
            if on_control && matches!(key.as_str(), " " | "Spacebar" | "Enter") {
                return;
            }
            let action = match key.as_str() {
                " " | "Spacebar" => PlaybackAction::TogglePlay,
                "ArrowRight" => PlaybackAction::Step,
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
    );
    Some([keys, picked])
}

/// Nothing to listen to outside the browser (server-side rendering).
#[cfg(not(target_arch = "wasm32"))]
pub struct Listener;

#[cfg(not(target_arch = "wasm32"))]
pub fn listen(_dispatcher: UseReducerDispatcher<Playback>) -> Option<Listener> {
    None
}
