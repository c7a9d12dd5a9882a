//! Read-only views of a simulation for the page: what each subtask is doing, what each
//! alignment buffer holds, the figures of a checkpoint, and the narration's raw material.
//!
//! Nothing here changes the simulation; everything is a pure function of its public data. The
//! page turns these plain values into pictures and sentences, so the words "aligning",
//! "blocked" and "held" mean here exactly what the barrier handler means by them.

use super::barrier::{BarrierMode, CheckpointId};
use super::physical::{ChannelId, TaskId};
use super::record::{ItemKind, Record};
use super::sim::Simulation;
use super::snapshot::{GlobalState, TaskState};
use super::trace::{AbortReason, Event};

/// What a subtask is doing now, as its badge shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TaskStatus {
    /// Processing input as it comes.
    Running,
    /// Aligned mode: barrier `checkpoint` arrived on some inputs; `delivered[i]` tells which
    /// inputs already have it (and are blocked). Step ① / ②.
    Aligning {
        checkpoint: CheckpointId,
        delivered: Vec<bool>,
    },
    /// At-least-once: barrier `checkpoint` arrived on some inputs, nothing is blocked.
    Tracking {
        checkpoint: CheckpointId,
        delivered: Vec<bool>,
    },
    /// Unaligned: the snapshot is taken; records arriving before the barrier on the other
    /// inputs are persisted as channel state.
    Persisting {
        checkpoint: CheckpointId,
        delivered: Vec<bool>,
    },
    /// This very step the task snapshotted its state for `checkpoint` (step ③).
    Snapshotting { checkpoint: CheckpointId },
    /// The alignment ended; the task first takes `held` items out of its buffer (step ④).
    Replaying { held: u32 },
    /// The task's input ended.
    Finished,
}

/// The status of subtask `t` after the last step.
pub fn task_status(sim: &Simulation, t: TaskId) -> TaskStatus {
    let Some(task) = sim.tasks().get(t as usize) else {
        return TaskStatus::Running;
    };
    let snapshot = sim.last_events().iter().find_map(|e| match e {
        Event::Snapshot { task, checkpoint } if *task == t => Some(*checkpoint),
        _ => None,
    });
    if let Some(checkpoint) = snapshot {
        return TaskStatus::Snapshotting { checkpoint };
    }
    if task.finished {
        return TaskStatus::Finished;
    }
    let h = &task.handler;
    if h.has_replay() {
        return TaskStatus::Replaying {
            held: h.held_count(),
        };
    }
    let Some(checkpoint) = h.current_checkpoint() else {
        return TaskStatus::Running;
    };
    let delivered = (0..h.channels())
        .map(|i| h.has_delivered_current(i))
        .collect();
    match sim.mode() {
        BarrierMode::Aligned => TaskStatus::Aligning {
            checkpoint,
            delivered,
        },
        BarrierMode::AtLeastOnce => TaskStatus::Tracking {
            checkpoint,
            delivered,
        },
        BarrierMode::Unaligned => TaskStatus::Persisting {
            checkpoint,
            delivered,
        },
    }
}

/// Whether channel `c` is blocked at its receiver by an alignment (step ①).
pub fn is_blocked(sim: &Simulation, c: ChannelId) -> bool {
    let phys = sim.physical();
    phys.channels.get(c as usize).is_some_and(|info| {
        sim.tasks()
            .get(info.to as usize)
            .is_some_and(|t| t.handler.is_blocked(info.input_index))
    })
}

/// What channel `c`'s receiver holds in its alignment buffer for that input, oldest first
/// (step ②).
pub fn held_items(sim: &Simulation, c: ChannelId) -> Vec<ItemKind> {
    let phys = sim.physical();
    let Some(info) = phys.channels.get(c as usize) else {
        return Vec::new();
    };
    sim.tasks()
        .get(info.to as usize)
        .map(|t| {
            t.handler
                .held_on(info.input_index)
                .into_iter()
                .map(ItemKind::from_input)
                .collect()
        })
        .unwrap_or_default()
}

