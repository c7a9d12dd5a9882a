//! Credit-based flow control, as Flink's network stack does it: a channel holds at most its
//! capacity of records (in flight plus held in the receiver's alignment buffer); a sender with
//! a full output takes no input, replays nothing and reads nothing — it is *backpressured* —
//! until the receiver consumes and credit comes back.
//!
//! This part owns each task's credit bookkeeping; the channels' occupancy stays with the
//! channels (`network.rs`), which tell this part when an output fills or gets room. Whether a
//! channel's head may be delivered now is decided once, by `Network::hold`, for
//! the scheduler, the list of enabled actions and the checks of a manual delivery alike.

use super::vocab::{ChannelId, TaskId};

/// One task's credit bookkeeping.
#[derive(Clone, Debug, Default)]
struct Credit {
    /// Output channels with no credit left (full); while any, the task takes no input.
    full_outputs: u32,
    /// The task wanted to work but an output was full (Flink: backpressured).
    backpressured: bool,
    /// Input channels whose delivery waits for output room.
    stalled: Vec<ChannelId>,
    /// A source (or process) whose next act waits for output room.
    stalled_emit: bool,
}

/// Every task's credit bookkeeping.
#[derive(Clone, Debug)]
pub struct FlowControl {
    tasks: Vec<Credit>,
}

/// What a sender resumes once its last full output has room again.
pub(super) struct Relief {
    /// The input channels whose deliveries it had stalled.
    pub(super) stalled: Vec<ChannelId>,
    /// Whether its own next act (a source's read, a process's send) had stalled.
    pub(super) emit: bool,
}

impl FlowControl {
    pub(super) fn new(tasks: usize) -> FlowControl {
        let mut credits = Vec::with_capacity(tasks);
        credits.resize_with(tasks, Credit::default);
        FlowControl { tasks: credits }
    }

    /// Whether an output channel of `t` is full: then it takes no ordinary input, replays
    /// nothing and reads nothing.
    pub fn has_full_output(&self, t: TaskId) -> bool {
        self.tasks
            .get(t as usize)
            .is_some_and(|c| c.full_outputs > 0)
    }

    /// Whether `t` wanted to work and could not for want of credit.
    pub fn is_backpressured(&self, t: TaskId) -> bool {
        self.tasks.get(t as usize).is_some_and(|c| c.backpressured)
    }

    /// An output channel of `t` has just filled.
    pub(super) fn output_filled(&mut self, t: TaskId) {
        self.tasks[t as usize].full_outputs += 1;
    }

    /// An output channel of `t` has just got room. When it was the last full one and `t` was
    /// backpressured, returns what `t` resumes.
    pub(super) fn output_freed(&mut self, t: TaskId) -> Option<Relief> {
        let credit = &mut self.tasks[t as usize];
        credit.full_outputs = credit.full_outputs.saturating_sub(1);
        if credit.full_outputs > 0 || !credit.backpressured {
            return None;
        }
        credit.backpressured = false;
        Some(Relief {
            stalled: std::mem::take(&mut credit.stalled),
            emit: std::mem::take(&mut credit.stalled_emit),
        })
    }

    /// Deliveries of these input channels of `t` wait for output room.
    pub(super) fn stall_inputs(
        &mut self,
        t: TaskId,
        channels: impl IntoIterator<Item = ChannelId>,
    ) {
        self.tasks[t as usize].stalled.extend(channels);
    }

    /// The next act of `t` waits for output room.
    pub(super) fn stall_emit(&mut self, t: TaskId) {
        self.tasks[t as usize].stalled_emit = true;
    }

    /// Marks `t` backpressured; true when it was not already.
    pub(super) fn mark_backpressured(&mut self, t: TaskId) -> bool {
        let credit = &mut self.tasks[t as usize];
        !std::mem::replace(&mut credit.backpressured, true)
    }

    /// After a failure of a region: its tasks owe no credit and wait for nothing (their
    /// channels are empty).
    pub(super) fn reset_tasks(&mut self, tasks: &[TaskId]) {
        for &t in tasks {
            let credit = &mut self.tasks[t as usize];
            credit.full_outputs = 0;
            credit.backpressured = false;
            credit.stalled.clear();
            credit.stalled_emit = false;
        }
    }
}
