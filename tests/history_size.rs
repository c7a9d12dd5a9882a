//! The history of a job of real size (`huge`: 1,024 subtasks, 131,328 channels), counted by
//! the counting allocator `abs-sim bench` uses. A copy of that simulation is some twenty
//! megabytes: thirty-two keyframes of it, a small job's number, were 740 MB after 100,000 steps
//! and made every 256th step a copy. The history now keeps as many keyframes as its byte budget
//! holds, further apart, so stepping back still replays at most one interval.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../src/bin/abs-sim/counting_alloc.rs"]
mod counting_alloc;

use abs_playground::engine::history::{self, MAX_KEYFRAMES};
use abs_playground::engine::{History, Simulation};
use abs_playground::scenario::presets;

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

/// The only test in this binary, so no other test's allocations are counted.
#[test]
fn a_real_jobs_history_keeps_few_keyframes_far_apart_and_stays_exact() {
    // A small job is unchanged: 32 keyframes, one every 256 steps.
    let small = History::new(presets::wordcount().simulation().unwrap());
    assert_eq!(
        (small.max_keyframes(), small.interval()),
        (MAX_KEYFRAMES, 256)
    );

    let before = counting_alloc::live_bytes();
    let sim = presets::huge().simulation().unwrap();
    let start = counting_alloc::live_bytes() - before;
    let copy = sim.clone();
    let one_copy = counting_alloc::live_bytes() - before - start;
    drop(copy);
    println!(
        "huge: {start} bytes built, a copy {one_copy}, footprint estimate {}",
        history::footprint(&sim)
    );
    let mut h = History::new(sim);
    println!(
        "huge: a keyframe every {} steps, {} kept",
        h.interval(),
        h.max_keyframes()
    );
    assert_eq!(h.max_keyframes(), 2);
    assert!(h.interval() >= 2048, "interval {}", h.interval());
    let steps = 100_000u64;
    while h.len() < steps {
        assert!(h.step().is_some(), "huge stopped at {}", h.len());
    }
    let live = counting_alloc::live_bytes() - before;
    println!(
        "huge after {steps} steps: {live} bytes live ({:.1} copies), keyframes at {:?}",
        live as f64 / one_copy as f64,
        h.keyframe_steps().collect::<Vec<_>>()
    );
    let peak = counting_alloc::peak_bytes().saturating_sub(before);
    println!(
        "huge: at most {peak} bytes ({:.1} copies) while taking {steps} steps",
        peak as f64 / one_copy as f64
    );
    assert!(h.keyframe_count() <= 2);
    // The current simulation, the newest keyframe (step 0 is built again, not kept) and the
    // physical graph (a copy's items in flight vary): with 32 keyframes this was over thirty
    // copies, with a copy of step 0 kept four and a quarter.
    assert!(
        live < 4 * one_copy,
        "{live} bytes live after {steps} steps, a copy is {one_copy}"
    );
    // Stepping back from the end restores the newest keyframe: never more than one interval
    // of replay, and exact — into the current simulation's memory, no third copy held.
    let newest = h.keyframe_steps().last().unwrap();
    assert!(steps - newest <= h.interval());
    h.step_back();
    let back = counting_alloc::peak_bytes().saturating_sub(before);
    println!("huge: at most {back} bytes after a step back");
    assert!(
        back < peak.max(live) + one_copy / 2,
        "a step back held {back} bytes at once, {peak} before it: a third copy"
    );
    let mut direct: Simulation = presets::huge().simulation().unwrap();
    for _ in 0..steps - 1 {
        direct.step();
    }
    assert_eq!(h.position(), steps - 1);
    assert_eq!(h.current().now(), direct.now());
    assert_eq!(h.current().last_events(), direct.last_events());
    assert_eq!(
        h.current().coordinator().checkpoints(),
        direct.coordinator().checkpoints()
    );
    // And to a step before the newest keyframe: replayed from step 0, built again.
    h.seek(1_000);
    let mut direct: Simulation = presets::huge().simulation().unwrap();
    for _ in 0..1_000 {
        direct.step();
    }
    assert_eq!(h.current().now(), direct.now());
    assert_eq!(h.current().last_events(), direct.last_events());
}
