//! Read-only views of a simulation for the page: what each subtask is doing, what each
//! alignment buffer holds, which in-flight records are channel state, the figures of a
//! checkpoint, timeline marks; `narration.rs` turns a step's events into sentences (without
//! their words).
//!
//! Nothing here changes the simulation; everything is a pure function of its public data. The
//! page turns these plain values into pictures and sentences, so the words "aligning",
//! "blocked" and "held" mean here exactly what the barrier handler means by them.

mod cost;
mod narration;
mod ranking;
mod sentence;
mod spacetime;

pub use cost::{drain_time, measure, percentile, Cost, CostFigures, Series};
pub use narration::sentences;
pub use ranking::{
    busiest_channels, busiest_subtasks, slowest_subtasks, waiting_at, waiting_on, Lag, Slowest,
};
pub use sentence::{Forward, Input, Sentence};
pub use spacetime::{Across, Moment, SnapshotPoint, SpaceTime, Trip};

use super::barrier::CheckpointId;
use super::physical::{ChannelId, TaskId};
use super::record::{ItemKind, Payload};
use super::sim::Simulation;
use super::snapshot::{GlobalState, TaskState};
use super::sorted_map::SortedMap;
use super::trace::Event;

/// The narration's sentences of `sim`'s last step: its events, told in its protocol's words.
pub fn last_sentences(sim: &Simulation) -> Vec<Sentence> {
    sentences(sim.last_events(), sim.protocol())
}

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
    /// Its data has ended (FLIP-147): it has sent its end of data and waits, still taking
    /// barriers, for a checkpoint it takes from now on to complete.
    Ending,
    /// It has sent its end of partition: it does nothing more.
    Finished,
    /// An output channel is full: the task takes no input until the receiver consumes
    /// (Flink's word; the badge says so when nothing checkpoint-related is going on).
    Backpressured,
    /// Stop-the-world: a source the coordinator stopped until checkpoint `checkpoint` is taken.
    Stopped { checkpoint: CheckpointId },
    /// The job is down after this task failed.
    Failed,
    /// The job is down after another task failed: this one was cancelled and waits for the
    /// restart.
    Cancelled,
}

