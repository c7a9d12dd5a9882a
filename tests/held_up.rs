//! A job held up for good: a subtask whose processing never ends, a checkpoint with no
//! timeout. Such a scenario is valid text (any number a reader writes is taken), so the engine
//! must neither hang nor pretend: what would happen at the last time there is (2^64 − 1 ms,
//! where saturating sums end) never happens, and the periodic timer's ticks, which then change
//! nothing (their requests are queued, and Flink's queue of waiting requests fills), are not
//! walked one interval at a time to the end of time inside one step. Once nothing else is planned the step
//! is `None` — nothing happens on its own any more — and what the user does next goes on from
//! there. (That skipping leaves a run as walking gives it is `tests/golden.rs`'s held-up trace,
//! written by the engine that walked.) The property test over mutated scenario texts found it:
//! a `processing_time` of 2^64 − 1 held one step for ever.

use std::time::Duration;

use abs_playground::engine::Action;
use abs_playground::scenario::{presets, Scenario};

#[path = "common/time_limit.rs"]
mod time_limit;

/// `wordcount` with each Count subtask taking for ever over a record, and no timeout.
fn held_up() -> Scenario {
    let mut scenario = presets::wordcount();
    for op in &mut scenario.graph.operators {
        if op.name == "Count" {
            op.processing_time = u64::MAX;
        }
    }
    scenario.config.timeout = u64::MAX;
    scenario
}

/// Steps at most `limit` times; the steps taken, or `None` if the run was still going.
fn steps_until_idle(sim: &mut abs_playground::engine::Simulation, limit: u32) -> Option<u32> {
    (0..limit).find(|_| sim.step().is_none())
}

#[test]
fn a_job_held_up_for_good_stops_stepping_and_goes_on_when_the_user_acts() {
    time_limit::within(Duration::from_secs(60), || {
        let scenario = held_up();
        let mut idle_modes = Vec::new();
        for mode in scenario.modes() {
            let mut sim = scenario.with_mode(mode).simulation().unwrap();
            let steps = steps_until_idle(&mut sim, 2_000);
            let steps =
                steps.unwrap_or_else(|| panic!("{mode:?}: still stepping at {}", sim.now()));
            idle_modes.push(mode);
            assert!(steps > 10, "{mode:?}: idle after {steps} steps");
            assert!(!sim.job_finished(), "{mode:?}: held up, not finished");
            // Idle is a state, not a moment: asking again changes nothing.
            let (now, taken) = (sim.now(), sim.steps());
            assert!(sim.step().is_none(), "{mode:?}: stepped once idle");
            assert_eq!((sim.now(), sim.steps()), (now, taken));
            // The user fails a held-up Count subtask: the job restarts and runs again, the
            // periodic timer among what goes on.
            let count = sim.physical().task_by_name("Count#0").unwrap();
            sim.apply(Action::Fail { task: count }).unwrap();
            let again = (0..50).filter(|_| sim.step().is_some()).count();
            assert!(again >= 20, "{mode:?}: {again} steps after the failure");
            assert!(sim.now() > now, "{mode:?}: time stood after the failure");
        }
        assert_eq!(idle_modes, scenario.modes(), "every mode comes to rest");
    });
}
