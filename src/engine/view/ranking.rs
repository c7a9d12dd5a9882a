//! The busiest and the slowest of many: what the inspector lists first about an operator of
//! hundreds of subtasks, or an edge of thousands of channels, where a list of all of them
//! would say nothing. "Busiest" is the items waiting — in flight on a channel, or held in an
//! alignment buffer — as a backpressured Flink job shows its hot spots; "slowest" is Flink's
//! checkpoint view of the subtasks, the ones still to acknowledge first, then the latest to
//! have done it.

use super::super::barrier::CheckpointId;
use super::super::physical::{ChannelId, TaskId};
use super::super::sim::Simulation;

/// Items waiting on channel `c`: queued on it, plus those its receiver holds for it in its
/// alignment buffer.
pub fn waiting_on(sim: &Simulation, c: ChannelId) -> u64 {
    let phys = sim.physical();
    let (Some(info), Some(ch)) = (
        phys.channels.get(c as usize),
        sim.channels().get(c as usize),
    ) else {
        return 0;
    };
    let held = sim
        .tasks()
        .get(info.to as usize)
        .map_or(0, |t| t.handler.held_on(info.input_index).len());
    (ch.items().len() + held) as u64
}

/// Items waiting at subtask `t`'s inputs: queued on its input channels and held in its
/// alignment buffer.
pub fn waiting_at(sim: &Simulation, t: TaskId) -> u64 {
    let phys = sim.physical();
    let Some(info) = phys.tasks.get(t as usize) else {
        return 0;
    };
    let queued: usize = info
        .inputs
        .iter()
        .filter_map(|&c| sim.channels().get(c as usize))
        .map(|ch| ch.items().len())
        .sum();
    queued as u64 + u64::from(super::held_count(sim, t))
}

/// The `n` with the largest figure, largest first, ties by the smaller id; those at 0 left
/// out (nothing waits there). Also how many others had more than 0.
fn top<I: Iterator<Item = (u32, u64)>>(all: I, n: usize) -> (Vec<(u32, u64)>, usize) {
    let mut some: Vec<(u32, u64)> = all.filter(|&(_, v)| v > 0).collect();
    let order = |a: &(u32, u64), b: &(u32, u64)| b.1.cmp(&a.1).then(a.0.cmp(&b.0));
    if some.len() > n && n > 0 {
        some.select_nth_unstable_by(n - 1, order);
    }
    let more = some.len().saturating_sub(n);
    some.truncate(n);
    some.sort_unstable_by(order);
    (some, more)
}

/// Operator `op`'s subtasks with the most items waiting at their inputs, most first (at most
/// `n`, none with nothing waiting), and how many more have some.
pub fn busiest_subtasks(sim: &Simulation, op: u32, n: usize) -> (Vec<(TaskId, u64)>, usize) {
    let tasks = sim.physical().operator_tasks.get(op as usize);
    let all = tasks
        .into_iter()
        .flatten()
        .map(|&t| (t, waiting_at(sim, t)));
    top(all, n)
}

/// Edge `edge`'s channels with the most items waiting, most first (at most `n`, none
/// empty), and how many more hold some.
pub fn busiest_channels(sim: &Simulation, edge: u32, n: usize) -> (Vec<(ChannelId, u64)>, usize) {
    let phys = sim.physical();
    let all = (0..phys.channels.len() as u32)
        .filter(|&c| phys.channels[c as usize].edge == edge)
        .map(|c| (c, waiting_on(sim, c)));
    top(all, n)
}

/// Where a subtask is in a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lag {
    /// Not acknowledged yet: the barrier has come on `arrived` of its `inputs` inputs.
    Waiting { arrived: u32, inputs: u32 },
    /// Acknowledged `after` ticks after the trigger, `aligned` of them between its first
    /// barrier and its snapshot.
    Acked { after: u64, aligned: u64 },
}

/// Operator `op`'s subtasks in checkpoint `checkpoint`, slowest first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Slowest {
    pub checkpoint: CheckpointId,
    /// Whether the checkpoint has completed (else it is running).
    pub completed: bool,
    pub rows: Vec<(TaskId, Lag)>,
    /// How many subtasks are not listed.
    pub more: usize,
}

