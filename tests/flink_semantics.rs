//! Where the simulation follows Flink's coordinator and network rather than the ABS paper's
//! idealisation, one test per rule — each failed before the rule was kept:
//! - the aligned-checkpoint timeout counts from the checkpoint's trigger (Flink's checkpoint
//!   start delay), not from a task's first barrier; a barrier reaching a task after that goes
//!   unaligned at once, and one still queued behind records overtakes them;
//! - a job with unaligned checkpoints and several at once is refused, as Flink refuses it;
//! - an overtaking barrier still takes its channel's latency, and the receiver keeps taking
//!   what has arrived meanwhile;
//! - the checkpointed size includes the persisted in-flight data;
//! - no failed checkpoint is tolerated by default, and only expired ones count.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::record::ItemKind;
use abs_playground::engine::snapshot::RECORD_BYTES;
use abs_playground::engine::trace::AbortReason;
use abs_playground::engine::{report, BarrierMode, Config, Event, Simulation};
use abs_playground::scenario::{presets, Scenario};

fn run(sim: &mut Simulation, steps: u64, mut each: impl FnMut(&Simulation)) {
    for _ in 0..steps {
        if sim.step().is_none() {
            break;
        }
        each(sim);
    }
}

fn trigger_time(sim: &Simulation, n: u64) -> u64 {
    sim.coordinator()
        .summary(n)
        .expect("triggered")
        .trigger_time
}

/// Aligned with a timeout: no task is still aligning a checkpoint once the timeout has passed
/// since the checkpoint's trigger — it went unaligned then, or at its first barrier if that
/// came later. Counted from a task's own first barrier (the old rule), a task reached late
/// would align for up to a whole timeout past that.
#[test]
fn the_alignment_timeout_counts_from_the_checkpoint_trigger() {
    let (mut timed_out, mut at_first_barrier, mut checked) = (0, 0, 0);
    for (name, timeout) in [("alignment", 40), ("backpressure", 60), ("wordcount", 5)] {
        let mut scenario = presets::by_name(name).unwrap().with_aligned_timeout(true);
        scenario.config.aligned_checkpoint_timeout = Some(timeout);
        let mut sim = scenario.simulation().unwrap();
        run(&mut sim, 6000, |sim| {
            for t in sim.tasks() {
                if let Some(n) = t.aligning() {
                    checked += 1;
                    let deadline = trigger_time(sim, n) + timeout;
                    assert!(
                        sim.now() < deadline,
                        "{name}: a task still aligns checkpoint {n} at {} (deadline {deadline})",
                        sim.now()
                    );
                }
            }
            let events = sim.last_events();
            for e in events {
                if let Event::AlignmentTimedOut { task, checkpoint } = *e {
                    timed_out += 1;
                    let deadline = trigger_time(sim, checkpoint) + timeout;
                    assert!(sim.now() >= deadline, "{name}: timed out early");
                    let first_now = events.iter().any(|e| {
                        matches!(*e, Event::Barrier { task: t, checkpoint: c, .. }
                            if t == task && c == checkpoint)
                    });
                    if sim.now() > deadline {
                        // Only a first barrier arriving after the deadline times out late.
                        assert!(first_now, "{name}: timed out after the deadline");
                        at_first_barrier += 1;
                    }
                }
            }
        });
    }
    eprintln!(
        "{timed_out} alignments timed out, {at_first_barrier} of them at a first barrier that \
         came after the deadline; {checked} aligning task-steps checked"
    );
    assert!(timed_out > 10, "{timed_out}");
    assert!(at_first_barrier > 0, "no barrier came after its deadline");
}

