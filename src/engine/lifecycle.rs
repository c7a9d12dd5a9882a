//! The job's lifecycle: running, down after a failure until its restart, failing for too many
//! failed checkpoints, finishing with its final checkpoint, done. What happens at a failure and
//! a restart is `recovery.rs`; this part holds where the job is in that cycle, the failures the
//! scenario plans and every restart so far.

use super::recovery::{PlannedFailure, Recovery};
use super::vocab::{CheckpointId, TaskId};

#[derive(Clone, Debug, Default)]
pub struct Lifecycle {
    /// The checkpoint triggered once every task had finished; its completion ends the job.
    pub(super) final_checkpoint: Option<CheckpointId>,
    /// The final checkpoint completed: nothing more happens.
    pub(super) done: bool,
    /// More checkpoints failed in a row than tolerated: the job fails in the next step.
    pub(super) failing: bool,
    /// The job is down after a failure and restarts at this time.
    pub(super) down_until: Option<u64>,
    /// The task whose failure brought the job down (none: too many failed checkpoints).
    pub(super) failed_task: Option<TaskId>,
    /// Failures the scenario plans, in the order given.
    pub(super) planned: Vec<PlannedFailure>,
    /// Every restart so far, oldest first.
    pub(super) recoveries: Vec<Recovery>,
}
