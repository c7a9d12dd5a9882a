//! Aligned, exactly-once: blocking, holding, replaying.

use super::{run, Task};
use crate::barrier::BarrierMode::Aligned;

/// The whole sequence plus the end of input, with finished channels aligning (the default).
fn run_on(channels: u32, inputs: &str) -> String {
    run(Aligned, channels, true, inputs)
}

/// The same with "checkpoints after tasks finish" off.
fn run_off(channels: u32, inputs: &str) -> String {
    run(Aligned, channels, false, inputs)
}

#[test]
fn a_first_barrier_blocks_its_channel_and_holds_what_follows() {
    let mut task = Task::new(Aligned, 3, true);
    assert_eq!(task.feed("0:a1 1:b1 1:p1 1:c9 0:a2 2:x1 1:eop"), "a1 a2 x1");
    assert!(task.handler.is_blocked(1));
    assert!(!task.handler.is_blocked(0));
    assert_eq!(task.held_on(1), "p1 c9 eop");
    assert_eq!(task.handler.held_count(), 3);
    assert_eq!(task.handler.current_checkpoint(), Some(1));
    assert!(task.handler.has_delivered_current(1));
    assert!(!task.handler.has_delivered_current(2));
    // The held end of partition has not been handled: channel 1 is still open.
    assert!(!task.handler.is_closed(1));
}

#[test]
fn the_last_barrier_triggers_first_then_held_items_replay_in_arrival_order() {
    let out = run_on(3, "0:b4 0:a1 1:b4 1:p1 0:a2 1:p2 2:x1 2:b4 2:x2");
    assert_eq!(out, "x1 T4 a1 p1 a2 p2 x2");
}

#[test]
fn held_items_drain_one_replay_at_a_time() {
    let mut task = Task::new(Aligned, 2, true);
    assert_eq!(task.feed_raw("0:b1 0:a1 0:a2 1:b1"), "T1");
    assert!(!task.handler.is_blocked(0));
    assert!(task.handler.has_replay());
    assert_eq!(task.held_on(0), "a1 a2");
    assert_eq!(task.replay_one(), "a1");
    assert_eq!(task.held_on(0), "a2");
    assert_eq!(task.replay_one(), "a2");
    assert!(!task.handler.has_replay());
    assert_eq!(task.replay_one(), "");
}

#[test]
fn a_new_arrival_first_drains_every_pending_replay() {
    let mut task = Task::new(Aligned, 2, true);
    assert_eq!(task.feed_raw("0:b1 0:a1 0:a2 1:b1 0:a3"), "T1 a1 a2 a3");
}

#[test]
fn a_replayed_barrier_starts_the_next_alignment_and_holds_again() {
    let mut task = Task::new(Aligned, 2, true);
    assert_eq!(task.feed("0:b1 0:a1 0:b2 0:a2 1:b1"), "T1 a1");
    assert_eq!(task.handler.current_checkpoint(), Some(2));
    assert_eq!(task.held_on(0), "a2");
    assert_eq!(task.feed("1:x1 1:b2"), "x1 T2 a2");
}

#[test]
fn the_buffer_of_an_alignment_ended_during_replay_goes_on_top_of_the_older_one() {
    // Checkpoint 1 ends with [0:b2 0:a1 1:b3 1:p1 0:a2] held. Replaying it, b2 starts aligning 2
    // and holds a1; b3 then subsumes 2 and a1 is replayed before the rest, so channel 0 keeps
    // its order (a1 before a2) while p1 waits for checkpoint 3.
    let mut task = Task::new(Aligned, 3, true);
    let out = task.feed("0:b1 1:b1 0:b2 0:a1 1:b3 1:p1 0:a2 2:b1");
    assert_eq!(out, "T1 A2 a1 a2");
    assert_eq!(task.held_on(1), "p1");
    assert_eq!(task.feed("2:b3 0:b3"), "T3 p1");
}

#[test]
fn the_replay_stack_is_visible_in_the_held_items() {
    let mut task = Task::new(Aligned, 3, true);
    assert_eq!(
        task.feed_raw("0:b1 1:b1 0:b2 0:a1 1:b3 1:p1 0:a2 2:b1"),
        "T1"
    );
    assert_eq!(task.held_on(0), "b2 a1 a2");
    assert_eq!(task.held_on(1), "b3 p1");
    assert_eq!(task.replay_one(), ""); // b2 starts aligning 2
    assert_eq!(task.replay_one(), ""); // a1 is held again by it
    assert_eq!(task.held_on(0), "a1 a2");
    assert_eq!(task.replay_one(), "A2"); // b3 subsumes 2; a1 goes on top of the stack
    assert_eq!(task.held_on(0), "a1 a2");
    assert_eq!(task.handler.held_count(), 3);
    assert_eq!(task.replay_one(), "a1");
    assert_eq!(task.replay_one(), ""); // p1 is held by checkpoint 3
    assert_eq!(task.replay_one(), "a2");
    assert!(!task.handler.has_replay());
    assert_eq!(task.held_on(1), "p1");
}

