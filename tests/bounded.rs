//! Bounded jobs finish as Flink's do since checkpoints-after-tasks-finish (FLIP-147): the
//! coordinator triggers running tasks whose upstream has finished directly, finished tasks
//! count as acknowledged, a final checkpoint commits the last output, then nothing more.
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
            "config": {{"mode": "{}", "checkpoint_interval": 50, "first_trigger": 30}}}}"#,
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
                    job_finished = Some(*checkpoint);
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
        // The final checkpoint is the last one.
        assert_eq!(sim.coordinator().checkpoints().last().unwrap().id, last);
    }
}

#[test]
fn a_task_whose_upstream_finished_is_triggered_directly() {
    // Split takes 100 per record, so it is still busy with the source's two lines when the
    // source has ended and checkpoint 1 is triggered (t = 30): no barrier can come from the
    // finished source, so Split is triggered directly and snapshots when its input ends.
    for mode in BarrierMode::ALL {
        let mut sim = bounded_with(mode, &["x y", "z"], 1, 100);
        let split = sim.physical().task_by_name("Split#0").unwrap();
        let mut split_snapshot_after_source_end = false;
        while sim.step().is_some() {
            for e in sim.last_events() {
                if let Event::Snapshot {
                    task,
                    checkpoint: 1,
                    ..
                } = e
                {
                    if *task == split && sim.tasks()[0].finished {
                        split_snapshot_after_source_end = true;
                    }
                }
            }
            assert!(sim.steps() < 10_000);
        }
        // A stopped world triggers no task by barrier: every task snapshots once drained.
        assert!(
            split_snapshot_after_source_end || mode.stops_the_world(),
            "{mode}"
        );
        assert!(sim.job_finished(), "{mode}");
        let first = &sim.coordinator().checkpoints()[0];
        assert_eq!(
            first.status,
            CheckpointStatus::Completed,
            "{mode}: {first:?}"
        );
        let gs = sim.coordinator().global_state(1).unwrap();
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
        run_to_end(&mut sim, 20_000);
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
