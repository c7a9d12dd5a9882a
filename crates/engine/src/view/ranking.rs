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
}
