//! What may be done now, and why an action is refused: the checks every manual action
//! passes before it changes anything.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::barrier::{BarrierMode, CheckpointId};
use super::physical::{ChannelId, TaskId};
use super::sim::Simulation;

/// One choice. The scheduler picks these in `step()`; in manual mode the user does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Hand the head of a channel to its receiving task's barrier handler.
    Deliver { channel: ChannelId },
    /// The task takes the next held item out of its alignment buffer (step ④).
    Replay { task: TaskId },
    /// A source subtask reads the next line of its log.
    Emit { task: TaskId },
    /// The coordinator triggers a new checkpoint (injects barriers at the sources).
    Trigger,
    /// A checkpoint ran past its timeout and is aborted.
    Expire { checkpoint: CheckpointId },
    /// Aligned with a timeout: the task has aligned this checkpoint too long and switches to
    /// unaligned for it.
    TimeOutAlignment {
        task: TaskId,
        checkpoint: CheckpointId,
    },
    /// Pause or resume a channel (a paused channel delivers nothing).
    Pause { channel: ChannelId, paused: bool },
    /// Change a channel's latency (a slow channel), for items sent from now on.
    SetLatency { channel: ChannelId, latency: u64 },
    /// Chandy-Lamport: this process starts a new snapshot (records its state, sends markers).
    Initiate { task: TaskId },
    /// Make a channel FIFO or not (a later item may overtake an earlier one), for items sent
    /// from now on.
    SetFifo { channel: ChannelId, fifo: bool },
    /// The subtask fails (by hand, or as the scenario planned): every task is cancelled, the
    /// channels are emptied, and after the restart delay the job restores.
    Fail { task: TaskId },
    /// More checkpoints failed in a row than tolerated: the job fails the same way.
    FailJob,
    /// The restart delay is over: every task restores the latest completed checkpoint,
    /// channel state goes back on its channels, and the sources rewind.
    Restart,
    /// The next failure the scenario planned for this subtask will not happen (a different
    /// future, forked from the past).
    SkipFailure { task: TaskId },
}

/// Latencies above this are refused (a "slow" channel is at most this slow).
pub const MAX_LATENCY: u64 = 1_000_000;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ActionError {
    NoSuchChannel(ChannelId),
    NoSuchTask(TaskId),
    ChannelEmpty(ChannelId),
    ChannelPaused(ChannelId),
    /// The task must first replay its alignment buffer (step ④) before reading new input.
    TaskReplaying(TaskId),
    NothingToReplay(TaskId),
    NotASource(TaskId),
    SourceFinished(TaskId),
    CannotTrigger,
    NotExpired(CheckpointId),
    /// The job has finished: nothing more can be checkpointed, nothing can fail.
    JobFinished,
    /// The job is down after a failure: nothing runs until it restarts.
    Restarting,
    /// The job is running: there is nothing to restart.
    NotRestarting,
    /// No failure of this subtask is planned.
    NoPlannedFailure(TaskId),
    /// The task's output channel is full: it takes no input until the receiver consumes.
    Backpressured(TaskId),
    BadLatency(u64),
    /// The task is not aligning that checkpoint (nothing to time out).
    NotAligning(TaskId),
    /// Only Chandy-Lamport lets a process initiate a snapshot.
    NotChandyLamport,
    /// A marker from this process could not reach every process.
    CannotReachAll(TaskId),
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::NoSuchChannel(c) => write!(f, "there is no channel {c}"),
            ActionError::NoSuchTask(t) => write!(f, "there is no task {t}"),
            ActionError::ChannelEmpty(c) => write!(f, "channel {c} has nothing to deliver"),
            ActionError::ChannelPaused(c) => write!(f, "channel {c} is paused"),
            ActionError::TaskReplaying(t) => write!(
                f,
                "task {t} must first drain its alignment buffer before it reads new input"
            ),
            ActionError::NothingToReplay(t) => write!(f, "task {t} holds nothing to replay"),
            ActionError::NotASource(t) => write!(f, "task {t} is not a source"),
            ActionError::SourceFinished(t) => write!(f, "source task {t} has finished"),
            ActionError::CannotTrigger => write!(
                f,
                "no checkpoint can be triggered now (too many in progress, or within the min pause)"
            ),
            ActionError::NotExpired(n) => write!(f, "checkpoint {n} has not timed out"),
            ActionError::Backpressured(t) => write!(
                f,
                "task {t} is backpressured: an output channel is full, so it takes no input"
            ),
            ActionError::Restarting => write!(
                f,
                "the job is down after a failure: nothing runs until it restarts"
            ),
            ActionError::NotRestarting => write!(f, "the job is running: nothing to restart"),
            ActionError::NoPlannedFailure(t) => write!(f, "no failure of task {t} is planned"),
            ActionError::JobFinished => {
                write!(f, "the job has finished: no more checkpoints are triggered")
            }
            ActionError::BadLatency(l) => {
                write!(f, "latency {l} is out of range (1 to {MAX_LATENCY})")
            }
            ActionError::NotAligning(t) => write!(f, "task {t} is not aligning that checkpoint"),
            ActionError::NotChandyLamport => write!(
                f,
                "only Chandy-Lamport lets a process initiate a snapshot (the ABS modes trigger \
                 at the sources)"
            ),
            ActionError::CannotReachAll(t) => write!(
                f,
                "task {t} cannot initiate: its markers could not reach every process"
            ),
        }
    }
}

impl std::error::Error for ActionError {}

impl Simulation {
    // ----- choosing -----

