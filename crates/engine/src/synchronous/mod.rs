//! Stop-the-world (`synchronous`), the ABS paper's baseline, as a protocol of its own: no
//! barrier flows. At a checkpoint's trigger the coordinator stops the sources (a source's read
//! that comes due waits here), each delivery asks whether every channel is empty, and then
//! every task snapshots in one step; when the checkpoint ends the sources read again. Its
//! description (`barrier/protocol.rs`: `Initiation::StopsTheWorld`) is what the rest of the
//! engine asks; the hooks it answers are named by what they do — `stop_source` (the
//! scheduler, before a source reads), `snapshot_when_drained` (the trigger and each delivery),
//! `on_drained_due` (the scheduler), `resume_sources` (the end of a checkpoint).
//!
//! Architecture invariant: this folder sees the job only through [`World`], a narrow context
//! of what it reads and the few acts it asks for; it never names the simulation or its fields
//! (`world.rs`, beside the simulation, answers for it).

use super::trace::Event;
use super::vocab::{Action, CheckpointId, Due, TaskId};

/// What stop-the-world sees of the running job.
pub(crate) trait World {
    /// The run's protocol stops the world for its checkpoints.
    fn stops_the_world(&self) -> bool;
    /// The oldest checkpoint in progress, if any.
    fn running(&self) -> Option<CheckpointId>;
    /// No item is on any channel.
    fn channels_empty(&self) -> bool;
    fn is_source(&self, t: TaskId) -> bool;
    fn task_count(&self) -> u32;
    fn now(&self) -> u64;
    /// The step happens at `time` (the clock moves there and counts it).
    fn step_at(&mut self, time: u64);
    /// Plans `due` at `at`.
    fn plan(&mut self, at: u64, due: Due);
    /// The sources stopped while the world is, each with the time its read was due.
    fn stopped(&mut self) -> &mut Vec<(TaskId, u64)>;
    /// Task `t` has acknowledged checkpoint `n` already.
    fn acknowledged(&self, n: CheckpointId, t: TaskId) -> bool;
    /// Task `t` snapshots checkpoint `n` (a finished task acknowledges what it ended with).
    fn snapshot(&mut self, t: TaskId, n: CheckpointId);
    fn tell(&mut self, event: Event);
}

/// The checkpoint the sources are stopped for, if one is running.
pub(crate) fn stopped_for(w: &impl World) -> Option<CheckpointId> {
    w.stops_the_world().then(|| w.running()).flatten()
}

/// Source `t` was due to read at `due` but the world is stopped; it reads again when the
/// checkpoint ends. False when the world is not stopped.
pub(crate) fn stop_source(w: &mut impl World, t: TaskId, due: u64) -> bool {
    if stopped_for(w).is_none() || !w.is_source(t) {
        return false;
    }
    let stopped = w.stopped();
    if !stopped.iter().any(|&(s, _)| s == t) {
        stopped.push((t, due));
    }
    true
}

/// Once every channel is empty, every task snapshots (as a step of its own, planned now).
pub(crate) fn snapshot_when_drained(w: &mut impl World) {
    if let Some(n) = stopped_for(w) {
        if w.channels_empty() {
            let now = w.now();
            w.plan(now, Due::SnapshotAll(n));
        }
    }
}

/// The job has drained, so every task not yet accounted for snapshots checkpoint `n` at once
/// — no barrier, no channel state — and the checkpoint completes.
pub(crate) fn snapshot_all(w: &mut impl World, n: CheckpointId) {
    w.tell(Event::Drained { checkpoint: n });
    for t in 0..w.task_count() {
        if !w.acknowledged(n, t) {
            w.snapshot(t, n);
        }
    }
}

/// The stopped sources read again (the checkpoint they were stopped for has ended).
pub(crate) fn resume_sources(w: &mut impl World) {
    let now = w.now();
    for (t, due) in std::mem::take(w.stopped()) {
        w.plan(due.max(now), Due::Emit(t));
    }
}

/// The job may have drained for checkpoint `n`: the step that snapshots every task, if so.
pub(crate) fn on_drained_due(w: &mut impl World, n: CheckpointId, time: u64) -> Option<Action> {
    if stopped_for(w) != Some(n) || !w.channels_empty() {
        return None;
    }
    w.step_at(time);
    snapshot_all(w, n);
    Some(Action::SnapshotAll { checkpoint: n })
}
