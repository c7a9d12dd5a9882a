//! What may be done now, and why an action is refused: the checks every manual action
//! passes before it changes anything.

use super::channel::Hold;
use super::sim::Simulation;
use super::vocab::{ChannelId, TaskId};

pub use super::vocab::{Action, ActionError, MAX_LATENCY};

impl Simulation {
    // ----- choosing -----

    /// What the user may do now to move the run on, in a fixed order: deliveries, replays,
    /// reads, triggers, a stopped world's snapshot, alignment timeouts, expiries — or, while the job is down after a failure, the restart.
    /// Failing a task ([`Action::Fail`]) is possible at any moment until the job finishes and
    /// is not listed, nor are the settings (pause, latency, FIFO).
    pub fn enabled_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        if self.life.down_until.is_some() {
            actions.push(Action::Restart);
            if self.down_region().is_none() {
                return actions;
            }
        }
        // While a region is down the rest runs on: only its tasks and channels wait.
        let down = |t: TaskId| self.is_down(t);
        for c in 0..self.net.channels.len() as ChannelId {
            if self.delivery_hold(c).is_none() && !down(self.phys.channels[c as usize].to) {
                actions.push(Action::Deliver { channel: c });
            }
        }
        for (t, task) in self.tasks.iter().enumerate() {
            if task.handler.has_replay()
                && !self.net.flow.has_full_output(t as TaskId)
                && !down(t as TaskId)
            {
                actions.push(Action::Replay { task: t as TaskId });
            }
        }
        for (t, task) in self.tasks.iter().enumerate() {
            let kind = &self.phys.operator_of(t as TaskId).kind;
            let acts = (kind.is_source() && self.stopped_for().is_none())
                || (kind.is_process() && self.can_act(t as TaskId));
            if acts
                && !task.finished
                && !task.data_ended
                && !down(t as TaskId)
                && !self.net.flow.has_full_output(t as TaskId)
            {
                actions.push(Action::Emit { task: t as TaskId });
            }
        }
        if !self.life.done
            && self.life.down_until.is_none()
            && !self.refuses_checkpoints_after_finish()
            && self.coordinator.has_room()
        {
            actions.push(Action::Trigger);
            if self.config.mode.processes_initiate() {
                // Processes only: checking that a task's markers reach everyone walks the graph.
                for t in 0..self.phys.task_count() {
                    if self.phys.operator_of(t).kind.is_process()
                        && self.check(Action::Initiate { task: t }).is_ok()
                    {
                        actions.push(Action::Initiate { task: t });
                    }
                }
            }
        }
        if let Some(n) = self.stopped_for().filter(|_| self.net.is_empty()) {
            actions.push(Action::SnapshotAll { checkpoint: n });
        }
        for id in self.coordinator.in_progress() {
            if self
                .check(Action::TimeOutAlignment { checkpoint: id })
                .is_ok()
            {
                actions.push(Action::TimeOutAlignment { checkpoint: id });
            }
        }
        for id in self.coordinator.in_progress() {
            if self
                .coordinator
                .deadline(id)
                .is_some_and(|d| d <= self.clock.now)
            {
                actions.push(Action::Expire { checkpoint: id });
            }
        }
        actions
    }

    pub(super) fn check(&self, action: Action) -> Result<(), ActionError> {
        let runs = matches!(
            action,
            Action::Deliver { .. }
                | Action::DeliverNth { .. }
                | Action::Replay { .. }
                | Action::Emit { .. }
                | Action::Trigger
                | Action::Savepoint
                | Action::Expire { .. }
                | Action::TimeOutAlignment { .. }
                | Action::Initiate { .. }
                | Action::SnapshotAll { .. }
        );
        if runs && self.life.down_until.is_some() {
            // While a region is down the rest of the job runs on; nothing is checkpointed.
            let waits = match action {
                Action::Deliver { channel: c } | Action::DeliverNth { channel: c, .. } => self
                    .phys
                    .channels
                    .get(c as usize)
                    .is_none_or(|ch| self.is_down(ch.to)),
                Action::Replay { task: t } | Action::Emit { task: t } => self.is_down(t),
                _ => true,
            };
            if waits || self.down_region().is_none() {
                return Err(ActionError::Restarting);
            }
        }
        let channel = |c: ChannelId| {
            self.net
                .channels
                .get(c as usize)
                .ok_or(ActionError::NoSuchChannel(c))
        };
        let task = |t: TaskId| self.tasks.get(t as usize).ok_or(ActionError::NoSuchTask(t));
        match action {
            Action::DeliverNth { channel: c, nth } => {
                let ch = channel(c)?;
                if ch.fifo
                    || nth as usize >= ch.queue.len()
                    || self.net.is_overtaking(c, nth as usize)
                {
                    return Err(ActionError::NotOutOfOrder(c, nth));
                }
                return self.check(Action::Deliver { channel: c });
            }
            Action::Deliver { channel: c } => {
                channel(c)?;
                let to = self.phys.channels[c as usize].to;
                return match self.delivery_hold(c) {
                    None => Ok(()),
                    Some(Hold::Empty) => Err(ActionError::ChannelEmpty(c)),
                    Some(Hold::Paused) => Err(ActionError::ChannelPaused(c)),
                    Some(Hold::Replaying) => Err(ActionError::TaskReplaying(to)),
                    Some(Hold::Backpressured) => Err(ActionError::Backpressured(to)),
                };
            }
            Action::Replay { task: t } => {
                let tk = task(t)?;
                if !tk.handler.has_replay() {
                    return Err(ActionError::NothingToReplay(t));
                }
                if self.net.flow.has_full_output(t) {
                    return Err(ActionError::Backpressured(t));
                }
            }
            Action::Emit { task: t } => {
                let tk = task(t)?;
                let kind = &self.phys.operator_of(t).kind;
                let acts = kind.is_source() || (kind.is_process() && self.can_act(t));
                if !acts {
                    return Err(ActionError::NotASource(t));
                }
                if tk.finished || tk.data_ended {
                    return Err(ActionError::SourceFinished(t));
                }
                if kind.is_source() && self.stopped_for().is_some() {
                    return Err(ActionError::SourceStopped(t));
                }
                if self.net.flow.has_full_output(t) {
                    return Err(ActionError::Backpressured(t));
                }
            }
            // By hand, as Flink takes a triggered checkpoint: the minimum pause does not hold it
            // back, and while the most run that may it waits for one to end (never refused).
            // A savepoint too, in Flink's modes only; it waits for room only where unaligned
            // checkpoints are on (elsewhere Flink forces it past the most at once).
            Action::Trigger | Action::Savepoint => {
                let mode = self.config.mode;
                if action == Action::Savepoint
                    && (mode.processes_initiate() || mode.stops_the_world())
                {
                    return Err(ActionError::NoSavepoints);
                }
                if self.life.done {
                    return Err(ActionError::JobFinished);
                }
                if self.refuses_checkpoints_after_finish() {
                    return Err(ActionError::TasksFinished);
                }
            }
            Action::TimeOutAlignment { checkpoint } => {
                let due = self.coordinator.alignment_deadline(checkpoint);
                if due.is_none_or(|d| d > self.clock.now) || self.coordinator.timed_out(checkpoint)
                {
                    return Err(ActionError::NotAligning(checkpoint));
                }
            }
            Action::Expire { checkpoint } => {
                if self
                    .coordinator
                    .deadline(checkpoint)
                    .is_none_or(|d| d > self.clock.now)
                {
                    return Err(ActionError::NotExpired(checkpoint));
                }
            }
            Action::SnapshotAll { checkpoint } => {
                if self.stopped_for() != Some(checkpoint) || !self.net.is_empty() {
                    return Err(ActionError::NotDrained(checkpoint));
                }
            }
            Action::Pause { channel: c, .. } | Action::SetFifo { channel: c, .. } => {
                channel(c)?;
                if self.net.chains.is_chained(c) {
                    return Err(ActionError::Chained(c));
                }
            }
            Action::Initiate { task: t } => {
                task(t)?;
                if !self.config.mode.processes_initiate() {
                    return Err(ActionError::NotChandyLamport);
                }
                if self.life.done {
                    return Err(ActionError::JobFinished);
                }
                // By hand: the minimum pause does not hold it back.
                if !self.coordinator.has_room() {
                    return Err(ActionError::CannotTrigger);
                }
                if self.phys.reachable_from(t).iter().any(|r| !r) {
                    return Err(ActionError::CannotReachAll(t));
                }
            }
            Action::Fail { task: t } => {
                task(t)?;
                if self.life.done {
                    return Err(ActionError::JobFinished);
                }
                // Failed already, or cancelled with its region: it fails no more until the
                // restart.
                if self.is_down(t) {
                    return Err(ActionError::Restarting);
                }
            }
            Action::FailJob => {
                if self.life.done {
                    return Err(ActionError::JobFinished);
                }
            }
            Action::Restart => {
                if self.life.down_until.is_none() {
                    return Err(ActionError::NotRestarting);
                }
            }
            Action::SkipFailure { task: t } => {
                task(t)?;
                if self.next_planned_failure_of(t).is_none() {
                    return Err(ActionError::NoPlannedFailure(t));
                }
            }
            Action::SetLatency {
                channel: c,
                latency,
            } => {
                channel(c)?;
                if self.net.chains.is_chained(c) {
                    return Err(ActionError::Chained(c));
                }
                if !(1..=MAX_LATENCY).contains(&latency) {
                    return Err(ActionError::BadLatency(latency));
                }
            }
        }
        Ok(())
    }
}
