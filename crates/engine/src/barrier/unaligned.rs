//! Unaligned checkpoints: the first barrier triggers at once and overtakes the data.
//!
//! Nothing waits, so the snapshot cannot rely on the channels being drained: instead every record
//! that arrives on a channel before that channel's barrier belongs to the checkpoint as in-flight
//! channel state. Which checkpoint completes or is aborted follows the aligned rules, but a
//! checkpoint here is triggered before it is complete, so it can be triggered and later aborted.

use super::cursor::Cursor;
use super::task_protocol::TaskProtocol;
use super::{BarrierTake, ChannelIndex, CheckpointId, InputSet, Inputs, Output};

#[derive(Clone, Debug, Default)]
pub(super) struct Unaligned {
    /// The triggered checkpoint still waiting for barriers, and the newest id handled.
    cursor: Cursor,
    /// Channels that delivered the pending checkpoint's barrier.
    delivered: InputSet,
}

impl Unaligned {
    /// A core that has handled checkpoints up to `latest` (back from aligning a savepoint).
    pub(super) fn after(latest: Option<CheckpointId>) -> Unaligned {
        Unaligned {
            cursor: Cursor::after(latest),
            delivered: InputSet::default(),
        }
    }

    /// The newest checkpoint it handled.
    pub(super) fn latest(&self) -> Option<CheckpointId> {
        self.cursor.latest()
    }

    pub(super) fn current(&self) -> Option<CheckpointId> {
        self.cursor.current()
    }

    pub(super) fn has_delivered(&self, ch: ChannelIndex) -> bool {
        self.cursor.current().is_some() && self.delivered.contains(ch)
    }

    pub(super) fn drop_pending(&mut self) {
        self.finish();
    }

    /// A record from an open channel that has not yet delivered the pending barrier was
    /// overtaken by it: persist it before the operator sees it.
    pub(super) fn persist_in_flight<R: Clone>(
        &self,
        ch: ChannelIndex,
        record: &R,
        out: &mut Vec<Output<R>>,
    ) {
        if let Some(checkpoint) = self.current() {
            if !self.delivered.contains(ch) {
                out.push(Output::ChannelState {
                    checkpoint,
                    ch,
                    record: record.clone(),
                });
            }
        }
    }

    pub(super) fn on_barrier<R>(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        match self.current() {
            Some(current) if id == current => {
                self.delivered.insert(ch);
                inputs.taken(ch, id, BarrierTake::Counted, &self.delivered, out);
                self.finish_if_complete(inputs);
            }
            Some(current) if id > current => {
                out.push(Output::Aborted(current));
                self.start(inputs, ch, id, out);
            }
            None if self.cursor.is_newer(id) => self.start(inputs, ch, id, out),
            _ => inputs.taken(ch, id, BarrierTake::Ignored, &self.delivered, out),
        }
    }

    pub(super) fn on_cancel<R>(&mut self, id: CheckpointId, out: &mut Vec<Output<R>>) {
        // As in aligned mode; a pending checkpoint dropped for a newer cancelled one goes
        // silently even though it was already triggered.
        if self.cursor.cancel(id, out) {
            self.finish();
        }
    }

    /// Called after the channel was marked closed.
    pub(super) fn on_end_of_partition<R>(&mut self, inputs: &Inputs, out: &mut Vec<Output<R>>) {
        let Some(current) = self.current() else {
            return;
        };
        if inputs.finished_channels_align {
            self.finish_if_complete(inputs);
        } else {
            out.push(Output::Aborted(current));
            self.finish();
        }
    }

    fn start<R>(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        self.cursor.start(id);
        self.delivered.clear();
        self.delivered.insert(ch);
        inputs.taken(ch, id, BarrierTake::First, &self.delivered, out);
        out.push(Output::Triggered(id));
        self.finish_if_complete(inputs);
    }

    /// Completion has no output of its own (the snapshot was taken at the trigger); it only ends
    /// the recording of channel state.
    fn finish_if_complete(&mut self, inputs: &Inputs) {
        if inputs.all_accounted_for(&self.delivered) {
            self.finish();
        }
    }

    fn finish(&mut self) {
        self.cursor.end();
        self.delivered.clear();
    }
}

impl<R: Clone> TaskProtocol<R> for Unaligned {
    fn on_barrier(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        Unaligned::on_barrier(self, inputs, ch, id, out);
    }

    fn on_cancel(
        &mut self,
        _: &Inputs,
        _: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        Unaligned::on_cancel(self, id, out);
    }

    fn on_end_of_partition(&mut self, inputs: &Inputs, _: ChannelIndex, out: &mut Vec<Output<R>>) {
        Unaligned::on_end_of_partition(self, inputs, out);
    }

    fn drop_pending(&mut self) {
        Unaligned::drop_pending(self);
    }

    fn current(&self) -> Option<CheckpointId> {
        Unaligned::current(self)
    }

    fn has_delivered_current(&self, ch: ChannelIndex) -> bool {
        self.has_delivered(ch)
    }

    fn on_record(&self, ch: ChannelIndex, record: &R, out: &mut Vec<Output<R>>) {
        self.persist_in_flight(ch, record, out);
    }

    /// The pending checkpoint's channel state is complete only when every input has
    /// delivered its barrier.
    fn is_recording(&self, id: CheckpointId) -> bool {
        Unaligned::current(self) == Some(id)
    }

    fn records(&self, id: CheckpointId, ch: ChannelIndex) -> bool {
        Unaligned::current(self) == Some(id) && !self.has_delivered(ch)
    }
}
