//! The checkpoint coordinator's own rules, each in a small job built to make it happen:
//! subsumption, the minimum pause, the maximum of concurrent checkpoints, and the timeout.
//! Each test fails when its rule is taken out of the engine.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::coordinator::{CheckpointStatus, CheckpointSummary};
use abs_playground::engine::record::ItemKind;
use abs_playground::engine::trace::AbortReason;
use abs_playground::engine::{
    Action, ActionError, BarrierMode, CheckpointId, Config, Edge, Event, JobGraph, Operator,
    OperatorKind, Partitioning, Simulation,
};

fn source(name: &str, lines: &[&str], interval: u64, bounded: bool) -> Operator {
    Operator {
        name: name.into(),
        kind: OperatorKind::Source {
            lines: lines.iter().map(|l| l.to_string()).collect(),
            interval,
            bounded,
        },
        parallelism: 1,
        processing_time: 1,
    }
}

fn op(name: &str, kind: OperatorKind) -> Operator {
    Operator {
        name: name.into(),
        kind,
        parallelism: 1,
        processing_time: 1,
    }
}

fn edge(from: &str, to: &str, latency: u64) -> Edge {
    Edge {
        from: from.into(),
        to: to.into(),
        partitioning: Partitioning::Forward,
        latency,
        capacity: abs_playground::engine::model::DEFAULT_CAPACITY,
        fifo: true,
    }
}

/// Src → Stage 1 → Stage 2 → Sink, each hop `latency` long: a checkpoint takes about three
/// hops from trigger to completion.
fn pipeline(latency: u64) -> JobGraph {
    JobGraph {
        operators: vec![
            source("Src", &["a b", "c"], 5, false),
            op("Stage 1", OperatorKind::Map),
            op("Stage 2", OperatorKind::Map),
            op(
                "Sink",
                OperatorKind::Sink {
                    transactional: true,
                },
            ),
        ],
        edges: vec![
            edge("Src", "Stage 1", latency),
            edge("Stage 1", "Stage 2", latency),
            edge("Stage 2", "Sink", latency),
        ],
    }
}

/// A and B → Merge (a union) → Sink; the channel from B takes 400, everything else 5.
fn slow_union() -> JobGraph {
    JobGraph {
        operators: vec![
            source("A", &["a"], 6, false),
            source("B", &["b"], 6, false),
            op("Merge", OperatorKind::Union),
            op(
                "Sink",
                OperatorKind::Sink {
                    transactional: true,
                },
            ),
        ],
        edges: vec![
            edge("A", "Merge", 5),
            edge("B", "Merge", 400),
            edge("Merge", "Sink", 5),
        ],
    }
}

/// Runs the scheduler for `steps` steps (or until nothing is left), calling `each` after
/// every step.
fn run(sim: &mut Simulation, steps: u64, mut each: impl FnMut(&Simulation)) {
    for _ in 0..steps {
        if sim.step().is_none() {
            break;
        }
        each(sim);
    }
}

fn summaries(sim: &Simulation) -> Vec<CheckpointSummary> {
    sim.coordinator().checkpoints().to_vec()
}

fn completed(sim: &Simulation) -> Vec<CheckpointId> {
    sim.coordinator()
        .checkpoints()
        .iter()
        .filter(|s| s.status == CheckpointStatus::Completed)
        .map(|s| s.id)
        .collect()
}