/// Aligned with a timeout: barriers still queued behind records when their checkpoint goes
/// unaligned overtake them (Flink's timed-out barriers in output buffers), and the records
/// they jump become channel state — the checkpoints stay consistent.
#[test]
fn a_queued_barrier_overtakes_once_its_checkpoint_times_out() {
    // A slow sink backpressures Merge: records wait at Merge's inputs, and the barriers behind
    // them, until the checkpoint times out.
    let mut scenario = presets::backpressure().with_aligned_timeout(true);
    scenario.config.aligned_checkpoint_timeout = Some(20);
    let sink = scenario
        .graph
        .operators
        .iter_mut()
        .find(|o| o.name == "Sink");
    sink.unwrap().processing_time = 6;
    let mut sim = scenario.simulation().unwrap();
    let (mut overtook, mut jumped, mut completed) = (0, 0, 0);
    run(&mut sim, 8000, |sim| {
        for e in sim.last_events() {
            match *e {
                Event::BarrierOvertook {
                    checkpoint,
                    overtaken,
                    ..
                } => {
                    // Gone unaligned — or completed by the very barrier that overtook.
                    let over = sim.coordinator().summary(checkpoint).unwrap().status
                        != CheckpointStatus::InProgress;
                    assert!(sim.coordinator().timed_out(checkpoint) || over);
                    overtook += 1;
                    jumped += overtaken;
                }
                Event::CheckpointCompleted { checkpoint, .. } => {
                    completed += 1;
                    let gs = sim.coordinator().global_state(checkpoint).unwrap();
                    assert!(gs.verdict.ok(), "{checkpoint}: {:?}", gs.verdict);
                }
                _ => {}
            }
        }
    });
    eprintln!("{overtook} queued barriers overtook {jumped} records; {completed} completed");
    assert!(overtook > 5 && jumped > overtook, "{overtook} {jumped}");
    assert!(completed > 10, "{completed}");
}

/// Flink refuses to start a job with unaligned checkpoints on (the unaligned mode, or aligned
/// with a timeout) and more than one checkpoint at once (`CheckpointCoordinatorConfiguration`:
/// "maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled"). So does the
/// simulation, with Flink's reason, instead of quietly running one at a time; aligned and
/// at-least-once run them concurrently, as asked.
#[test]
fn unaligned_checkpoints_with_concurrent_ones_are_refused_as_flink_refuses_them() {
    use abs_playground::engine::physical::{GraphError, FLINK_CONCURRENT_UNALIGNED};
    use abs_playground::scenario::ScenarioError;
    let concurrent = presets::concurrent();
    let asked = concurrent.config.max_concurrent_checkpoints;
    assert!(asked > 1);
    for scenario in [
        concurrent.with_mode(BarrierMode::Unaligned),
        concurrent.with_aligned_timeout(true),
    ] {
        match scenario.simulation() {
            Err(e @ ScenarioError::Graph(GraphError::ConcurrentUnaligned { asked: a })) => {
                assert_eq!(a, asked);
                let said = e.to_string();
                assert!(said.contains(FLINK_CONCURRENT_UNALIGNED), "{said}");
                assert!(
                    said.starts_with("Flink refuses to start this job"),
                    "{said}"
                );
            }
            other => panic!("not refused: {:?}", other.map(|_| ())),
        }
        // The same job with one checkpoint at a time runs.
        let mut one = scenario.clone();
        one.config.max_concurrent_checkpoints = 1;
        assert!(one.simulation().is_ok());
        assert!(!concurrent.modes().contains(&BarrierMode::Unaligned));
    }
    // The mode menu offers neither (it lists them, disabled).
    let offered: Vec<&str> = concurrent.run_modes().iter().map(|e| e.name()).collect();
    assert!(
        !offered.contains(&"unaligned") && !offered.contains(&"aligned-timeout"),
        "{offered:?}"
    );
    assert!(
        offered.contains(&"aligned") && offered.contains(&"at-least-once"),
        "{offered:?}"
    );
    for mode in [BarrierMode::Aligned, BarrierMode::AtLeastOnce] {
        let mut sim = concurrent.with_mode(mode).simulation().unwrap();
        let mut most = 0;
        run(&mut sim, 4000, |sim| {
            most = most.max(sim.coordinator().in_progress().count());
        });
        assert_eq!(most, asked as usize, "{mode} runs them concurrently");
    }
}

/// Unaligned: a barrier overtakes queued records but still crosses its channel — it arrives
/// no earlier than its channel's latency after its sender snapshotted and sent it.
#[test]
fn an_overtaking_barrier_still_takes_its_channel_latency() {
    let mut checked = 0;
    for name in ["alignment", "backpressure", "wordcount"] {
        let mut sim = presets::by_name(name)
            .unwrap()
            .with_mode(BarrierMode::Unaligned)
            .simulation()
            .unwrap();
        let mut sent: BTreeMap<(u32, u64), u64> = BTreeMap::new();
        run(&mut sim, 3000, |sim| {
            for e in sim.last_events() {
                match *e {
                    Event::Snapshot {
                        task, checkpoint, ..
                    } => {
                        sent.insert((task, checkpoint), sim.now());
                    }
                    Event::Arrived {
                        channel,
                        item: ItemKind::Barrier(n),
                        ..
                    } => {
                        let from = sim.physical().channels[channel as usize].from;
                        let latency = sim.channels()[channel as usize].latency;
                        let at = sent[&(from, n)];
                        assert!(
                            sim.now() >= at + latency,
                            "{name}: barrier {n} sent at {at} crossed a {latency} ms channel \
                             by {}",
                            sim.now()
                        );
                        checked += 1;
                    }
                    _ => {}
                }
            }
        });
    }
    assert!(checked > 100, "{checked}");
}