#[test]
fn a_newer_barrier_on_a_free_channel_subsumes_the_alignment() {
    let mut task = Task::new(Aligned, 3, true);
    // Aborted first, then the new alignment blocks channel 2, then the old buffer replays.
    assert_eq!(task.feed("0:b1 0:a1 2:b2 2:x1"), "A1 a1");
    assert!(task.handler.is_blocked(2));
    assert!(!task.handler.is_blocked(0));
    assert_eq!(task.held_on(2), "x1");
    assert_eq!(task.feed("0:b2 1:b2"), "T2 x1");
}

#[test]
fn a_stale_barrier_replayed_after_a_subsumption_is_ignored() {
    // Channel 1 sent b3 while blocked for 2; once 4 subsumes 2, the replayed b3 is older than
    // the alignment in progress and p1 behind it flows on.
    let out = run_on(3, "1:b2 1:b3 1:p1 0:b4 0:a1 2:b4 1:b4");
    assert_eq!(out, "A2 p1 T4 a1");
}

#[test]
fn barriers_older_than_the_alignment_are_ignored_and_block_nothing() {
    let mut task = Task::new(Aligned, 3, true);
    assert_eq!(task.feed("0:b5 1:b3 1:p1"), "p1");
    assert!(!task.handler.is_blocked(1));
    assert_eq!(task.feed("1:b5 2:b5"), "T5");
    // Not aligning: ids up to the last one handled are ignored too.
    assert_eq!(task.feed("2:b5 0:b4 0:a1"), "a1");
    assert_eq!(task.handler.current_checkpoint(), None);
}

#[test]
fn cancelling_the_aligned_checkpoint_aborts_it_and_releases_the_buffer() {
    let mut task = Task::new(Aligned, 2, true);
    assert_eq!(task.feed("0:b1 0:a1 1:c1 1:x1"), "A1 a1 x1");
    // Its late barriers start nothing, and a repeated marker is not reported again.
    assert_eq!(task.feed("1:b1 1:c1 1:x2"), "x2");
    assert!(!task.handler.is_blocked(1));
}

#[test]
fn cancelling_a_newer_checkpoint_reports_only_that_one() {
    let mut task = Task::new(Aligned, 3, true);
    assert_eq!(task.feed("0:b1 0:a1 1:c3"), "A3 a1");
    assert_eq!(task.handler.current_checkpoint(), None);
    // Checkpoint 3 never starts; 1's leftovers and older markers are ignored.
    assert_eq!(task.feed("2:b3 2:c1 1:b1 1:c2 2:x1"), "x1");
    assert_eq!(task.feed("0:b4 1:b4 2:b4"), "T4");
}

#[test]
fn a_marker_for_a_new_id_aborts_it_before_any_barrier() {
    let out = run_on(2, "0:c2 0:c2 0:b2 1:b2 0:c1 0:b3 1:b3 1:c3");
    assert_eq!(out, "A2 T3");
}

#[test]
fn with_finished_channels_aligning_a_closed_channel_completes_the_checkpoint() {
    // The trigger is reported before the end of partition, held items after both.
    let out = run_on(2, "0:b1 0:a1 1:x1 1:eop 0:a2");
    assert_eq!(out, "x1 T1 E1 a1 a2");
}

#[test]
fn a_channel_closed_before_the_barrier_needs_none() {
    let out = run_on(3, "2:eop 0:b1 0:a1 1:b1");
    assert_eq!(out, "E2 T1 a1");
}

#[test]
fn without_finished_channels_aligning_an_end_of_partition_aborts_the_alignment() {
    let out = run_off(3, "0:b1 0:a1 1:b1 1:p1 2:eop 0:b1 2:b2");
    assert_eq!(out, "A1 E2 a1 p1");
    // Later checkpoints simply need one channel less.
    let out = run_off(3, "2:eop 0:b1 1:b1");
    assert_eq!(out, "E2 T1");
}

#[test]
fn an_end_of_partition_on_a_blocked_channel_is_held_and_keeps_the_channel_open() {
    let mut task = Task::new(Aligned, 2, false);
    assert_eq!(task.feed("0:b1 0:a1 0:eop"), "");
    assert!(!task.handler.is_closed(0));
    // No abort although the option is off: the end of partition was not handled yet.
    assert_eq!(task.feed("1:b1"), "T1 a1 E0");
    assert!(task.handler.is_closed(0));
}

#[test]
fn a_replayed_barrier_triggers_at_once_when_its_channel_is_the_only_one_open() {
    // The held eop of channel 1 keeps it open until replayed, so 2 completes only then.
    let out = run_on(3, "0:b1 1:b1 0:b2 1:eop 0:a1 2:eop");
    assert_eq!(out, "T1 E2 T2 E1 a1");
    let out = run_on(2, "1:eop 0:b1 0:a1 0:b2 0:a2");
    assert_eq!(out, "E1 T1 a1 T2 a2");
}

