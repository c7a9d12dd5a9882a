//! Failure and recovery (`crates/engine/src/recovery.rs`): a failed task brings the whole job down,
//! and after the restart delay every task restores the latest completed checkpoint.
//!
//! - A property test over random acyclic graphs with bounded sources, random seeds and random
//!   failure schedules, each case run in every mode against the same scenario without
//!   failures: exactly-once modes end with the failure-free counts (and, with two-phase-commit
//!   sinks, the failure-free committed output); at-least-once never loses and counts twice no
//!   more than it replayed; every run finishes. The coverage figures are printed
//!   (`cargo test --test recovery -- --nocapture`) and checked against targets. Its generator
//!   and oracle are `common/failure_schedules.rs`.
//! - Focused tests: a restart from the beginning, a failure while the job is down, a failure
//!   planned after the job has finished, `SkipFailure`, checkpoint ids across a restart,
//!   forking the history before a failure.
//! - The `abs-sim run --fail` contract, with the built binary.
#![cfg(not(target_arch = "wasm32"))]

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Output;
use std::time::Duration;

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::report::Report;
use abs_playground::engine::snapshot::TaskState;
use abs_playground::engine::trace::AbortReason;
use abs_playground::engine::{
    Action, ActionError, BarrierMode, Config, Edge, Event, History, JobGraph, Operator,
    OperatorKind, Partitioning, Simulation, TaskId,
};
use abs_playground::scenario::{presets, Failure, Scenario};
use proptest::prelude::*;
use serde_json::Value;

#[path = "common/failure_schedules.rs"]
mod failure_schedules;
use failure_schedules::{
    bag, cases, check_mode, failures, graph, params, percent, Coverage, Mode, MODES,
};

#[path = "common/time_limit.rs"]
mod time_limit;

// ----- the property test -----

/// Random graphs, seeds and failure schedules in every mode: see the module comment. Driven
/// by hand (not `proptest!`) so the coverage can be tallied over every case.
#[test]
fn recovery_preserves_results_in_every_mode() {
    time_limit::within(
        time_limit::for_cases(cases(), Duration::from_secs(300)),
        || {
            let config = ProptestConfig {
                cases: cases(),
                max_shrink_iters: 100,
                source_file: Some(file!()),
                ..ProptestConfig::default()
            };
            let strategy = (graph(), any::<u64>(), params(), failures());
            let coverage = RefCell::new(Coverage::default());
            let mut runner = proptest::test_runner::TestRunner::new(config);
            let result = runner.run(&strategy, |(graph, seed, p, plan)| {
                let mut c = Coverage::default();
                for mode in MODES {
                    check_mode(&graph, seed, &p, &plan, mode, &mut c)?;
                }
                // Tallied only for cases that passed (shrinking re-runs failing ones).
                let mut all = coverage.borrow_mut();
                all.cases += 1;
                for m in 0..5 {
                    all.runs[m] += c.runs[m];
                    all.failing_runs[m] += c.failing_runs[m];
                    all.reinjecting_runs[m] += c.reinjecting_runs[m];
                    all.stalled_runs[m] += c.stalled_runs[m];
                }
                all.planned += c.planned;
                all.applied += c.applied;
                all.restored_from_checkpoint += c.restored_from_checkpoint;
                all.restored_from_beginning += c.restored_from_beginning;
                all.runs_restoring_a_checkpoint += c.runs_restoring_a_checkpoint;
                all.duplicate_runs += c.duplicate_runs;
                all.excess_runs += c.excess_runs;
                all.failed_while_down += c.failed_while_down;
                all.region_runs += c.region_runs;
                all.routing_sensitive += c.routing_sensitive;
                all.all_transactional_failing += c.all_transactional_failing;
                all.plain_failing += c.plain_failing;
                Ok(())
            });
            if let Err(e) = result {
                panic!("{e}\n{runner}");
            }
            let c = coverage.into_inner();
            let failing: u64 = c.failing_runs.iter().sum();
            let restoring_pct = percent(c.runs_restoring_a_checkpoint, failing);
            let at = |mode: Mode| MODES.iter().position(|&m| m == mode).unwrap();
            let reinject = |mode: Mode| {
                let m = at(mode);
                (c.reinjecting_runs[m], c.failing_runs[m])
            };
            let (ua_re, ua_fail) = reinject(Mode::Unaligned);
            let (cl_re, cl_fail) = reinject(Mode::ChandyLamport);
            let (to_re, to_fail) = reinject(Mode::AlignedTimeout);
            let alo_fail = c.failing_runs[at(Mode::AtLeastOnce)];
            eprintln!(
        "recovery coverage over {} cases ({} runs per mode, each against its failure-free run):\n  \
         failures planned {}, applied {} ({:.1}%), of which while the job was down {}\n  \
         runs with a failure: {failing} ({:.1}% of runs), of which {} restarted only a \
         region (the rest ran on)\n  \
         restores: {} from a checkpoint, {} from the beginning; runs with a failure that \
         restored a checkpoint: {restoring_pct:.1}%\n  \
         re-injected channel state: unaligned {ua_re} of {ua_fail} failing runs, \
         chandy-lamport {cl_re} of {cl_fail}, aligned with a timeout {to_re} of {to_fail}\n  \
         at-least-once: {} of {alo_fail} failing runs restored duplicates, {} counted some \
         word more than without failures\n  \
         failing runs with routing-sensitive sink output: {}, all sinks transactional: {}, \
         some plain sink: {}\n  \
         cases where the partitioner rule stalled a checkpoint until it expired (results not \
         compared): unaligned {}, aligned with a timeout {}",
        c.cases,
        c.runs[0],
        c.planned,
        c.applied,
        percent(c.applied, c.planned),
        c.failed_while_down,
        percent(failing, c.runs.iter().sum()),
        c.region_runs,
        c.restored_from_checkpoint,
        c.restored_from_beginning,
        c.duplicate_runs,
        c.excess_runs,
        c.routing_sensitive,
        c.all_transactional_failing,
        c.plain_failing,
        c.stalled_runs[at(Mode::Unaligned)],
        c.stalled_runs[at(Mode::AlignedTimeout)],
    );
            // Targets, in percent, well below what the generator reaches over 400 cases (the figures
            // vary by a few points from one runner seed to the next): restored a checkpoint ~65% of
            // failing runs; re-injected channel state ~70% (unaligned), ~50% (chandy-lamport), ~25%
            // (aligned with a timeout); at-least-once restored duplicates ~40%, counted a word more
            // ~15%; failures while the job was down ~1.5 per case.
            if c.cases < 100 {
                eprintln!("coverage targets not checked: fewer than 100 cases");
                return;
            }
            let targets = [
                (
                    restoring_pct,
                    50.0,
                    "failing runs that restored a checkpoint",
                ),
                (
                    percent(c.applied, c.planned),
                    90.0,
                    "planned failures that happened",
                ),
                (
                    percent(
                        c.restored_from_beginning,
                        c.restored_from_beginning + c.restored_from_checkpoint,
                    ),
                    10.0,
                    "restores from the beginning",
                ),
                (
                    percent(ua_re, ua_fail),
                    45.0,
                    "failing unaligned runs that re-injected",
                ),
                (
                    percent(cl_re, cl_fail),
                    30.0,
                    "failing chandy-lamport runs that re-injected",
                ),
                (
                    percent(to_re, to_fail),
                    10.0,
                    "failing aligned-timeout runs that re-injected",
                ),
                (
                    percent(c.duplicate_runs, alo_fail),
                    20.0,
                    "failing at-least-once runs that restored duplicates",
                ),
                (
                    percent(c.excess_runs, alo_fail),
                    5.0,
                    "failing at-least-once runs that counted a word more",
                ),
                (
                    percent(c.failed_while_down, c.cases),
                    50.0,
                    "failures while the job was down, per 100 cases",
                ),
            ];
            for (got, target, what) in targets {
                assert!(
                    got >= target,
                    "coverage: {what}: {got:.1}% (target {target}%)"
                );
            }
        },
    );
}

