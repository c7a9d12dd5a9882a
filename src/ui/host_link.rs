//! The `postMessage` link with a page that embeds the player: listening (only to the
//! `origin` the address names, if any) and posting. What the messages mean is `host.rs`'s.

use super::host::HostMessage;

/// The `origin` the address names, if any: only its messages are taken, and ours go only
/// to it.
#[cfg(target_arch = "wasm32")]
pub(crate) fn origin() -> Option<String> {
    web_sys::window()
        .and_then(|w| w.location().search().ok())
        .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
        .and_then(|p| p.get("origin"))
}

/// Hands every message of the API (`HostMessage::read`) from the allowed origin to `on`.
#[cfg(target_arch = "wasm32")]
pub fn listen(on: impl Fn(HostMessage) + 'static) -> Option<gloo::events::EventListener> {
    use wasm_bindgen::{JsCast, JsValue};
    let window = web_sys::window()?;
    let only = origin();
    Some(gloo::events::EventListener::new(
        &window,
        "message",
        move |e| {
            let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() else {
                return;
            };
            if only.as_ref().is_some_and(|o| *o != e.origin()) {
                return;
            }
            let data = e.data();
            if !data.is_object() {
                return;
            }
            let get = |k: &str| js_sys::Reflect::get(&data, &JsValue::from_str(k)).ok();
            let message = HostMessage::read(
                get("type").and_then(|v| v.as_string()),
                // A field holding an object (`scenario`) is read as its JSON text.
                |k| {
                    get(k).and_then(|v| match v.as_string() {
                        Some(text) => Some(text),
                        None if v.is_object() => js_sys::JSON::stringify(&v).ok().map(String::from),
                        None => None,
                    })
                },
                |k| get(k).and_then(|v| v.as_f64()),
            );
            if let Some(m) = message {
                on(m);
            }
        },
    ))
}

/// Posts a message (JSON text) to the embedding page, if there is one.
#[cfg(target_arch = "wasm32")]
pub fn post(text: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if js_sys::Object::is(&parent, &window) {
        return;
    }
    if let Ok(v) = js_sys::JSON::parse(text) {
        let _ = parent.post_message(&v, origin().as_deref().unwrap_or("*"));
    }
}

#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    js_sys::Date::now()
}

#[cfg(not(target_arch = "wasm32"))]
pub fn listen(_on: impl Fn(HostMessage) + 'static) -> Option<()> {
    None
}

#[cfg(not(target_arch = "wasm32"))]
pub fn post(_text: &str) {}

#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    0.0
}
