//! Bounded jobs finish as Flink's do since checkpoints-after-tasks-finish (FLIP-147): a source
//! whose log ends sends end of data and keeps running; every task finishes only after a
//! checkpoint it took after its end of data has completed, and then sends end of partition;
//! the final checkpoint commits the last output. The coordinator triggers running tasks whose
//! upstream has finished directly, and finished tasks count as acknowledged. With the switch
//! off, nothing waits and no checkpoint is triggered once a task has finished.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::snapshot::TaskState;
use abs_playground::engine::{Action, ActionError, BarrierMode, Event, Simulation};
use abs_playground::scenario::Scenario;

/// The issue's example: a 2-line bounded source → Split → Count → Sink, interval 50.
fn bounded(mode: BarrierMode, lines: &[&str], parallelism: u32) -> Simulation {
    bounded_with(mode, lines, parallelism, 1)
}

/// As [`bounded`], with Split taking `split_time` per record.
fn bounded_with(
    mode: BarrierMode,
    lines: &[&str],
    parallelism: u32,
    split_time: u64,
) -> Simulation {
    bounded_json(mode, lines, parallelism, split_time, true)
}

fn bounded_json(
    mode: BarrierMode,
    lines: &[&str],
    parallelism: u32,
    split_time: u64,
    after_finish: bool,
) -> Simulation {
    let lines: Vec<String> = lines.iter().map(|l| format!("{l:?}")).collect();
    let json = format!(
        r#"{{"name": "bounded", "title": "bounded",
            "graph": {{
              "operators": [
                {{"name": "Src", "kind": {{"type": "source", "lines": [{}], "interval": 10, "bounded": true}}, "parallelism": {parallelism}}},
                {{"name": "Split", "kind": {{"type": "split"}}, "parallelism": {parallelism}, "processing_time": {split_time}}},
                {{"name": "Count", "kind": {{"type": "count"}}, "parallelism": {parallelism}}},
                {{"name": "Sink", "kind": {{"type": "sink", "transactional": true}}, "parallelism": 1}}
              ],
              "edges": [
                {{"from": "Src", "to": "Split", "partitioning": "forward"}},
                {{"from": "Split", "to": "Count", "partitioning": "hash"}},
                {{"from": "Count", "to": "Sink", "partitioning": "rebalance"}}
              ]
            }},
            "config": {{"mode": "{}", "checkpoint_interval": 50, "first_trigger": 30,
                        "finished_channels_align": {after_finish}}}}}"#,
        lines.join(", "),
        mode.as_str()
    );
    Scenario::from_json(&json).unwrap().simulation().unwrap()
}

fn run_to_end(sim: &mut Simulation, limit: u32) -> u32 {
    let mut steps = 0;
    while sim.step().is_some() {
        steps += 1;
        assert!(
            steps < limit,
            "still running after {limit} steps at t = {}",
            sim.now()
        );
    }
    steps
}

#[test]
fn every_checkpoint_completes_promptly_and_the_job_finishes() {
    for mode in BarrierMode::ALL {
        let mut sim = bounded(mode, &["to be or not", "to be"], 1);
        run_to_end(&mut sim, 10_000);
        assert!(sim.job_finished(), "{mode}");
        let checkpoints = sim.coordinator().checkpoints();
        assert!(!checkpoints.is_empty(), "{mode}");
        for c in checkpoints {
            assert_eq!(c.status, CheckpointStatus::Completed, "{mode}: {c:?}");
            // Not sitting until the 10,000 timeout: done within a few channel latencies.
            let took = c.end_time.unwrap() - c.trigger_time;
            assert!(took < 200, "{mode}: checkpoint {} took {took}", c.id);
        }
        // Nothing is triggered after the job finished: the queue ran dry.
        assert!(sim.next_time().is_none(), "{mode}");
        assert_eq!(sim.apply(Action::Trigger), Err(ActionError::JobFinished));
    }
}

