//! At-least-once checkpoints: barrier tracking, as Flink's `CheckpointBarrierTracker` does it.
//!
//! Nothing is blocked, held or reordered: records that follow an early barrier are processed
//! before the snapshot, which is exactly why recovery may count them twice. Because nothing
//! waits, barriers of several checkpoints can be in flight at once, so the tracker keeps a
//! short queue of pending checkpoints, each with the set of channels heard from.

use std::collections::VecDeque;

use super::task_protocol::TaskProtocol;
use super::{is_newer, BarrierTake, ChannelIndex, CheckpointId, InputSet, Inputs, Output};

/// Beyond this many pending checkpoints the oldest is forgotten (Flink's
/// `MAX_CHECKPOINTS_TO_TRACK`); a checkpoint that old would be subsumed anyway.
const MAX_PENDING: usize = 50;

/// How a channel was heard from, for one pending checkpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Heard {
    /// The channel delivered the barrier or a cancellation marker of this checkpoint.
    Reported,
    /// The channel closed after the entry was opened and counts as aligned.
    Closed,
}

#[derive(Clone, Debug)]
struct Pending {
    id: CheckpointId,
    /// Channels open when the entry was opened: those that must report or close.
    expected: usize,
    /// Channels heard from as [`Heard::Reported`]; disjoint from `closed`.
    reported: InputSet,
    /// Channels heard from as [`Heard::Closed`]; disjoint from `reported`.
    closed: InputSet,
    /// Aborted entries are kept until every channel reported, so their late barriers cannot
    /// open a fresh entry; they are just never triggered.
    aborted: bool,
}

impl Pending {
    fn new(id: CheckpointId, inputs: &Inputs, ch: ChannelIndex, aborted: bool) -> Self {
        let mut entry = Pending {
            id,
            expected: inputs.open_count(),
            reported: InputSet::default(),
            closed: InputSet::default(),
            aborted,
        };
        entry.hear(ch, Heard::Reported);
        entry
    }

    /// Counts channels as a set: a channel is heard from once, and the first way it was heard
    /// from is the one kept, so a second barrier on the same channel changes nothing.
    fn hear(&mut self, ch: ChannelIndex, how: Heard) {
        if self.reported.contains(ch) || self.closed.contains(ch) {
            return;
        }
        match how {
            Heard::Reported => self.reported.insert(ch),
            Heard::Closed => self.closed.insert(ch),
        };
    }

    fn has_reported(&self, ch: ChannelIndex) -> bool {
        self.reported.contains(ch)
    }

    /// Reports how a barrier on `ch` was taken: channels closed before the entry opened count
    /// as accounted for, as do those heard from since.
    fn report<R>(
        &self,
        inputs: &Inputs,
        ch: ChannelIndex,
        take: BarrierTake,
        out: &mut Vec<Output<R>>,
    ) {
        let closed_before = (inputs.channels as usize).saturating_sub(self.expected);
        let have = closed_before + self.reported.len() + self.closed.len();
        out.push(Output::Barrier {
            ch,
            id: self.id,
            take,
            have: u32::try_from(have).unwrap_or(u32::MAX),
            need: inputs.channels,
            unawaited: 0,
            timed_out: false,
        });
    }

    fn is_complete(&self) -> bool {
        self.reported.len() + self.closed.len() >= self.expected
    }
}

#[derive(Clone, Debug, Default)]
pub(super) struct Tracking {
    /// The newest id seen in a barrier or a marker; only newer ids open an entry.
    latest: Option<CheckpointId>,
    /// Ordered by id, oldest first.
    pending: VecDeque<Pending>,
}

impl Tracking {
    pub(super) fn newest_pending(&self) -> Option<CheckpointId> {
        self.pending.back().map(|entry| entry.id)
    }

    pub(super) fn newest_has_heard(&self, ch: ChannelIndex) -> bool {
        self.pending
            .back()
            .is_some_and(|entry| entry.has_reported(ch))
    }

    pub(super) fn pending_ids(&self) -> Vec<CheckpointId> {
        self.pending.iter().map(|entry| entry.id).collect()
    }

    pub(super) fn drop_pending(&mut self) {
        self.pending.clear();
    }