// ----- focused tests -----

/// One step of a run: its time and its events.
type Step = (u64, Vec<Event>);

/// Runs `sim` through [`Report`] until the job finishes (at most `limit` steps): the summary
/// and every step.
fn run_to_end(sim: &mut Simulation, limit: usize) -> (Value, Vec<Step>) {
    run_to_end_with(Report::default(), sim, limit)
}

/// As [`run_to_end`], with a report that has seen every step so far.
fn run_to_end_with(mut report: Report, sim: &mut Simulation, limit: usize) -> (Value, Vec<Step>) {
    let mut steps = Vec::new();
    while !sim.job_finished() && steps.len() < limit {
        let before = sim.steps();
        if !report.write_step(sim, &mut std::io::sink()).unwrap() {
            break;
        }
        assert_eq!(sim.steps(), before + 1);
        steps.push((sim.now(), sim.last_events().to_vec()));
    }
    (report.summary(sim), steps)
}

fn recovery(mode: BarrierMode) -> Scenario {
    presets::recovery().with_mode(mode)
}

fn without_failures(mut s: Scenario) -> Scenario {
    s.failures.clear();
    s
}

fn task(sim: &Simulation, name: &str) -> TaskId {
    sim.physical().task_by_name(name).unwrap()
}

fn events(steps: &[Step]) -> impl Iterator<Item = (u64, &Event)> {
    steps
        .iter()
        .flat_map(|(time, events)| events.iter().map(move |e| (*time, e)))
}

/// The failure-free result of the recovery preset in `mode`.
fn failure_free_final(mode: BarrierMode) -> Value {
    let mut sim = without_failures(recovery(mode)).simulation().unwrap();
    let (summary, _) = run_to_end(&mut sim, 100_000);
    assert_eq!(summary["finished"], true);
    summary["final"].clone()
}

