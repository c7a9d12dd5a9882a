//! Chandy-Lamport's marker rule, for any graph (cycles too) and any initiator.
//!
//! On the first marker of snapshot n a process records its state and sends a marker on every
//! output (the handler reports `Triggered`); from then on it records every *other* input until
//! that input's marker arrives; the input the first marker came on is recorded empty. A process
//! that initiates n records its state first and then records every input. Nothing ever waits:
//! records are recorded (when their input is being recorded) and then processed as usual.
//!
//! Unlike the checkpoints of the other modes, snapshots here do not subsume one another: any
//! process may start one, so ids do not reach a process in order, and several run at once, each
//! with its own set of inputs still being recorded.

use super::task_protocol::TaskProtocol;
use super::{BarrierTake, ChannelIndex, CheckpointId, InputSet, Inputs, Output};

/// How many finished snapshot ids a process remembers, so that a stray late marker of one is
/// ignored rather than starting it again. Every input delivers one marker per snapshot, so a
/// correct run never needs this; it keeps the handler total on any input.
const REMEMBERED: usize = 32;

#[derive(Clone, Debug, Default)]
pub(super) struct ChandyLamport {
    /// Snapshots this process has recorded its state for and is still recording inputs of,
    /// oldest first, each with the inputs whose marker has arrived.
    running: Vec<(CheckpointId, InputSet)>,
    /// The latest snapshots that finished here (newest last).
    done: Vec<CheckpointId>,
}

impl ChandyLamport {
    /// The newest snapshot still recording here.
    pub(super) fn newest(&self) -> Option<CheckpointId> {
        self.running.iter().map(|(id, _)| *id).max()
    }

    pub(super) fn running_ids(&self) -> Vec<CheckpointId> {
        self.running.iter().map(|(id, _)| *id).collect()
    }

    pub(super) fn is_recording(&self, id: CheckpointId) -> bool {
        self.running.iter().any(|(n, _)| *n == id)
    }

    /// Whether `ch` is being recorded for snapshot `id` (the process has recorded its state
    /// and `ch`'s marker has not come yet).
    pub(super) fn records(&self, id: CheckpointId, ch: ChannelIndex) -> bool {
        self.running
            .iter()
            .any(|(n, delivered)| *n == id && !delivered.contains(ch))
    }

    /// Whether `ch`'s marker of the newest running snapshot has arrived.
    pub(super) fn has_delivered_newest(&self, ch: ChannelIndex) -> bool {
        let newest = self.newest();
        self.running
            .iter()
            .any(|(n, delivered)| Some(*n) == newest && delivered.contains(ch))
    }

    pub(super) fn drop_pending(&mut self) {
        let ids: Vec<CheckpointId> = self.running.drain(..).map(|(id, _)| id).collect();
        for id in ids {
            self.remember(id);
        }
    }

    /// The process initiates snapshot `id`: it records its state now (`Triggered`) and every
    /// input from here on. False (and nothing reported) if `id` is already known here.
    pub(super) fn initiate<R>(
        &mut self,
        inputs: &Inputs,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) -> bool {
        if self.is_recording(id) || self.done.contains(&id) {
            return false;
        }
        self.running.push((id, InputSet::default()));
        out.push(Output::Triggered(id));
        self.finish_if_complete(inputs, id);
        true
    }

    /// A record from `ch` is recorded as channel state of every snapshot still recording
    /// `ch`, before the process handles it.
    pub(super) fn record<R: Clone>(&self, ch: ChannelIndex, record: &R, out: &mut Vec<Output<R>>) {
        for (id, delivered) in &self.running {
            if !delivered.contains(ch) {
                out.push(Output::ChannelState {
                    checkpoint: *id,
                    ch,
                    record: record.clone(),
                });
            }
        }
    }

    pub(super) fn on_marker<R>(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        if let Some(i) = self.running.iter().position(|(n, _)| *n == id) {
            let delivered = &mut self.running[i].1;
            if !delivered.insert(ch) {
                // The same input's marker twice: nothing more to stop recording.
                inputs.taken(ch, id, BarrierTake::Ignored, delivered, out);
                return;
            }
            inputs.taken(ch, id, BarrierTake::Counted, delivered, out);
            self.finish_if_complete(inputs, id);
        } else if self.done.contains(&id) {
            inputs.taken(ch, id, BarrierTake::Ignored, &InputSet::default(), out);
        } else {
            // First marker: record the state and send markers (Triggered); this input is
            // recorded empty, every other one until its own marker comes.
            let mut delivered = InputSet::default();
            delivered.insert(ch);
            inputs.taken(ch, id, BarrierTake::First, &delivered, out);
            self.running.push((id, delivered));
            out.push(Output::Triggered(id));
            self.finish_if_complete(inputs, id);
        }
    }

    /// A cancellation marker ends the recording of that snapshot here.
    pub(super) fn on_cancel<R>(&mut self, id: CheckpointId, out: &mut Vec<Output<R>>) {
        if let Some(i) = self.running.iter().position(|(n, _)| *n == id) {
            self.running.remove(i);
            self.remember(id);
            out.push(Output::Aborted(id));
        }
    }

    /// Called after the channel was marked closed: it needs no marker any more.
    pub(super) fn on_end_of_partition(&mut self, inputs: &Inputs) {
        let ids: Vec<CheckpointId> = self.running.iter().map(|(id, _)| *id).collect();
        for id in ids {
            self.finish_if_complete(inputs, id);
        }
    }

    fn finish_if_complete(&mut self, inputs: &Inputs, id: CheckpointId) {
        if let Some(i) = self.running.iter().position(|(n, _)| *n == id) {
            if inputs.all_accounted_for(&self.running[i].1) {
                self.running.remove(i);
                self.remember(id);
            }
        }
    }

    fn remember(&mut self, id: CheckpointId) {
        if self.done.len() == REMEMBERED {
            self.done.remove(0);
        }
        self.done.push(id);
    }
}

impl<R: Clone> TaskProtocol<R> for ChandyLamport {
    fn on_barrier(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        self.on_marker(inputs, ch, id, out);
    }

    fn on_cancel(
        &mut self,
        _: &Inputs,
        _: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        ChandyLamport::on_cancel(self, id, out);
    }

    fn on_end_of_partition(&mut self, inputs: &Inputs, _: ChannelIndex, _: &mut Vec<Output<R>>) {
        ChandyLamport::on_end_of_partition(self, inputs);
    }

    fn drop_pending(&mut self) {
        ChandyLamport::drop_pending(self);
    }

    fn current(&self) -> Option<CheckpointId> {
        self.newest()
    }

    fn has_delivered_current(&self, ch: ChannelIndex) -> bool {
        self.has_delivered_newest(ch)
    }

    fn pending(&self) -> Vec<CheckpointId> {
        self.running_ids()
    }

    fn on_record(&self, ch: ChannelIndex, record: &R, out: &mut Vec<Output<R>>) {
        self.record(ch, record, out);
    }

    fn is_recording(&self, id: CheckpointId) -> bool {
        ChandyLamport::is_recording(self, id)
    }

    fn records(&self, id: CheckpointId, ch: ChannelIndex) -> bool {
        ChandyLamport::records(self, id, ch)
    }

    fn initiate(&mut self, inputs: &Inputs, id: CheckpointId, out: &mut Vec<Output<R>>) {
        ChandyLamport::initiate(self, inputs, id, out);
    }
}