    /// What the user may do now to move the run on, in a fixed order: deliveries, replays,
    /// reads, triggers, expiries — or, while the job is down after a failure, the restart.
    /// Failing a task ([`Action::Fail`]) is possible at any moment until the job finishes and
    /// is not listed, nor are the settings (pause, latency, FIFO).
    pub fn enabled_actions(&self) -> Vec<Action> {
        let mut actions = Vec::new();
        if self.down_until.is_some() {
            actions.push(Action::Restart);
            return actions;
        }
        for (c, ch) in self.channels.iter().enumerate() {
            let to = self.phys.channels[c].to as usize;
            let stalled = self.tasks[to].full_outputs > 0
                && !self.is_priority(c as ChannelId)
                && !self.takes_input_when_full(to as TaskId);
            if !ch.queue.is_empty()
                && !ch.paused
                && !self.tasks[to].handler.has_replay()
                && !stalled
            {
                actions.push(Action::Deliver {
                    channel: c as ChannelId,
                });
            }
        }
        for (t, task) in self.tasks.iter().enumerate() {
            if task.handler.has_replay() && task.full_outputs == 0 {
                actions.push(Action::Replay { task: t as TaskId });
            }
        }
        for (t, task) in self.tasks.iter().enumerate() {
            let kind = &self.phys.operator_of(t as TaskId).kind;
            let acts = kind.is_source() || (kind.is_process() && self.can_act(t as TaskId));
            if acts && !task.finished && task.full_outputs == 0 {
                actions.push(Action::Emit { task: t as TaskId });
            }
        }
        if !self.job_done && self.coordinator.earliest_trigger(self.now) == Some(self.now) {
            actions.push(Action::Trigger);
            if self.config.mode == BarrierMode::ChandyLamport {
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
        for id in self.coordinator.in_progress() {
            if self.coordinator.deadline(id).is_some_and(|d| d <= self.now) {
                actions.push(Action::Expire { checkpoint: id });
            }
        }
        actions
    }

    pub(super) fn check(&self, action: Action) -> Result<(), ActionError> {
        let runs = matches!(
            action,
            Action::Deliver { .. }
                | Action::Replay { .. }
                | Action::Emit { .. }
                | Action::Trigger
                | Action::Expire { .. }
                | Action::TimeOutAlignment { .. }
                | Action::Initiate { .. }
        );
        if runs && self.down_until.is_some() {
            return Err(ActionError::Restarting);
        }
        let channel = |c: ChannelId| {
            self.channels
                .get(c as usize)
                .ok_or(ActionError::NoSuchChannel(c))
        };
        let task = |t: TaskId| self.tasks.get(t as usize).ok_or(ActionError::NoSuchTask(t));
        match action {
            Action::Deliver { channel: c } => {
                let ch = channel(c)?;
                let to = self.phys.channels[c as usize].to;
                if ch.queue.is_empty() {
                    return Err(ActionError::ChannelEmpty(c));
                }
                if ch.paused {
                    return Err(ActionError::ChannelPaused(c));
                }
                if self.tasks[to as usize].handler.has_replay() {
                    return Err(ActionError::TaskReplaying(to));
                }
                if self.tasks[to as usize].full_outputs > 0
                    && !self.is_priority(c)
                    && !self.takes_input_when_full(to)
                {
                    return Err(ActionError::Backpressured(to));
                }
            }
            Action::Replay { task: t } => {
                let tk = task(t)?;
                if !tk.handler.has_replay() {
                    return Err(ActionError::NothingToReplay(t));
                }
                if tk.full_outputs > 0 {
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
                if tk.finished {
                    return Err(ActionError::SourceFinished(t));
                }
                if tk.full_outputs > 0 {
                    return Err(ActionError::Backpressured(t));
                }
            }
            Action::Trigger => {
                if self.job_done {
                    return Err(ActionError::JobFinished);
                }
                if self.coordinator.earliest_trigger(self.now) != Some(self.now) {
                    return Err(ActionError::CannotTrigger);
                }
            }
            Action::TimeOutAlignment {
                task: t,
                checkpoint,
            } => {
                let tk = task(t)?;
                if tk.aligning() != Some(checkpoint) || self.config.mode != BarrierMode::Aligned {
                    return Err(ActionError::NotAligning(t));
                }
            }
            Action::Expire { checkpoint } => {
                if self
                    .coordinator
                    .deadline(checkpoint)
                    .is_none_or(|d| d > self.now)
                {
                    return Err(ActionError::NotExpired(checkpoint));
                }
            }
            Action::Pause { channel: c, .. } | Action::SetFifo { channel: c, .. } => {
                channel(c)?;
            }
            Action::Initiate { task: t } => {
                task(t)?;
                if self.config.mode != BarrierMode::ChandyLamport {
                    return Err(ActionError::NotChandyLamport);
                }
                if self.job_done {
                    return Err(ActionError::JobFinished);
                }
                if self.coordinator.earliest_trigger(self.now) != Some(self.now) {
                    return Err(ActionError::CannotTrigger);
                }
                if self.phys.reachable_from(t).iter().any(|r| !r) {
                    return Err(ActionError::CannotReachAll(t));
                }
            }
            Action::Fail { task: t } => {
                task(t)?;
                if self.job_done {
                    return Err(ActionError::JobFinished);
                }
            }
            Action::FailJob => {
                if self.job_done {
                    return Err(ActionError::JobFinished);
                }
            }
            Action::Restart => {
                if self.down_until.is_none() {
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
                if !(1..=MAX_LATENCY).contains(&latency) {
                    return Err(ActionError::BadLatency(latency));
                }
            }
        }
        Ok(())
    }
}
