//! The protocol's half of a task's barrier handler, as a trait with sensible defaults: a
//! protocol says how it takes barriers, cancellation markers and ends of partition, and only
//! what it does beyond that — holding items (aligned), recording channel state (unaligned,
//! Chandy-Lamport, aligned on a loop or after a timeout), letting records slip (tracking),
//! initiating (Chandy-Lamport). [`BarrierHandler`](super::BarrierHandler) does what every
//! protocol shares and asks its core through this trait; it never asks which core it has
//! (`cores.rs` lists them).

use super::{ChannelIndex, CheckpointId, Input, Inputs, Output};

/// What a protocol does for one task. `inputs` is what every protocol shares (how many
/// channels, which are closed, whether the input has ended): the narrow context it sees.
pub(super) trait TaskProtocol<R> {
    /// A barrier of checkpoint `id` arrived on `ch` (not held, not on a closed channel).
    fn on_barrier(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    );

    /// A cancellation marker of checkpoint `id` arrived on `ch`.
    fn on_cancel(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    );

    /// Channel `ch` was closed (it is already in `inputs.closed`).
    fn on_end_of_partition(&mut self, inputs: &Inputs, ch: ChannelIndex, out: &mut Vec<Output<R>>);

    /// The input ended: an unfinished checkpoint is dropped without a report.
    fn drop_pending(&mut self);

    /// The checkpoint this task is working on (the newest, where several are pending).
    fn current(&self) -> Option<CheckpointId>;

    /// Whether `ch` has delivered the barrier of [`TaskProtocol::current`].
    fn has_delivered_current(&self, ch: ChannelIndex) -> bool;

    /// Every checkpoint pending here, oldest first.
    fn pending(&self) -> Vec<CheckpointId> {
        self.current().into_iter().collect()
    }

    /// A record arrived on `ch` and goes on to the operator: the protocol may record it as
    /// channel state first.
    fn on_record(&self, _ch: ChannelIndex, _record: &R, _out: &mut Vec<Output<R>>) {}

    /// Holds `input` if `ch` is blocked, returning how many items `ch` now has held; gives it
    /// back otherwise. Only a protocol that blocks inputs holds anything.
    fn hold_if_blocked(&mut self, _ch: ChannelIndex, input: Input<R>) -> Result<u32, Input<R>> {
        Err(input)
    }

    /// Whether it blocks the inputs that delivered a barrier (exactly-once alignment).
    fn blocks_inputs(&self) -> bool {
        false
    }

    fn is_blocked(&self, _ch: ChannelIndex) -> bool {
        false
    }

    /// The next held item to replay, taken off the buffer.
    fn next_replay(&mut self) -> Option<(ChannelIndex, Input<R>)> {
        None
    }

    fn peek_replay(&self) -> Option<(ChannelIndex, &Input<R>)> {
        None
    }

    fn has_replay(&self) -> bool {
        false
    }

    fn held_on(&self, _ch: ChannelIndex) -> Vec<&Input<R>> {
        Vec::new()
    }

    fn held_count(&self) -> u32 {
        0
    }

    fn for_each_record(&mut self, _f: &mut dyn FnMut(&mut R)) {}

    /// The oldest pending checkpoint whose barrier `ch` already delivered: a record arriving
    /// on `ch` now slips into its state.
    fn early_on(&self, _ch: ChannelIndex) -> Option<CheckpointId> {
        None
    }

    /// Whether the task still records channel state for `id` (its acknowledgement waits).
    fn is_recording(&self, _id: CheckpointId) -> bool {
        false
    }

    /// Whether input `ch` is being recorded for `id`.
    fn records(&self, _id: CheckpointId, _ch: ChannelIndex) -> bool {
        false
    }

    /// The inputs that are back-edges of a loop (ABS for cyclic graphs).
    fn set_back_edges(&mut self, _loops: &[ChannelIndex]) {}

    fn is_back_edge(&self, _ch: ChannelIndex) -> bool {
        false
    }

    /// The running alignment took too long: go on unaligned. False when nothing aligns.
    fn time_out_alignment(&mut self, _inputs: &Inputs, _out: &mut Vec<Output<R>>) -> bool {
        false
    }

    fn timed_out(&self) -> Option<CheckpointId> {
        None
    }

    /// This task starts checkpoint `id` itself (a source, or a Chandy-Lamport initiator).
    fn initiate(&mut self, _inputs: &Inputs, id: CheckpointId, out: &mut Vec<Output<R>>) {
        out.push(Output::Triggered(id));
    }
}
