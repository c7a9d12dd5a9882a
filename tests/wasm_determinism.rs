//! The engine gives the same trace in wasm as natively: the golden traces (written by the
//! native tests) are reproduced byte for byte inside headless Chromium.
#![cfg(target_arch = "wasm32")]

use abs_playground::engine::{report, BarrierMode};
use abs_playground::scenario::presets;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn trace(name: &str, mode: BarrierMode) -> String {
    let mut sim = presets::by_name(name)
        .unwrap()
        .with_mode(mode)
        .simulation()
        .unwrap();
    report::trace(&mut sim, 250)
}

#[wasm_bindgen_test]
fn alignment_trace_matches_native() {
    assert_eq!(
        trace("alignment", BarrierMode::Aligned),
        include_str!("golden/alignment-aligned.jsonl")
    );
}

#[wasm_bindgen_test]
fn wordcount_unaligned_trace_matches_native() {
    assert_eq!(
        trace("wordcount", BarrierMode::Unaligned),
        include_str!("golden/wordcount-unaligned.jsonl")
    );
}

#[wasm_bindgen_test]
fn concurrent_trace_matches_native() {
    assert_eq!(
        trace("concurrent", BarrierMode::Aligned),
        include_str!("golden/concurrent-aligned.jsonl")
    );
}
