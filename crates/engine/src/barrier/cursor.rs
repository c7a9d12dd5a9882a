//! Where a task stands in the sequence of checkpoints: the newest id it started, completed or
//! gave up, and whether that one is still running. Aligned and unaligned handlers both keep
//! one, and both answer a cancellation marker the same way; at-least-once tracks several
//! checkpoints at once but uses the same notion of "newer".

use super::{CheckpointId, Output};

#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Cursor {
    /// The newest id handled; only a newer barrier may start something (Flink's
    /// `currentCheckpointId`).
    latest: Option<CheckpointId>,
    /// Whether `latest` is still running (being aligned, or waiting for barriers).
    active: bool,
}

impl Cursor {
    /// The running checkpoint, if any.
    pub(super) fn current(&self) -> Option<CheckpointId> {
        self.latest.filter(|_| self.active)
    }

    /// The newest id handled.
    pub(super) fn latest(&self) -> Option<CheckpointId> {
        self.latest
    }

    /// A cursor that has handled `latest` and runs nothing.
    pub(super) fn after(latest: Option<CheckpointId>) -> Cursor {
        Cursor {
            latest,
            active: false,
        }
    }

    /// True when `id` is newer than every id handled so far.
    pub(super) fn is_newer(&self, id: CheckpointId) -> bool {
        is_newer(self.latest, id)
    }

    /// Checkpoint `id` starts running.
    pub(super) fn start(&mut self, id: CheckpointId) {
        self.latest = Some(id);
        self.active = true;
    }

    /// The running checkpoint ended (triggered, completed or given up).
    pub(super) fn end(&mut self) {
        self.active = false;
    }

    /// A cancellation marker for `id`: reports the abort (once) and returns whether the running
    /// checkpoint was ended by it, so the mode releases what it kept for it.
    ///
    /// For the running id, it is aborted. For a newer id, only that id is reported — Flink
    /// drops the running one silently — and remembering it makes its late barriers ignored.
    /// A newer id with nothing running never starts. Older ids change nothing.
    pub(super) fn cancel<R>(&mut self, id: CheckpointId, out: &mut Vec<Output<R>>) -> bool {
        match self.current() {
            Some(current) if id == current => {
                out.push(Output::Aborted(current));
                self.end();
                true
            }
            Some(current) if id > current => {
                out.push(Output::Aborted(id));
                self.latest = Some(id);
                self.end();
                true
            }
            Some(_) => false,
            None if self.is_newer(id) => {
                out.push(Output::Aborted(id));
                self.latest = Some(id);
                false
            }
            None => false,
        }
    }
}

/// True when `id` is newer than `latest` (or nothing was handled yet).
pub(super) fn is_newer(latest: Option<CheckpointId>, id: CheckpointId) -> bool {
    latest.is_none_or(|latest| id > latest)
}