#[test]
fn the_final_checkpoint_commits_the_sinks_last_output() {
    for parallelism in [1, 2] {
        let mut sim = bounded(
            BarrierMode::Aligned,
            &["a b c", "d e", "f", "g h i j"],
            parallelism,
        );
        let mut job_finished = None;
        let mut steps = 0;
        while sim.step().is_some() {
            steps += 1;
            assert!(steps < 20_000);
            for e in sim.last_events() {
                if let Event::JobFinished { checkpoint } = e {
                    assert!(job_finished.is_none(), "the job finishes once");
                    job_finished = Some(checkpoint.expect("a final checkpoint"));
                }
            }
        }
        let last = job_finished.expect("the job finished");
        let gs = sim.coordinator().global_state(last).unwrap();
        assert!(gs.verdict.ok());
        let sink = sim.physical().task_by_name("Sink#0").unwrap();
        let TaskState::Sink {
            received,
            committed,
            ..
        } = sim.tasks()[sink as usize].state
        else {
            panic!("sink state");
        };
        // Every word count update reached the sink and is committed, none left pending.
        assert_eq!(received, 10, "p = {parallelism}");
        assert_eq!(committed, received, "p = {parallelism}");
        // The final checkpoint completed (later ones may run while the last tasks finish,
        // as in Flink: a task whose upstream finished is triggered directly).
        let c = sim
            .coordinator()
            .checkpoints()
            .iter()
            .find(|c| c.id == last)
            .unwrap();
        assert_eq!(c.status, CheckpointStatus::Completed);
    }
}

#[test]
fn a_task_whose_upstream_finished_is_triggered_directly() {
    // The source finishes once its final checkpoint completes; a checkpoint triggered by hand
    // at that moment finds it finished, and Split, whose end of partition is still on its
    // way, cannot get a barrier from it: the coordinator triggers Split directly, and it
    // snapshots when its input ends.
    for mode in BarrierMode::ALL {
        let mut sim = bounded(mode, &["x y", "z"], 1);
        let split = sim.physical().task_by_name("Split#0").unwrap();
        let mut triggered = None;
        let mut split_snapshot = false;
        while sim.step().is_some() {
            let events = sim.last_events().to_vec();
            if triggered.is_none()
                && events
                    .iter()
                    .any(|e| matches!(e, Event::TaskFinished { task: 0, .. }))
                && !sim.tasks()[split as usize].finished
                && sim.apply(Action::Trigger).is_ok()
            {
                triggered = sim.last_events().iter().find_map(|e| match e {
                    Event::CheckpointTriggered { checkpoint, .. } => Some(*checkpoint),
                    _ => None,
                });
            }
            for e in sim.last_events() {
                if let Event::Snapshot {
                    task, checkpoint, ..
                } = e
                {
                    split_snapshot |= *task == split && Some(*checkpoint) == triggered;
                }
            }
            assert!(sim.steps() < 10_000);
        }
        let n =
            triggered.unwrap_or_else(|| panic!("{mode}: no checkpoint after the source finished"));
        // A stopped world triggers no task by barrier: every task snapshots once drained.
        assert!(split_snapshot || mode.stops_the_world(), "{mode}");
        assert!(sim.job_finished(), "{mode}");
        let c = sim
            .coordinator()
            .checkpoints()
            .iter()
            .find(|c| c.id == n)
            .unwrap();
        assert_eq!(c.status, CheckpointStatus::Completed, "{mode}: {c:?}");
        let gs = sim.coordinator().global_state(n).unwrap();
        assert!(gs.verdict.ok(), "{mode}: {:?}", gs.verdict);
    }
}

/// ABS for cycles, bounded: every word of the iteration preset goes round the loop and leaves;
/// the loop's head finishes once its source has ended and nothing is left on its feedback
/// edge, and the job finishes — in every mode that runs a cycle — with each word counted once
/// per time it was read and every checkpoint consistent.
#[test]
fn the_bounded_iteration_finishes_with_every_word_out_of_the_loop() {
    let scenario = abs_playground::scenario::presets::iteration();
    let words: Vec<String> = match &scenario.graph.operators[0].kind {
        abs_playground::engine::OperatorKind::Source { lines, bounded, .. } => {
            assert!(bounded);
            lines.clone()
        }
        other => panic!("the iteration preset starts with a source, not {other:?}"),
    };
    let modes = scenario.modes();
    assert_eq!(
        modes,
        [
            BarrierMode::Aligned,
            BarrierMode::Unaligned,
            BarrierMode::ChandyLamport,
            BarrierMode::Synchronous
        ]
    );
    for mode in modes {
        let mut sim = scenario.with_mode(mode).simulation().unwrap();
        // Nothing happens once the job has finished: no end of partition still goes round
        // the loop to a head that has finished.
        let mut after_finish = 0;
        while sim.step().is_some() {
            after_finish += u32::from(sim.job_finished())
                * u32::from(
                    !sim.last_events()
                        .iter()
                        .any(|e| matches!(e, Event::JobFinished { .. })),
                );
            assert!(sim.steps() < 20_000);
        }
        assert_eq!(after_finish, 0, "{mode}: steps after the job finished");
        assert!(sim.job_finished(), "{mode}");
        let step = sim.physical().task_by_name("Step#0").unwrap();
        let TaskState::Count { counts } = &sim.tasks()[step as usize].state else {
            panic!("Step counts words")
        };
        let total: u64 = counts.iter().map(|(_, n)| *n).sum();
        assert_eq!(
            total,
            words.len() as u64,
            "{mode}: every word left the loop once"
        );
        for w in &words {
            let id = sim.physical().words.iter().position(|x| x == w).unwrap() as u32;
            let expected = words.iter().filter(|x| *x == w).count() as u64;
            assert_eq!(counts.get(&id).copied(), Some(expected), "{mode}: {w}");
        }
        let sink = sim.physical().task_by_name("Sink#0").unwrap();
        let TaskState::Sink { received, .. } = sim.tasks()[sink as usize].state else {
            panic!("a sink")
        };
        assert_eq!(received, words.len() as u64, "{mode}");
        let completed = sim
            .coordinator()
            .checkpoints()
            .iter()
            .filter(|c| c.status == CheckpointStatus::Completed)
            .count();
        assert!(completed >= 3, "{mode}: {completed} checkpoints");
        for gs in sim.coordinator().completed() {
            assert!(
                gs.verdict.ok(),
                "{mode} checkpoint {}: {:?}",
                gs.checkpoint,
                gs.verdict
            );
        }
    }
}

