//! Aligned, exactly-once checkpoints (steps ①–④ of the seed).
//!
//! A channel that delivered the barrier being aligned is blocked: what it sends next belongs
//! after the snapshot, so it waits in the alignment buffer until every open channel has caught
//! up. When an alignment ends (triggered, subsumed or cancelled) the buffer is not emptied at
//! once: it is pushed onto a replay stack and fed back one item at a time, each acting as if it
//! had just arrived. A replayed barrier may start the next alignment and hold items again; that
//! alignment's own buffer then lands on top of the stack, so its items come back before the rest
//! of the older ones. This is Flink's `BarrierBuffer` behaviour, and it keeps every channel's
//! items in the order they were sent.

use std::collections::VecDeque;
use std::mem;

use super::cursor::Cursor;
use super::task_protocol::TaskProtocol;
use super::{BarrierTake, ChannelIndex, CheckpointId, Input, InputSet, Inputs, Output};

/// An item waiting in the alignment buffer, with the channel it came from.
type Held<R> = (ChannelIndex, Input<R>);

#[derive(Clone, Debug)]
pub(super) struct Aligned<R> {
    /// The checkpoint being aligned, and the newest one handled.
    cursor: Cursor,
    /// Channels that delivered the barrier of the running alignment.
    blocked: InputSet,
    /// Items that arrived on blocked channels during the running alignment, in arrival order.
    held: Vec<Held<R>>,
    /// Buffers of finished alignments still to be replayed; the last one is replayed first.
    replay: Vec<VecDeque<Held<R>>>,
    /// ABS for cyclic graphs (the ABS paper's Algorithm 2): this task's back-edge inputs. They
    /// are never blocked and not waited for: the task snapshots and forwards the barrier once
    /// its regular inputs delivered it, then logs what arrives on its back-edges until the
    /// barrier has come round the loop to each of them.
    loops: InputSet,
    /// Checkpoints whose back-edge log is still open, each with the back-edges that have
    /// delivered its barrier.
    logging: Vec<(CheckpointId, InputSet)>,
    /// Aligned with a timeout: the checkpoint whose alignment timed out and went on unaligned
    /// — snapshotted already, recording what its other inputs still send before their barrier
    /// — with the inputs that have delivered it.
    timed_out: Option<(CheckpointId, InputSet)>,
    /// The running alignment began with the arrival being handled. If it ends in that same
    /// arrival (a single open input, or the others are back-edges), no input ever waited, and
    /// the end is not reported as an unblocking.
    opened_now: bool,
}

impl<R> Default for Aligned<R> {
    fn default() -> Self {
        Aligned {
            cursor: Cursor::default(),
            blocked: InputSet::default(),
            held: Vec::new(),
            replay: Vec::new(),
            loops: InputSet::default(),
            logging: Vec::new(),
            timed_out: None,
            opened_now: false,
        }
    }
}

impl<R> Aligned<R> {
    /// Every record held or waiting to be replayed.
    pub(super) fn for_each_record(&mut self, mut f: impl FnMut(&mut R)) {
        let replay = self.replay.iter_mut().flatten();
        for (_, input) in self.held.iter_mut().chain(replay) {
            if let Input::Record(r) = input {
                f(r);
            }
        }
    }

    pub(super) fn set_loops(&mut self, loops: &[ChannelIndex]) {
        for &ch in loops {
            self.loops.insert(ch);
        }
    }

    pub(super) fn is_loop(&self, ch: ChannelIndex) -> bool {
        self.loops.contains(ch)
    }

    /// Whether the back-edge log of checkpoint `id` is still open, or its alignment timed out
    /// and channel state is still being recorded.
    pub(super) fn is_logging(&self, id: CheckpointId) -> bool {
        self.logging.iter().any(|(n, _)| *n == id)
            || self.timed_out.as_ref().is_some_and(|(n, _)| *n == id)
    }

    /// The checkpoint whose alignment timed out and now records like unaligned.
    pub(super) fn timed_out(&self) -> Option<CheckpointId> {
        self.timed_out.as_ref().map(|(n, _)| *n)
    }

