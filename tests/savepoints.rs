//! Savepoints, as Flink 2.3 takes them (`CheckpointCoordinator.triggerSavepoint`,
//! `CheckpointOptions`, `CheckpointRequestDecider`): always aligned, also where unaligned
//! checkpoints are on; forced past the most checkpoints at once unless unaligned checkpoints
//! are on, and then first in the queue; never subsumed and subsuming nothing; not in the
//! completed-checkpoint store, so no failover restores one; no task is notified of one, so no
//! sink commits on it and it is no task's final checkpoint; its failure is not counted; the
//! minimum pause counts from its completion.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::record::ItemKind;
use abs_playground::engine::trace::AbortReason;
use abs_playground::engine::{Action, ActionError, BarrierMode, Event, Simulation};
use abs_playground::scenario::{presets, Scenario};

fn preset(name: &str, mode: BarrierMode) -> Simulation {
    let mut s = presets::by_name(name).unwrap();
    s.config.mode = mode;
    s.simulation().unwrap()
}

/// Steps until `until` holds after a step (at most `limit` steps); every step's events are
/// handed to `seen`.
fn run_until(
    sim: &mut Simulation,
    limit: u32,
    mut seen: impl FnMut(&Simulation, &[Event]),
    until: impl Fn(&Simulation) -> bool,
) {
    for _ in 0..limit {
        if sim.step().is_none() {
            break;
        }
        seen(sim, sim.last_events());
        if until(sim) {
            return;
        }
    }
    panic!("not reached within {limit} steps");
}

fn status(sim: &Simulation, id: u64) -> CheckpointStatus {
    sim.coordinator().summary(id).unwrap().status
}

fn is_savepoint(sim: &Simulation, id: u64) -> bool {
    sim.coordinator().summary(id).unwrap().savepoint
}

/// Unaligned checkpoints on: the savepoint waits for the running checkpoint, then every task
/// takes it aligned — the merging task blocks and holds, nothing in flight is persisted, no
/// subtask reports an unaligned checkpoint — and the next checkpoint is unaligned again.
#[test]
fn a_savepoint_is_aligned_in_unaligned_mode_and_the_next_checkpoint_is_not() {
    let mut sim = preset("alignment", BarrierMode::Unaligned);
    run_until(
        &mut sim,
        500,
        |_, _| {},
        |s| s.coordinator().summary(1).is_some(),
    );
    assert!(!sim.coordinator().has_room(), "checkpoint 1 runs");
    sim.apply(Action::Savepoint).unwrap();
    assert_eq!(
        sim.last_events(),
        [Event::TriggerDeferred { savepoint: true }],
        "unaligned on: not forced, it waits"
    );
    let (mut held, mut persisted, mut told_aligned) = (0, 0, 0);
    run_until(
        &mut sim,
        2_000,
        |s, events| {
            for e in events {
                let of_savepoint = |n: u64| s.coordinator().summary(n).is_some_and(|c| c.savepoint);
                match e {
                    Event::Held { .. } if s.coordinator().in_progress().any(of_savepoint) => {
                        held += 1
                    }
                    Event::ChannelState { checkpoint, .. } if of_savepoint(*checkpoint) => {
                        persisted += 1
                    }
                    Event::Barrier {
                        checkpoint,
                        savepoint: true,
                        ..
                    } if of_savepoint(*checkpoint) => told_aligned += 1,
                    _ => {}
                }
            }
        },
        |s| {
            s.coordinator()
                .checkpoints()
                .iter()
                .any(|c| !c.savepoint && c.id > 2 && c.status == CheckpointStatus::Completed)
        },
    );
    assert!(
        is_savepoint(&sim, 2),
        "the savepoint took the next id, after checkpoint 1"
    );
    assert_eq!(status(&sim, 2), CheckpointStatus::Completed);
    assert!(
        held > 0,
        "the merging task held records while it aligned the savepoint"
    );
    assert_eq!(persisted, 0, "a savepoint persists nothing in flight");
    assert!(told_aligned >= 2, "its barriers are told as aligned ones");
    let gs = sim
        .coordinator()
        .global_state(2)
        .expect("a savepoint can be opened");
    assert!(gs.savepoint && gs.verdict.ok());
    assert!(gs.channel_state.is_empty());
    assert!(
        gs.tasks.iter().all(|t| !t.metrics.unaligned),
        "no subtask unaligned"
    );
    let next = sim
        .coordinator()
        .checkpoints()
        .iter()
        .find(|c| c.id > 2 && c.status == CheckpointStatus::Completed)
        .unwrap()
        .id;
    let after = sim.coordinator().global_state(next).unwrap();
    assert!(
        after
            .tasks
            .iter()
            .any(|t| t.metrics.unaligned && t.metrics.persisted_in_flight > 0),
        "the checkpoint after it is unaligned again, with in-flight data persisted"
    );
}