/// The slowest of operator `op`'s subtasks (at most `n`) in the newest running checkpoint,
/// or if none runs in the latest completed one: the subtasks still to acknowledge first
/// (those whose barrier came on the fewest inputs first), then those that acknowledged,
/// the latest first — as Flink's checkpoint details sort subtasks by end-to-end duration.
/// None before the first checkpoint.
pub fn slowest_subtasks(sim: &Simulation, op: u32, n: usize) -> Option<Slowest> {
    let coordinator = sim.coordinator();
    let tasks = sim.physical().operator_tasks.get(op as usize)?;
    let running = coordinator.in_progress().last();
    let mut rows: Vec<(TaskId, Lag)> = match running {
        Some(id) => {
            let trigger = coordinator.summary(id).map_or(0, |s| s.trigger_time);
            tasks
                .iter()
                .map(|&t| match coordinator.ack_of(id, t) {
                    Some(m) => (t, acked(m.ack_time.saturating_sub(trigger), m)),
                    None => (t, waiting(sim, t, id)),
                })
                .collect()
        }
        None => {
            let gs = coordinator.latest_completed()?;
            tasks
                .iter()
                .filter_map(|&t| gs.tasks.iter().find(|s| s.task == t))
                .map(|s| {
                    let m = &s.metrics;
                    (s.task, acked(m.ack_time.saturating_sub(gs.trigger_time), m))
                })
                .collect()
        }
    };
    let (checkpoint, completed) = match running {
        Some(id) => (id, false),
        None => (coordinator.latest_completed()?.checkpoint, true),
    };
    // Waiting before acknowledged; fewer barriers before more; later acknowledgements first.
    let key = |lag: &Lag| match *lag {
        Lag::Waiting { arrived, inputs } => (0, u64::from(arrived), u64::from(inputs)),
        Lag::Acked { after, aligned } => (1, u64::MAX - after, u64::MAX - aligned),
    };
    rows.sort_by(|a, b| key(&a.1).cmp(&key(&b.1)).then(a.0.cmp(&b.0)));
    let more = rows.len().saturating_sub(n);
    rows.truncate(n);
    Some(Slowest {
        checkpoint,
        completed,
        rows,
        more,
    })
}

fn acked(after: u64, m: &super::super::snapshot::TaskMetrics) -> Lag {
    Lag::Acked {
        after,
        aligned: m.alignment_duration,
    }
}

/// Subtask `t` has not acknowledged checkpoint `id`: on how many inputs has its barrier come?
fn waiting(sim: &Simulation, t: TaskId, id: CheckpointId) -> Lag {
    let inputs = sim
        .physical()
        .tasks
        .get(t as usize)
        .map_or(0, |i| i.inputs.len() as u32);
    let arrived = sim.tasks().get(t as usize).map_or(0, |task| {
        let h = &task.handler;
        if h.current_checkpoint() == Some(id) {
            (0..h.channels())
                .filter(|&i| h.has_delivered_current(i))
                .count() as u32
        } else {
            0
        }
    });
    Lag::Waiting { arrived, inputs }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    #[test]
    fn top_keeps_the_largest_first_ties_by_id_and_leaves_out_zeros() {
        let all = [(4, 2), (1, 7), (2, 0), (3, 7), (5, 1), (6, 2)];
        assert_eq!(
            top(all.into_iter(), 3),
            (vec![(1, 7), (3, 7), (4, 2)], 2),
            "6 (2) and 5 (1) are left over; 2 (0) is not counted"
        );
        assert_eq!(top(all.into_iter(), 10).0.len(), 5);
        assert_eq!(top(all.into_iter(), 0), (vec![], 5));
    }

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
                with_held +=
                    usize::from(tasks.iter().any(|&t| super::super::held_count(&sim, t) > 0));
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
        println!(
            "slowest lists: {running} while a checkpoint runs, {completed} after one completed"
        );
        assert!(running > 100 && completed > 100);
    }
}