/// The status of subtask `t` after the last step.
pub fn task_status(sim: &Simulation, t: TaskId) -> TaskStatus {
    let Some(task) = sim.tasks().get(t as usize) else {
        return TaskStatus::Running;
    };
    if sim.is_down(t) {
        return if sim.failed_task() == Some(t) {
            TaskStatus::Failed
        } else {
            TaskStatus::Cancelled
        };
    }
    let snapshot = sim.last_events().iter().find_map(|e| match e {
        Event::Snapshot {
            task, checkpoint, ..
        } if *task == t => Some(*checkpoint),
        _ => None,
    });
    if let Some(checkpoint) = snapshot {
        return TaskStatus::Snapshotting { checkpoint };
    }
    if task.finished {
        return TaskStatus::Finished;
    }
    if let Some(checkpoint) = sim.stopped_for() {
        if sim.physical().operator_of(t).kind.is_source() {
            return TaskStatus::Stopped { checkpoint };
        }
    }
    let h = &task.handler;
    if h.has_replay() {
        return TaskStatus::Replaying {
            held: h.held_count(),
        };
    }
    let Some(checkpoint) = h.current_checkpoint() else {
        return if task.data_ended {
            TaskStatus::Ending
        } else if sim.flow().is_backpressured(t) {
            TaskStatus::Backpressured
        } else {
            TaskStatus::Running
        };
    };
    let delivered = (0..h.channels())
        .map(|i| h.has_delivered_current(i))
        .collect();
    // The task's own handler decides: under unaligned checkpoints a task whose inputs keep
    // their barriers aligned aligns.
    if h.blocks_inputs() {
        TaskStatus::Aligning {
            checkpoint,
            delivered,
        }
    } else if sim.mode().may_slip() {
        TaskStatus::Tracking {
            checkpoint,
            delivered,
        }
    } else {
        // Unaligned and Chandy-Lamport record: the state is taken, inputs whose barrier or
        // marker has not come are recorded.
        TaskStatus::Persisting {
            checkpoint,
            delivered,
        }
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

/// Whether channel `c` has delivered the barrier of the checkpoint its receiver is aligning,
/// tracking or persisting now.
pub fn has_barrier(sim: &Simulation, c: ChannelId) -> bool {
    let phys = sim.physical();
    phys.channels.get(c as usize).is_some_and(|info| {
        sim.tasks().get(info.to as usize).is_some_and(|t| {
            t.handler.current_checkpoint().is_some()
                && t.handler.has_delivered_current(info.input_index)
        })
    })
}

/// Items held in subtask `t`'s alignment buffer (all inputs), including those waiting to be
/// replayed.
pub fn held_count(sim: &Simulation, t: TaskId) -> u32 {
    sim.tasks()
        .get(t as usize)
        .map_or(0, |task| task.handler.held_count())
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

/// ABS for cycles: the log a back-edge's receiver keeps for the checkpoint it is logging —
/// the records that came round the loop before the barrier did — oldest first.
pub fn back_edge_log(sim: &Simulation, c: ChannelId) -> Option<(CheckpointId, Vec<ItemKind>)> {
    let phys = sim.physical();
    let info = phys.channels.get(c as usize)?;
    let blocks = sim
        .tasks()
        .get(info.to as usize)
        .is_some_and(|t| t.handler.blocks_inputs());
    if !blocks || !phys.is_back_edge(info.edge) {
        return None;
    }
    let n = persisting_checkpoint(sim, c)?;
    let log = sim.coordinator().recorded_so_far(n, c);
    Some((n, log.into_iter().map(ItemKind::Record).collect()))
}

/// The checkpoint whose channel state a record on channel `c` will join when it arrives: its
/// receiver has taken the snapshot but this input has not delivered the barrier yet —
/// unaligned, Chandy-Lamport (marker), or aligned on a back-edge (Algorithm 2's log). One
/// channel may be recorded for several checkpoints at once; the newest is named.
pub fn persisting_checkpoint(sim: &Simulation, c: ChannelId) -> Option<CheckpointId> {
    let info = sim.physical().channels.get(c as usize)?;
    let h = &sim.tasks().get(info.to as usize)?.handler;
    if h.current_checkpoint().is_none()
        && h.timed_out().is_none()
        && sim.physical().back_edges.is_empty()
    {
        // Nothing is recorded at a task with nothing pending (the common case: no allocation).
        return None;
    }
    sim.coordinator()
        .in_progress()
        .filter(|&n| h.records(n, info.input_index))
        .last()
}

/// Unaligned: for each item queued on channel `c` (in queue order), the checkpoint whose
/// channel state it is part of — records a barrier overtook at the sender (recorded when the
/// barrier jumped them) and records ahead of any barrier that the receiver will persist on
/// arrival — or `None`. Fills `out`, which the caller reuses across frames.
pub fn channel_state_marks(sim: &Simulation, c: ChannelId, out: &mut Vec<Option<CheckpointId>>) {
    out.clear();
    let Some(ch) = sim.channels().get(c as usize) else {
        return;
    };
    let ahead = persisting_checkpoint(sim, c);
    let mut overtaken = ch.overtaken.iter().peekable();
    let mut behind_barrier = false;
    for item in &ch.queue {
        let mark = match item.kind {
            ItemKind::Barrier(_) => {
                behind_barrier = true;
                None
            }
            ItemKind::Record(r) => match overtaken.peek() {
                Some(&&(id, n)) if id == r.id => {
                    overtaken.next();
                    Some(n)
                }
                _ if !behind_barrier => ahead,
                _ => None,
            },
            _ => None,
        };
        out.push(mark);
    }
}

/// At-least-once: for each item queued on channel `c`, the checkpoint a record will slip into
/// when it arrives — its receiver already has that checkpoint's barrier from this input but
/// has not snapshotted, so the record enters the state before the snapshot (and would be
/// counted twice after a recovery). Only records ahead of any later barrier in the queue.
pub fn slip_marks(sim: &Simulation, c: ChannelId, out: &mut Vec<Option<CheckpointId>>) {
    out.clear();
    let phys = sim.physical();
    let (Some(ch), Some(info)) = (
        sim.channels().get(c as usize),
        phys.channels.get(c as usize),
    ) else {
        return;
    };
    let slips = sim
        .tasks()
        .get(info.to as usize)
        .and_then(|t| t.handler.early_on(info.input_index));
    let mut behind_barrier = false;
    for item in &ch.queue {
        out.push(match item.kind {
            ItemKind::Record(_) if !behind_barrier => slips,
            ItemKind::Barrier(_) => {
                behind_barrier = true;
                None
            }
            _ => None,
        });
    }
}

/// The mark each queued item of channel `c` carries in `sim`'s mode: channel state when
/// unaligned ([`channel_state_marks`]), slipping into a snapshot when at-least-once
/// ([`slip_marks`]), nothing when aligned.
pub fn item_marks(sim: &Simulation, c: ChannelId, out: &mut Vec<Option<CheckpointId>>) {
    if sim.mode().may_slip() {
        slip_marks(sim, c, out)
    } else {
        channel_state_marks(sim, c, out)
    }
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
    /// Flink's checkpointed data size: bytes of task state and of persisted in-flight data,
    /// all tasks together.
    pub checkpointed_size: u64,
    /// Bytes of in-flight records persisted as channel state, all tasks together.
    pub persisted_bytes: u64,
    /// The same as a number of records.
    pub persisted_records: u64,
}

pub fn checkpoint_figures(gs: &GlobalState) -> CheckpointFigures {
    let m = gs.tasks.iter().map(|t| &t.metrics);
    CheckpointFigures {
        end_to_end: gs.completion_time.saturating_sub(gs.trigger_time),
        alignment_duration: m.clone().map(|m| m.alignment_duration).max().unwrap_or(0),
        records_held: m.clone().map(|m| m.records_held).sum(),
        checkpointed_size: m.clone().map(|m| m.checkpointed_size()).sum(),
        persisted_bytes: m.clone().map(|m| m.persisted_bytes()).sum(),
        persisted_records: m.map(|m| m.persisted_in_flight).sum(),
    }
}

/// Where the timeline marks a checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MarkKind {
    Triggered,
    Completed,
    Aborted,
    /// A task failed (or too many checkpoints did): the job went down. Its checkpoint is 0.
    Failed,
}

/// The timeline marks a step's events call for.
pub fn marks(events: &[Event]) -> Vec<(CheckpointId, MarkKind)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::CheckpointTriggered { checkpoint, .. } => {
                Some((*checkpoint, MarkKind::Triggered))
            }
            Event::CheckpointCompleted { checkpoint, .. } => {
                Some((*checkpoint, MarkKind::Completed))
            }
            Event::CheckpointAborted { checkpoint, .. } => Some((*checkpoint, MarkKind::Aborted)),
            Event::Failed { .. } => Some((0, MarkKind::Failed)),
            _ => None,
        })
        .collect()
}