/// Unaligned checkpoints off (aligned, at-least-once): Flink forces the savepoint past the
/// most checkpoints at once — it starts at once beside the running checkpoint.
#[test]
fn a_savepoint_is_forced_where_unaligned_checkpoints_are_off() {
    for mode in [BarrierMode::Aligned, BarrierMode::AtLeastOnce] {
        let mut sim = preset("alignment", mode);
        run_until(&mut sim, 500, |_, _| {}, |s| !s.coordinator().has_room());
        sim.apply(Action::Savepoint).unwrap();
        assert!(
            matches!(
                sim.last_events().first(),
                Some(Event::CheckpointTriggered {
                    savepoint: true,
                    ..
                })
            ),
            "{mode}: {:?}",
            sim.last_events()
        );
        assert_eq!(sim.coordinator().in_progress().count(), 2, "{mode}");
        run_until(
            &mut sim,
            3_000,
            |_, _| {},
            |s| s.coordinator().in_progress().count() == 0,
        );
        let ended: Vec<_> = sim
            .coordinator()
            .checkpoints()
            .iter()
            .map(|c| c.status)
            .collect();
        assert!(
            ended.iter().all(|s| *s == CheckpointStatus::Completed),
            "{mode}: {ended:?}"
        );
    }
}

/// Waiting requests: the savepoint goes before a trigger by hand that came first.
#[test]
fn a_waiting_savepoint_goes_first() {
    let mut sim = preset("alignment", BarrierMode::Unaligned);
    run_until(&mut sim, 500, |_, _| {}, |s| !s.coordinator().has_room());
    sim.apply(Action::Trigger).unwrap();
    sim.apply(Action::Savepoint).unwrap();
    assert_eq!(sim.coordinator().manual_waiting(), 1);
    assert_eq!(sim.coordinator().savepoints_waiting(), 1);
    run_until(
        &mut sim,
        2_000,
        |_, _| {},
        |s| s.coordinator().summary(3).is_some(),
    );
    assert!(is_savepoint(&sim, 2), "the savepoint starts first");
    assert!(!is_savepoint(&sim, 3), "then the trigger by hand");
}

/// A completed checkpoint does not subsume a running savepoint, and a completed savepoint
/// subsumes no running checkpoint.
#[test]
fn savepoints_are_never_subsumed_and_subsume_nothing() {
    let mut s = presets::by_name("alignment").unwrap();
    s.config.mode = BarrierMode::Aligned;
    s.config.max_concurrent_checkpoints = 3;
    let mut sim = s.simulation().unwrap();
    run_until(
        &mut sim,
        500,
        |_, _| {},
        |s| s.coordinator().summary(1).is_some(),
    );
    sim.apply(Action::Savepoint).unwrap();
    sim.apply(Action::Trigger).unwrap();
    let mut subsumed = Vec::new();
    run_until(
        &mut sim,
        3_000,
        |_, events| {
            for e in events {
                if let Event::CheckpointAborted {
                    checkpoint,
                    reason: AbortReason::Subsumed,
                } = e
                {
                    subsumed.push(*checkpoint);
                }
            }
        },
        |s| (1..=3).all(|n| status(s, n) != CheckpointStatus::InProgress),
    );
    assert!(is_savepoint(&sim, 2));
    assert!(
        !subsumed.contains(&2),
        "the savepoint is never subsumed: {subsumed:?}"
    );
    assert_eq!(status(&sim, 2), CheckpointStatus::Completed);
}

