//! The job's lifecycle: running, down after a failure until its restart, failing for too many
//! failed checkpoints, finishing task by task after their final checkpoint, done. What happens at a failure and
//! a restart is `recovery.rs`; this part holds where the job is in that cycle, the failures the
//! scenario plans and every restart so far.

use serde::Serialize;

use super::snapshot::Crossing;
use super::vocab::{ChannelId, CheckpointId, TaskId};

#[derive(Clone, Debug, Default)]
pub struct Lifecycle {
    /// Every task has finished: nothing more happens.
    pub(super) done: bool,
    /// More checkpoints failed in a row than tolerated: the job fails in the next step.
    pub(super) failing: bool,
    /// The job is down after a failure and restarts at this time.
    pub(super) down_until: Option<u64>,
    /// The task whose failure brought the job down (none: too many failed checkpoints).
    pub(super) failed_task: Option<TaskId>,
    /// While down: the tasks that restart, in order — the failed task's region (Flink's
    /// default failover strategy), or every task.
    pub(super) region: Vec<TaskId>,
    /// Failures the scenario plans, in the order given.
    pub(super) planned: Vec<PlannedFailure>,
    /// Every restart so far, oldest first.
    pub(super) recoveries: Vec<Recovery>,
}

/// A failure the scenario plans: subtask `task` fails at virtual time `at`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct PlannedFailure {
    pub task: TaskId,
    pub at: u64,
    /// It happened.
    pub applied: bool,
    /// The user chose a future without it ([`super::vocab::Action::SkipFailure`]).
    pub skipped: bool,
}

/// One restart: what brought the job down, what it restored, and what that will cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recovery {
    /// The task that failed (none: too many checkpoints failed in a row).
    pub failed: Option<TaskId>,
    /// The failed task's region, when it is not the whole job (only it restarted).
    pub region: Option<Vec<TaskId>>,
    pub failed_at: u64,
    /// When the tasks restored (none while the job is still down).
    pub restored_at: Option<u64>,
    /// The checkpoint restored; none when no checkpoint had completed (a fresh start).
    pub checkpoint: Option<CheckpointId>,
    /// Channels that lost items at the failure, with how many (in flight or queued).
    pub dropped: Vec<(ChannelId, u32)>,
    /// Sources that rewound: (task, offset read up to, offset restored).
    pub rewound: Vec<(TaskId, u64, u64)>,
    /// At-least-once: the records the restored state already holds although their senders'
    /// snapshots had not sent them — each entered its receiver's state after that input's
    /// barrier had arrived, before the receiver's snapshot. The replay counts them again.
    pub duplicates: Vec<Crossing>,
}