/// The seed's one-token system, as its figure of four global states shows it: the two
/// processes and the channels between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenSystem {
    pub p: TaskId,
    pub q: TaskId,
    pub pq: ChannelId,
    pub qp: ChannelId,
}

/// The four global states of the seed's figure, in the order the token visits them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenPlace {
    AtP,
    InPq,
    AtQ,
    InQp,
}

impl TokenPlace {
    pub const ALL: [TokenPlace; 4] = [
        TokenPlace::AtP,
        TokenPlace::InPq,
        TokenPlace::AtQ,
        TokenPlace::InQp,
    ];

    /// `at-p`, `in-p-q`, `at-q`, `in-q-p`: test hooks and permalinks.
    pub fn as_str(self) -> &'static str {
        match self {
            TokenPlace::AtP => "at-p",
            TokenPlace::InPq => "in-p-q",
            TokenPlace::AtQ => "at-q",
            TokenPlace::InQp => "in-q-p",
        }
    }
}

/// The one-token system in `sim`'s graph: exactly two token processes joined both ways.
pub fn token_system(sim: &Simulation) -> Option<TokenSystem> {
    use super::model::OperatorKind;
    let phys = sim.physical();
    let procs: Vec<TaskId> = (0..phys.task_count())
        .filter(|&t| matches!(phys.operator_of(t).kind, OperatorKind::Token { .. }))
        .collect();
    let [p, q] = procs[..] else { return None };
    let channel = |a: TaskId, b: TaskId| {
        phys.channels
            .iter()
            .position(|c| c.from == a && c.to == b)
            .map(|c| c as ChannelId)
    };
    Some(TokenSystem {
        p,
        q,
        pq: channel(p, q)?,
        qp: channel(q, p)?,
    })
}

/// Where the token is now. `None` while it is nowhere one of the four states names (a token
/// system being edited into another shape).
pub fn token_place_now(sim: &Simulation, sys: &TokenSystem) -> Option<TokenPlace> {
    use super::record::Payload;
    use super::snapshot::TaskState;
    let holds = |t: TaskId| {
        matches!(
            sim.tasks().get(t as usize).map(|t| &t.state),
            Some(TaskState::Token { token: true })
        )
    };
    let carries = |c: ChannelId| {
        sim.channels().get(c as usize).is_some_and(|ch| {
            ch.items()
                .iter()
                .any(|i| matches!(i.kind, ItemKind::Record(r) if r.payload == Payload::Token))
        })
    };
    place(holds(sys.p), carries(sys.pq), holds(sys.q), carries(sys.qp))
}