    pub(super) fn on_barrier<R>(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        if let Some(pos) = self.pending.iter().position(|entry| entry.id == id) {
            let mut complete = false;
            if let Some(entry) = self.pending.get_mut(pos) {
                entry.hear(ch, Heard::Reported);
                complete = entry.is_complete();
                let take = if entry.aborted {
                    BarrierTake::Ignored
                } else {
                    BarrierTake::Counted
                };
                entry.report(inputs, ch, take, out);
            }
            if complete {
                self.complete(pos, out);
            }
        } else if is_newer(self.latest, id) {
            self.latest = Some(id);
            let entry = Pending::new(id, inputs, ch, false);
            entry.report(inputs, ch, BarrierTake::First, out);
            let complete = entry.is_complete();
            self.pending.push_back(entry);
            if complete {
                // One open channel: its barrier is the only one to wait for.
                self.complete(self.pending.len() - 1, out);
            } else if self.pending.len() > MAX_PENDING {
                self.pending.pop_front();
            }
        } else {
            out.push(Output::Barrier {
                ch,
                id,
                take: BarrierTake::Ignored,
                have: 0,
                need: inputs.channels,
                unawaited: 0,
                timed_out: false,
            });
        }
    }

    /// The oldest pending checkpoint (not given up) whose barrier channel `ch` has already
    /// delivered: a record arriving on `ch` now enters the task's state before that checkpoint's
    /// snapshot, and would be replayed after a recovery — counted twice.
    pub(super) fn early_on(&self, ch: ChannelIndex) -> Option<CheckpointId> {
        self.pending
            .iter()
            .find(|entry| !entry.aborted && entry.has_reported(ch))
            .map(|entry| entry.id)
    }

    pub(super) fn on_cancel<R>(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        // A marker for `id` means every older checkpoint is lost too.
        while let Some(older) = self.pending.front() {
            if older.id >= id {
                break;
            }
            if let Some(older) = self.pending.pop_front() {
                if !older.aborted {
                    out.push(Output::Aborted(older.id));
                }
            }
        }
        if let Some(entry) = self.pending.front_mut().filter(|entry| entry.id == id) {
            if !entry.aborted {
                entry.aborted = true;
                out.push(Output::Aborted(id));
            }
            entry.hear(ch, Heard::Reported);
            if entry.is_complete() {
                self.pending.pop_front();
            }
        } else if is_newer(self.latest, id) {
            out.push(Output::Aborted(id));
            self.latest = Some(id);
            let entry = Pending::new(id, inputs, ch, true);
            if !entry.is_complete() {
                self.pending.push_front(entry);
            }
        }
    }

    /// Called after the channel was marked closed.
    pub(super) fn on_end_of_partition<R>(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        out: &mut Vec<Output<R>>,
    ) {
        if !inputs.finished_channels_align {
            for entry in self.pending.drain(..) {
                if !entry.aborted {
                    out.push(Output::Aborted(entry.id));
                }
            }
            return;
        }
        // Newest first: completing a checkpoint subsumes every older one, so the newest that the
        // closed channel completes is the one worth triggering.
        let completed = self.pending.iter_mut().rev().position(|entry| {
            entry.hear(ch, Heard::Closed);
            entry.is_complete()
        });
        if let Some(from_back) = completed {
            let pos = self.pending.len() - 1 - from_back;
            self.complete(pos, out);
        }
    }

    /// The entry at `pos` heard from every channel: it and all older entries leave the queue, and
    /// it is triggered unless it was aborted. The older ones go silently (subsumed).
    fn complete<R>(&mut self, pos: usize, out: &mut Vec<Output<R>>) {
        let done = self.pending.drain(..=pos).next_back();
        if let Some(entry) = done {
            if !entry.aborted {
                out.push(Output::Triggered(entry.id));
            }
        }
    }
}

impl<R> TaskProtocol<R> for Tracking {
    fn on_barrier(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        Tracking::on_barrier(self, inputs, ch, id, out);
    }

    fn on_cancel(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        Tracking::on_cancel(self, inputs, ch, id, out);
    }

    fn on_end_of_partition(&mut self, inputs: &Inputs, ch: ChannelIndex, out: &mut Vec<Output<R>>) {
        Tracking::on_end_of_partition(self, inputs, ch, out);
    }

    fn drop_pending(&mut self) {
        Tracking::drop_pending(self);
    }

    fn current(&self) -> Option<CheckpointId> {
        self.newest_pending()
    }

    fn has_delivered_current(&self, ch: ChannelIndex) -> bool {
        self.newest_has_heard(ch)
    }

    fn pending(&self) -> Vec<CheckpointId> {
        self.pending_ids()
    }

    fn early_on(&self, ch: ChannelIndex) -> Option<CheckpointId> {
        Tracking::early_on(self, ch)
    }
}