/// What happened to one task, in the order of the run's events.
#[derive(Default, Debug)]
struct Life {
    data_ended: Option<u64>,
    /// Checkpoints it snapshotted after its data ended.
    snapshots_after: Vec<u64>,
    finished: Option<(u64, Option<u64>)>,
}

/// Runs `sim` to its end and follows every task's data end, snapshots and finish, with the
/// step each happened in and the checkpoints completed by then.
fn follow(sim: &mut Simulation) -> (Vec<Life>, Vec<(u64, u64)>, Vec<Event>) {
    let mut lives: Vec<Life> = (0..sim.tasks().len()).map(|_| Life::default()).collect();
    let mut completed = Vec::new();
    let mut all = Vec::new();
    while sim.step().is_some() {
        let step = sim.steps();
        assert!(step < 20_000);
        for e in sim.last_events() {
            all.push(e.clone());
            match *e {
                Event::SourceEnded { task, .. } | Event::DataEnded { task, .. } => {
                    assert!(lives[task as usize].data_ended.is_none(), "data ends once");
                    lives[task as usize].data_ended = Some(step);
                }
                Event::Snapshot {
                    task, checkpoint, ..
                } if lives[task as usize].data_ended.is_some() => {
                    lives[task as usize].snapshots_after.push(checkpoint)
                }
                Event::CheckpointCompleted { checkpoint, .. } => completed.push((checkpoint, step)),
                Event::TaskFinished { task, checkpoint } => {
                    lives[task as usize].finished = Some((step, checkpoint))
                }
                _ => {}
            }
        }
    }
    (lives, completed, all)
}

#[test]
fn a_task_finishes_only_after_a_checkpoint_it_took_after_its_end_of_data_has_completed() {
    for mode in BarrierMode::ALL {
        for parallelism in [1, 2] {
            let mut sim = bounded(mode, &["to be or not", "to be", "or"], parallelism);
            let (lives, completed, _) = follow(&mut sim);
            assert!(sim.job_finished(), "{mode}");
            for (t, life) in lives.iter().enumerate() {
                let name = sim.physical().tasks[t].name.clone();
                let ended = life
                    .data_ended
                    .unwrap_or_else(|| panic!("{mode} {name}: data ended"));
                let (finished, waited) = life.finished.expect("finished");
                let waited = waited.unwrap_or_else(|| panic!("{mode} {name}: waited for none"));
                // Not at its end of data: it ran on, and finished after the completion.
                assert!(
                    finished > ended,
                    "{mode} {name}: finished as its data ended"
                );
                let first_after = *life
                    .snapshots_after
                    .first()
                    .unwrap_or_else(|| panic!("{mode} {name}: no snapshot after its data ended"));
                assert!(first_after <= waited, "{mode} {name}");
                let (_, completed_at) = completed
                    .iter()
                    .find(|(n, _)| *n == waited)
                    .unwrap_or_else(|| panic!("{mode} {name}: {waited} never completed"));
                assert!(*completed_at <= finished, "{mode} {name}");
                // And no earlier checkpoint it took after its data ended had completed before.
                assert!(
                    !completed
                        .iter()
                        .any(|(n, at)| *n >= first_after && *n < waited && *at < finished),
                    "{mode} {name}: waited past an earlier final checkpoint"
                );
            }
        }
    }
}