/// The summary's checkpointed size is the task state plus the persisted in-flight data, as
/// Flink counts it: under backpressure an unaligned checkpoint is bigger than an aligned one.
#[test]
fn the_checkpointed_size_includes_the_persisted_in_flight_data() {
    let size = |mode| {
        let mut sim = presets::backpressure()
            .with_mode(mode)
            .simulation()
            .unwrap();
        run(&mut sim, 6000, |_| {});
        let summary = report::summary(&sim);
        let mut sizes = Vec::new();
        for c in summary["checkpoints"].as_array().unwrap() {
            let (Some(size), Some(persisted)) = (
                c["checkpointed_size"].as_u64(),
                c["persisted_in_flight"].as_u64(),
            ) else {
                continue;
            };
            let id = c["id"].as_u64().unwrap();
            let gs = sim.coordinator().global_state(id).unwrap();
            let records: u64 = gs.channel_state.values().map(|v| v.len() as u64).sum();
            let state: u64 = gs.tasks.iter().map(|t| t.metrics.state_size).sum();
            assert_eq!(persisted, records * RECORD_BYTES, "{mode} {id}");
            assert_eq!(size, state + persisted, "{mode} {id}");
            sizes.push(size);
        }
        sizes.sort_unstable();
        sizes[sizes.len() / 2]
    };
    let (aligned, unaligned) = (size(BarrierMode::Aligned), size(BarrierMode::Unaligned));
    eprintln!("median checkpointed size: aligned {aligned} B, unaligned {unaligned} B");
    assert!(unaligned > 2 * aligned, "{unaligned} vs {aligned}");
}

/// Flink's default tolerates no failed checkpoint: an expired one fails the job. A checkpoint
/// a task declines (a newer barrier, a cancellation marker) is not counted, as in Flink.
#[test]
fn by_default_an_expired_checkpoint_fails_the_job() {
    assert_eq!(Config::default().tolerable_failed_checkpoints, Some(0));
    assert!(AbortReason::Expired.counts_as_failure());
    for reason in [
        AbortReason::Subsumed,
        AbortReason::Declined { task: 0 },
        AbortReason::Failover,
    ] {
        assert!(!reason.counts_as_failure(), "{reason:?}");
    }
    let mut scenario: Scenario = presets::alignment();
    scenario.config.timeout = 60;
    scenario.config.tolerable_failed_checkpoints = Config::default().tolerable_failed_checkpoints;
    let mut sim = scenario.simulation().unwrap();
    let mut failed_after = None;
    run(&mut sim, 3000, |sim| {
        for e in sim.last_events() {
            if let Event::JobFailed {
                failed_checkpoints, ..
            } = *e
            {
                failed_after.get_or_insert(failed_checkpoints);
            }
        }
    });
    assert_eq!(failed_after, Some(1), "the first expiry fails the job");
    assert!(sim.coordinator().checkpoints().iter().any(|c| c.status
        == CheckpointStatus::Aborted {
            reason: AbortReason::Expired
        }));
}

