//! What the history holds over a long run, counted by a counting allocator (the one `abs-sim
//! bench` uses). A long autoplay must reach a plateau: the 32 keyframes are copies of the
//! simulation, and anything in the simulation that grows with the run is multiplied by them.
//! The checkpoint summaries were such a list (one per checkpoint, ~180 events apart on
//! `wordcount`): the coordinator now keeps a bounded history of them. Without that bound this
//! run grows by about 5 bytes an event over its second half.
#![cfg(not(target_arch = "wasm32"))]

#[path = "../src/bin/abs-sim/counting_alloc.rs"]
mod counting_alloc;
#[path = "common/time_limit.rs"]
mod time_limit;

use std::time::Duration;

use abs_playground::engine::History;
use abs_playground::scenario::presets;

#[global_allocator]
static ALLOCATOR: counting_alloc::Counting = counting_alloc::Counting;

/// The only test in this binary, so no other test's allocations are counted.
#[test]
fn a_long_runs_history_reaches_a_plateau() {
    time_limit::within(Duration::from_secs(300), || {
        let before = counting_alloc::live_bytes();
        let mut h = History::new(presets::wordcount().simulation().unwrap());
        let mut samples = Vec::new();
        for target in [250_000u64, 500_000, 750_000, 1_000_000] {
            while h.len() < target {
                assert!(h.step().is_some(), "wordcount stopped at {}", h.len());
            }
            let live = counting_alloc::live_bytes().saturating_sub(before);
            let checkpoints = h.current().coordinator().checkpoints().len();
            println!("step {target}: {live} bytes live, {checkpoints} checkpoints kept");
            samples.push((target, live, checkpoints));
        }
        let (s0, b0, _) = samples[1];
        let (s1, b1, _) = *samples.last().unwrap();
        let per_event = (b1 as f64 - b0 as f64) / (s1 - s0) as f64;
        println!("steps {s0}..{s1}: {per_event:.3} bytes/event");
        // The simulation's own state comes and goes with what is in flight (±300 KB between
        // samples here, over all the copies); beyond that, nothing may grow.
        assert!(
            b1 <= b0 + 512_000,
            "the history grew from {b0} to {b1} bytes from step {s0} to {s1}"
        );
        // Still exact after all that: seek back into the first keyframes and forward again.
        let checkpoints = h.current().coordinator().checkpoints().to_vec();
        h.seek(1_000);
        assert_eq!(h.position(), 1_000);
        h.seek(s1);
        assert_eq!(h.current().coordinator().checkpoints(), &checkpoints[..]);
    });
}
