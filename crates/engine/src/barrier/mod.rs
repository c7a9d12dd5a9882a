//! The per-task barrier handler: how one task reacts to what arrives on its input channels.
//!
//! This is the single copy of the rules in `docs/barrier-rules.md` (Flink's
//! `SingleCheckpointBarrierHandler` and `CheckpointBarrierTracker`, restated). The simulation
//! feeds it one arrival per step and the `abs-sim gate` command feeds it JSON lines; both read
//! back the same [`Output`] list, so the page and the checks can never disagree.
//!
//! Codemap:
//! - this file: the public types, and what every protocol shares (channel ranges, closed
//!   channels, where an end of partition is reported, the end of the input), asking the
//!   protocol's core through a trait — it never asks which core it has;
//! - `protocol.rs`: the protocols as data ([`Description`], [`REGISTRY`]) — what each
//!   persists, whether it blocks, who initiates, whether its barriers overtake;
//! - `task_protocol.rs`: the trait a per-task core implements, with sensible defaults;
//!   `cores.rs`: the registry of cores, one line each;
//! - `aligned.rs`: exactly-once alignment, the only core that holds items, with its replay
//!   stack; `tracking.rs`: at-least-once barrier tracking, several checkpoints pending at once;
//!   `unaligned.rs`: triggered by the first barrier, recording channel state;
//!   `chandy_lamport.rs`: the marker rule, any process may initiate.
//!
//! Architecture invariant: pure and total. No IO, no clock, no randomness, ordered collections
//! only, and no input sequence can make it panic: an arrival on a channel the task does not have
//! is ignored, and a closed channel only lets records through.

mod aligned;
mod chandy_lamport;
mod cores;
mod cursor;
mod input_set;
mod policy;
mod protocol;
mod task_protocol;
mod tracking;
mod unaligned;

#[cfg(test)]
mod tests;

use serde::{Deserialize, Serialize};

use cores::{with_core, Core};
use cursor::is_newer;
use input_set::InputSet;
use task_protocol::TaskProtocol;

pub use super::vocab::CheckpointId;
pub use cores::Handler;
pub use policy::BarrierPolicy;
pub use protocol::{BarrierMode, Description, Initiation, UnknownMode, REGISTRY};
/// Position of an input channel among the task's inputs, `0..channels`.
pub type ChannelIndex = u32;

/// What arrives on one input channel.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input<R> {
    Record(R),
    Barrier(CheckpointId),
    Cancel(CheckpointId),
    /// The sender has no more data (FLIP-147): it sends nothing but barriers and, once its
    /// final checkpoint completed, its end of partition. The channel stays open.
    EndOfData,
    EndOfPartition,
}

/// What the task does, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output<R> {
    /// The record is handed to the operator (came from channel `ch`).
    Record { ch: ChannelIndex, record: R },
    /// The task snapshots its state for this checkpoint and forwards the barrier.
    Triggered(CheckpointId),
    /// The task gives up this checkpoint.
    Aborted(CheckpointId),
    /// The end of data of channel `ch` is handled: no more records will come on it, but its
    /// barriers still will.
    EndOfData(ChannelIndex),
    /// The end of partition of channel `ch` is handled (channel closed).
    EndOfPartition(ChannelIndex),
    /// Unaligned: the record is persisted as in-flight state of `checkpoint` (reported before the
    /// record is handed on).
    ChannelState {
        checkpoint: CheckpointId,
        ch: ChannelIndex,
        record: R,
    },
    /// A barrier was handled (not held): how it was taken, and how many of the task's inputs
    /// are now accounted for (delivered it or closed) out of all of them. Reported before
    /// whatever it triggers or aborts. The decision is the handler's, so the narration never
    /// has to guess it.
    Barrier {
        ch: ChannelIndex,
        id: CheckpointId,
        take: BarrierTake,
        have: u32,
        need: u32,
        /// Of `have`, the inputs counted without awaiting their barrier: aligned on a cyclic
        /// graph, the back-edges (the ABS paper's Algorithm 2 snapshots once the regular
        /// inputs have it and logs the back-edges until the barrier comes round).
        unawaited: u32,
        /// The task's alignment of this checkpoint had timed out before the barrier came: it
        /// ends the recording of this input's channel state, not a wait.
        timed_out: bool,
    },
    /// Aligned: the item that arrived (or was replayed) on blocked channel `ch` went into the
    /// alignment buffer, which now holds `held` items of that channel (step ②).
    Held { ch: ChannelIndex, held: u32 },
    /// Aligned: an alignment during which some input waited ended (triggered, subsumed or
    /// cancelled); every channel flows again and `to_replay` held items come first (step ④).
    /// Not reported when the alignment began and ended with the same arrival: nothing waited.
    Unblocked { to_replay: u32 },
}

