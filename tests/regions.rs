//! Flink's default failover strategy restarts only the failed task's pipelined region: the
//! connected component of the subtask graph. Two parallel forward pipelines are two regions:
//! a failure in one leaves the other running. A job joined by a shuffle is one region, the
//! whole job.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use abs_playground::engine::view::{self, TaskStatus};
use abs_playground::engine::{Action, ActionError, BarrierMode, Event, Simulation};
use abs_playground::scenario::Scenario;
use common::word_counts;

/// Src → Split → Count, each with parallelism 2: forward edges make two pipelines, a hash
/// edge into Count joins them.
fn pipelines(mode: BarrierMode, into_count: &str) -> Simulation {
    let json = format!(
        r#"{{"name": "pipelines", "title": "pipelines",
            "graph": {{
              "operators": [
                {{"name": "Src", "kind": {{"type": "source", "lines": ["a b", "c d", "a c", "b d", "a a", "d c", "b b", "c a"], "interval": 20, "bounded": true}}, "parallelism": 2}},
                {{"name": "Split", "kind": {{"type": "split"}}, "parallelism": 2}},
                {{"name": "Count", "kind": {{"type": "count"}}, "parallelism": 2}}
              ],
              "edges": [
                {{"from": "Src", "to": "Split", "partitioning": "forward"}},
                {{"from": "Split", "to": "Count", "partitioning": "{into_count}"}}
              ]
            }},
            "config": {{"mode": "{}", "checkpoint_interval": 30, "first_trigger": 15, "restart_delay": 40}}}}"#,
        mode.as_str()
    );
    Scenario::from_json(&json).unwrap().simulation().unwrap()
}

fn task(sim: &Simulation, name: &str) -> u32 {
    sim.physical().task_by_name(name).unwrap()
}

#[test]
fn the_regions_are_the_connected_components_of_the_subtask_graph() {
    let forward = pipelines(BarrierMode::Aligned, "forward");
    let p = forward.physical();
    let names = |ts: Vec<u32>| -> Vec<String> {
        ts.iter()
            .map(|&t| p.tasks[t as usize].name.clone())
            .collect()
    };
    assert_eq!(
        names(p.region_of(task(&forward, "Split#1"))),
        ["Src#1", "Split#1", "Count#1"]
    );
    assert_eq!(
        names(p.region_of(task(&forward, "Src#0"))),
        ["Src#0", "Split#0", "Count#0"]
    );
    let hash = pipelines(BarrierMode::Aligned, "hash");
    assert_eq!(
        hash.physical().region_of(0).len(),
        6,
        "a shuffle joins every subtask"
    );
}

#[test]
fn a_failure_in_one_pipeline_leaves_the_other_running_and_counts_stay_exact() {
    for mode in [
        BarrierMode::Aligned,
        BarrierMode::Unaligned,
        BarrierMode::ChandyLamport,
        BarrierMode::Synchronous,
    ] {
        let mut clean = pipelines(mode, "forward");
        while clean.step().is_some() {}
        let mut sim = pipelines(mode, "forward");
        let (split0, src0, src1) = (
            task(&sim, "Split#0"),
            task(&sim, "Src#0"),
            task(&sim, "Src#1"),
        );
        let region = sim.physical().region_of(split0);
        sim.plan_failure(split0, 30);
        let (mut failed, mut restored) = (None, None);
        let (mut other_read, mut own_read) = (0, 0);
        while sim.step().is_some() {
            assert!(sim.steps() < 20_000, "{mode}");
            for e in sim.last_events() {
                match e {
                    Event::Failed { region: r, .. } => {
                        assert_eq!(r.as_deref(), Some(region.as_slice()), "{mode}");
                        failed = Some(sim.now());
                    }
                    Event::Restored { region: r, .. } => {
                        assert_eq!(r.as_deref(), Some(region.as_slice()), "{mode}");
                        restored = Some(sim.now());
                    }
                    Event::SourceRead { task, .. } if failed.is_some() && restored.is_none() => {
                        if *task == src1 {
                            other_read += 1;
                        }
                        if *task == src0 {
                            own_read += 1;
                        }
                    }
                    _ => {}
                }
            }
            if failed.is_some() && restored.is_none() {
                // While it is down the page shows the region cancelled, the rest running.
                assert!(sim.is_down(split0) && sim.is_down(src0) && !sim.is_down(src1));
                assert!(matches!(
                    view::task_status(&sim, split0),
                    TaskStatus::Failed
                ));
                assert!(matches!(
                    view::task_status(&sim, src0),
                    TaskStatus::Cancelled
                ));
                assert!(!matches!(
                    view::task_status(&sim, src1),
                    TaskStatus::Failed | TaskStatus::Cancelled
                ));
                assert_eq!(
                    sim.apply(Action::Emit { task: src0 }),
                    Err(ActionError::Restarting),
                    "{mode}"
                );
                assert_eq!(sim.apply(Action::Trigger), Err(ActionError::Restarting));
            }
        }
        assert!(failed.is_some() && restored.is_some(), "{mode}");
        assert!(
            other_read > 0,
            "{mode}: the other pipeline's source read on"
        );
        assert_eq!(
            own_read, 0,
            "{mode}: the failed region's source read while down"
        );
        assert!(sim.job_finished(), "{mode}");
        // Exactly once: the same counts as a run without the failure.
        assert_eq!(word_counts(&sim), word_counts(&clean), "{mode}");
        for gs in sim.coordinator().completed() {
            assert!(
                gs.verdict.ok(),
                "{mode} {}: {:?}",
                gs.checkpoint,
                gs.verdict
            );
        }
    }
}

#[test]
fn a_failure_in_a_job_joined_by_a_shuffle_restarts_the_whole_job() {
    let mut sim = pipelines(BarrierMode::Aligned, "hash");
    let split0 = task(&sim, "Split#0");
    sim.plan_failure(split0, 30);
    let mut saw = false;
    while sim.step().is_some() {
        for e in sim.last_events() {
            if let Event::Failed { region, .. } = e {
                assert_eq!(region, &None, "the region is the whole job");
                saw = true;
            }
        }
        if sim.restarting_at().is_some() {
            assert!((0..6).all(|t| sim.is_down(t)));
        }
        assert!(sim.steps() < 20_000);
    }
    assert!(saw && sim.job_finished());
}

/// A subtask that is down — failed, or cancelled with its region — cannot fail again until the
/// restart (the page offers no "Fail this subtask" then); a subtask of the region that runs on
/// can.
#[test]
fn a_down_subtask_cannot_fail_again_but_one_of_the_running_region_can() {
    let mut sim = pipelines(BarrierMode::Aligned, "forward");
    let (split0, src0, count1) = (
        task(&sim, "Split#0"),
        task(&sim, "Src#0"),
        task(&sim, "Count#1"),
    );
    while sim.now() < 30 {
        sim.step().unwrap();
    }
    sim.apply(Action::Fail { task: split0 }).unwrap();
    for t in [split0, src0] {
        assert!(sim.is_down(t));
        assert_eq!(
            sim.apply(Action::Fail { task: t }),
            Err(ActionError::Restarting)
        );
    }
    assert!(!sim.is_down(count1));
    sim.apply(Action::Fail { task: count1 }).unwrap();
    assert!(sim.is_down(count1));
}
