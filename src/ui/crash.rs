//! What the page does when its own code panics: the release build aborts after a panic, so
//! without this the tab would freeze with no word. The hook, installed before the app
//! mounts, logs the panic to the console as Yew's would and hands its message to
//! index.html's `absCrash`, which writes the banner straight into the document (the app's
//! state cannot be trusted any more; the same function shows a trap or a failed start that
//! never reached this hook): what went wrong, a link that reopens the last good moment —
//! the address, which the app keeps naming the moment shown whenever playback is paused or
//! stepped — and the text to report. It makes the app inert behind it and tells an
//! embedding page with `{type: 'abs:crash', message}`.
//!
//! `?panic-at=N` in the address makes the app panic when a step reaches `N` (not drawn,
//! never in a link the page writes): the end-to-end tests prove the banner with it.

#[cfg(target_arch = "wasm32")]
use std::cell::Cell;

#[cfg(target_arch = "wasm32")]
thread_local! {
    /// The step at which `?panic-at` asks for a panic (`u64::MAX`: never).
    static PANIC_AT: Cell<u64> = const { Cell::new(u64::MAX) };
}

#[cfg(target_arch = "wasm32")]
#[wasm_bindgen::prelude::wasm_bindgen]
extern "C" {
    /// index.html's banner (`catch`: a page without it still logs the panic).
    #[wasm_bindgen(catch, js_name = absCrash)]
    fn abs_crash(message: &str) -> Result<(), wasm_bindgen::JsValue>;
}

/// Installs the hook (in the page; a native build keeps Rust's).
pub fn install() {
    #[cfg(target_arch = "wasm32")]
    {
        // Through Yew, which otherwise puts its own hook (the console's only) in place of ours.
        // Only the first panic says anything: after the abort the app's state is half-updated,
        // and whatever still calls into it (a frame, a click) panics again on its way in.
        yew::set_custom_panic_hook(Box::new(|info| {
            use std::sync::atomic::{AtomicBool, Ordering};
            static PANICKED: AtomicBool = AtomicBool::new(false);
            if !PANICKED.swap(true, Ordering::Relaxed) {
                console_error_panic_hook::hook(info);
                let _ = abs_crash(&info.to_string());
            }
        }));
    }
}

/// Arms the panic `?panic-at` asks for (the address is read at start, `address.rs`).
pub fn arm(panic_at: Option<&str>) {
    #[cfg(target_arch = "wasm32")]
    if let Some(at) = panic_at.and_then(|v| v.parse().ok()) {
        PANIC_AT.with(|p| p.set(at));
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = panic_at;
}

/// Panics if the address asked for a panic at `step` (see the module's notes).
pub fn check(step: u64) {
    #[cfg(target_arch = "wasm32")]
    if PANIC_AT.with(Cell::get) == step {
        panic!("panic-at={step}: the panic the address asked for");
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = step;
}