/// Asserts that two `final` results are equal, naming what differs.
fn assert_same_final(got: &Value, want: &Value, what: &str) {
    assert_eq!(got["counts"], want["counts"], "{what}: counts");
    let items = |v: &Value| {
        bag(v["sink"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| s.as_str().unwrap()))
    };
    let (got, want) = (items(got), items(want));
    let missing: Vec<_> = want
        .iter()
        .filter(|(k, n)| got.get(*k).copied().unwrap_or(0) < **n)
        .collect();
    let extra: Vec<_> = got
        .iter()
        .filter(|(k, n)| want.get(*k).copied().unwrap_or(0) < **n)
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "{what}: sink output differs from the failure-free run's: missing {missing:?}, \
         extra {extra:?}"
    );
}

fn source_offsets(sim: &Simulation) -> Vec<u64> {
    sim.tasks()
        .iter()
        .filter_map(|t| match t.state {
            TaskState::Source { offset } => Some(offset),
            _ => None,
        })
        .collect()
}

#[test]
fn a_failure_before_any_checkpoint_completed_restarts_from_the_beginning() {
    for mode in BarrierMode::ALL {
        let mut scenario = recovery(mode);
        // The first trigger is at 20: at 15 the sources have read, nothing has completed.
        scenario.failures = vec![Failure {
            task: "Count#1".into(),
            at: 15,
        }];
        let mut sim = scenario.simulation().unwrap();
        let mut read_before = Vec::new();
        let mut restored = false;
        let mut first_reads_after = Vec::new();
        let mut report = Report::default();
        while !sim.job_finished() && sim.steps() < 100_000 {
            let offsets = source_offsets(&sim);
            assert!(report.write_step(&mut sim, &mut std::io::sink()).unwrap());
            for e in sim.last_events() {
                match e {
                    Event::Failed { .. } => {
                        assert!(
                            sim.coordinator()
                                .checkpoints()
                                .iter()
                                .all(|c| c.status != CheckpointStatus::Completed),
                            "{mode}: a checkpoint had completed"
                        );
                        read_before = offsets.clone();
                        assert!(read_before.iter().any(|&o| o > 0), "{mode}: nothing read");
                    }
                    Event::Restored {
                        checkpoint,
                        reinjected,
                        duplicates,
                        ..
                    } => {
                        assert_eq!(*checkpoint, None, "{mode}: restored a checkpoint");
                        assert_eq!((*reinjected, duplicates.len()), (0, 0), "{mode}");
                        assert_eq!(sim.now(), 15 + 20, "{mode}: restart after the delay");
                        assert!(
                            source_offsets(&sim).iter().all(|&o| o == 0),
                            "{mode}: sources not rewound to 0: {:?}",
                            source_offsets(&sim)
                        );
                        for t in sim.tasks() {
                            if let TaskState::Count { counts } = &t.state {
                                assert_eq!(counts.iter().count(), 0, "{mode}: counts kept");
                            }
                        }
                        restored = true;
                    }
                    Event::Rewound { from, to, .. } => {
                        assert_eq!(*to, 0, "{mode}");
                        assert!(read_before.contains(from), "{mode}: rewound from {from}");
                    }
                    Event::SourceRead { offset, record, .. } if restored => {
                        first_reads_after.push((*offset, record.replay));
                    }
                    _ => {}
                }
            }
        }
        assert!(restored, "{mode}: never restored");
        let r = &sim.recoveries()[0];
        assert_eq!((r.checkpoint, r.restored_at), (None, Some(35)), "{mode}");
        // Lines read before the failure are read again, as replays; then new ones.
        let replays = first_reads_after.iter().filter(|(_, r)| *r).count();
        assert_eq!(
            replays as u64,
            read_before.iter().sum::<u64>(),
            "{mode}: {first_reads_after:?}"
        );
        assert!(first_reads_after.iter().any(|(_, r)| !r), "{mode}");
        let summary = report.summary(&sim);
        assert_eq!(summary["finished"], true, "{mode}");
        if mode != BarrierMode::AtLeastOnce {
            assert_same_final(
                &summary["final"],
                &failure_free_final(mode),
                &mode.to_string(),
            );
        }
        // From the beginning there is nothing to count twice, even at-least-once.
        assert_eq!(
            summary["final"]["counts"],
            failure_free_final(mode)["counts"],
            "{mode}"
        );
    }
}