/// A failover restores the latest completed checkpoint, never a savepoint completed after
/// it; no sink commits on a savepoint; and the counts stay exact.
#[test]
fn a_failover_restores_the_checkpoint_not_the_savepoint_and_no_sink_commits_on_it() {
    let mut s = presets::by_name("recovery").unwrap();
    s.failures.clear();
    s.config.mode = BarrierMode::Aligned;
    let mut sim = s.simulation().unwrap();
    run_until(
        &mut sim,
        3_000,
        |_, _| {},
        |s| s.coordinator().latest_completed().is_some(),
    );
    let checkpoint = sim.coordinator().latest_completed().unwrap().checkpoint;
    while !sim.coordinator().has_room() {
        sim.step().unwrap();
    }
    sim.apply(Action::Savepoint).unwrap();
    let savepoint = checkpoint + 1;
    let mut committed_on = Vec::new();
    run_until(
        &mut sim,
        3_000,
        |_, events| {
            for e in events {
                if let Event::Committed { checkpoint, .. } = e {
                    committed_on.push(*checkpoint);
                }
            }
        },
        |s| {
            s.coordinator()
                .summary(savepoint)
                .is_some_and(|c| c.end_time.is_some())
        },
    );
    assert!(is_savepoint(&sim, savepoint));
    assert_eq!(status(&sim, savepoint), CheckpointStatus::Completed);
    assert!(
        !committed_on.contains(&savepoint),
        "no sink commits on a savepoint"
    );
    // The latest completed checkpoint is still the one before: a failover restores it.
    let latest = sim.coordinator().latest_completed().unwrap().checkpoint;
    assert!(latest < savepoint, "latest {latest}");
    let count = sim.physical().task_by_name("Count#0").unwrap();
    sim.apply(Action::Fail { task: count }).unwrap();
    let restored = loop {
        sim.step().unwrap();
        if let Some(n) = sim.last_events().iter().find_map(|e| match e {
            Event::Restored { checkpoint, .. } => Some(*checkpoint),
            _ => None,
        }) {
            break n;
        }
    };
    assert_eq!(
        restored,
        Some(latest),
        "a failover never restores a savepoint"
    );
}

/// A savepoint is no task's final checkpoint: a bounded job does not finish on it.
#[test]
fn a_bounded_job_does_not_finish_on_a_savepoint() {
    let mut s = presets::by_name("recovery").unwrap();
    s.failures.clear();
    s.config.mode = BarrierMode::Aligned;
    s.config.checkpoint_interval = Some(5_000);
    s.config.first_trigger = 5_000;
    let mut sim = s.simulation().unwrap();
    // Every source reads its whole log long before the first checkpoint is due.
    run_until(
        &mut sim,
        5_000,
        |_, _| {},
        |s| s.tasks().iter().all(|t| t.data_ended),
    );
    assert!(sim.now() < 1_000);
    sim.apply(Action::Savepoint).unwrap();
    run_until(
        &mut sim,
        5_000,
        |_, _| {},
        |s| status(s, 1) != CheckpointStatus::InProgress,
    );
    assert_eq!(status(&sim, 1), CheckpointStatus::Completed);
    assert!(sim.now() < 5_000);
    assert!(
        sim.tasks().iter().all(|t| !t.finished),
        "the savepoint completed, and no task finished on it"
    );
    run_until(&mut sim, 5_000, |_, _| {}, |s| s.job_finished());
    assert_eq!(
        status(&sim, 2),
        CheckpointStatus::Completed,
        "the final checkpoint"
    );
}

/// Savepoints are Flink's: Chandy-Lamport and stop-the-world take none, by hand or planned.
#[test]
fn only_flinks_modes_take_savepoints() {
    for mode in [BarrierMode::ChandyLamport, BarrierMode::Synchronous] {
        let name = if mode == BarrierMode::ChandyLamport {
            "token"
        } else {
            "wordcount"
        };
        let mut sim = preset(name, mode);
        assert_eq!(
            sim.apply(Action::Savepoint),
            Err(ActionError::NoSavepoints),
            "{mode}"
        );
        assert_eq!(
            sim.plan_savepoint(10),
            Err(ActionError::NoSavepoints),
            "{mode}"
        );
    }
}

/// An expired savepoint is not counted as a failed checkpoint (Flink's failure manager skips
/// savepoints).
#[test]
fn an_expired_savepoint_is_not_counted_as_a_failed_checkpoint() {
    let json = r#"{"name": "slow", "title": "slow",
        "graph": {
          "operators": [
            {"name": "Src", "kind": {"type": "source", "lines": ["a b", "c d", "a c", "b d"], "interval": 10, "bounded": false}, "parallelism": 1},
            {"name": "Sink", "kind": {"type": "sink"}, "parallelism": 1}
          ],
          "edges": [{"from": "Src", "to": "Sink", "partitioning": "forward", "latency": 200}]
        },
        "config": {"mode": "aligned", "checkpoint_interval": null, "timeout": 50, "tolerable_failed_checkpoints": 0}}"#;
    let mut sim = Scenario::from_json(json).unwrap().simulation().unwrap();
    sim.apply(Action::Savepoint).unwrap();
    run_until(
        &mut sim,
        500,
        |_, _| {},
        |s| status(s, 1) != CheckpointStatus::InProgress,
    );
    assert!(matches!(
        status(&sim, 1),
        CheckpointStatus::Aborted {
            reason: AbortReason::Expired
        }
    ));
    for _ in 0..50 {
        sim.step();
        assert!(
            !sim.last_events()
                .iter()
                .any(|e| matches!(e, Event::JobFailed { .. })),
            "a failed savepoint does not fail the job with no failure tolerated"
        );
    }
}

