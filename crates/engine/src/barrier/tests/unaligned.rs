//! Unaligned: trigger on the first barrier, record overtaken records as channel state.

use super::{run, Task};
use crate::barrier::BarrierMode::Unaligned;

/// The whole sequence plus the end of input, with finished channels aligning (the default).
fn run_on(channels: u32, inputs: &str) -> String {
    run(Unaligned, channels, true, inputs)
}

/// The same with "checkpoints after tasks finish" off.
fn run_off(channels: u32, inputs: &str) -> String {
    run(Unaligned, channels, false, inputs)
}

#[test]
fn the_first_barrier_triggers_and_records_before_later_barriers_are_persisted() {
    let mut task = Task::new(Unaligned, 2, true);
    assert_eq!(task.feed("0:a1 0:b1 0:a2 1:x1"), "a1 T1 a2 S1/1:x1 x1");
    assert_eq!(task.handler.current_checkpoint(), Some(1));
    assert!(task.handler.has_delivered_current(0));
    assert!(!task.handler.has_delivered_current(1));
    assert!(!task.handler.is_blocked(0));
    // Channel 1's barrier completes the checkpoint: nothing is recorded any more.
    assert_eq!(task.feed("1:x2 1:b1 1:x3 0:a3"), "S1/1:x2 x2 x3 a3");
    assert_eq!(task.handler.current_checkpoint(), None);
}

#[test]
fn a_newer_barrier_on_any_channel_aborts_the_pending_checkpoint_and_triggers() {
    let out = run_on(3, "0:b1 1:a1 0:b2 1:a2 0:a3 2:b2 1:b2 1:a4");
    assert_eq!(out, "T1 S1/1:a1 a1 A1 T2 S2/1:a2 a2 a3 a4");
}

#[test]
fn older_and_repeated_barriers_are_ignored() {
    let out = run_on(2, "0:b3 1:b2 1:a1 0:b3 1:b3 1:b3 0:b1 0:a2");
    assert_eq!(out, "T3 S3/1:a1 a1 a2");
}

#[test]
fn cancelling_the_pending_checkpoint_aborts_it_after_its_trigger() {
    let out = run_on(2, "0:b1 1:c1 1:a1 1:b1 1:c1");
    assert_eq!(out, "T1 A1 a1");
}

#[test]
fn cancelling_a_newer_checkpoint_reports_only_that_one() {
    let out = run_on(2, "0:b1 1:c2 1:a1 1:b2 0:b2 0:b1");
    assert_eq!(out, "T1 A2 a1");
}

#[test]
fn a_checkpoint_cancelled_before_its_first_barrier_never_starts() {
    let out = run_on(2, "0:c3 0:b3 1:a1 1:b3 0:b4 1:a2");
    assert_eq!(out, "A3 a1 T4 S4/1:a2 a2");
}

#[test]
fn with_finished_channels_aligning_a_closed_channel_completes_the_checkpoint() {
    let out = run_on(3, "0:b1 2:eop 1:a1 1:b1 1:a2");
    assert_eq!(out, "T1 E2 S1/1:a1 a1 a2");
    let out = run_on(2, "0:b1 1:a1 1:eop 0:a2");
    assert_eq!(out, "T1 S1/1:a1 a1 E1 a2");
}

#[test]
fn without_finished_channels_aligning_an_end_of_partition_aborts_the_checkpoint() {
    // Even on a channel that had delivered the barrier; afterwards nothing is recorded.
    let out = run_off(3, "0:b1 0:eop 1:a1 2:b1 1:b1");
    assert_eq!(out, "T1 A1 E0 a1");
}

#[test]
fn with_one_channel_nothing_is_ever_recorded() {
    let out = run_on(1, "0:a1 0:b1 0:a2 0:b2 0:c3 0:a3");
    assert_eq!(out, "a1 T1 a2 T2 A3 a3");
}

#[test]
fn the_end_of_input_drops_the_pending_checkpoint_without_a_report() {
    let mut task = Task::new(Unaligned, 2, true);
    assert_eq!(task.feed("0:b1 1:a1"), "T1 S1/1:a1 a1");
    assert_eq!(task.end(), "");
    assert_eq!(task.handler.current_checkpoint(), None);
    assert_eq!(task.feed("1:a2 1:b2"), "a2");
}

/// A savepoint is aligned also here: its first barrier blocks its channel, what arrives there
/// is held and replayed once every input delivered it, nothing is persisted — and the next
/// checkpoint is unaligned again.
#[test]
fn a_savepoint_is_aligned_and_the_task_goes_back_to_unaligned_after_it() {
    let mut task = Task::new(Unaligned, 2, true);
    assert_eq!(task.feed("0:b1 1:a1 1:b1"), "T1 S1/1:a1 a1");
    assert_eq!(task.feed("0:SP2 0:x1 1:y1"), "y1");
    assert!(task.handler.is_blocked(0) && task.handler.aligns_savepoint());
    assert_eq!(task.held_on(0), "x1");
    assert_eq!(task.feed("1:SP2 0:x2 1:a2"), "T2 x1 x2 a2");
    assert!(!task.handler.aligns_savepoint(), "back to its own protocol");
    assert_eq!(task.feed("0:b3 1:z1 1:b3"), "T3 S3/1:z1 z1");
    assert!(task.handler.snapshots_unaligned());
}

/// A newer checkpoint's barrier (the savepoint was given up meanwhile) ends the savepoint's
/// alignment: it is aborted, the held records go on, and the checkpoint is taken unaligned.
#[test]
fn a_newer_barrier_ends_a_savepoints_alignment() {
    let mut task = Task::new(Unaligned, 2, true);
    assert_eq!(
        task.feed("0:SP2 0:x1 1:y1 1:b3 0:x2 0:b3"),
        "y1 A2 x1 T3 S3/0:x2 x2"
    );
    assert!(!task.handler.aligns_savepoint());
}

/// A checkpoint still pending when a savepoint's barrier comes is given up, as for any newer
/// barrier; its late barriers are ignored.
#[test]
fn a_savepoint_gives_up_a_pending_checkpoint() {
    let mut task = Task::new(Unaligned, 2, true);
    assert_eq!(task.feed("0:b1 0:SP2 1:a1 1:b1 1:SP2"), "T1 A1 a1 T2");
}