/// Where a completed snapshot captured the token.
pub fn token_place_captured(gs: &GlobalState, sys: &TokenSystem) -> Option<TokenPlace> {
    use super::record::Payload;
    use super::snapshot::TaskState;
    let holds = |t: TaskId| {
        gs.tasks
            .iter()
            .any(|s| s.task == t && matches!(s.state, TaskState::Token { token: true }))
    };
    let carries = |c: ChannelId| {
        gs.channel_state
            .get(&c)
            .is_some_and(|v| v.iter().any(|r| r.payload == Payload::Token))
    };
    place(holds(sys.p), carries(sys.pq), holds(sys.q), carries(sys.qp))
}

/// Exactly one of the four places has the token, or none of the states applies.
fn place(at_p: bool, in_pq: bool, at_q: bool, in_qp: bool) -> Option<TokenPlace> {
    match (at_p, in_pq, at_q, in_qp) {
        (true, false, false, false) => Some(TokenPlace::AtP),
        (false, true, false, false) => Some(TokenPlace::InPq),
        (false, false, true, false) => Some(TokenPlace::AtQ),
        (false, false, false, true) => Some(TokenPlace::InQp),
        _ => None,
    }
}

/// Where the run stands with failures, for the page's recovery line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecoveryPhase {
    /// A failure the scenario plans is still to come (and may be skipped).
    Planned { task: TaskId, at: u64 },
    /// The job is down: `failed` failed (none: too many failed checkpoints); at `restart_at`
    /// every task restores `checkpoint` (none: starts afresh).
    Down {
        failed: Option<TaskId>,
        restart_at: u64,
        checkpoint: Option<CheckpointId>,
        /// Only the failed task's region is down; the rest runs on.
        partial: bool,
    },
    /// The job restored `checkpoint` at `at` and has not completed a checkpoint since:
    /// sources are replaying what they had read before the failure.
    Restored {
        checkpoint: Option<CheckpointId>,
        at: u64,
        rewound: Vec<(TaskId, u64, u64)>,
        duplicates: u32,
    },
}

/// The recovery line's phase after the last step, if there is anything to say.
pub fn recovery_phase(sim: &Simulation) -> Option<RecoveryPhase> {
    if let Some(restart_at) = sim.restarting_at() {
        return Some(RecoveryPhase::Down {
            failed: sim.failed_task(),
            restart_at,
            checkpoint: sim.coordinator().latest_completed().map(|g| g.checkpoint),
            partial: sim.down_region().is_some(),
        });
    }
    if let Some(r) = sim.recoveries().last() {
        let at = r.restored_at.unwrap_or(r.failed_at);
        let since = sim
            .coordinator()
            .latest_completed()
            .is_some_and(|g| g.trigger_time >= at);
        if !since && !sim.job_finished() {
            return Some(RecoveryPhase::Restored {
                checkpoint: r.checkpoint,
                at,
                rewound: r.rewound.clone(),
                duplicates: r.duplicates.len() as u32,
            });
        }
    }
    if sim.job_finished() {
        return None;
    }
    sim.planned_failures()
        .iter()
        .filter(|f| !f.applied && !f.skipped)
        .min_by_key(|f| f.at)
        .map(|f| RecoveryPhase::Planned {
            task: f.task,
            at: f.at,
        })
}

/// While the job is down: how many items channel `c` lost at the failure.
pub fn dropped_on(sim: &Simulation, c: ChannelId) -> u32 {
    if sim.restarting_at().is_none() {
        return 0;
    }
    sim.recoveries()
        .last()
        .and_then(|r| r.dropped.iter().find(|(ch, _)| *ch == c))
        .map_or(0, |&(_, n)| n)
}

/// Every counting operator's keyed counts, merged over its subtasks: the job's result.
pub fn merged_counts(sim: &Simulation) -> SortedMap<u32, u64> {
    let mut all: SortedMap<u32, u64> = SortedMap::new();
    for task in sim.tasks() {
        if let TaskState::Count { counts } = &task.state {
            for (&w, &n) in counts {
                *all.get_or_default(w) += n;
            }
        }
    }
    all
}

/// Words that task `t` holds in its state twice since the last restart: at-least-once
/// records that were already in the restored state and are replayed (see
/// [`crate::recovery::Recovery::duplicates`]).
pub fn counted_twice(sim: &Simulation, t: TaskId) -> Vec<u32> {
    let phys = sim.physical();
    let mut words = Vec::new();
    for r in sim.recoveries() {
        for d in &r.duplicates {
            if phys.channels.get(d.channel as usize).map(|c| c.to) != Some(t) {
                continue;
            }
            if let Payload::Word(w) | Payload::Count { word: w, .. } = d.record.payload {
                if !words.contains(&w) {
                    words.push(w);
                }
            }
        }
    }
    words
}