#[test]
fn failing_again_while_the_job_is_down_postpones_the_restart() {
    let mut scenario = recovery(BarrierMode::Aligned);
    scenario.failures.push(Failure {
        task: "Count#0".into(),
        at: 130,
    });
    let mut sim = scenario.simulation().unwrap();
    let mut report = Report::default();
    let mut failed = Vec::new();
    let mut restored = Vec::new();
    let mut aborts = Vec::new();
    while !sim.job_finished() && sim.steps() < 100_000 {
        assert!(report.write_step(&mut sim, &mut std::io::sink()).unwrap());
        for e in sim.last_events() {
            match e {
                Event::Failed {
                    task,
                    dropped,
                    restart_at,
                    ..
                } => {
                    failed.push((sim.now(), *task, *dropped, *restart_at));
                    assert_eq!(sim.restarting_at(), Some(*restart_at));
                    assert_eq!(sim.failed_task(), *task);
                    assert_eq!(sim.enabled_actions(), vec![Action::Restart]);
                    // While down nothing runs: the job is cancelled.
                    assert_eq!(
                        sim.clone().apply(Action::Trigger),
                        Err(ActionError::Restarting)
                    );
                }
                Event::Restored { checkpoint, .. } => restored.push((sim.now(), *checkpoint)),
                Event::TransactionAborted { task, aborted } => {
                    aborts.push((sim.now(), *task, *aborted))
                }
                _ => {}
            }
        }
    }
    let count0 = task(&sim, "Count#0");
    let count1 = task(&sim, "Count#1");
    assert_eq!(failed.len(), 2, "{failed:?}");
    assert_eq!(failed[0].0, 120);
    assert_eq!((failed[0].1, failed[0].3), (Some(count1), 140));
    assert!(
        failed[0].2 > 0,
        "the first failure drops what was in flight"
    );
    // The second failure finds the job down: nothing in flight, and the delay starts again.
    assert_eq!(failed[1], (130, Some(count0), 0, 150));
    assert_eq!(
        restored,
        vec![(150, Some(2))],
        "one restore, at 150, not 140"
    );
    // The sink's open transaction was aborted at 120; at 130 the cancelled sink has none to
    // abort (these tests once found it aborted again, and committed records lost from
    // `final.sink`).
    assert_eq!(
        aborts.iter().map(|a| a.0).collect::<Vec<_>>(),
        vec![120],
        "the open transaction is aborted once, not again while the job is down: {aborts:?}"
    );
    let summary = report.summary(&sim);
    assert_eq!(summary["finished"], true);
    assert_eq!(
        summary["failures"],
        serde_json::json!([
            {"task": "Count#1", "at": 120, "applied": true},
            {"task": "Count#0", "at": 130, "applied": true},
        ])
    );
    assert_same_final(
        &summary["final"],
        &failure_free_final(BarrierMode::Aligned),
        "aligned",
    );
}

#[test]
fn a_failure_planned_after_the_job_finished_does_not_happen() {
    let scenario = without_failures(recovery(BarrierMode::Aligned));
    let mut sim = scenario.simulation().unwrap();
    let (_, steps) = run_to_end(&mut sim, 100_000);
    let end = steps.last().unwrap().0;
    for at in [end + 1, end + 500] {
        let mut scenario = scenario.clone();
        scenario.failures = vec![Failure {
            task: "Count#1".into(),
            at,
        }];
        let mut sim = scenario.simulation().unwrap();
        let (summary, steps) = run_to_end(&mut sim, 100_000);
        assert_eq!(summary["finished"], true);
        assert!(events(&steps).all(|(_, e)| !matches!(e, Event::Failed { .. })));
        assert_eq!(
            summary["failures"],
            serde_json::json!([{"task": "Count#1", "at": at, "applied": false}])
        );
        assert_same_final(
            &summary["final"],
            &failure_free_final(BarrierMode::Aligned),
            "aligned",
        );
        // Nothing is left to happen, the planned failure included; nothing can fail by hand.
        let steps_done = sim.steps();
        assert_eq!(sim.step(), None);
        assert_eq!(sim.steps(), steps_done);
        assert!(sim.job_finished() && !sim.planned_failures()[0].applied);
        let count0 = task(&sim, "Count#0");
        assert_eq!(
            sim.apply(Action::Fail { task: count0 }),
            Err(ActionError::JobFinished)
        );
    }
}

#[test]
fn skip_failure_cancels_the_next_planned_failure_of_that_task() {
    // One planned failure, skipped before it is due: the run is the failure-free one.
    let mut sim = recovery(BarrierMode::Aligned).simulation().unwrap();
    let count0 = task(&sim, "Count#0");
    let count1 = task(&sim, "Count#1");
    assert_eq!(
        sim.apply(Action::SkipFailure { task: count0 }),
        Err(ActionError::NoPlannedFailure(count0))
    );
    sim.apply(Action::SkipFailure { task: count1 }).unwrap();
    assert_eq!(
        sim.clone().apply(Action::SkipFailure { task: count1 }),
        Err(ActionError::NoPlannedFailure(count1)),
        "the only planned failure is skipped already"
    );
    let (summary, steps) = run_to_end(&mut sim, 100_000);
    assert!(
        events(&steps).all(|(_, e)| !matches!(e, Event::Failed { .. } | Event::Restored { .. }))
    );
    assert!(sim.planned_failures()[0].skipped && !sim.planned_failures()[0].applied);
    assert_eq!(summary["failures"][0]["applied"], false);
    assert_same_final(
        &summary["final"],
        &failure_free_final(BarrierMode::Aligned),
        "aligned",
    );

    // Two planned failures of Count#1: skipping cancels the earlier one only.
    let mut scenario = recovery(BarrierMode::Aligned);
    scenario.failures.push(Failure {
        task: "Count#1".into(),
        at: 100,
    });
    let mut sim = scenario.simulation().unwrap();
    sim.apply(Action::SkipFailure { task: count1 }).unwrap();
    let (summary, steps) = run_to_end(&mut sim, 100_000);
    let failed: Vec<u64> = events(&steps)
        .filter(|(_, e)| matches!(e, Event::Failed { .. }))
        .map(|(t, _)| t)
        .collect();
    assert_eq!(failed, vec![120], "the failure at 100 was the next one");
    assert_eq!(
        summary["failures"],
        serde_json::json!([
            {"task": "Count#1", "at": 120, "applied": true},
            {"task": "Count#1", "at": 100, "applied": false},
        ])
    );
}