/// The minimum pause counts from a completed savepoint too (Flink sets its last completion
/// time for every completed checkpoint).
#[test]
fn the_minimum_pause_counts_from_a_completed_savepoint() {
    let mut s = presets::by_name("alignment").unwrap();
    s.config.mode = BarrierMode::Aligned;
    s.config.checkpoint_interval = Some(10);
    s.config.min_pause = 150;
    let mut sim = s.simulation().unwrap();
    run_until(
        &mut sim,
        500,
        |_, _| {},
        |s| {
            s.coordinator()
                .summary(1)
                .is_some_and(|c| c.end_time.is_some())
        },
    );
    sim.apply(Action::Savepoint).unwrap();
    let savepoint = sim.coordinator().checkpoints().last().unwrap().id;
    run_until(
        &mut sim,
        2_000,
        |_, _| {},
        |s| {
            s.coordinator()
                .summary(savepoint)
                .is_some_and(|c| c.end_time.is_some())
        },
    );
    let done = sim
        .coordinator()
        .summary(savepoint)
        .unwrap()
        .end_time
        .unwrap();
    run_until(
        &mut sim,
        2_000,
        |_, _| {},
        |s| s.coordinator().summary(savepoint + 1).is_some(),
    );
    let next = sim.coordinator().summary(savepoint + 1).unwrap();
    assert!(!next.savepoint);
    assert!(
        next.trigger_time >= done + 150,
        "{} < {done} + 150",
        next.trigger_time
    );
}

/// `abs-sim run --savepoint TIME`: the coordinator is asked at that time.
#[test]
fn a_planned_savepoint_is_asked_for_at_its_time() {
    let mut sim = preset("alignment", BarrierMode::Aligned);
    sim.plan_savepoint(55).unwrap();
    let at = loop {
        let Some(action) = sim.step() else {
            panic!("no savepoint");
        };
        if action == Action::Savepoint {
            break sim.now();
        }
    };
    assert_eq!(at, 55);
}

/// Under backpressure an unaligned barrier is a priority event, taken by a receiver with no
/// output credit; a savepoint's barrier is not: it waits for credit like a record.
#[test]
fn a_savepoints_barrier_waits_for_credit_where_an_unaligned_one_does_not() {
    let mut sim = preset("slow-sink", BarrierMode::Unaligned);
    let (mut priority, mut in_line, mut asked) = (0, 0, 0);
    for _ in 0..20_000 {
        let before: Vec<bool> = (0..sim.physical().task_count())
            .map(|t| sim.flow().is_backpressured(t))
            .collect();
        if sim.step().is_none() {
            break;
        }
        for e in sim.last_events() {
            let Event::Arrived {
                task,
                item: ItemKind::Barrier(n),
                ..
            } = e
            else {
                continue;
            };
            let savepoint = sim.coordinator().is_savepoint(*n);
            match (before[*task as usize], savepoint) {
                (true, true) => panic!("savepoint {n} taken by a backpressured task {task}"),
                (true, false) => priority += 1,
                (false, true) => in_line += 1,
                (false, false) => {}
            }
        }
        // A savepoint after each completed checkpoint, a few times.
        let completed = sim.coordinator().latest_completed().map(|g| g.checkpoint);
        if asked < 4
            && completed.is_some()
            && sim.coordinator().has_room()
            && sim.apply(Action::Savepoint).is_ok()
        {
            asked += 1;
        }
    }
    println!("unaligned barriers taken without credit: {priority}; savepoint barriers taken in line: {in_line}");
    assert_eq!(asked, 4);
    assert!(
        priority > 0,
        "no unaligned barrier met a backpressured receiver: the case is not reached"
    );
    assert!(in_line > 0);
}
