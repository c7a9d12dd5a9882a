//! The engine gives the same trace in wasm as natively: every golden trace (written by the
//! native tests in `tests/golden.rs`) is reproduced byte for byte inside headless Chromium.
//! `tests/golden.rs` checks that this table names every golden file with its step count.
#![cfg(target_arch = "wasm32")]

use abs_playground::engine::{report, BarrierMode};
use abs_playground::scenario::presets;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// (preset, mode, steps, golden trace)
#[rustfmt::skip]
const GOLDEN: &[(&str, BarrierMode, u64, &str)] = &[
    ("alignment", BarrierMode::Aligned, 250, include_str!("golden/alignment-aligned.jsonl")),
    ("alignment", BarrierMode::AtLeastOnce, 250, include_str!("golden/alignment-at-least-once.jsonl")),
    ("alignment", BarrierMode::Unaligned, 250, include_str!("golden/alignment-unaligned.jsonl")),
    ("wordcount", BarrierMode::Aligned, 250, include_str!("golden/wordcount-aligned.jsonl")),
    ("wordcount", BarrierMode::AtLeastOnce, 250, include_str!("golden/wordcount-at-least-once.jsonl")),
    ("wordcount", BarrierMode::Unaligned, 250, include_str!("golden/wordcount-unaligned.jsonl")),
    ("concurrent", BarrierMode::Aligned, 250, include_str!("golden/concurrent-aligned.jsonl")),
    ("concurrent", BarrierMode::AtLeastOnce, 250, include_str!("golden/concurrent-at-least-once.jsonl")),
    ("backpressure", BarrierMode::Aligned, 250, include_str!("golden/backpressure-aligned.jsonl")),
    ("backpressure", BarrierMode::AtLeastOnce, 250, include_str!("golden/backpressure-at-least-once.jsonl")),
    ("backpressure", BarrierMode::Unaligned, 250, include_str!("golden/backpressure-unaligned.jsonl")),
    ("large", BarrierMode::Aligned, 1000, include_str!("golden/large-aligned.jsonl")),
    ("large", BarrierMode::AtLeastOnce, 1000, include_str!("golden/large-at-least-once.jsonl")),
    ("large", BarrierMode::Unaligned, 1000, include_str!("golden/large-unaligned.jsonl")),
    ("alignment", BarrierMode::ChandyLamport, 250, include_str!("golden/alignment-chandy-lamport.jsonl")),
    ("wordcount", BarrierMode::ChandyLamport, 250, include_str!("golden/wordcount-chandy-lamport.jsonl")),
    ("concurrent", BarrierMode::ChandyLamport, 250, include_str!("golden/concurrent-chandy-lamport.jsonl")),
    ("backpressure", BarrierMode::ChandyLamport, 250, include_str!("golden/backpressure-chandy-lamport.jsonl")),
    ("large", BarrierMode::ChandyLamport, 1000, include_str!("golden/large-chandy-lamport.jsonl")),
    ("token", BarrierMode::ChandyLamport, 250, include_str!("golden/token-chandy-lamport.jsonl")),
    ("bank", BarrierMode::ChandyLamport, 250, include_str!("golden/bank-chandy-lamport.jsonl")),
    ("recovery", BarrierMode::Aligned, 250, include_str!("golden/recovery-aligned.jsonl")),
    ("recovery", BarrierMode::AtLeastOnce, 250, include_str!("golden/recovery-at-least-once.jsonl")),
    ("recovery", BarrierMode::Unaligned, 250, include_str!("golden/recovery-unaligned.jsonl")),
    ("recovery", BarrierMode::ChandyLamport, 250, include_str!("golden/recovery-chandy-lamport.jsonl")),
    ("iteration", BarrierMode::Aligned, 250, include_str!("golden/iteration-aligned.jsonl")),
    ("iteration", BarrierMode::Unaligned, 250, include_str!("golden/iteration-unaligned.jsonl")),
    ("iteration", BarrierMode::ChandyLamport, 250, include_str!("golden/iteration-chandy-lamport.jsonl")),
    ("alignment", BarrierMode::Synchronous, 250, include_str!("golden/alignment-synchronous.jsonl")),
    ("wordcount", BarrierMode::Synchronous, 250, include_str!("golden/wordcount-synchronous.jsonl")),
    ("concurrent", BarrierMode::Synchronous, 250, include_str!("golden/concurrent-synchronous.jsonl")),
    ("backpressure", BarrierMode::Synchronous, 250, include_str!("golden/backpressure-synchronous.jsonl")),
    ("large", BarrierMode::Synchronous, 1000, include_str!("golden/large-synchronous.jsonl")),
    ("recovery", BarrierMode::Synchronous, 250, include_str!("golden/recovery-synchronous.jsonl")),
    ("iteration", BarrierMode::Synchronous, 250, include_str!("golden/iteration-synchronous.jsonl")),
    ("slow-sink", BarrierMode::Aligned, 250, include_str!("golden/slow-sink-aligned.jsonl")),
    ("slow-sink", BarrierMode::AtLeastOnce, 250, include_str!("golden/slow-sink-at-least-once.jsonl")),
    ("slow-sink", BarrierMode::Unaligned, 250, include_str!("golden/slow-sink-unaligned.jsonl")),
    ("slow-sink", BarrierMode::ChandyLamport, 250, include_str!("golden/slow-sink-chandy-lamport.jsonl")),
    ("slow-sink", BarrierMode::Synchronous, 250, include_str!("golden/slow-sink-synchronous.jsonl")),
];

/// Every trace is compared, and all that differ are named before the test fails.
#[wasm_bindgen_test]
fn every_golden_trace_matches_native() {
    let mut differing = Vec::new();
    for &(preset, mode, steps, expected) in GOLDEN {
        let mut sim = presets::by_name(preset)
            .unwrap()
            .with_mode(mode)
            .simulation()
            .unwrap();
        let actual = report::trace(&mut sim, steps);
        if actual != expected {
            let line = expected
                .lines()
                .zip(actual.lines())
                .position(|(e, a)| e != a)
                .unwrap_or(expected.lines().count().min(actual.lines().count()));
            differing.push(format!("{preset} ({mode}) from line {}", line + 1));
        }
    }
    assert!(
        differing.is_empty(),
        "wasm traces differ from the native golden files: {}",
        differing.join(", ")
    );
}