    /// Aligned with a timeout (Flink's aligned-checkpoint-timeout): the running alignment has
    /// lasted too long, so this checkpoint goes on unaligned. The task snapshots now (its
    /// barrier will overtake its output queue); the inputs that have not delivered the barrier
    /// are recorded until they do; the blocked inputs open, and what they held — sent after the
    /// barrier — is replayed after the snapshot, as at the end of any alignment.
    pub(super) fn time_out(&mut self, inputs: &Inputs, out: &mut Vec<Output<R>>) -> bool {
        let Some(current) = self.current() else {
            return false;
        };
        let delivered = self.with_loops(&self.blocked);
        out.push(Output::Triggered(current));
        self.timed_out = Some((current, delivered));
        self.release(out);
        self.finish_timed_out(inputs);
        true
    }

    fn finish_timed_out(&mut self, inputs: &Inputs) {
        if let Some((_, delivered)) = &self.timed_out {
            if inputs.all_accounted_for(delivered) {
                self.timed_out = None;
            }
        }
    }

    /// Whether back-edge `ch` is logged for checkpoint `id` (its barrier has not come round),
    /// or `ch` is recorded because `id`'s alignment timed out.
    pub(super) fn logs(&self, id: CheckpointId, ch: ChannelIndex) -> bool {
        if let Some((n, delivered)) = &self.timed_out {
            if *n == id && !delivered.contains(ch) {
                return true;
            }
        }
        self.loops.contains(ch)
            && self
                .logging
                .iter()
                .any(|(n, back)| *n == id && !back.contains(ch))
    }

    /// A record from back-edge `ch` joins the log of every checkpoint still logging it, before
    /// the task processes it (Algorithm 2's backup log).
    pub(super) fn log_loop(&self, ch: ChannelIndex, record: &R, out: &mut Vec<Output<R>>)
    where
        R: Clone,
    {
        if let Some((n, delivered)) = &self.timed_out {
            if !delivered.contains(ch) {
                out.push(Output::ChannelState {
                    checkpoint: *n,
                    ch,
                    record: record.clone(),
                });
            }
        }
        if !self.loops.contains(ch) {
            return;
        }
        for (id, back) in &self.logging {
            if !back.contains(ch) {
                out.push(Output::ChannelState {
                    checkpoint: *id,
                    ch,
                    record: record.clone(),
                });
            }
        }
    }

    /// A barrier came round the loop on back-edge `ch`: that back-edge's log is complete.
    fn on_loop_barrier(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        let Some(i) = self.logging.iter().position(|(n, _)| *n == id) else {
            inputs.taken(ch, id, BarrierTake::Ignored, &InputSet::default(), out);
            return;
        };
        self.logging[i].1.insert(ch);
        let mut delivered = self.logging[i].1.clone();
        for other in 0..inputs.channels {
            if !self.loops.contains(other) {
                delivered.insert(other);
            }
        }
        inputs.taken(ch, id, BarrierTake::Counted, &delivered, out);
        if inputs.all_accounted_for(&delivered) {
            self.logging.remove(i);
        }
    }

    /// Back-edges closed: logs that waited only for them are complete.
    fn close_logs(&mut self, inputs: &Inputs) {
        let loops = &self.loops;
        self.logging.retain(|(_, back)| {
            let mut delivered = back.clone();
            for other in 0..inputs.channels {
                if !loops.contains(other) {
                    delivered.insert(other);
                }
            }
            !inputs.all_accounted_for(&delivered)
        });
    }

    pub(super) fn current(&self) -> Option<CheckpointId> {
        self.cursor.current()
    }

    /// The newest checkpoint it handled.
    pub(super) fn latest(&self) -> Option<CheckpointId> {
        self.cursor.latest()
    }

    pub(super) fn is_blocked(&self, ch: ChannelIndex) -> bool {
        self.blocked.contains(ch)
    }

    pub(super) fn hold(&mut self, ch: ChannelIndex, input: Input<R>) {
        self.held.push((ch, input));
    }

    pub(super) fn has_replay(&self) -> bool {
        self.replay.iter().any(|buffer| !buffer.is_empty())
    }

    /// The item `next_replay` would return, without taking it.
    pub(super) fn peek_replay(&self) -> Option<(ChannelIndex, &Input<R>)> {
        self.replay
            .iter()
            .rev()
            .find_map(|buffer| buffer.front())
            .map(|(ch, input)| (*ch, input))
    }

