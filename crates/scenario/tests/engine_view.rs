//! What the page reads of a run (`abs_engine::view`), on the presets.

use abs_engine::barrier::BarrierMode;
use abs_engine::record::ItemKind;
use abs_engine::view::*;
use abs_engine::Simulation;
use abs_scenario::presets;

fn run_until(sim: &mut Simulation, limit: u32, mut stop: impl FnMut(&Simulation) -> bool) -> bool {
    for _ in 0..limit {
        if sim.step().is_none() {
            return false;
        }
        if stop(sim) {
            return true;
        }
    }
    false
}

#[test]
fn the_alignment_preset_shows_the_four_steps_in_order() {
    let mut sim = presets::alignment().simulation().unwrap();
    let mut seen = Vec::new();
    run_until(&mut sim, 400, |s| {
        for b in last_sentences(s) {
            if let Some(n) = b.alignment_step(s.mode().blocks_inputs()) {
                if seen.last() != Some(&n) {
                    seen.push(n);
                }
            }
        }
        seen.len() >= 4
    });
    assert_eq!(seen, vec![1, 2, 3, 4]);
}

#[test]
fn a_blocked_input_has_held_items_and_an_aligning_status() {
    let mut sim = presets::alignment().simulation().unwrap();
    let merge = sim.physical().task_by_name("Merge#0").unwrap();
    let a = sim.physical().tasks[merge as usize].inputs[0];
    assert!(run_until(&mut sim, 400, |s| !held_items(s, a).is_empty()));
    assert!(is_blocked(&sim, a));
    match task_status(&sim, merge) {
        TaskStatus::Aligning {
            checkpoint,
            delivered,
        } => {
            assert_eq!(checkpoint, 1);
            assert_eq!(delivered, vec![true, false]);
        }
        other => panic!("expected aligning, got {other:?}"),
    }
}

#[test]
fn a_completed_checkpoint_has_figures_and_a_mark() {
    let mut sim = presets::alignment().simulation().unwrap();
    let mut got = Vec::new();
    run_until(&mut sim, 600, |s| {
        got.extend(marks(s.last_events()));
        s.coordinator().global_state(1).is_some()
    });
    assert_eq!(
        got,
        vec![(1, MarkKind::Triggered), (1, MarkKind::Completed)]
    );
    let f = checkpoint_figures(sim.coordinator().global_state(1).unwrap());
    assert!(f.end_to_end > 0 && f.alignment_duration > 0 && f.records_held > 0);
}

#[test]
fn unaligned_records_ahead_of_the_barrier_are_marked_for_channel_state() {
    let scenario = presets::backpressure().with_mode(BarrierMode::Unaligned);
    let mut sim = scenario.simulation().unwrap();
    let found = run_until(&mut sim, 2000, |s| {
        (0..s.physical().channel_count()).any(|c| persisting_checkpoint(s, c).is_some())
    });
    assert!(found);
}

#[test]
fn channel_state_rings_are_exactly_the_recorded_in_flight_records() {
    // Every record the coordinator recorded as channel state of a running checkpoint and
    // that is still queued is ringed with that checkpoint — also after the barrier that
    // overtook it has passed on — and nothing else is ringed but records the receiver will
    // persist on arrival.
    let (mut ringed_after_barrier_left, mut checked) = (0, 0);
    for scenario in [
        presets::alignment(),
        presets::backpressure(),
        presets::wordcount(),
    ] {
        let mut sim = scenario
            .with_mode(BarrierMode::Unaligned)
            .simulation()
            .unwrap();
        let mut marks = Vec::new();
        for _ in 0..1500 {
            sim.step();
            for c in 0..sim.physical().channel_count() {
                channel_state_marks(&sim, c, &mut marks);
                let queue = sim.channels()[c as usize].items();
                assert_eq!(marks.len(), queue.len());
                let ahead = persisting_checkpoint(&sim, c);
                let mut barrier_before = false;
                for (item, mark) in queue.iter().zip(&marks) {
                    let ItemKind::Record(r) = item.kind else {
                        barrier_before |= matches!(item.kind, ItemKind::Barrier(_));
                        assert_eq!(*mark, None);
                        continue;
                    };
                    let coordinator = sim.coordinator();
                    let recorded = coordinator.in_progress().find(|&n| {
                        coordinator
                            .recorded_so_far(n, c)
                            .iter()
                            .any(|rec| rec.id == r.id)
                    });
                    match recorded {
                        Some(n) => {
                            checked += 1;
                            assert_eq!(*mark, Some(n), "channel {c} record {}", r.id);
                            if !barrier_before {
                                ringed_after_barrier_left += 1;
                            }
                        }
                        None if !barrier_before => {
                            assert!(*mark == ahead || mark.is_some(), "channel {c}")
                        }
                        None => assert_eq!(*mark, None, "channel {c} record {}", r.id),
                    }
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} recorded records checked");
    assert!(
        ringed_after_barrier_left > 0,
        "no overtaken record outlived its barrier"
    );
}