/// How the handler took a barrier that reached it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BarrierTake {
    /// The first barrier of a newer checkpoint: aligned, its channel blocks (①); unaligned, the
    /// task snapshots at once; at-least-once, tracking of the checkpoint begins.
    First,
    /// Another input delivered the checkpoint being aligned or tracked: aligned, its channel
    /// blocks too; otherwise it is only counted.
    Counted,
    /// Too old, or its checkpoint was already given up: nothing happens.
    Ignored,
}

impl<R> Output<R> {
    /// Whether this output only explains a decision (barrier taken, item held, inputs
    /// unblocked) rather than being something the task does; `abs-sim gate` prints only the
    /// others.
    pub fn is_note(&self) -> bool {
        matches!(
            self,
            Output::Barrier { .. } | Output::Held { .. } | Output::Unblocked { .. }
        )
    }
}

/// What every mode needs to know about the task's inputs as a whole.
#[derive(Clone, Debug)]
struct Inputs {
    channels: u32,
    /// Channels whose end of partition has been handled (not merely received and held).
    closed: InputSet,
    /// Channels whose end of data has been handled.
    data_ended: InputSet,
    /// Flink's "checkpoints after tasks finish": does a closed channel count as aligned?
    finished_channels_align: bool,
    /// Set by [`BarrierHandler::end_of_input`]: from then on barriers are ignored, because no
    /// checkpoint could complete any more.
    ended: bool,
}

impl Inputs {
    fn open_count(&self) -> usize {
        (self.channels as usize).saturating_sub(self.closed.len())
    }

    /// True when every channel has either delivered the barrier (is in `delivered`) or closed.
    /// Sets, not counters, so a channel that did both is not counted twice.
    fn all_accounted_for(&self, delivered: &InputSet) -> bool {
        self.accounted(delivered) >= self.channels
    }

    /// Channels that delivered the barrier (are in `delivered`) or closed.
    fn accounted(&self, delivered: &InputSet) -> u32 {
        let n = self.closed.len() + delivered.count_not_in(&self.closed);
        u32::try_from(n).unwrap_or(u32::MAX)
    }

    /// Reports how a barrier was taken; `delivered` is the set that now counts it.
    fn taken<R>(
        &self,
        ch: ChannelIndex,
        id: CheckpointId,
        take: BarrierTake,
        delivered: &InputSet,
        out: &mut Vec<Output<R>>,
    ) {
        self.taken_unawaited(ch, id, take, delivered, 0, out);
    }

    /// [`Inputs::taken`], with `unawaited` of the accounted-for inputs counted without
    /// awaiting their barrier.
    fn taken_unawaited<R>(
        &self,
        ch: ChannelIndex,
        id: CheckpointId,
        take: BarrierTake,
        delivered: &InputSet,
        unawaited: u32,
        out: &mut Vec<Output<R>>,
    ) {
        let (have, unawaited) = match take {
            BarrierTake::Ignored => (0, 0),
            _ => (self.accounted(delivered), unawaited),
        };
        out.push(Output::Barrier {
            ch,
            id,
            take,
            have,
            need: self.channels,
            unawaited,
            timed_out: false,
        });
    }
}

/// One task's input handler. It decides, for each arrival, what the task does: hand a record to
/// the operator, hold it, trigger or abort a checkpoint, close a channel.
#[derive(Clone, Debug)]
pub struct BarrierHandler<R> {
    inputs: Inputs,
    core: Core<R>,
    /// An unaligned task aligning a savepoint: its core stepped aside for an aligned one,
    /// and comes back once that alignment has ended and its held items are replayed.
    aligning_savepoint: bool,
    /// The inputs that are back-edges of a loop, for an aligned core taken on later.
    loops: Vec<ChannelIndex>,
}

impl<R: Clone> BarrierHandler<R> {
    /// The handler `mode`'s tasks run.
    pub fn new(mode: BarrierMode, channels: u32, finished_channels_align: bool) -> Self {
        Self::of(
            mode.description().handler,
            channels,
            finished_channels_align,
        )
    }