/// In unaligned mode, the checkpoint whose channel state a record on channel `c` will join
/// when it arrives: its receiver has taken the snapshot but this input has not delivered the
/// barrier yet.
pub fn persisting_checkpoint(sim: &Simulation, c: ChannelId) -> Option<CheckpointId> {
    if sim.mode() != BarrierMode::Unaligned {
        return None;
    }
    let info = sim.physical().channels.get(c as usize)?;
    let h = &sim.tasks().get(info.to as usize)?.handler;
    let n = h.current_checkpoint()?;
    (!h.has_delivered_current(info.input_index)).then_some(n)
}

/// A checkpoint's figures, named as in Flink's web UI.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckpointFigures {
    /// From trigger to completion.
    pub end_to_end: u64,
    /// The longest alignment of any task.
    pub alignment_duration: u64,
    /// Records that waited in alignment buffers, all tasks together.
    pub records_held: u64,
    /// Bytes of task state, all tasks together.
    pub state_size: u64,
    /// Records persisted as channel state (unaligned).
    pub persisted_in_flight: u64,
}

pub fn checkpoint_figures(gs: &GlobalState) -> CheckpointFigures {
    let m = gs.tasks.iter().map(|t| &t.metrics);
    CheckpointFigures {
        end_to_end: gs.completion_time.saturating_sub(gs.trigger_time),
        alignment_duration: m.clone().map(|m| m.alignment_duration).max().unwrap_or(0),
        records_held: m.clone().map(|m| m.records_held).sum(),
        state_size: m.clone().map(|m| m.state_size).sum(),
        persisted_in_flight: m.map(|m| m.persisted_in_flight).sum(),
    }
}

/// How a barrier that reached a task was taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BarrierTake {
    /// The first barrier of a new checkpoint: alignment starts, this input blocks (①).
    First { inputs: u32 },
    /// Another input delivered it and blocks too (①); `have` of `inputs` have it now.
    Blocked { have: u32, inputs: u32 },
    /// It completed the set (or the task has one input): the task snapshots now.
    Completes { inputs: u32 },
    /// Counted without blocking (at-least-once, or unaligned after the first barrier).
    Counted { have: u32, inputs: u32 },
    /// Too old, or arrived after the checkpoint ended: nothing happens.
    Ignored,
}

/// One sentence's worth of what a step did, without the words: the page's narration turns
/// each beat into a sentence of the chosen language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Beat {
    Triggered {
        checkpoint: CheckpointId,
    },
    TriggerDeferred,
    SourceRead {
        task: TaskId,
        offset: u64,
        record: Record,
    },
    SourceEnded {
        task: TaskId,
    },
    /// A source snapshotted its offset and injected the barrier.
    SourceSnapshot {
        task: TaskId,
        checkpoint: CheckpointId,
        offset: u64,
        acked: u32,
        total: u32,
    },
    Barrier {
        task: TaskId,
        input: u32,
        checkpoint: CheckpointId,
        take: BarrierTake,
    },
    /// An item arrived on a blocked input and waits in the alignment buffer (②), or a
    /// replayed one was held again.
    Held {
        task: TaskId,
        input: u32,
        item: ItemKind,
        held: u32,
    },
    /// The task snapshotted its state, forwarded the barrier and acknowledged (③).
    Snapshot {
        task: TaskId,
        checkpoint: CheckpointId,
        acked: u32,
        total: u32,
    },
    /// Alignment over: the inputs flow again, held items first (④).
    Unblocked {
        task: TaskId,
        to_replay: u32,
    },
    /// A held item left the buffer and was handled (④).
    Replayed {
        task: TaskId,
        input: u32,
        item: ItemKind,
        left: u32,
    },
    Processed {
        task: TaskId,
        input: u32,
        record: Record,
        emitted: u32,
    },
    /// Unaligned: an in-flight record became channel state.
    Persisted {
        task: TaskId,
        input: u32,
        checkpoint: CheckpointId,
        record: Record,
    },
    CancelArrived {
        task: TaskId,
        input: u32,
        checkpoint: CheckpointId,
    },
    TaskAborted {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// A finished task acknowledged with its final state.
    Acknowledged {
        task: TaskId,
        checkpoint: CheckpointId,
        acked: u32,
        total: u32,
    },
    Completed {
        checkpoint: CheckpointId,
        consistent: bool,
    },
    /// A transactional sink committed its output up to `committed` records (notify-complete).
    Committed {
        task: TaskId,
        checkpoint: CheckpointId,
        committed: u64,
    },
    Aborted {
        checkpoint: CheckpointId,
        reason: AbortReason,
    },
    PartitionEnded {
        task: TaskId,
        input: u32,
    },
    TaskFinished {
        task: TaskId,
    },
    ChannelPaused {
        channel: ChannelId,
        paused: bool,
    },
    LatencyChanged {
        channel: ChannelId,
        latency: u64,
    },
}