    pub(super) fn next_replay(&mut self) -> Option<Held<R>> {
        while let Some(top) = self.replay.last_mut() {
            if let Some(item) = top.pop_front() {
                if top.is_empty() {
                    self.replay.pop();
                }
                return Some(item);
            }
            self.replay.pop();
        }
        None
    }

    /// Held items of `ch`, oldest first. Items held by the running alignment were taken from the
    /// replay stack (or arrived after it was empty), so they are older than what is still
    /// stacked; the stack is oldest at the top.
    pub(super) fn held_on(&self, ch: ChannelIndex) -> Vec<&Input<R>> {
        let stacked = self.replay.iter().rev().flat_map(|buffer| buffer.iter());
        self.held
            .iter()
            .chain(stacked)
            .filter(|(from, _)| *from == ch)
            .map(|(_, input)| input)
            .collect()
    }

    pub(super) fn held_count(&self) -> u32 {
        let stacked: usize = self.replay.iter().map(VecDeque::len).sum();
        u32::try_from(self.held.len() + stacked).unwrap_or(u32::MAX)
    }

    /// The input ended: forget the running alignment without a report and queue its held items
    /// for release, in the order they arrived.
    pub(super) fn drop_alignment(&mut self) {
        self.stack_held();
    }

    pub(super) fn on_barrier(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        if self.loops.contains(ch) {
            return self.on_loop_barrier(inputs, ch, id, out);
        }
        if let Some((n, delivered)) = &mut self.timed_out {
            if *n == id {
                delivered.insert(ch);
                inputs.taken(ch, id, BarrierTake::Counted, delivered, out);
                self.finish_timed_out(inputs);
                return;
            }
            if id > *n {
                // A newer checkpoint overtakes the one still recording: it is given up.
                out.push(Output::Aborted(*n));
                self.timed_out = None;
            }
        }
        match self.current() {
            Some(current) if id == current => {
                self.blocked.insert(ch);
                self.taken(inputs, ch, id, BarrierTake::Counted, out);
                self.trigger_if_aligned(inputs, out);
            }
            Some(current) if id > current => {
                // Subsumed: the newer checkpoint will capture a later state anyway. The new
                // alignment starts before the old buffer replays, so items of `ch` in it are
                // held again instead of overtaking the barrier that just arrived.
                out.push(Output::Aborted(current));
                self.release(out);
                self.begin(inputs, ch, id, out);
            }
            None if self.cursor.is_newer(id) => self.begin(inputs, ch, id, out),
            _ => inputs.taken(ch, id, BarrierTake::Ignored, &self.blocked, out),
        }
    }

    pub(super) fn on_cancel(&mut self, id: CheckpointId, out: &mut Vec<Output<R>>) {
        if self.cursor.cancel(id, out) {
            self.release(out);
        }
    }

    /// Called after the channel was marked closed; an end of partition that arrives on a blocked
    /// channel never gets here, it is held like data.
    pub(super) fn on_end_of_partition(&mut self, inputs: &Inputs, out: &mut Vec<Output<R>>) {
        self.close_logs(inputs);
        self.finish_timed_out(inputs);
        let Some(current) = self.current() else {
            return;
        };
        if inputs.finished_channels_align {
            self.trigger_if_aligned(inputs, out);
        } else {
            out.push(Output::Aborted(current));
            self.release(out);
        }
    }

    fn begin(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        self.cursor.start(id);
        self.blocked.insert(ch);
        self.taken(inputs, ch, id, BarrierTake::First, out);
        // With a single open channel the first barrier is the last one too.
        self.opened_now = true;
        self.trigger_if_aligned(inputs, out);
        self.opened_now = false;
    }

    fn trigger_if_aligned(&mut self, inputs: &Inputs, out: &mut Vec<Output<R>>) {
        if let Some(current) = self.current() {
            if inputs.all_accounted_for(&self.with_loops(&self.blocked)) {
                out.push(Output::Triggered(current));
                if !self.loops.is_empty() && !self.is_logging(current) {
                    self.logging.push((current, InputSet::default()));
                    self.close_logs(inputs);
                }
                self.release(out);
            }
        }
    }

