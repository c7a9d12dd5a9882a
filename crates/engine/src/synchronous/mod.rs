//! Stop-the-world (`synchronous`), the ABS paper's baseline, as a protocol of its own: no
//! barrier flows. At a checkpoint's trigger the coordinator stops the sources (a source's read
//! that comes due waits here), each delivery asks whether every channel is empty, and then
//! every task snapshots in one step; when the checkpoint ends the sources read again. Its
//! description (`barrier/protocol.rs`: `Initiation::StopsTheWorld`) is what the rest of the
//! engine asks; the hooks it answers are named by what they do — `stop_source` (the
//! scheduler, before a source reads), `snapshot_when_drained` (the trigger and each delivery),
//! `on_drained_due` (the scheduler), `resume_sources` (the end of a checkpoint).

use super::sim::Simulation;
use super::trace::Event;
use super::vocab::{Action, CheckpointId, Due, TaskId};

impl Simulation {
    /// Stop-the-world: the checkpoint the sources are stopped for, if one is running.
    pub fn stopped_for(&self) -> Option<CheckpointId> {
        self.config
            .mode
            .stops_the_world()
            .then(|| self.coordinator.in_progress().next())
            .flatten()
    }

    /// Stop-the-world: the sources that were due to read since the world stopped, and wait.
    pub fn stopped_sources(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.coordinator.stopped.iter().map(|&(t, _)| t)
    }

    /// Stop-the-world: source `t` was due to read at `due` but the world is stopped; it
    /// reads again when the checkpoint ends. False when the world is not stopped.
    pub(super) fn stop_source(&mut self, t: TaskId, due: u64) -> bool {
        if self.stopped_for().is_none() || !self.phys.operator_of(t).kind.is_source() {
            return false;
        }
        if !self.coordinator.stopped.iter().any(|&(s, _)| s == t) {
            self.coordinator.stopped.push((t, due));
        }
        true
    }

    /// Stop-the-world: once every channel is empty, every task snapshots (as a step of its
    /// own, planned now).
    pub(super) fn snapshot_when_drained(&mut self) {
        if let Some(n) = self.stopped_for() {
            if self.net.is_empty() {
                self.schedule(self.clock.now, Due::SnapshotAll(n));
            }
        }
    }

    /// Stop-the-world: the job has drained, so every task not yet accounted for snapshots
    /// checkpoint `n` at once — no barrier, no channel state — and the checkpoint completes.
    pub(super) fn snapshot_all(&mut self, n: CheckpointId) {
        self.events.push(Event::Drained { checkpoint: n });
        for t in 0..self.phys.task_count() {
            if self.coordinator.acked_by(n, t) {
                continue;
            }
            if self.tasks[t as usize].finished {
                self.acknowledge_finished(t, n);
            } else {
                self.snapshot_task(t, n);
            }
        }
    }

    /// The stopped sources read again (the checkpoint they were stopped for has ended).
    pub(super) fn resume_sources(&mut self) {
        for (t, due) in std::mem::take(&mut self.coordinator.stopped) {
            self.schedule(due.max(self.clock.now), Due::Emit(t));
        }
    }

    /// Stop-the-world: the job may have drained for checkpoint `n`.
    pub(super) fn on_drained_due(&mut self, n: CheckpointId, time: u64) -> Option<Action> {
        if self.stopped_for() != Some(n) || !self.net.is_empty() {
            return None;
        }
        self.clock.now = time;
        self.clock.steps += 1;
        self.snapshot_all(n);
        Some(Action::SnapshotAll { checkpoint: n })
    }
}
