//! The narration: a step's events told as sentences (without their words, which each
//! language fills in).
//!
//! Events carry the decisions the engine made (how the barrier handler took a barrier, how many
//! inputs have it, what was held, why a task acknowledged), so this is a plain mapping
//! ([`Sentence::of`]): it reads nothing back from the simulation and never guesses what
//! happened. Three things are grouped: a snapshot and the acknowledgement it sent at once are
//! one sentence, a stopped world's snapshots are the one sentence that says it drained, and a
//! replayed record's processing is told by the replay itself.

use super::sentence::Sentence;
use crate::barrier::{CheckpointId, Description};
use crate::record::ItemKind;
use crate::trace::{AckKind, Event};
use crate::vocab::TaskId;

/// The sentences of the step that produced `events`, in a run of `protocol`.
pub fn sentences(events: &[Event], protocol: &Description) -> Vec<Sentence> {
    let mut out: Vec<Sentence> = Vec::new();
    // A replayed record is told by its replay; its processing is not told again.
    let mut replayed: Option<(TaskId, u64)> = None;
    // A stopped world's snapshots are told by the one sentence that says the job drained.
    let mut drained: Option<(CheckpointId, usize)> = None;
    for e in events {
        match *e {
            Event::Drained { checkpoint } => drained = Some((checkpoint, out.len())),
            Event::Snapshot { checkpoint, .. } | Event::Acknowledged { checkpoint, .. }
                if drained.is_some_and(|(n, _)| n == checkpoint) =>
            {
                if let (Event::Snapshot { .. }, Some((_, at))) = (e, drained) {
                    if let Some(Sentence::Drained { tasks, .. }) = out.get_mut(at) {
                        *tasks += 1;
                    }
                }
                continue;
            }
            Event::Replayed {
                task,
                item: ItemKind::Record(r),
                ..
            } => replayed = Some((task, r.id)),
            Event::Processed { task, record, .. } if replayed == Some((task, record.id)) => {
                replayed = None;
                continue;
            }
            Event::Acknowledged {
                task,
                checkpoint,
                acked,
                total,
                why: AckKind::Snapshot,
            } => {
                // An acknowledgement sent with the snapshot is told in the same sentence.
                if let Some(slot) = out
                    .iter_mut()
                    .rev()
                    .find_map(|s| s.snapshot_of(task, checkpoint))
                {
                    if let Some(a) = slot {
                        *a = Some((acked, total));
                    }
                    continue;
                }
            }
            _ => {}
        }
        out.extend(Sentence::of(e, protocol));
    }
    out
}

impl Sentence {
    /// If this sentence tells `task`'s snapshot of checkpoint `n`: where it notes the
    /// acknowledgement sent with it (none for Chandy-Lamport's, which acknowledge later).
    fn snapshot_of(
        &mut self,
        task: TaskId,
        n: CheckpointId,
    ) -> Option<Option<&mut Option<(u32, u32)>>> {
        match self {
            Sentence::Snapshot {
                task: t,
                n: m,
                acked,
                ..
            }
            | Sentence::SourceSnapshot {
                task: t,
                n: m,
                acked,
                ..
            }
            | Sentence::SourcePriorityBarrier {
                task: t,
                n: m,
                acked,
                ..
            } if *t == task && *m == n => Some(Some(acked)),
            Sentence::SourceMarkers { task: t, n: m, .. }
            | Sentence::ProcessRecords { task: t, n: m, .. }
            | Sentence::ProcessRecordsAlone { task: t, n: m }
                if *t == task && *m == n =>
            {
                Some(None)
            }
            _ => None,
        }
    }

    /// The seed's alignment step (①–④) this sentence shows: a barrier that blocks an input
    /// (①), an item held (②), the snapshot of an aligned checkpoint (③: `aligned` is whether
    /// the protocol aligns), the held items let go (④).
    pub fn alignment_step(&self, aligned: bool) -> Option<u8> {
        match self {
            Sentence::AlignmentStarts { .. }
            | Sentence::AlignmentBlocksToo { .. }
            | Sentence::KeptAlignedFirst { .. } => Some(1),
            Sentence::Held { .. } => Some(2),
            Sentence::Snapshot { .. } if aligned => Some(3),
            Sentence::Unblocked { .. }
            | Sentence::UnblockedEmpty { .. }
            | Sentence::Replayed { .. } => Some(4),
            _ => None,
        }
    }