#[test]
fn a_task_with_one_input_channel_never_holds_anything() {
    let mut task = Task::new(Aligned, 1, true);
    assert_eq!(
        task.feed("0:a1 0:b1 0:a2 0:b2 0:b3 0:c4 0:b5 0:a3"),
        "a1 T1 a2 T2 T3 A4 T5 a3"
    );
    assert_eq!(task.handler.held_count(), 0);
    assert!(!task.handler.is_blocked(0));
}

#[test]
fn the_end_of_input_drops_the_alignment_and_releases_held_items_in_order() {
    let mut task = Task::new(Aligned, 3, true);
    assert_eq!(task.feed("0:b1 0:a1 0:b2 1:b1 1:p1 0:a2 0:eop 1:c5"), "");
    // No abort of 1, barriers ignored, markers and end of partition still handled.
    assert_eq!(task.end(), "a1 p1 a2 E0 A5");
    assert_eq!(task.handler.held_count(), 0);
    assert_eq!(task.handler.current_checkpoint(), None);
    assert!(task.handler.is_closed(0));
}

#[test]
fn the_end_of_input_first_finishes_pending_replays_by_the_usual_rules() {
    let mut task = Task::new(Aligned, 2, true);
    assert_eq!(task.feed_raw("0:b1 0:b2 0:a1 1:b1"), "T1");
    // b2 is replayed before the input ends, so it aligns and holds a1, then the release drops it.
    assert_eq!(task.end(), "a1");
    assert!(!task.handler.has_replay());
}

#[test]
fn a_marker_replayed_from_the_buffer_aborts_as_if_it_had_just_arrived() {
    let out = run_on(3, "1:b1 2:b1 2:a1 2:c2 1:b2 0:x1 0:b1 0:a2 0:b2");
    assert_eq!(out, "x1 T1 a1 A2 a2");
}

/// The notes the handler gives the narration for barrier `n` arriving on `ch`.
fn notes(handler: &mut crate::barrier::BarrierHandler<u32>, ch: u32, n: u64) -> String {
    use crate::barrier::{Input, Output};
    let mut out = Vec::new();
    handler.receive(ch, Input::Barrier(n), &mut out);
    let mut text = Vec::new();
    for o in out {
        match o {
            Output::Barrier {
                have,
                need,
                unawaited,
                ..
            } => text.push(format!("B{have}/{need}~{unawaited}")),
            Output::Unblocked { to_replay } => text.push(format!("U{to_replay}")),
            Output::Triggered(n) => text.push(format!("T{n}")),
            _ => {}
        }
    }
    text.join(" ")
}

#[test]
fn an_unblocking_is_reported_only_when_an_input_waited() {
    use crate::barrier::BarrierHandler;
    // One input: the first barrier is the last, nothing ever waited.
    let mut one = BarrierHandler::<u32>::new(Aligned, 1, true);
    assert_eq!(notes(&mut one, 0, 1), "B1/1~0 T1");
    // Two inputs: the first blocks its channel until the second arrives.
    let mut two = BarrierHandler::<u32>::new(Aligned, 2, true);
    assert_eq!(notes(&mut two, 0, 1), "B1/2~0");
    assert_eq!(notes(&mut two, 1, 1), "B2/2~0 T1 U0");
}

#[test]
fn a_back_edge_is_counted_without_being_awaited_and_says_so() {
    use crate::barrier::BarrierHandler;
    // Input 1 closes a cycle: the regular input's barrier completes the alignment at once, and
    // the note says one of the inputs counted was not awaited (the ABS paper's Algorithm 2).
    let mut task = BarrierHandler::<u32>::new(Aligned, 2, true);
    task.set_back_edges(&[1]);
    assert_eq!(notes(&mut task, 0, 1), "B2/2~1 T1");
    // Two regular inputs and a back-edge: the first regular barrier waits for the second.
    let mut three = BarrierHandler::<u32>::new(Aligned, 3, true);
    three.set_back_edges(&[2]);
    assert_eq!(notes(&mut three, 0, 1), "B2/3~1");
    assert_eq!(notes(&mut three, 1, 1), "B3/3~1 T1 U0");
}

#[test]
fn an_end_of_data_keeps_its_channel_open_for_barriers_and_waits_in_the_buffer_like_a_record() {
    // FLIP-147: after its end of data a channel still delivers barriers; the task aligns on it.
    let out = run_on(2, "0:a1 0:eod 0:b1 1:x1 1:b1");
    assert_eq!(out, "a1 D0 x1 T1");
    // On a blocked channel it waits in the alignment buffer, in order, behind the records.
    let out = run_on(2, "0:b1 0:a1 0:eod 1:x1 1:b1");
    assert_eq!(out, "x1 T1 a1 D0");
}