impl Beat {
    /// The seed's alignment step (①–④) this beat shows, in aligned mode.
    pub fn alignment_step(&self, mode: BarrierMode) -> Option<u8> {
        if mode != BarrierMode::Aligned {
            return None;
        }
        match self {
            Beat::Barrier {
                take: BarrierTake::First { inputs } | BarrierTake::Blocked { inputs, .. },
                ..
            } if *inputs > 1 => Some(1),
            Beat::Held { .. } => Some(2),
            Beat::Snapshot { .. } => Some(3),
            Beat::Unblocked { .. } | Beat::Replayed { .. } => Some(4),
            _ => None,
        }
    }

    /// Records flowing as usual: shown quietly so the checkpoint's beats stand out.
    pub fn is_routine(&self) -> bool {
        matches!(
            self,
            Beat::SourceRead { .. } | Beat::Processed { .. } | Beat::SourceEnded { .. }
        )
    }

    /// The checkpoint this beat is about, if any.
    pub fn checkpoint(&self) -> Option<CheckpointId> {
        match self {
            Beat::Triggered { checkpoint }
            | Beat::SourceSnapshot { checkpoint, .. }
            | Beat::Barrier { checkpoint, .. }
            | Beat::Snapshot { checkpoint, .. }
            | Beat::Persisted { checkpoint, .. }
            | Beat::CancelArrived { checkpoint, .. }
            | Beat::TaskAborted { checkpoint, .. }
            | Beat::Acknowledged { checkpoint, .. }
            | Beat::Completed { checkpoint, .. }
            | Beat::Committed { checkpoint, .. }
            | Beat::Aborted { checkpoint, .. } => Some(*checkpoint),
            _ => None,
        }
    }
}