#[test]
fn the_final_checkpoints_barriers_pass_through_tasks_still_running() {
    // Every task is still running when the final checkpoint reaches it: each snapshots it
    // (none acknowledges it as a finished task), and the transactional sink has committed
    // all it received before it finishes.
    for mode in BarrierMode::ALL {
        let mut sim = bounded(mode, &["a b c", "d e", "f"], 1);
        let (_, _, events) = follow(&mut sim);
        let last = events
            .iter()
            .find_map(|e| match e {
                Event::JobFinished { checkpoint } => Some(checkpoint.expect("final")),
                _ => None,
            })
            .expect("the job finished");
        let snapshots = events
            .iter()
            .filter(|e| matches!(e, Event::Snapshot { checkpoint, .. } if *checkpoint == last))
            .count();
        assert_eq!(
            snapshots,
            sim.tasks().len(),
            "{mode}: every task snapshots {last}"
        );
        let sink = sim.physical().task_by_name("Sink#0").unwrap();
        let commit = events.iter().rposition(|e| {
            matches!(e, Event::Committed { task, checkpoint, .. } if *task == sink && *checkpoint <= last)
        });
        let finish = events
            .iter()
            .position(|e| matches!(e, Event::TaskFinished { task, .. } if *task == sink));
        assert!(
            commit.is_some() && commit < finish,
            "{mode}: commit then finish"
        );
        let TaskState::Sink {
            received,
            committed,
            ..
        } = sim.tasks()[sink as usize].state
        else {
            panic!("sink state");
        };
        assert_eq!((received, committed), (6, 6), "{mode}");
    }
}

#[test]
fn with_checkpoints_after_tasks_finish_off_nothing_waits_and_no_checkpoint_follows_a_finish() {
    for mode in BarrierMode::ALL {
        // Split is slow, so the source has long finished when the sink has not.
        let mut sim = bounded_json(mode, &["a b", "c d", "e f", "g", "h i"], 1, 40, false);
        let (lives, _, events) = follow(&mut sim);
        assert!(sim.job_finished(), "{mode}");
        let first_finish = events
            .iter()
            .position(|e| matches!(e, Event::TaskFinished { .. }))
            .unwrap();
        assert!(
            !events[first_finish..]
                .iter()
                .any(|e| matches!(e, Event::CheckpointTriggered { .. })),
            "{mode}: a checkpoint was triggered after a task finished"
        );
        for life in &lives {
            assert_eq!(
                life.finished.unwrap().1,
                None,
                "{mode}: no final checkpoint"
            );
        }
        assert!(events
            .iter()
            .any(|e| matches!(e, Event::JobFinished { checkpoint: None })));
        // The sink's last records are never committed: exactly-once output loses them.
        let sink = sim.physical().task_by_name("Sink#0").unwrap();
        let lost = events.iter().find_map(|e| match e {
            Event::NeverCommitted { task, records } if *task == sink => Some(*records),
            _ => None,
        });
        assert!(lost.is_some_and(|n| n > 0), "{mode}: {lost:?}");
        assert_eq!(sim.apply(Action::Trigger), Err(ActionError::JobFinished));
    }
}

#[test]
fn a_source_that_read_its_log_sends_end_of_data_and_keeps_taking_barriers() {
    let mut sim = bounded(BarrierMode::Aligned, &["x", "y"], 1);
    let src = sim.physical().task_by_name("Src#0").unwrap();
    let mut ended_at = None;
    let mut barriers_after = 0;
    let mut refused = Ok(());
    while sim.step().is_some() {
        for e in sim.last_events().to_vec() {
            match e {
                Event::SourceEnded { task, finishes_now } if task == src => {
                    assert!(!finishes_now);
                    ended_at = Some(sim.now());
                    // Its end of data is on its output, and it has not finished.
                    assert!(!sim.tasks()[src as usize].finished);
                    assert!(sim.tasks()[src as usize].data_ended);
                    refused = sim.apply(Action::Emit { task: src });
                }
                Event::Snapshot { task, .. } if task == src && ended_at.is_some() => {
                    barriers_after += 1
                }
                _ => {}
            }
        }
        assert!(sim.steps() < 10_000);
    }
    assert!(ended_at.is_some());
    assert!(barriers_after >= 1, "it snapshots after its end of data");
    // A source that read its log cannot be made to read more.
    assert_eq!(refused, Err(ActionError::SourceFinished(src)));
}