#[test]
fn checkpoint_ids_keep_growing_and_running_checkpoints_are_aborted_on_failover() {
    for mode in BarrierMode::ALL {
        // Checkpoint 3's trigger time without failures; Count#1 fails just after it (a
        // planned failure, so the report sees the failure's step as `abs-sim run` would).
        let scenario = without_failures(recovery(mode));
        let (_, base) = run_to_end(&mut scenario.simulation().unwrap(), 100_000);
        let (t3, _) = events(&base)
            .find(|(_, e)| matches!(e, Event::CheckpointTriggered { checkpoint: 3, .. }))
            .unwrap();
        let mut scenario = scenario.clone();
        scenario.failures = vec![Failure {
            task: "Count#1".into(),
            at: t3 + 1,
        }];
        let mut sim = scenario.simulation().unwrap();
        let mut report = Report::default();
        loop {
            let running: Vec<_> = sim.coordinator().in_progress().collect();
            assert!(report.write_step(&mut sim, &mut std::io::sink()).unwrap());
            assert!(sim.steps() < 100_000, "{mode}");
            if sim
                .last_events()
                .iter()
                .any(|e| matches!(e, Event::Failed { .. }))
            {
                assert_eq!(running, [3], "{mode}: checkpoint 3 was running");
                break;
            }
        }
        let completed: Vec<_> = sim
            .coordinator()
            .checkpoints()
            .iter()
            .filter(|c| c.status == CheckpointStatus::Completed)
            .map(|c| c.id)
            .collect();
        assert_eq!(completed, vec![1, 2], "{mode}");
        assert!(
            sim.last_events().contains(&Event::CheckpointAborted {
                checkpoint: 3,
                reason: AbortReason::Failover,
            }),
            "{mode}: {:?}",
            sim.last_events()
        );
        assert_eq!(sim.coordinator().in_progress().count(), 0, "{mode}");
        assert_eq!(
            sim.coordinator().summary(3).unwrap().status,
            CheckpointStatus::Aborted {
                reason: AbortReason::Failover
            },
            "{mode}"
        );
        let (summary, steps) = run_to_end_with(report, &mut sim, 100_000);
        assert_eq!(summary["finished"], true, "{mode}");
        let restored: Vec<_> = events(&steps)
            .filter_map(|(_, e)| match e {
                Event::Restored { checkpoint, .. } => Some(*checkpoint),
                _ => None,
            })
            .collect();
        assert_eq!(restored, vec![Some(2)], "{mode}: the latest completed one");
        let triggered: Vec<_> = events(&steps)
            .filter_map(|(_, e)| match e {
                Event::CheckpointTriggered { checkpoint, .. } => Some(*checkpoint),
                _ => None,
            })
            .collect();
        assert_eq!(triggered.first(), Some(&4), "{mode}: ids go on after 3");
        assert!(triggered.windows(2).all(|w| w[1] == w[0] + 1), "{mode}");
        let ids: Vec<_> = sim
            .coordinator()
            .checkpoints()
            .iter()
            .map(|c| c.id)
            .collect();
        assert_eq!(ids, (1..=ids.len() as u64).collect::<Vec<_>>(), "{mode}");
        // A failover is not a failed checkpoint: abandoned ones are the only abort.
        let failover = sim
            .coordinator()
            .checkpoints()
            .iter()
            .filter(|c| {
                c.status
                    == CheckpointStatus::Aborted {
                        reason: AbortReason::Failover,
                    }
            })
            .count();
        assert_eq!(failover, 1, "{mode}");
        if mode != BarrierMode::AtLeastOnce {
            assert_same_final(
                &summary["final"],
                &failure_free_final(mode),
                &mode.to_string(),
            );
        }
    }
}

/// Lines of the two-phase-commit job's log, each its own word, so that each record the sink
/// commits names the line it came from.
fn unique_lines() -> Vec<String> {
    (0..40).map(|i| format!("l{i:02}")).collect()
}

/// A bounded log of [`unique_lines`] into a transactional sink over a fast edge, and into a
/// slow branch (a Map behind a 150-tick edge, then a plain sink) that keeps each checkpoint
/// running for ~150 ticks after its barrier reached the transactional sink.
fn two_phase_commit_job(mode: BarrierMode) -> Simulation {
    let op = |name: &str, kind: OperatorKind| Operator {
        name: name.into(),
        kind,
        parallelism: 1,
        processing_time: 1,
    };
    let edge = |from: &str, to: &str, latency: u64| Edge {
        from: from.into(),
        to: to.into(),
        partitioning: Partitioning::Forward,
        latency,
        // The slow edge holds every line in flight: no backpressure slows the source.
        capacity: 1_000,
        fifo: true,
    };
    let graph = JobGraph {
        operators: vec![
            op(
                "Src",
                OperatorKind::Source {
                    lines: unique_lines(),
                    interval: 5,
                    bounded: true,
                },
            ),
            op(
                "Tx",
                OperatorKind::Sink {
                    transactional: true,
                },
            ),
            op("Slow", OperatorKind::Map),
            op(
                "Log",
                OperatorKind::Sink {
                    transactional: false,
                },
            ),
        ],
        edges: vec![
            edge("Src", "Tx", 2),
            edge("Src", "Slow", 150),
            edge("Slow", "Log", 2),
        ],
    };
    let config = Config {
        mode,
        ..Config::default()
    };
    Simulation::new(&graph, &config, 9).unwrap()
}

