//! The simulation as stop-the-world's narrow context (`synchronous::World`): the one place
//! that protocol's questions and acts meet the simulation's parts.

use super::sim::Simulation;
use super::synchronous::{self, World};
use super::trace::Event;
use super::vocab::{CheckpointId, Due, TaskId};

impl World for Simulation {
    fn stops_the_world(&self) -> bool {
        self.config.mode.stops_the_world()
    }

    fn running(&self) -> Option<CheckpointId> {
        self.coordinator.in_progress().next()
    }

    fn channels_empty(&self) -> bool {
        self.net.is_empty()
    }

    fn is_source(&self, t: TaskId) -> bool {
        self.phys.operator_of(t).kind.is_source()
    }

    fn task_count(&self) -> u32 {
        self.phys.task_count()
    }

    fn now(&self) -> u64 {
        self.clock.now
    }

    fn step_at(&mut self, time: u64) {
        self.clock.now = time;
        self.clock.steps += 1;
    }

    fn plan(&mut self, at: u64, due: Due) {
        self.schedule(at, due);
    }

    fn stopped(&mut self) -> &mut Vec<(TaskId, u64)> {
        &mut self.coordinator.stopped
    }

    fn acknowledged(&self, n: CheckpointId, t: TaskId) -> bool {
        self.coordinator.acked_by(n, t)
    }

    fn snapshot(&mut self, t: TaskId, n: CheckpointId) {
        if self.tasks[t as usize].finished {
            self.acknowledge_finished(t, n);
        } else {
            self.snapshot_task(t, n);
        }
    }

    fn tell(&mut self, event: Event) {
        self.events.push(event);
    }
}

impl Simulation {
    /// Stop-the-world: the checkpoint the sources are stopped for, if one is running.
    pub fn stopped_for(&self) -> Option<CheckpointId> {
        synchronous::stopped_for(self)
    }

    /// Stop-the-world: the sources that were due to read since the world stopped, and wait.
    pub fn stopped_sources(&self) -> impl Iterator<Item = TaskId> + '_ {
        self.coordinator.stopped.iter().map(|&(t, _)| t)
    }
}