    /// Reports a barrier of the running alignment taken: the blocked inputs and the back-edges
    /// are accounted for, the back-edges without awaiting their barrier.
    fn taken(
        &self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        take: BarrierTake,
        out: &mut Vec<Output<R>>,
    ) {
        let delivered = self.with_loops(&self.blocked);
        let unawaited = self.loops.len() as u32;
        inputs.taken_unawaited(ch, id, take, &delivered, unawaited, out);
    }

    /// `set` and the back-edges: the regular inputs' alignment never waits for a back-edge.
    fn with_loops(&self, set: &InputSet) -> InputSet {
        let mut all = set.clone();
        for ch in self.loops.members() {
            all.insert(ch);
        }
        all
    }

    /// End the running alignment (if any): unblock every channel and stack its buffer for replay.
    fn release(&mut self, out: &mut Vec<Output<R>>) {
        self.stack_held();
        if !self.opened_now {
            out.push(Output::Unblocked {
                to_replay: self.held_count(),
            });
        }
    }

    fn stack_held(&mut self) {
        self.cursor.end();
        self.blocked.clear();
        let held = mem::take(&mut self.held);
        if !held.is_empty() {
            self.replay.push(VecDeque::from(held));
        }
    }
}

impl<R: Clone> TaskProtocol<R> for Aligned<R> {
    fn blocks_inputs(&self) -> bool {
        true
    }

    fn on_barrier(
        &mut self,
        inputs: &Inputs,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        Aligned::on_barrier(self, inputs, ch, id, out);
    }

    fn on_cancel(
        &mut self,
        _: &Inputs,
        _: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        Aligned::on_cancel(self, id, out);
    }

    fn on_end_of_partition(&mut self, inputs: &Inputs, _: ChannelIndex, out: &mut Vec<Output<R>>) {
        Aligned::on_end_of_partition(self, inputs, out);
    }

    fn drop_pending(&mut self) {
        self.drop_alignment();
    }

    fn current(&self) -> Option<CheckpointId> {
        Aligned::current(self)
    }

    /// A channel that delivered the barrier being aligned is the one blocked.
    fn has_delivered_current(&self, ch: ChannelIndex) -> bool {
        Aligned::is_blocked(self, ch)
    }

    fn on_record(&self, ch: ChannelIndex, record: &R, out: &mut Vec<Output<R>>) {
        self.log_loop(ch, record, out);
    }

    fn hold_if_blocked(&mut self, ch: ChannelIndex, input: Input<R>) -> Result<u32, Input<R>> {
        if !Aligned::is_blocked(self, ch) {
            return Err(input);
        }
        self.hold(ch, input);
        Ok(u32::try_from(Aligned::held_on(self, ch).len()).unwrap_or(u32::MAX))
    }

    fn is_blocked(&self, ch: ChannelIndex) -> bool {
        Aligned::is_blocked(self, ch)
    }

    fn next_replay(&mut self) -> Option<(ChannelIndex, Input<R>)> {
        Aligned::next_replay(self)
    }

    fn peek_replay(&self) -> Option<(ChannelIndex, &Input<R>)> {
        Aligned::peek_replay(self)
    }

    fn has_replay(&self) -> bool {
        Aligned::has_replay(self)
    }

    fn held_on(&self, ch: ChannelIndex) -> Vec<&Input<R>> {
        Aligned::held_on(self, ch)
    }

    fn held_count(&self) -> u32 {
        Aligned::held_count(self)
    }

    fn for_each_record(&mut self, f: &mut dyn FnMut(&mut R)) {
        Aligned::for_each_record(self, f);
    }

    fn is_recording(&self, id: CheckpointId) -> bool {
        self.is_logging(id)
    }

    fn records(&self, id: CheckpointId, ch: ChannelIndex) -> bool {
        self.logs(id, ch)
    }

    fn set_back_edges(&mut self, loops: &[ChannelIndex]) {
        self.set_loops(loops);
    }

    fn is_back_edge(&self, ch: ChannelIndex) -> bool {
        self.is_loop(ch)
    }

    fn time_out_alignment(&mut self, inputs: &Inputs, out: &mut Vec<Output<R>>) -> bool {
        self.time_out(inputs, out)
    }

    fn timed_out(&self) -> Option<CheckpointId> {
        Aligned::timed_out(self)
    }
}
