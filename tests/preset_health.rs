//! Every preset stays healthy over a long run, in every mode: queues stay bounded (flow control
//! caps every channel at its capacity, give or take one record's fan-out) and checkpoint
//! durations stay steady instead of creeping toward the timeout. A backlog may build where it
//! is the lesson (`backpressure`), never without bound. A preset whose sources are bounded
//! (`iteration`) runs until its job has finished, which it must.
#![cfg(not(target_arch = "wasm32"))]

use std::time::Duration;

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::trace::AbortReason;
use abs_playground::engine::OperatorKind;
use abs_playground::scenario::presets;

const STEPS: u32 = 100_000;

#[path = "common/time_limit.rs"]
mod time_limit;

#[test]
fn every_preset_stays_healthy_for_a_long_run() {
    time_limit::within(Duration::from_secs(120), || {
        for name in presets::NAMES {
            for mode in presets::by_name(name).unwrap().modes() {
                let scenario = presets::by_name(name).unwrap().with_mode(mode);
                let bounded = scenario
                    .graph
                    .operators
                    .iter()
                    .any(|o| matches!(o.kind, OperatorKind::Source { bounded: true, .. }));
                let mut sim = scenario.simulation().unwrap();
                let mut max_over = 0i64;
                let mut max_queued = 0usize;
                for _ in 0..STEPS {
                    if sim.step().is_none() {
                        assert!(bounded, "{name} ({mode}): an unbounded preset ran dry");
                        assert!(
                            sim.job_finished(),
                            "{name} ({mode}): stopped without finishing"
                        );
                        break;
                    }
                    for ch in sim.channels() {
                        let over = i64::from(ch.occupancy()) - i64::from(ch.capacity());
                        max_over = max_over.max(over);
                    }
                    max_queued =
                        max_queued.max(sim.channels().iter().map(|c| c.items().len()).sum());
                }
                let what = format!("{name} ({mode}) at t = {}", sim.now());
                // A record may fan out to a few more than the last free slot (Split emits a
                // sentence's words at once), never more than a sentence.
                assert!(
                    max_over <= 10,
                    "{what}: a channel held {max_over} over its capacity"
                );
                let durations: Vec<u64> = sim
                    .coordinator()
                    .checkpoints()
                    .iter()
                    .filter(|c| c.status == CheckpointStatus::Completed)
                    .map(|c| c.end_time.unwrap_or(0) - c.trigger_time)
                    .collect();
                let expired = sim
                    .coordinator()
                    .checkpoints()
                    .iter()
                    .filter(|c| {
                        // One abandoned by a planned failure (the recovery preset) is the lesson,
                        // not a sign of ill health.
                        !matches!(
                            c.status,
                            CheckpointStatus::Completed
                                | CheckpointStatus::InProgress
                                | CheckpointStatus::Aborted {
                                    reason: AbortReason::Failover
                                }
                        )
                    })
                    .count();
                assert!(
                    durations.len() >= if bounded { 3 } else { 8 },
                    "{what}: only {} checkpoints completed",
                    durations.len()
                );
                assert!(
                    expired * 10 <= durations.len(),
                    "{what}: {expired} checkpoints did not complete"
                );
                let quarter = durations.len() / 4;
                let early = durations[..quarter].iter().max().copied().unwrap_or(0);
                let late = durations[durations.len() - quarter..]
                    .iter()
                    .max()
                    .copied()
                    .unwrap_or(0);
                assert!(
                    late <= early * 2 + 50,
                    "{what}: checkpoint durations grew from at most {early} to {late}"
                );
                eprintln!(
                "{name:>12} {:>13}: t = {:>7}, {} completed (durations early ≤ {early}, late ≤ {late}), {expired} aborted, most queued {max_queued}, most over capacity {max_over}",
                mode.as_str(),
                sim.now(),
                durations.len()
            );
            }
        }
    });
}