/// A transactional sink's output as the events tell it: the open transaction (what it
/// processed, in order) and the committed output, which only a `Committed` event adds to.
#[derive(Default)]
struct CommittedOutput {
    /// Records committed so far (the sink's position in its output).
    count: u64,
    open: Vec<String>,
    /// Each committed line, with how often it was committed.
    lines: BTreeMap<String, u32>,
}

impl CommittedOutput {
    /// Follows one step's events of the sink `tx`, failing on a record committed twice.
    fn watch(&mut self, sim: &Simulation, tx: TaskId, what: &str) {
        for e in sim.last_events() {
            match e {
                Event::Processed { task, record, .. } if *task == tx => {
                    self.open.push(sim.describe(&record.payload))
                }
                Event::Committed {
                    task, committed, ..
                } if *task == tx => {
                    let n = (committed - self.count) as usize;
                    assert!(n <= self.open.len(), "{what}: commits more than it holds");
                    self.count = *committed;
                    for line in self.open.drain(..n) {
                        let times = self.lines.entry(line.clone()).or_default();
                        *times += 1;
                        assert_eq!(*times, 1, "{what}: {line} committed twice");
                    }
                }
                Event::TransactionAborted { task, .. } if *task == tx => self.open.clear(),
                // The restored checkpoint's pre-committed transaction counts as committed.
                Event::Restored { .. } => {
                    if let TaskState::Sink { committed, .. } = sim.tasks()[tx as usize].state {
                        self.count = committed;
                    }
                }
                _ => {}
            }
        }
    }
}

impl CommittedOutput {
    /// One step of the scheduler (failing after `limit` steps in all), followed by
    /// [`CommittedOutput::watch`]; the sink's committed count may move only in a step that
    /// completes or restores a checkpoint. Returns the step's events.
    fn step(&mut self, sim: &mut Simulation, tx: TaskId, limit: u64, what: &str) -> Vec<Event> {
        let before = committed(sim, tx);
        sim.step().unwrap();
        assert!(
            sim.steps() < limit,
            "{what}: still running after {limit} steps"
        );
        self.watch(sim, tx, what);
        let events = sim.last_events().to_vec();
        let ends = events.iter().any(|e| {
            matches!(
                e,
                Event::CheckpointCompleted { .. } | Event::Restored { .. }
            )
        });
        assert!(
            ends || committed(sim, tx) == before,
            "{what}: the sink committed at t = {} with no checkpoint completed: {events:?}",
            sim.now()
        );
        events
    }
}

/// What a transactional sink has committed, by its own state.
fn committed(sim: &Simulation, tx: TaskId) -> u64 {
    match sim.tasks()[tx as usize].state {
        TaskState::Sink { committed, .. } => committed,
        _ => unreachable!("not a sink"),
    }
}

/// Two-phase commit: a transactional sink pre-commits at the barrier and commits only when the
/// checkpoint completes. Checkpoint 2's barrier reaches the sink, which takes more records
/// into its next transaction; the job fails before checkpoint 2 completes. Nothing was
/// committed at the barrier (the sink's committed count moves only in a step that completes a
/// checkpoint or restores one), the restart goes back to checkpoint 1, and when the job has
/// finished every line of the log was committed exactly once — none lost with the aborted
/// transactions, none committed again after the replay.
#[test]
fn a_transactional_sink_commits_only_completed_checkpoints_and_nothing_twice() {
    for mode in [
        BarrierMode::Aligned,
        BarrierMode::Unaligned,
        BarrierMode::ChandyLamport,
    ] {
        let what = mode.as_str();
        let mut sim = two_phase_commit_job(mode);
        let tx = task(&sim, "Tx#0");
        let mut output = CommittedOutput::default();
        // Checkpoint 2's snapshot at the sink, then two more records in its next transaction.
        let mut after_barrier = None;
        loop {
            // (Within 10,000 steps the sink takes barrier 2.)
            let events = output.step(&mut sim, tx, 10_000, what);
            let snapshot_2 = events
                .iter()
                .any(|e| matches!(e, Event::Snapshot { task, checkpoint: 2, .. } if *task == tx));
            if snapshot_2 {
                assert!(
                    sim.coordinator().in_progress().any(|n| n == 2),
                    "{what}: checkpoint 2 must still run after the sink's snapshot"
                );
                after_barrier = Some(output.open.len());
            }
            if after_barrier.is_some_and(|at| output.open.len() >= at + 2) {
                break;
            }
        }
        let pre_committed = after_barrier.unwrap();
        assert!(
            pre_committed > 0,
            "{what}: the sink's snapshot pre-committed nothing"
        );
        assert!(
            sim.coordinator().in_progress().any(|n| n == 2),
            "{what}: checkpoint 2 completed before the failure"
        );
        eprintln!(
            "{what}: barrier 2 reached the sink with {pre_committed} records pre-committed; \
             failed at t = {} with {} open",
            sim.now(),
            output.open.len()
        );
        let committed_before = output.lines.len();
        // The failure aborts both transactions: the pre-committed one and the one after it.
        sim.apply(Action::Fail { task: tx }).unwrap();
        output.watch(&sim, tx, what);
        assert_eq!(output.lines.len(), committed_before, "{what}");
        assert_eq!(
            sim.coordinator().summary(2).unwrap().status,
            CheckpointStatus::Aborted {
                reason: AbortReason::Failover
            },
            "{what}"
        );
        let mut restored = Vec::new();
        while !sim.job_finished() {
            // (Within 20,000 steps the job finishes.)
            for e in output.step(&mut sim, tx, 20_000, what) {
                if let Event::Restored { checkpoint, .. } = e {
                    restored.push(checkpoint);
                }
            }
        }
        assert_eq!(restored, [Some(1)], "{what}: restores checkpoint 1");
        let want: BTreeMap<String, u32> = unique_lines().into_iter().map(|l| (l, 1)).collect();
        assert_eq!(output.lines, want, "{what}: committed output");
    }
}

