//! At-least-once: barrier tracking without blocking.

use super::{run, Task};
use crate::barrier::BarrierMode::AtLeastOnce;

/// The whole sequence plus the end of input, with finished channels aligning (the default).
fn run_on(channels: u32, inputs: &str) -> String {
    run(AtLeastOnce, channels, true, inputs)
}

#[test]
fn nothing_is_blocked_held_or_reordered() {
    let mut task = Task::new(AtLeastOnce, 3, true);
    assert_eq!(
        task.feed_raw("0:a1 0:b1 0:a2 1:b1 1:p1 2:x1"),
        "a1 a2 p1 x1"
    );
    assert!(!task.handler.is_blocked(0));
    assert!(!task.handler.has_replay());
    assert_eq!(task.handler.held_count(), 0);
    assert_eq!(task.handler.pending_checkpoints(), vec![1]);
    assert!(task.handler.has_delivered_current(1));
    assert!(!task.handler.has_delivered_current(2));
    assert_eq!(task.feed("2:b1 0:a3"), "T1 a3");
    assert_eq!(task.handler.pending_checkpoints(), Vec::<u64>::new());
}

#[test]
fn several_checkpoints_can_be_pending_and_complete_in_order() {
    let mut task = Task::new(AtLeastOnce, 3, true);
    assert_eq!(task.feed("0:b1 1:b1 0:b2 1:b2 0:b3"), "");
    assert_eq!(task.handler.pending_checkpoints(), vec![1, 2, 3]);
    assert_eq!(task.handler.current_checkpoint(), Some(3));
    assert_eq!(task.feed("2:b1 2:b2"), "T1 T2");
    assert_eq!(task.handler.pending_checkpoints(), vec![3]);
}

#[test]
fn completing_a_checkpoint_silently_drops_every_older_one() {
    let mut task = Task::new(AtLeastOnce, 3, true);
    assert_eq!(task.feed("0:b1 0:b2 1:b2 2:b2"), "T2");
    assert_eq!(task.handler.pending_checkpoints(), Vec::<u64>::new());
    // The late barriers of 1 are neither pending nor new: ignored.
    assert_eq!(task.feed("1:b1 2:b1"), "");
}

#[test]
fn channels_are_counted_as_a_set() {
    let mut task = Task::new(AtLeastOnce, 2, true);
    assert_eq!(task.feed("0:b1 0:b1 0:b1"), "");
    assert_eq!(task.feed("1:b1"), "T1");
}

#[test]
fn a_marker_aborts_every_older_pending_checkpoint_and_its_own_once() {
    let mut task = Task::new(AtLeastOnce, 3, true);
    assert_eq!(task.feed("0:b1 0:b2 1:b3 2:c3"), "A1 A2 A3");
    // 3 stays pending until every channel reported, so its last barrier starts nothing.
    assert_eq!(task.handler.pending_checkpoints(), vec![3]);
    assert_eq!(task.feed("1:c3 0:b3"), "");
    assert_eq!(task.handler.pending_checkpoints(), Vec::<u64>::new());
    assert_eq!(task.feed("0:c3 2:b3"), "");
}

#[test]
fn a_marker_for_a_new_id_reports_the_abort_at_once() {
    let mut task = Task::new(AtLeastOnce, 2, true);
    assert_eq!(task.feed("1:c4"), "A4");
    assert_eq!(task.feed("1:c4 0:b4 0:b5 1:b5"), "T5");
    // Markers for ids neither pending nor new are ignored.
    assert_eq!(task.feed("0:c2 1:c5"), "");
}

#[test]
fn a_closed_channel_completes_the_newest_checkpoint_it_can() {
    let mut task = Task::new(AtLeastOnce, 3, true);
    assert_eq!(task.feed("0:b1 1:b1 0:b2 1:b2 1:b3 2:eop"), "T2 E2");
    assert_eq!(task.handler.pending_checkpoints(), vec![3]);
    assert_eq!(task.feed("0:b3"), "T3");
}

#[test]
fn a_closed_channel_can_complete_an_aborted_entry_without_triggering_it() {
    let mut task = Task::new(AtLeastOnce, 3, true);
    assert_eq!(task.feed("1:c7 0:b7 0:b8 2:eop"), "A7 E2");
    assert_eq!(task.handler.pending_checkpoints(), vec![8]);
    assert_eq!(task.feed("1:b8"), "T8");
}

#[test]
fn a_channel_closed_before_a_checkpoint_is_not_waited_for() {
    let out = run_on(3, "2:eop 0:b1 1:b1 1:eop 0:b2");
    assert_eq!(out, "E2 T1 E1 T2");
}

#[test]
fn without_finished_channels_aligning_an_end_of_partition_aborts_every_pending_one() {
    let mut task = Task::new(AtLeastOnce, 3, false);
    // 2 was already aborted by its marker and is not reported twice.
    assert_eq!(task.feed("0:b1 0:c2 0:b3 1:eop"), "A1 A2 A3 E1");
    assert_eq!(task.handler.pending_checkpoints(), Vec::<u64>::new());
    assert_eq!(task.feed("0:b4 2:b4"), "T4");
}

#[test]
fn at_most_fifty_checkpoints_are_pending_the_oldest_dropped_silently() {
    let mut task = Task::new(AtLeastOnce, 2, true);
    let barriers: Vec<String> = (1..=51).map(|id| format!("0:b{id}")).collect();
    assert_eq!(task.feed(&barriers.join(" ")), "");
    let pending = task.handler.pending_checkpoints();
    assert_eq!(pending.len(), 50);
    assert_eq!(pending.first(), Some(&2));
    assert_eq!(task.feed("1:b1 1:b2"), "T2");
    assert_eq!(task.handler.pending_checkpoints().len(), 49);
}

#[test]
fn with_one_channel_every_new_barrier_triggers_at_once() {
    let out = run_on(1, "0:b1 0:a1 0:b2 0:c3 0:b3 0:b4 0:b2 0:c4");
    assert_eq!(out, "T1 a1 T2 A3 T4");
}

#[test]
fn a_new_barrier_on_the_last_open_channel_subsumes_older_pending_ones() {
    // Checkpoint 1 waits for channel 1; when 2 completes at once on the only open channel,
    // 1 is dropped rather than triggered late, so triggers keep growing.
    let mut task = Task::new(AtLeastOnce, 2, true);
    assert_eq!(task.feed("0:b1 0:eop"), "E0");
    assert_eq!(task.handler.pending_checkpoints(), vec![1]);
    assert_eq!(task.feed("1:b2 1:b1"), "T2");
}

#[test]
fn a_barrier_on_the_last_open_channel_still_completes_a_pending_checkpoint() {
    let out = run_on(2, "0:b1 0:eop 1:b1");
    assert_eq!(out, "E0 T1");
}

#[test]
fn the_end_of_input_drops_pending_checkpoints_without_a_report() {
    let mut task = Task::new(AtLeastOnce, 2, true);
    assert_eq!(task.feed("0:b1 0:c2"), "A1 A2");
    assert_eq!(task.feed("0:b3"), "");
    assert_eq!(task.end(), "");
    assert_eq!(task.handler.pending_checkpoints(), Vec::<u64>::new());
}