    /// A handler of this kind, whatever the protocol: a task whose inputs keep their barriers
    /// aligned (Flink's partitioner rule) runs the aligned one under unaligned checkpoints.
    pub fn of(kind: Handler, channels: u32, finished_channels_align: bool) -> Self {
        BarrierHandler {
            inputs: Inputs {
                channels,
                closed: InputSet::default(),
                data_ended: InputSet::default(),
                finished_channels_align,
                ended: false,
            },
            core: Core::of(kind),
            aligning_savepoint: false,
            loops: Vec::new(),
        }
    }

    /// Whether it blocks the inputs that delivered a barrier and holds what arrives on them
    /// (exactly-once alignment).
    pub fn blocks_inputs(&self) -> bool {
        with_core!(&self.core, p => TaskProtocol::<R>::blocks_inputs(p))
    }

    /// Whether its snapshots are unaligned ones: taken at the first barrier, with the records
    /// the barriers overtook persisted (Flink's per-subtask `unaligned_checkpoint`; an aligned
    /// task whose alignment timed out is one too, see [`BarrierHandler::timed_out`]).
    pub fn snapshots_unaligned(&self) -> bool {
        matches!(self.core, Core::Unaligned(_))
    }

    pub fn channels(&self) -> u32 {
        self.inputs.channels
    }

    pub fn finished_channels_align(&self) -> bool {
        self.inputs.finished_channels_align
    }

    /// Handle one item arriving on `ch`. If held items are waiting to be replayed, they are all
    /// replayed first: a channel's items must reach the operator in the order they were sent.
    pub fn receive(&mut self, ch: ChannelIndex, input: Input<R>, out: &mut Vec<Output<R>>) {
        self.drain_replay(out);
        if let (true, Input::Barrier(id), Core::Aligned(a)) =
            (self.aligning_savepoint, &input, &self.core)
        {
            if let Some(savepoint) = a.current().filter(|&s| *id > s) {
                // A newer checkpoint's barrier overtook the savepoint's (which was given up
                // meanwhile): the savepoint's alignment ends, its held items go on, and the
                // task takes the checkpoint as its protocol does.
                with_core!(&mut self.core, p => TaskProtocol::<R>::on_cancel(p, &self.inputs, ch, savepoint, out));
                self.drain_replay(out);
                self.settle();
            }
        }
        self.arrive(ch, input, out);
        self.settle();
    }

    /// A savepoint's barrier of `id` arrives on `ch`. Flink's savepoints are always aligned:
    /// a task whose protocol snapshots at the first barrier (unaligned) aligns this one,
    /// blocking and holding as an aligned task does — its core steps aside for an aligned
    /// one until the alignment has ended and the held items are replayed. A checkpoint still
    /// running here is given up, as for any newer barrier.
    pub fn receive_savepoint(
        &mut self,
        ch: ChannelIndex,
        id: CheckpointId,
        out: &mut Vec<Output<R>>,
    ) {
        self.drain_replay(out);
        if let Core::Unaligned(u) = &self.core {
            if is_newer(u.latest(), id) && ch < self.inputs.channels && !self.inputs.ended {
                if let Some(current) = u.current() {
                    out.push(Output::Aborted(current));
                }
                let mut aligned = Core::of(Handler::Aligned);
                with_core!(&mut aligned, p => TaskProtocol::<R>::set_back_edges(p, &self.loops));
                self.core = aligned;
                self.aligning_savepoint = true;
            }
        }
        // Aligning one already, the aligned core takes a newer savepoint as it takes any
        // newer barrier.
        self.arrive(ch, Input::Barrier(id), out);
        self.settle();
    }

    /// Whether it aligns a savepoint although its protocol would not.
    pub fn aligns_savepoint(&self) -> bool {
        self.aligning_savepoint
    }

    /// Back from aligning a savepoint once nothing of it is left: no alignment, nothing held
    /// or to replay, no loop still logged.
    fn settle(&mut self) {
        if let (true, Core::Aligned(a)) = (self.aligning_savepoint, &self.core) {
            let latest = a.latest();
            let idle = a.current().is_none()
                && !TaskProtocol::<R>::has_replay(a)
                && TaskProtocol::<R>::held_count(a) == 0
                && latest.is_none_or(|n| !TaskProtocol::<R>::is_recording(a, n));
            if idle {
                self.core = Core::Unaligned(unaligned::Unaligned::after(latest));
                self.aligning_savepoint = false;
            }
        }
    }

    /// Every record the handler holds (in its alignment buffer or waiting to be replayed), for
    /// a caller that renames them all alike — the exhaustive search writes ids relative to a
    /// base (`engine/explore`).
    pub(crate) fn for_each_record(&mut self, mut f: impl FnMut(&mut R)) {
        with_core!(&mut self.core, p => TaskProtocol::<R>::for_each_record(p, &mut f));
    }