/// A completed checkpoint makes every older one still running pointless: the coordinator
/// aborts them, reason "subsumed", in the step that completes the newer one.
///
/// To get a newer checkpoint to complete first: at-least-once, a union whose second input comes
/// from a bounded source that has already finished, but whose end of partition is still on its
/// way (a slow channel). Barriers 1, 2 and 3 arrive from the other input and wait; the end of
/// partition then closes the slow channel and completes them all at once. The barrier tracker
/// triggers only the newest, 3 (the older ones it drops silently, as Flink's does), so tasks
/// downstream never see barriers 1 and 2, and only subsumption ends those checkpoints.
#[test]
fn a_completed_checkpoint_subsumes_the_older_running_ones() {
    let graph = JobGraph {
        operators: vec![
            source("Fast", &["a"], 5, false),
            source("Once", &["b"], 5, true),
            op("Merge", OperatorKind::Union),
            op(
                "Sink",
                OperatorKind::Sink {
                    transactional: true,
                },
            ),
        ],
        edges: vec![
            edge("Fast", "Merge", 5),
            edge("Once", "Merge", 200),
            edge("Merge", "Sink", 5),
        ],
    };
    let config = Config {
        mode: BarrierMode::AtLeastOnce,
        checkpoint_interval: Some(40),
        first_trigger: 20,
        max_concurrent_checkpoints: 3,
        timeout: 100_000,
        ..Config::default()
    };
    let mut sim = Simulation::new(&graph, &config, 7).unwrap();
    let mut completion_step = None;
    run(&mut sim, 2000, |sim| {
        let events = sim.last_events();
        if events
            .iter()
            .any(|e| matches!(e, Event::CheckpointCompleted { checkpoint: 3, .. }))
        {
            let subsumed: Vec<CheckpointId> = events
                .iter()
                .filter_map(|e| match e {
                    Event::CheckpointAborted {
                        checkpoint,
                        reason: AbortReason::Subsumed,
                    } => Some(*checkpoint),
                    _ => None,
                })
                .collect();
            assert_eq!(
                subsumed,
                [1, 2],
                "completing 3 aborts 1 and 2 as subsumed, in the same step"
            );
            completion_step = Some(sim.steps());
        }
    });
    assert!(completion_step.is_some(), "checkpoint 3 never completed");
    let all = summaries(&sim);
    for id in [1, 2] {
        assert_eq!(
            all[id as usize - 1].status,
            CheckpointStatus::Aborted {
                reason: AbortReason::Subsumed
            },
            "checkpoint {id}"
        );
    }
    assert_eq!(all[2].status, CheckpointStatus::Completed);
    // Subsumption only reaches back: checkpoints after 3 run and complete on their own.
    assert!(all
        .iter()
        .skip(3)
        .any(|s| s.status == CheckpointStatus::Completed));
    assert!(all.iter().skip(3).all(|s| !matches!(
        s.status,
        CheckpointStatus::Aborted {
            reason: AbortReason::Subsumed
        }
    )));
}

/// No checkpoint is triggered within `min_pause` of the end of the one before; a manual
/// trigger in the pause is refused. Checks one run and returns its checkpoints.
fn check_min_pause(graph: &JobGraph, config: &Config) -> Vec<CheckpointSummary> {
    let pause = config.min_pause;
    let mut sim = Simulation::new(graph, config, 3).unwrap();
    let mut refused = 0;
    run(&mut sim, 3000, |sim| {
        // Inside the pause the coordinator offers no trigger and refuses one.
        let last_end = sim
            .coordinator()
            .checkpoints()
            .iter()
            .filter_map(|s| s.end_time)
            .max();
        if let Some(end) = last_end {
            if sim.now() < end + pause && sim.coordinator().in_progress().count() == 0 {
                assert!(!sim.enabled_actions().contains(&Action::Trigger));
                assert_eq!(
                    sim.clone().apply(Action::Trigger),
                    Err(ActionError::CannotTrigger)
                );
                refused += 1;
            }
        }
    });
    assert!(refused > 0, "the run never stood inside a pause");
    let all = summaries(&sim);
    assert!(all.len() >= 5, "too few checkpoints to judge: {all:?}");
    for pair in all.windows(2) {
        let end = pair[0].end_time.expect("an earlier checkpoint has ended");
        assert!(
            pair[1].trigger_time >= end + pause,
            "checkpoint {} triggered at {}, {} after checkpoint {} ended at {end}",
            pair[1].id,
            pair[1].trigger_time,
            pair[1].trigger_time - end,
            pair[0].id,
        );
    }
    // The interval is much shorter than a checkpoint, so every trigger is held back by the
    // pause and comes exactly when it ends.
    assert!(all
        .windows(2)
        .all(|p| Some(p[1].trigger_time) == p[0].end_time.map(|e| e + pause)));
    all
}

/// The pause follows completed checkpoints.
#[test]
fn no_trigger_within_the_min_pause_after_a_checkpoint_completes() {
    let config = Config {
        checkpoint_interval: Some(10),
        first_trigger: 10,
        max_concurrent_checkpoints: 1,
        min_pause: 70,
        ..Config::default()
    };
    let all = check_min_pause(&pipeline(10), &config);
    assert!(all
        .iter()
        .filter(|s| s.status != CheckpointStatus::InProgress)
        .all(|s| s.status == CheckpointStatus::Completed));
}

/// The pause follows aborted checkpoints too: here every checkpoint expires, because the
/// union's second input is far slower than the timeout.
#[test]
fn no_trigger_within_the_min_pause_after_a_checkpoint_expires() {
    let config = Config {
        checkpoint_interval: Some(10),
        first_trigger: 10,
        max_concurrent_checkpoints: 1,
        min_pause: 70,
        timeout: 50,
        // Every checkpoint expires here: tolerate that (Flink's default, 0, fails the job).
        tolerable_failed_checkpoints: None,
        ..Config::default()
    };
    let all = check_min_pause(&slow_union(), &config);
    assert!(all
        .iter()
        .filter(|s| s.status != CheckpointStatus::InProgress)
        .all(|s| s.status
            == CheckpointStatus::Aborted {
                reason: AbortReason::Expired
            }));
}

