//! wasm-bindgen tests, run in headless Chromium: the real app mounted in a real DOM.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::HtmlElement;

wasm_bindgen_test_configure!(run_in_browser);

/// Mounts the app at the default address. The tests share one page, and the app writes the
/// moment on screen into the address (`ui::address::sync_address`): each test starts from a
/// clean one, not where the previous test left it.
fn mount() -> web_sys::Element {
    let window = web_sys::window().unwrap();
    let path = window.location().pathname().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path))
        .unwrap();
    let document = window.document().unwrap();
    let host = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    yew::Renderer::<abs_playground::ui::App>::with_root(host.clone()).render();
    host
}

async fn settle() {
    yew::platform::time::sleep(Duration::from_millis(50)).await;
}

fn by_test_id(root: &web_sys::Element, id: &str) -> web_sys::Element {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .unwrap()
        .unwrap_or_else(|| panic!("no element with data-testid {id}"))
}

/// The step the counter shows. It reads "<label> <step>" (`controls.rs`: "Step 12" in English):
/// the number is read whole, so "Step 12" is 12 — not a match for 1 or 2.
fn step_shown(root: &web_sys::Element) -> u64 {
    let text = by_test_id(root, "step-counter").text_content().unwrap();
    let (label, number) = text
        .rsplit_once(' ')
        .unwrap_or_else(|| panic!("the step counter reads {text:?}, not \"<label> <step>\""));
    assert!(
        !label.trim().is_empty(),
        "the step counter reads {text:?}: no label"
    );
    number
        .parse()
        .unwrap_or_else(|_| panic!("the step counter reads {text:?}: {number:?} is not a step"))
}

#[wasm_bindgen_test]
async fn the_app_draws_the_preset_and_steps_the_engine() {
    let root = mount();
    settle().await;
    assert!(by_test_id(&root, "operator-Merge")
        .text_content()
        .unwrap()
        .contains("Merge"));
    assert_eq!(step_shown(&root), 0, "before any step");
    let step: HtmlElement = by_test_id(&root, "step").dyn_into().unwrap();
    step.click();
    settle().await;
    assert_eq!(step_shown(&root), 1, "after one step");
    step.click();
    settle().await;
    assert_eq!(step_shown(&root), 2, "after two steps");
    let back: HtmlElement = by_test_id(&root, "step-back").dyn_into().unwrap();
    back.click();
    settle().await;
    assert_eq!(step_shown(&root), 1, "after two steps and one back");
}

fn attr(root: &web_sys::Element, id: &str, name: &str) -> Option<String> {
    root.query_selector(&format!("[data-testid=\"{id}\"]"))
        .ok()
        .flatten()
        .and_then(|e| e.get_attribute(name))
}

#[wasm_bindgen_test]
async fn stepping_to_the_alignment_blocks_the_fast_input_and_fills_its_buffer() {
    let root = mount();
    settle().await;
    let channel = "channel-Src A#0-Merge#0";
    let buffer = "buffer-Src A#0-Merge#0";
    let step: HtmlElement = by_test_id(&root, "step").dyn_into().unwrap();
    let mut steps = 0;
    while attr(&root, channel, "data-blocked").as_deref() != Some("true") {
        step.click();
        settle().await;
        steps += 1;
        assert!(steps < 100, "the channel never blocked");
    }
    // A lock is drawn at the blocked port, not only a colour.
    assert!(by_test_id(&root, channel)
        .query_selector(".lock")
        .unwrap()
        .is_some());
    while by_test_id(&root, buffer).child_element_count() == 0 {
        step.click();
        settle().await;
        steps += 1;
        assert!(steps < 150, "nothing was ever held");
    }
    assert_eq!(attr(&root, buffer, "data-held").as_deref(), Some("1"));
    // The counter shows every step taken.
    assert_eq!(step_shown(&root), steps, "after {steps} steps");
    // Stepping back returns to the view before the item was held.
    let back: HtmlElement = by_test_id(&root, "step-back").dyn_into().unwrap();
    back.click();
    settle().await;
    assert_eq!(by_test_id(&root, buffer).child_element_count(), 0);
    assert_eq!(
        step_shown(&root),
        steps - 1,
        "after {steps} steps and one back"
    );
}

/// Stepped, the app keeps the moment in the address, replacing the history entry: a reload
/// would come back to it.
#[wasm_bindgen_test]
async fn stepping_writes_the_step_into_the_address_without_a_new_history_entry() {
    let root = mount();
    settle().await;
    let window = web_sys::window().unwrap();
    let entries = window.history().unwrap().length().unwrap();
    let step: HtmlElement = by_test_id(&root, "step").dyn_into().unwrap();
    for _ in 0..3 {
        step.click();
        settle().await;
    }
    assert_eq!(step_shown(&root), 3);
    let search = window.location().search().unwrap();
    let params = web_sys::UrlSearchParams::new_with_str(&search).unwrap();
    assert_eq!(params.get("step").as_deref(), Some("3"), "{search}");
    assert_eq!(
        params.get("preset").as_deref(),
        Some("alignment"),
        "{search}"
    );
    assert_eq!(window.history().unwrap().length().unwrap(), entries);
}