/// The beats of the step that produced `events`, read against `sim` as it is right after
/// that step (counts such as "3 held" are taken from it).
pub fn beats(sim: &Simulation, events: &[Event]) -> Vec<Beat> {
    let phys = sim.physical();
    let input_of = |c: ChannelId| phys.channels.get(c as usize).map_or(0, |i| i.input_index);
    let inputs_of = |t: TaskId| {
        phys.tasks
            .get(t as usize)
            .map_or(0, |i| i.inputs.len() as u32)
    };
    let held_on = |t: TaskId, input: u32| {
        sim.tasks()
            .get(t as usize)
            .map_or(0, |task| task.handler.held_on(input).len() as u32)
    };
    let delivered = |t: TaskId| {
        sim.tasks().get(t as usize).map_or(0, |task| {
            (0..task.handler.channels())
                .filter(|&i| task.handler.has_delivered_current(i))
                .count() as u32
        })
    };
    let mut out: Vec<Beat> = Vec::new();
    // The barrier beat of this step still open to refinement by the events after it.
    let mut barrier_at: Option<usize> = None;
    let mut replayed: Option<(TaskId, u64)> = None;
    for e in events {
        match *e {
            Event::SourceRead {
                task,
                offset,
                record,
            } => out.push(Beat::SourceRead {
                task,
                offset,
                record,
            }),
            Event::SourceEnded { task } => out.push(Beat::SourceEnded { task }),
            Event::Arrived {
                task,
                channel,
                item,
            } => match item {
                ItemKind::Barrier(n) => {
                    let inputs = inputs_of(task);
                    let take = match sim.mode() {
                        BarrierMode::Aligned => BarrierTake::Ignored,
                        _ => BarrierTake::Counted {
                            have: delivered(task),
                            inputs,
                        },
                    };
                    barrier_at = Some(out.len());
                    out.push(Beat::Barrier {
                        task,
                        input: input_of(channel),
                        checkpoint: n,
                        take,
                    });
                }
                ItemKind::Cancel(n) => out.push(Beat::CancelArrived {
                    task,
                    input: input_of(channel),
                    checkpoint: n,
                }),
                ItemKind::Record(_) | ItemKind::EndOfPartition => {}
            },
            Event::AlignmentStarted { task, .. } => {
                if let Some(Beat::Barrier { task: bt, take, .. }) =
                    barrier_at.and_then(|i| out.get_mut(i))
                {
                    if *bt == task {
                        *take = BarrierTake::First {
                            inputs: inputs_of(task),
                        };
                    }
                }
            }
            Event::Blocked { task, .. } => {
                if let Some(Beat::Barrier { task: bt, take, .. }) =
                    barrier_at.and_then(|i| out.get_mut(i))
                {
                    if *bt == task && !matches!(take, BarrierTake::First { .. }) {
                        *take = BarrierTake::Blocked {
                            have: delivered(task),
                            inputs: inputs_of(task),
                        };
                    }
                }
            }
            Event::Held {
                task,
                channel,
                item,
            } => {
                // A barrier that arrived on a blocked input is held, not taken.
                if let Some(i) = barrier_at {
                    if matches!(out.get(i), Some(Beat::Barrier { task: bt, .. }) if *bt == task)
                        && matches!(item, ItemKind::Barrier(_))
                    {
                        out.remove(i);
                        barrier_at = None;
                    }
                }
                let input = input_of(channel);
                out.push(Beat::Held {
                    task,
                    input,
                    item,
                    held: held_on(task, input),
                });
            }
            Event::Replayed {
                task,
                channel,
                item,
            } => {
                if let ItemKind::Record(r) = item {
                    replayed = Some((task, r.id));
                }
                out.push(Beat::Replayed {
                    task,
                    input: input_of(channel),
                    item,
                    left: sim
                        .tasks()
                        .get(task as usize)
                        .map_or(0, |t| t.handler.held_count()),
                });
            }
            Event::Processed {
                task,
                channel,
                record,
                emitted,
            } => {
                if replayed == Some((task, record.id)) {
                    replayed = None;
                    continue;
                }
                out.push(Beat::Processed {
                    task,
                    input: input_of(channel),
                    record,
                    emitted,
                });
            }
            Event::Snapshot { task, checkpoint } => {
                if let Some(Beat::Barrier {
                    task: bt,
                    take,
                    checkpoint: n,
                    ..
                }) = barrier_at.and_then(|i| out.get_mut(i))
                {
                    if *bt == task && *n == checkpoint {
                        *take = BarrierTake::Completes {
                            inputs: inputs_of(task),
                        };
                    }
                }
                let total = phys.task_count();
                let is_source = phys
                    .tasks
                    .get(task as usize)
                    .is_some_and(|i| i.inputs.is_empty());
                if is_source {
                    let offset = sim
                        .coordinator()
                        .global_state(checkpoint)
                        .and_then(|g| g.tasks.get(task as usize))
                        .map(|s| &s.state)
                        .or_else(|| sim.tasks().get(task as usize).map(|t| &t.state))
                        .map_or(0, |s| match s {
                            TaskState::Source { offset } => *offset,
                            _ => 0,
                        });
                    out.push(Beat::SourceSnapshot {
                        task,
                        checkpoint,
                        offset,
                        acked: 0,
                        total,
                    });
                } else {
                    out.push(Beat::Snapshot {
                        task,
                        checkpoint,
                        acked: 0,
                        total,
                    });
                }
            }
            Event::Acknowledged {
                task,
                checkpoint,
                acked,
                total,
            } => {
                let merged = out.iter_mut().rev().find_map(|b| match b {
                    Beat::Snapshot {
                        task: bt,
                        checkpoint: n,
                        acked: a,
                        total: tot,
                    }
                    | Beat::SourceSnapshot {
                        task: bt,
                        checkpoint: n,
                        acked: a,
                        total: tot,
                        ..
                    } if *bt == task && *n == checkpoint => Some((a, tot)),
                    _ => None,
                });
                match merged {
                    Some((a, tot)) => {
                        *a = acked;
                        *tot = total;
                    }
                    None => out.push(Beat::Acknowledged {
                        task,
                        checkpoint,
                        acked,
                        total,
                    }),
                }
            }
            Event::Unblocked { task } => {
                if sim.mode() == BarrierMode::Aligned && inputs_of(task) > 1 {
                    out.push(Beat::Unblocked {
                        task,
                        to_replay: sim
                            .tasks()
                            .get(task as usize)
                            .map_or(0, |t| t.handler.held_count()),
                    });
                }
            }
            Event::TaskAborted { task, checkpoint } => {
                out.push(Beat::TaskAborted { task, checkpoint })
            }
            Event::ChannelState {
                task,
                checkpoint,
                channel,
                record,
            } => out.push(Beat::Persisted {
                task,
                input: input_of(channel),
                checkpoint,
                record,
            }),
            Event::CheckpointTriggered { checkpoint } => out.push(Beat::Triggered { checkpoint }),
            Event::CheckpointCompleted { checkpoint } => out.push(Beat::Completed {
                checkpoint,
                consistent: sim
                    .coordinator()
                    .global_state(checkpoint)
                    .is_none_or(|g| g.verdict.ok()),
            }),
            Event::CheckpointAborted { checkpoint, reason } => {
                out.push(Beat::Aborted { checkpoint, reason })
            }
            Event::Committed {
                task,
                checkpoint,
                committed,
            } => out.push(Beat::Committed {
                task,
                checkpoint,
                committed,
            }),
            Event::TriggerDeferred => out.push(Beat::TriggerDeferred),
            Event::PartitionEnded { task, channel } => out.push(Beat::PartitionEnded {
                task,
                input: input_of(channel),
            }),
            Event::TaskFinished { task } => out.push(Beat::TaskFinished { task }),
            Event::ChannelPaused { channel, paused } => {
                out.push(Beat::ChannelPaused { channel, paused })
            }
            Event::LatencyChanged { channel, latency } => {
                out.push(Beat::LatencyChanged { channel, latency })
            }
        }
    }
    out
}

/// Where the timeline marks a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Triggered,
    Completed,
    Aborted,
}

/// The timeline marks a step's events call for.
pub fn marks(events: &[Event]) -> Vec<(CheckpointId, MarkKind)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CheckpointTriggered { checkpoint } => Some((*checkpoint, MarkKind::Triggered)),
            Event::CheckpointCompleted { checkpoint } => Some((*checkpoint, MarkKind::Completed)),
            Event::CheckpointAborted { checkpoint, .. } => Some((*checkpoint, MarkKind::Aborted)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::presets;

    fn run_until(
        sim: &mut Simulation,
        limit: u32,
        mut stop: impl FnMut(&Simulation) -> bool,
    ) -> bool {
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
            for b in beats(s, s.last_events()) {
                if let Some(n) = b.alignment_step(s.mode()) {
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
}