/// What can be seen of a simulation, as text.
fn fingerprint(sim: &Simulation) -> String {
    let states: Vec<_> = sim.tasks().iter().map(|t| &t.state).collect();
    format!(
        "{} {} {} {:?} {:?} {:?} {:?} {:?}",
        sim.steps(),
        sim.now(),
        serde_json::to_string(sim.last_events()).unwrap(),
        sim.coordinator().checkpoints(),
        states,
        sim.planned_failures(),
        sim.recoveries(),
        sim.restarting_at(),
    )
}

/// Steps `h` to the end, returning each position's fingerprint (index = step).
fn play_out(h: &mut History, from: &[String]) -> Vec<String> {
    let mut prints = from[..=h.position() as usize].to_vec();
    while !h.current().job_finished() && h.step().is_some() {
        assert!(prints.len() < 100_000);
        prints.push(fingerprint(h.current()));
    }
    prints
}

#[test]
fn history_forks_a_future_without_the_failure_and_seeks_in_it_deterministically() {
    let sim = recovery(BarrierMode::Aligned).simulation().unwrap();
    let count0 = task(&sim, "Count#0");
    let count1 = task(&sim, "Count#1");
    let mut h = History::new(sim);
    let mut prints = vec![fingerprint(h.current())];
    prints = {
        let p = play_out(&mut h, &prints);
        assert!(h.current().job_finished());
        p
    };
    let failed_at = prints
        .iter()
        .position(|p| p.contains("\"event\":\"failed\""))
        .expect("the preset's failure happens") as u64;
    h.seek(failed_at);
    assert_eq!(h.current().now(), 120);
    assert_eq!(h.current().failed_task(), Some(count1));
    let original_len = h.len();

    // Back before the failure: skip it. The new future has no failure at all.
    let fork = failed_at - 25;
    h.seek(fork);
    assert_eq!(fingerprint(h.current()), prints[fork as usize]);
    h.apply(Action::SkipFailure { task: count1 }).unwrap();
    assert_eq!(h.len(), fork + 1, "the old future is dropped");
    let mut skipped = prints[..=fork as usize].to_vec();
    skipped.push(fingerprint(h.current()));
    let skipped = play_out(&mut h, &skipped);
    assert!(h.current().job_finished());
    assert!(!skipped.iter().any(|p| p.contains("\"event\":\"failed\"")));
    assert!(prints[failed_at as usize].contains("\"event\":\"failed\""));
    assert_ne!(h.len(), original_len);
    // Seeking anywhere in the new future, backwards and forwards, gives the same states.
    let len = h.len();
    for target in [
        len,
        0,
        fork,
        fork + 1,
        len / 2,
        failed_at,
        3,
        len - 1,
        fork - 1,
        len,
    ] {
        h.seek(target);
        assert_eq!(h.position(), target);
        assert_eq!(
            fingerprint(h.current()),
            skipped[target as usize],
            "at {target}"
        );
    }

    // Back before the failure again: fail another subtask by hand instead.
    h.seek(fork);
    h.apply(Action::Fail { task: count0 }).unwrap();
    let mut other = prints[..=fork as usize].to_vec();
    other.push(fingerprint(h.current()));
    let other = play_out(&mut h, &other);
    assert!(h.current().job_finished());
    let first_failure = (fork + 1..=h.len())
        .find(|&s| {
            h.seek(s);
            h.current()
                .last_events()
                .iter()
                .any(|e| matches!(e, Event::Failed { .. }))
        })
        .unwrap();
    assert_eq!(first_failure, fork + 1);
    assert_eq!(h.current().failed_task(), Some(count0));
    let len = h.len();
    for target in [len, fork, len / 2, fork + 1, 0, len - 1, fork + 2] {
        h.seek(target);
        assert_eq!(
            fingerprint(h.current()),
            other[target as usize],
            "at {target}"
        );
    }
    assert_ne!(other, skipped);
}