    /// True when held items wait to be replayed (after an alignment ended).
    pub fn has_replay(&self) -> bool {
        with_core!(&self.core, p => TaskProtocol::<R>::has_replay(p))
    }

    /// The held item the next `replay_one` will take, and its channel.
    pub fn peek_replay(&self) -> Option<(ChannelIndex, &Input<R>)> {
        with_core!(&self.core, p => TaskProtocol::<R>::peek_replay(p))
    }

    /// Replay exactly one held item, as if it had just arrived: it may be held again, start a new
    /// alignment, and so on. One at a time so the page can show the buffer draining step by step.
    /// Returns false if there was nothing to replay.
    pub fn replay_one(&mut self, out: &mut Vec<Output<R>>) -> bool {
        match with_core!(&mut self.core, p => TaskProtocol::<R>::next_replay(p)) {
            Some((ch, input)) => {
                self.arrive(ch, input, out);
                self.settle();
                true
            }
            None => false,
        }
    }

    /// The input ended: pending replays run as usual, then an unfinished checkpoint is dropped
    /// without a report and held items are released in their original order. Barriers met
    /// from here on are ignored, since nothing could complete a checkpoint any more.
    pub fn end_of_input(&mut self, out: &mut Vec<Output<R>>) {
        self.drain_replay(out);
        self.inputs.ended = true;
        with_core!(&mut self.core, p => TaskProtocol::<R>::drop_pending(p));
        self.drain_replay(out);
    }

    /// Whether channel `ch` is blocked by an alignment.
    pub fn is_blocked(&self, ch: ChannelIndex) -> bool {
        with_core!(&self.core, p => TaskProtocol::<R>::is_blocked(p, ch))
    }

    /// Whether the end of partition of `ch` has been handled (a held one does not count yet).
    pub fn is_closed(&self, ch: ChannelIndex) -> bool {
        self.inputs.closed.contains(ch)
    }

    /// Whether the end of data of `ch` has been handled (a closed channel had one before).
    pub fn has_data_ended(&self, ch: ChannelIndex) -> bool {
        self.inputs.data_ended.contains(ch) || self.inputs.closed.contains(ch)
    }

    /// Items currently held (not yet replayed) for channel `ch`, oldest first, including items
    /// waiting in the replay stack.
    pub fn held_on(&self, ch: ChannelIndex) -> Vec<&Input<R>> {
        with_core!(&self.core, p => TaskProtocol::<R>::held_on(p, ch))
    }

    pub fn held_count(&self) -> u32 {
        with_core!(&self.core, p => TaskProtocol::<R>::held_count(p))
    }

    /// The checkpoint being aligned (aligned), the pending one (unaligned), or the newest pending
    /// one (at-least-once, Chandy-Lamport), if any.
    pub fn current_checkpoint(&self) -> Option<CheckpointId> {
        with_core!(&self.core, p => TaskProtocol::<R>::current(p))
    }

    /// Whether channel `ch` has delivered the barrier of the current checkpoint (or of the pending
    /// at-least-once entry with the highest id). A cancellation marker counts as delivered in
    /// at-least-once mode, where it also reports the channel.
    pub fn has_delivered_current(&self, ch: ChannelIndex) -> bool {
        with_core!(&self.core, p => TaskProtocol::<R>::has_delivered_current(p, ch))
    }

    /// Ids of the pending checkpoints, oldest first.
    pub fn pending_checkpoints(&self) -> Vec<CheckpointId> {
        with_core!(&self.core, p => TaskProtocol::<R>::pending(p))
    }

    /// At-least-once: the oldest pending checkpoint whose barrier `ch` already delivered, so a
    /// record arriving on `ch` now is processed before that checkpoint's snapshot (it will be
    /// replayed after a recovery). Other modes: never — aligned blocks such records, unaligned
    /// snapshots at the first barrier.
    pub fn early_on(&self, ch: ChannelIndex) -> Option<CheckpointId> {
        with_core!(&self.core, p => TaskProtocol::<R>::early_on(p, ch))
    }

    /// Whether the task is still recording something for checkpoint `id`: unaligned, its
    /// pending checkpoint's channel state; Chandy-Lamport, any input whose marker has not come;
    /// aligned, a loop's log. Its acknowledgement waits until this is false.
    pub fn is_recording(&self, id: CheckpointId) -> bool {
        with_core!(&self.core, p => TaskProtocol::<R>::is_recording(p, id))
    }