/// Flink's statistics, subtask by subtask, as `abs-sim run`'s summary gives them under each
/// completed checkpoint (`report::subtasks_json`): `unaligned_checkpoint` is whether the subtask
/// persisted in-flight data, as Flink sets it; in unaligned mode Merge#0 of `alignment` takes
/// unaligned snapshots and persists what its barriers overtook, while Sink#0 (behind a
/// forward edge, kept aligned) takes aligned ones and persists nothing; aligned and
/// at-least-once take none unaligned; a task processes records between its first and its last
/// barrier in every mode (Flink's processed data); the subtasks' sizes add up to the
/// checkpoint's.
#[test]
fn each_subtask_reports_flinks_statistics() {
    use abs_playground::engine::report::{completed_json, subtasks_json};
    let field = |v: &serde_json::Value, k: &str| v[k].as_u64().unwrap();
    for mode in [
        BarrierMode::Aligned,
        BarrierMode::AtLeastOnce,
        BarrierMode::Unaligned,
    ] {
        let mut sim = presets::alignment().with_mode(mode).simulation().unwrap();
        let (mut merge_unaligned, mut merge_persisted, mut merge_processed) = (0, 0, 0);
        let mut checked = 0;
        run(&mut sim, 3000, |sim| {
            for e in sim.last_events() {
                let Event::CheckpointCompleted { checkpoint, .. } = *e else {
                    continue;
                };
                let g = sim.coordinator().global_state(checkpoint).unwrap();
                let subtasks = subtasks_json(sim.physical(), g);
                let whole = completed_json(sim.physical(), g);
                let all = subtasks.as_object().unwrap();
                assert_eq!(all.len(), sim.physical().task_count() as usize);
                for (name, s) in all {
                    for k in [
                        "start_delay",
                        "alignment_duration",
                        "sync_duration",
                        "async_duration",
                        "checkpointed_size",
                        "persisted_data",
                        "processed_data",
                    ] {
                        assert!(s[k].is_u64(), "{mode} {name}: {k} in {s}");
                    }
                    let unaligned = s["unaligned_checkpoint"].as_bool().unwrap();
                    // Flink's flag: the subtask persisted in-flight data.
                    assert_eq!(
                        unaligned,
                        field(s, "persisted_data") > 0,
                        "{mode} {name}: {s}"
                    );
                    match (mode, name.as_str()) {
                        (BarrierMode::Unaligned, "Merge#0") => {
                            merge_unaligned += u32::from(unaligned);
                            merge_persisted += field(s, "persisted_data");
                        }
                        (BarrierMode::Unaligned, "Sink#0") => {
                            assert!(!unaligned, "the forward edge keeps Sink#0 aligned: {s}");
                            assert_eq!(field(s, "persisted_data"), 0, "{s}");
                        }
                        // A source has no input to persist, and keeps no output buffer here.
                        (BarrierMode::Unaligned, _) => assert!(!unaligned, "{name}: {s}"),
                        _ => {
                            assert!(!unaligned, "{mode} {name}: {s}");
                            assert_eq!(field(s, "persisted_data"), 0, "{mode} {name}: {s}");
                        }
                    }
                    if name == "Merge#0" {
                        merge_processed += field(s, "processed_data");
                    }
                }
                let sum = |k: &str| all.values().map(|s| field(s, k)).sum::<u64>();
                assert_eq!(sum("checkpointed_size"), field(&whole, "checkpointed_size"));
                assert_eq!(sum("persisted_data"), field(&whole, "persisted_in_flight"));
                checked += 1;
            }
        });
        assert!(checked >= 3, "{mode}: {checked} checkpoints");
        println!(
            "{mode}: {checked} checkpoints; Merge#0 processed {merge_processed} B between its \
             barriers, persisted {merge_persisted} B, unaligned in {merge_unaligned}"
        );
        assert!(
            merge_processed > 0,
            "{mode}: Merge#0 processed nothing between barriers"
        );
        if mode == BarrierMode::Unaligned {
            assert_eq!(
                merge_unaligned, checked,
                "every Merge#0 snapshot is unaligned"
            );
            assert!(merge_persisted > 0, "Merge#0 persisted nothing");
        }
    }
    // Aligned with a timeout: a task whose alignment timed out reports an unaligned one.
    let scenario = abs_playground::scenario::modes::RunMode::named("aligned-timeout")
        .unwrap()
        .apply(&presets::alignment());
    let mut sim = scenario.simulation().unwrap();
    let mut timed_out_unaligned = 0;
    run(&mut sim, 3000, |sim| {
        for e in sim.last_events() {
            if let Event::CheckpointCompleted { checkpoint, .. } = *e {
                let g = sim.coordinator().global_state(checkpoint).unwrap();
                let s = &subtasks_json(sim.physical(), g)["Merge#0"];
                timed_out_unaligned += u32::from(s["unaligned_checkpoint"] == true);
            }
        }
    });
    assert!(
        timed_out_unaligned > 0,
        "no timed-out alignment reported unaligned"
    );
}