// ----- the abs-sim contract -----

mod common;
use common::{abs_sim, text};

fn scratch(name: &str) -> PathBuf {
    common::scratch("recovery", name)
}

fn summary_of(out: &Output) -> Value {
    let last = text(&out.stdout).lines().last().expect("no output");
    let line: Value = serde_json::from_str(last).unwrap();
    assert!(line.get("summary").is_some(), "last line: {last}");
    line["summary"].clone()
}

/// The recovery preset as `abs-sim preset recovery` prints it, without its failures, in a
/// file of its own for each test (`name`): tests run in parallel.
fn recovery_without_failures_file(name: &str) -> PathBuf {
    let out = abs_sim(&["preset", "recovery"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let mut scenario: Value = serde_json::from_str(text(&out.stdout)).unwrap();
    assert!(
        scenario["failures"].is_array(),
        "the preset plans a failure"
    );
    scenario.as_object_mut().unwrap().remove("failures");
    let file = scratch(&format!("{name}-recovery-without-failures.json"));
    std::fs::write(&file, serde_json::to_string_pretty(&scenario).unwrap()).unwrap();
    file
}

fn run_finished(args: &[&str]) -> Value {
    let out = abs_sim(args);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{args:?}: {}",
        text(&out.stderr)
    );
    let summary = summary_of(&out);
    assert_eq!(summary["finished"], true, "{args:?}");
    summary
}

#[test]
fn abs_sim_run_recovers_to_the_failure_free_result() {
    let file = recovery_without_failures_file("exactly-once");
    let file = file.to_str().unwrap();
    let base = run_finished(&[
        "run",
        file,
        "--mode",
        "aligned",
        "--seed",
        "1",
        "--until-finished",
    ]);
    assert_eq!(base["failures"], serde_json::json!([]));
    let counts = base["final"]["counts"].as_object().unwrap();
    assert!(counts.len() > 10 && base["final"]["sink"].as_array().unwrap().len() > 10);

    let failed = run_finished(&[
        "run",
        "--preset",
        "recovery",
        "--mode",
        "aligned",
        "--seed",
        "1",
        "--until-finished",
    ]);
    assert_eq!(failed["final"], base["final"]);
    assert_eq!(
        failed["failures"],
        serde_json::json!([{"task": "Count#1", "at": 120, "applied": true}])
    );

    let twice = run_finished(&[
        "run",
        "--preset",
        "recovery",
        "--mode",
        "aligned",
        "--seed",
        "1",
        "--fail",
        "Count#0@150",
        "--until-finished",
    ]);
    assert_eq!(
        twice["failures"],
        serde_json::json!([
            {"task": "Count#1", "at": 120, "applied": true},
            {"task": "Count#0", "at": 150, "applied": true},
        ])
    );
    assert_eq!(twice["final"], base["final"]);
}

#[test]
fn abs_sim_run_refuses_a_bad_fail() {
    let out = abs_sim(&["run", "--preset", "recovery", "--fail", "Nope#3@10"]);
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty());
    let stderr = text(&out.stderr);
    assert!(stderr.contains("Nope#3"), "{stderr}");
    assert!(stderr.contains("Count#1"), "lists the subtasks: {stderr}");

    for bad in ["Count#1", "Count#1@", "@10", "Count#1@soon"] {
        let out = abs_sim(&["run", "--preset", "recovery", "--fail", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {out:?}");
        assert!(out.stdout.is_empty(), "{bad}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.contains("--fail") && stderr.contains(bad) && stderr.contains("usage:"),
            "{bad}: {stderr}"
        );
    }
    let out = abs_sim(&["run", "--preset", "recovery", "--fail"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

#[test]
fn abs_sim_at_least_once_counts_some_words_twice_after_the_recovery() {
    let file = recovery_without_failures_file("at-least-once");
    let at_least_once = |scenario: &[&str]| {
        let mut args = vec!["run"];
        args.extend_from_slice(scenario);
        args.extend(["--mode", "at-least-once", "--seed", "1", "--until-finished"]);
        run_finished(&args)
    };
    let base = at_least_once(&[file.to_str().unwrap()]);
    let failed = at_least_once(&["--preset", "recovery"]);
    assert_eq!(
        failed["failures"],
        serde_json::json!([{"task": "Count#1", "at": 120, "applied": true}])
    );
    let base = base["final"]["counts"].as_object().unwrap().clone();
    let got = failed["final"]["counts"].as_object().unwrap().clone();
    assert_eq!(
        base.keys().collect::<Vec<_>>(),
        got.keys().collect::<Vec<_>>()
    );
    let mut more = Vec::new();
    for (w, n) in &base {
        let (n, m) = (n.as_u64().unwrap(), got[w].as_u64().unwrap());
        assert!(m >= n, "{w}: {m} < {n}: at-least-once lost a record");
        if m > n {
            more.push(w.clone());
        }
    }
    assert!(!more.is_empty(), "no word counted twice: {got:?}");
}
