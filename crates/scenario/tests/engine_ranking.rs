//! The inspector's rankings (`abs_engine::view`) on the presets.

use abs_engine::view::*;
use abs_scenario::presets;

/// Every busiest list equals the brute force: all of them, sorted by what waits.
fn brute(mut all: Vec<(u32, u64)>, n: usize) -> Vec<(u32, u64)> {
    all.retain(|a| a.1 > 0);
    all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    all.truncate(n);
    all
}

#[test]
fn the_busiest_subtasks_and_channels_of_large_are_those_with_most_waiting() {
    let mut sim = presets::large().simulation().unwrap();
    let (mut states, mut with_held) = (0, 0);
    for step in 0..6_000 {
        if sim.step().is_none() {
            break;
        }
        if step % 500 != 0 {
            continue;
        }
        let phys = sim.physical();
        for op in 1..phys.graph.operators.len() as u32 {
            let tasks = &phys.operator_tasks[op as usize];
            let all: Vec<_> = tasks.iter().map(|&t| (t, waiting_at(&sim, t))).collect();
            let (rows, more) = busiest_subtasks(&sim, op, 5);
            assert_eq!(rows, brute(all.clone(), 5), "operator {op} at step {step}");
            assert_eq!(more + rows.len(), all.iter().filter(|a| a.1 > 0).count());
            states += usize::from(more > 0);
            with_held += usize::from(tasks.iter().any(|&t| held_count(&sim, t) > 0));
        }
        for e in 0..phys.operator_edges.len() as u32 {
            let all: Vec<_> = (0..phys.channels.len() as u32)
                .filter(|&c| phys.channels[c as usize].edge == e)
                .map(|c| (c, waiting_on(&sim, c)))
                .collect();
            assert_eq!(
                busiest_channels(&sim, e, 8).0,
                brute(all, 8),
                "edge {e} at step {step}"
            );
        }
    }
    println!("busiest lists cut short: {states}; with items held in alignment: {with_held}");
    assert!(
        states > 10,
        "the run reaches operators with more than 5 busy subtasks"
    );
    assert!(
        with_held > 0,
        "the run reaches alignment buffers holding items"
    );
}

#[test]
fn the_slowest_subtasks_are_those_still_to_acknowledge_then_the_latest() {
    let mut sim = presets::large().simulation().unwrap();
    let count = sim
        .physical()
        .graph
        .operators
        .iter()
        .position(|o| o.name == "Count")
        .unwrap() as u32;
    assert_eq!(slowest_subtasks(&sim, count, 8), None, "no checkpoint yet");
    let (mut running, mut completed) = (0, 0);
    for _ in 0..8_000 {
        if sim.step().is_none() {
            break;
        }
        let Some(slow) = slowest_subtasks(&sim, count, 8) else {
            continue;
        };
        assert_eq!(slow.rows.len() + slow.more, 40);
        let coordinator = sim.coordinator();
        if slow.completed {
            completed += 1;
            assert_eq!(coordinator.in_progress().count(), 0);
            // Latest acknowledgement first, and none of the others later.
            let afters: Vec<u64> = slow
                .rows
                .iter()
                .map(|r| match r.1 {
                    Lag::Acked { after, .. } => after,
                    Lag::Waiting { .. } => panic!("a completed checkpoint has no one waiting"),
                })
                .collect();
            assert!(afters.windows(2).all(|w| w[0] >= w[1]), "{afters:?}");
            let gs = coordinator.latest_completed().unwrap();
            let latest = gs
                .tasks
                .iter()
                .filter(|s| sim.physical().tasks[s.task as usize].operator == count)
                .map(|s| s.metrics.ack_time - gs.trigger_time)
                .max()
                .unwrap();
            assert_eq!(afters[0], latest);
        } else {
            running += 1;
            let waiting = slow
                .rows
                .iter()
                .take_while(|r| matches!(r.1, Lag::Waiting { .. }))
                .count();
            // No one waiting after the first acknowledged row, and every row is true.
            assert!(slow.rows[waiting..]
                .iter()
                .all(|r| matches!(r.1, Lag::Acked { .. })));
            for &(t, lag) in &slow.rows {
                assert_eq!(
                    coordinator.acked_by(slow.checkpoint, t),
                    matches!(lag, Lag::Acked { .. })
                );
                if let Lag::Waiting { arrived, inputs } = lag {
                    assert!(
                        arrived < inputs,
                        "a subtask with every barrier has acknowledged (aligned)"
                    );
                }
            }
            let unacked = sim.physical().operator_tasks[count as usize]
                .iter()
                .filter(|&&t| !coordinator.acked_by(slow.checkpoint, t))
                .count();
            assert_eq!(waiting, unacked.min(8));
        }
    }
    println!("slowest lists: {running} while a checkpoint runs, {completed} after one completed");
    assert!(running > 100 && completed > 100);
}