    /// ABS for cyclic graphs: marks input channels as back-edges (aligned mode). The task then
    /// forwards a barrier once its other inputs delivered it, and logs the back-edges' records
    /// as that checkpoint's channel state until the barrier comes round to them.
    pub fn set_back_edges(&mut self, loops: &[ChannelIndex]) {
        self.loops = loops.to_vec();
        with_core!(&mut self.core, p => TaskProtocol::<R>::set_back_edges(p, loops));
    }

    /// Aligned with a timeout: the running alignment lasted too long; the checkpoint goes on
    /// unaligned (see `Aligned::time_out`). False when nothing is being aligned.
    pub fn time_out_alignment(&mut self, out: &mut Vec<Output<R>>) -> bool {
        with_core!(&mut self.core, p => TaskProtocol::<R>::time_out_alignment(p, &self.inputs, out))
    }

    /// The checkpoint whose alignment timed out and now records its channel state.
    pub fn timed_out(&self) -> Option<CheckpointId> {
        with_core!(&self.core, p => TaskProtocol::<R>::timed_out(p))
    }

    /// Whether input `ch` is a back-edge (aligned mode on a cyclic graph).
    pub fn is_back_edge(&self, ch: ChannelIndex) -> bool {
        with_core!(&self.core, p => TaskProtocol::<R>::is_back_edge(p, ch))
    }

    /// Whether input `ch` is being recorded for snapshot `id`.
    pub fn records(&self, id: CheckpointId, ch: ChannelIndex) -> bool {
        with_core!(&self.core, p => TaskProtocol::<R>::records(p, id, ch))
    }

    /// This task initiates snapshot `id`: Chandy-Lamport, it records its state (`Triggered`)
    /// and then every input until that input's marker arrives. Other modes (whose sources are
    /// triggered by the coordinator and have no inputs) report the trigger only. Nothing
    /// happens for an id already known here.
    pub fn initiate(&mut self, id: CheckpointId, out: &mut Vec<Output<R>>) {
        self.drain_replay(out);
        with_core!(&mut self.core, p => TaskProtocol::<R>::initiate(p, &self.inputs, id, out));
    }

    fn drain_replay(&mut self, out: &mut Vec<Output<R>>) {
        while self.replay_one(out) {}
    }

    /// The rules shared by every mode, then the mode's own. An end of partition is reported after
    /// whatever it completed or aborted, so the task has snapshotted before the channel closes.
    fn arrive(&mut self, ch: ChannelIndex, input: Input<R>, out: &mut Vec<Output<R>>) {
        if ch >= self.inputs.channels {
            return;
        }
        if self.inputs.closed.contains(ch) {
            // Nothing should follow an end of partition; a stray record still reaches the
            // operator rather than vanish, anything else has no channel left to act on.
            if let Input::Record(record) = input {
                out.push(Output::Record { ch, record });
            }
            return;
        }
        let timed_out = self.timed_out();
        let from = out.len();
        with_core!(&mut self.core, p => arrive_at(p, &mut self.inputs, ch, input, out));
        // Said here, once for every core: the checkpoint had gone on unaligned at this task.
        if let Some(n) = timed_out {
            for o in &mut out[from..] {
                if let Output::Barrier { id, timed_out, .. } = o {
                    *timed_out = *id == n;
                }
            }
        }
    }
}

/// The protocol's part of an arrival on an open channel: held if its channel is blocked,
/// otherwise handed to the core by kind.
fn arrive_at<R, P: TaskProtocol<R>>(
    core: &mut P,
    inputs: &mut Inputs,
    ch: ChannelIndex,
    input: Input<R>,
    out: &mut Vec<Output<R>>,
) {
    let input = match core.hold_if_blocked(ch, input) {
        Ok(held) => {
            out.push(Output::Held { ch, held });
            return;
        }
        Err(input) => input,
    };
    match input {
        Input::Record(record) => {
            core.on_record(ch, &record, out);
            out.push(Output::Record { ch, record });
        }
        Input::Barrier(id) => {
            if inputs.ended {
                inputs.taken(ch, id, BarrierTake::Ignored, &InputSet::default(), out);
                return;
            }
            core.on_barrier(inputs, ch, id, out);
        }
        Input::Cancel(id) => core.on_cancel(inputs, ch, id, out),
        Input::EndOfData => {
            inputs.data_ended.insert(ch);
            out.push(Output::EndOfData(ch));
        }
        Input::EndOfPartition => {
            inputs.closed.insert(ch);
            core.on_end_of_partition(inputs, ch, out);
            out.push(Output::EndOfPartition(ch));
        }
    }
}