    /// A key event, which the page's "next key event" jumps to: an alignment step (①–④), a
    /// checkpoint, snapshot or savepoint completing, a failure.
    pub fn is_key(&self, aligned: bool) -> bool {
        self.alignment_step(aligned).is_some()
            || matches!(
                self,
                Sentence::Completed { .. }
                    | Sentence::SnapshotCompleted { .. }
                    | Sentence::SavepointCompleted { .. }
                    | Sentence::Failed { .. }
                    | Sentence::JobFailed { .. }
            )
    }

    /// Records flowing as usual: shown quietly so the checkpoint's sentences stand out. A
    /// record that slips in after an early barrier (at-least-once) is not routine: it is the
    /// lesson.
    pub fn is_routine(&self) -> bool {
        matches!(
            self,
            Sentence::SourceRead { .. }
                | Sentence::Sent { .. }
                | Sentence::TokenPassed { .. }
                | Sentence::Processed { .. }
                | Sentence::Received { .. }
                | Sentence::TokenReceived { .. }
        )
    }

    /// The checkpoint this sentence is about, if any.
    pub fn checkpoint(&self) -> Option<CheckpointId> {
        use Sentence as S;
        match *self {
            S::Triggered { n }
            | S::SnapshotBegins { n }
            | S::WorldStops { n }
            | S::Drained { n, .. }
            | S::Initiated { n, .. }
            | S::ProcessInitiates { n, .. }
            | S::SourceSnapshot { n, .. }
            | S::SourcePriorityBarrier { n, .. }
            | S::SourceMarkers { n, .. }
            | S::BarrierIgnored { n, .. }
            | S::BarrierOnOnlyInput { n, .. }
            | S::LoopBarrierReturned { n, .. }
            | S::LastRegularInput { n, .. }
            | S::AlignmentStarts { n, .. }
            | S::KeptAlignedFirst { n, .. }
            | S::KeptAlignedOnlyInput { n, .. }
            | S::AlignmentBlocksToo { n, .. }
            | S::AlignmentComplete { n, .. }
            | S::UnalignedFirst { n, .. }
            | S::UnalignedInputSaved { n, .. }
            | S::UnalignedComplete { n, .. }
            | S::TrackingFlows { n, .. }
            | S::TrackingComplete { n, .. }
            | S::MarkerIgnored { n, .. }
            | S::MarkerFirst { n, .. }
            | S::MarkerOnOnlyInput { n, .. }
            | S::MarkerStopsRecording { n, .. }
            | S::MarkerLast { n, .. }
            | S::Snapshot { n, .. }
            | S::ProcessRecords { n, .. }
            | S::ProcessRecordsAlone { n, .. }
            | S::ProcessedEarly { n, .. }
            | S::LoopLogged { n, .. }
            | S::ChannelStateSaved { n, .. }
            | S::MarkerRecorded { n, .. }
            | S::CancelArrived { n, .. }
            | S::TaskAborted { n, .. }
            | S::AckFinished { n, .. }
            | S::AckChannelState { n, .. }
            | S::AckSnapshot { n, .. }
            | S::ProcessDone { n, .. }
            | S::Completed { n, .. }
            | S::SnapshotCompleted { n, .. }
            | S::AbortedSubsumed { n }
            | S::AbortedDeclined { n, .. }
            | S::AbortedExpired { n }
            | S::AbortedFailover { n }
            | S::SnapshotAbandoned { n }
            | S::Committed { n, .. }
            | S::SnapshotSkipped { n, .. }
            | S::JobFinished { n: Some(n) }
            | S::TaskFinished { n: Some(n), .. }
            | S::Restored { n, .. }
            | S::ProcessesRestored { n, .. }
            | S::AlignmentTimedOut { n, .. }
            | S::BarrierOvertook { n, .. } => Some(n),
            _ => None,
        }
    }
}
