//! The lesson page's link with a learning management system. Inside one — a SCORM 1.2
//! run-time's `API` object on this window, a parent (up to seven levels, as SCORM 1.2's own
//! finder looks) or the opener's — or given an xAPI learning record store (`endpoint` in the
//! address, cmi5's launch name, or the host's `abs:load {"lesson", "xapi": {…}}`), the page
//! loads `lms.js` (`static/lms.js`), which reports the lesson there; the page hands every
//! message it posts to the embedding page (`hand`) to that script too. Otherwise nothing is
//! loaded, and the page is as it always is.

/// The window's property through which messages reach `lms.js`: an array while it loads
/// (messages wait in it), then the script's own object with a `push`.
#[cfg(target_arch = "wasm32")]
const QUEUE: &str = "absLmsQueue";

/// Loads `lms.js` if the page is inside a learning management system or has a learning record
/// store's address, and listens for a host that gives one.
pub fn start() {
    #[cfg(target_arch = "wasm32")]
    {
        let Some(w) = web_sys::window() else { return };
        listen(&w);
        let store = w
            .location()
            .search()
            .ok()
            .and_then(|s| web_sys::UrlSearchParams::new_with_str(&s).ok())
            .is_some_and(|p| p.has("endpoint"));
        if store || scorm_api(&w) {
            load(&w);
        }
    }
}

/// The host's `abs:load {"lesson", "xapi": {"endpoint", "auth", "actor"}}` (from the address's
/// `origin` only, if it names one): the settings are kept for `lms.js` (`absXapi`), which is
/// loaded. The lesson itself is opened by the page's own listener.
#[cfg(target_arch = "wasm32")]
fn listen(w: &web_sys::Window) {
    use wasm_bindgen::JsCast;
    let only = crate::ui::host_link::origin();
    let window = w.clone();
    gloo::events::EventListener::new(w, "message", move |e| {
        let Some(e) = e.dyn_ref::<web_sys::MessageEvent>() else {
            return;
        };
        if only.as_ref().is_some_and(|o| *o != e.origin()) {
            return;
        }
        let data = e.data();
        let get = |k: &str| js_sys::Reflect::get(&data, &k.into()).ok();
        let load_message = get("type").and_then(|t| t.as_string()).as_deref() == Some("abs:load");
        if let Some(xapi) = get("xapi").filter(|x| load_message && x.is_object()) {
            let _ = js_sys::Reflect::set(&window, &"absXapi".into(), &xapi);
            load(&window);
        }
    })
    .forget();
}

/// Loads `lms.js`, once. Messages posted meanwhile wait in a list it takes over.
#[cfg(target_arch = "wasm32")]
fn load(w: &web_sys::Window) {
    if js_sys::Reflect::has(w, &QUEUE.into()).unwrap_or(true) {
        return;
    }
    let _ = js_sys::Reflect::set(w, &QUEUE.into(), &js_sys::Array::new());
    let Some(doc) = w.document() else { return };
    let (Ok(script), Some(head)) = (doc.create_element("script"), doc.head()) else {
        return;
    };
    let _ = script.set_attribute("type", "module");
    let _ = script.set_attribute("src", "lms.js");
    let _ = head.append_child(&script);
}

/// Hands a message (JSON text) to `lms.js`, if it was loaded.
pub fn hand(text: &str) {
    #[cfg(target_arch = "wasm32")]
    {
        use wasm_bindgen::JsCast;
        let Some(w) = web_sys::window() else { return };
        let Ok(queue) = js_sys::Reflect::get(&w, &QUEUE.into()) else {
            return;
        };
        if !queue.is_object() {
            return;
        }
        if let Ok(push) = js_sys::Reflect::get(&queue, &"push".into()) {
            if let Some(push) = push.dyn_ref::<js_sys::Function>() {
                let _ = push.call1(&queue, &text.into());
            }
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = text;
}

/// Whether a SCORM 1.2 run-time's `API` is on this window, a parent or the opener (or an
/// opener's parent). A window of another origin cannot be read: it is passed over.
#[cfg(target_arch = "wasm32")]
fn scorm_api(w: &web_sys::Window) -> bool {
    use wasm_bindgen::{JsCast, JsValue};
    // Windows of other frames belong to other realms, where `instanceof Window` fails: they
    // are taken as windows unchecked (what `parent` and `opener` give is one).
    let found_from = |start: web_sys::Window| {
        let mut at = start;
        for _ in 0..8 {
            if js_sys::Reflect::get(&at, &"API".into()).is_ok_and(|a| a.is_object()) {
                return true;
            }
            let Ok(Some(parent)) = at.parent() else {
                return false;
            };
            if js_sys::Object::is(&parent, &at) {
                return false;
            }
            at = parent;
        }
        false
    };
    let opener = w.opener().ok().filter(JsValue::is_object);
    found_from(w.clone()) || opener.is_some_and(|o| found_from(o.unchecked_into()))
}