/// Never more checkpoints in progress than the maximum, and the maximum is reached when the
/// interval is shorter than a checkpoint.
#[test]
fn never_more_checkpoints_in_progress_than_the_maximum() {
    for max in [2u32, 3] {
        let config = Config {
            checkpoint_interval: Some(15),
            first_trigger: 10,
            max_concurrent_checkpoints: max,
            ..Config::default()
        };
        let mut sim = Simulation::new(&pipeline(30), &config, 5).unwrap();
        let mut most = 0;
        run(&mut sim, 3000, |sim| {
            let running = sim.coordinator().in_progress().count();
            assert!(
                running <= max as usize,
                "{running} checkpoints in progress, at most {max} allowed"
            );
            if running == max as usize {
                // Full: no trigger on offer, and a manual one is refused.
                assert!(!sim.enabled_actions().contains(&Action::Trigger));
                assert_eq!(
                    sim.clone().apply(Action::Trigger),
                    Err(ActionError::CannotTrigger)
                );
            }
            most = most.max(running);
        });
        assert_eq!(most, max as usize, "the maximum {max} was never reached");
        assert!(completed(&sim).len() >= 5);
    }
}

/// With at most one checkpoint at a time, a trigger that comes due while one runs waits for it
/// to end and then runs at once (no min pause): each checkpoint starts exactly when the one
/// before ends.
#[test]
fn with_one_concurrent_checkpoint_the_next_waits_for_the_end() {
    let config = Config {
        checkpoint_interval: Some(15),
        first_trigger: 10,
        max_concurrent_checkpoints: 1,
        ..Config::default()
    };
    let mut sim = Simulation::new(&pipeline(30), &config, 5).unwrap();
    run(&mut sim, 3000, |sim| {
        assert!(sim.coordinator().in_progress().count() <= 1);
    });
    let all = summaries(&sim);
    assert!(all.len() >= 5, "too few checkpoints to judge: {all:?}");
    for pair in all.windows(2) {
        assert_eq!(
            Some(pair[1].trigger_time),
            pair[0].end_time,
            "checkpoint {} should start when {} ends",
            pair[1].id,
            pair[0].id
        );
    }
    // Only the newest can still be running.
    assert!(all[..all.len() - 1]
        .iter()
        .all(|s| s.status != CheckpointStatus::InProgress));
}

/// Two sources into a union, one of them on a very slow channel: the union cannot align
/// before the timeout. The checkpoint is aborted as expired exactly `timeout` after its
/// trigger, and cancellation markers follow the barriers: they reach the union on its fast
/// input, after the expiry.
#[test]
fn a_checkpoint_older_than_the_timeout_expires_and_markers_follow() {
    const TIMEOUT: u64 = 120;
    let graph = slow_union();
    for mode in BarrierMode::ALL {
        let config = Config {
            mode,
            checkpoint_interval: Some(1000),
            first_trigger: 20,
            timeout: TIMEOUT,
            // The expiry is the point, not the job failing for it (Flink's default tolerates
            // none).
            tolerable_failed_checkpoints: None,
            ..Config::default()
        };
        let mut sim = Simulation::new(&graph, &config, 11).unwrap();
        let merge = sim.physical().task_by_name("Merge#0").unwrap();
        let fast = sim.physical().tasks[merge as usize].inputs[0];
        let mut expired_at = None;
        let mut marker_at = None;
        run(&mut sim, 1000, |sim| {
            for e in sim.last_events() {
                match e {
                    Event::CheckpointAborted {
                        checkpoint: 1,
                        reason,
                    } => {
                        assert_eq!(*reason, AbortReason::Expired, "{mode}");
                        assert_eq!(expired_at, None, "{mode}: aborted twice");
                        expired_at = Some(sim.now());
                    }
                    Event::Arrived {
                        channel,
                        item: ItemKind::Cancel(1),
                        ..
                    } if *channel == fast && marker_at.is_none() => marker_at = Some(sim.now()),
                    _ => {}
                }
            }
        });
        let first = &summaries(&sim)[0];
        assert_eq!(first.trigger_time, 20, "{mode}");
        assert_eq!(expired_at, Some(20 + TIMEOUT), "{mode}: expiry time");
        assert_eq!(
            first.status,
            CheckpointStatus::Aborted {
                reason: AbortReason::Expired
            },
            "{mode}"
        );
        assert_eq!(first.end_time, Some(20 + TIMEOUT), "{mode}");
        let marker_at = marker_at.unwrap_or_else(|| panic!("{mode}: no cancellation marker"));
        assert!(marker_at > 20 + TIMEOUT, "{mode}: marker before the expiry");
    }
}
