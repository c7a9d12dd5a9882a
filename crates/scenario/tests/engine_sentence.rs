//! The narration's sentences (`abs_engine::view`), told of the presets.

use abs_engine::barrier::BarrierTake;
use abs_engine::view::*;
use abs_engine::BarrierMode;
use abs_scenario::presets;

/// The same beat is told by the sentence of the mode: the choice the languages no longer
/// make themselves.
#[test]
fn the_mode_chooses_the_sentence_of_a_beat() {
    let sim = presets::alignment().simulation().unwrap();
    let phys = sim.physical();
    let merge = phys.task_by_name("Merge#0").unwrap();
    let at = Input {
        task: merge,
        input: 0,
    };
    let first = Beat::Barrier {
        task: merge,
        input: 0,
        checkpoint: 1,
        take: BarrierTake::First,
        have: 1,
        need: 2,
        unawaited: 0,
        kept_aligned: None,
        timed_out: false,
    };
    let told = |mode| Sentence::of(&first, phys, mode);
    assert_eq!(
        told(BarrierMode::Aligned),
        Sentence::AlignmentStarts {
            n: 1,
            at,
            waiting: 1
        }
    );
    assert_eq!(
        told(BarrierMode::Unaligned),
        Sentence::UnalignedFirst {
            n: 1,
            at,
            waiting: 1
        }
    );
    assert_eq!(
        told(BarrierMode::AtLeastOnce),
        Sentence::TrackingFlows {
            n: 1,
            at,
            have: 1,
            need: 2
        }
    );
    assert_eq!(
        told(BarrierMode::ChandyLamport),
        Sentence::MarkerFirst {
            n: 1,
            at,
            waiting: 1
        }
    );
    // How a snapshot's barriers went out is the engine's decision, carried by the beat: the
    // sentence follows it in every mode (an aligned checkpoint that timed out forwards with
    // priority too); Chandy-Lamport tells a process's records instead. Items in alignment
    // buffers are lost in a failure only when aligned.
    let snapshot = |priority| Beat::Snapshot {
        task: merge,
        checkpoint: 1,
        forwarded: 1,
        acked: None,
        priority,
    };
    let forward = |mode, priority| match Sentence::of(&snapshot(priority), phys, mode) {
        Sentence::Snapshot { forward, .. } => Some(forward),
        _ => None,
    };
    assert_eq!(
        forward(BarrierMode::Unaligned, true),
        Some(Forward::Priority)
    );
    assert_eq!(forward(BarrierMode::Aligned, true), Some(Forward::Priority));
    assert_eq!(forward(BarrierMode::Aligned, false), Some(Forward::Queued));
    assert_eq!(forward(BarrierMode::ChandyLamport, false), None);
    let failed = Beat::Failed {
        task: None,
        dropped: 3,
        restart_at: 9,
    };
    let buffers = |mode| {
        matches!(
            Sentence::of(&failed, phys, mode),
            Sentence::Failed { buffers: true, .. }
        )
    };
    assert!(buffers(BarrierMode::Aligned));
    assert!(!buffers(BarrierMode::AtLeastOnce) && !buffers(BarrierMode::Unaligned));
    // One input: nothing to wait for, in every mode but Chandy-Lamport's words.
    let only = Beat::Barrier {
        task: merge,
        input: 0,
        checkpoint: 1,
        take: BarrierTake::First,
        have: 1,
        need: 1,
        unawaited: 0,
        kept_aligned: None,
        timed_out: false,
    };
    assert_eq!(
        Sentence::of(&only, phys, BarrierMode::Aligned),
        Sentence::BarrierOnOnlyInput { n: 1, task: merge }
    );
}

/// After an aligned checkpoint times out, its tasks forward their barriers as priority events
/// (they overtake the queued records): the snapshot event says so and the narration tells it,
/// where it once told a queued barrier because it read the mode. Plain aligned never does.
#[test]
fn a_snapshot_after_the_alignment_timeout_is_told_as_overtaking() {
    use abs_engine::trace::Event;
    let told = |timeout: Option<u64>| {
        let mut scenario = presets::backpressure().with_mode(BarrierMode::Aligned);
        scenario.config.aligned_checkpoint_timeout = timeout;
        let mut sim = scenario.simulation().unwrap();
        let (mut priority, mut queued) = (0, 0);
        for _ in 0..3_000 {
            if sim.step().is_none() {
                break;
            }
            let events = sim.last_events().to_vec();
            for beat in beats(sim.physical(), &events) {
                let Beat::Snapshot { forwarded, .. } = beat else {
                    continue;
                };
                if forwarded == 0 {
                    continue;
                }
                let flagged = events
                    .iter()
                    .any(|e| matches!(e, Event::Snapshot { priority: true, .. }));
                match Sentence::of(&beat, sim.physical(), BarrierMode::Aligned) {
                    Sentence::Snapshot {
                        forward: Forward::Priority,
                        ..
                    } => {
                        assert!(flagged, "told as overtaking, but the event says queued");
                        priority += 1;
                    }
                    Sentence::Snapshot {
                        forward: Forward::Queued,
                        ..
                    } => queued += 1,
                    other => panic!("a snapshot told as {other:?}"),
                }
            }
        }
        (priority, queued)
    };
    let (priority, queued) = told(Some(abs_scenario::ALIGNED_TIMEOUT));
    println!("aligned with a timeout: {priority} snapshots overtook, {queued} queued");
    assert!(
        priority > 0,
        "no snapshot forwarded with priority after a timeout"
    );
    assert_eq!(told(None).0, 0, "plain aligned never overtakes");
}

/// After an aligned checkpoint timed out at a task, that task's later barriers of it end the
/// recording of an input's channel state: they are told so, never as an alignment completing
/// (the barrier event says the alignment had timed out). In the alignment preset, Merge times
/// out while Src B's barrier is still on the slow channel.
#[test]
fn a_barrier_after_the_timeout_is_told_as_ending_a_recording() {
    use abs_scenario::modes::RunMode;
    let scenario = RunMode::named(abs_scenario::ALIGNED_TIMEOUT_MODE)
        .unwrap()
        .apply(&presets::alignment());
    let mut sim = scenario.simulation().unwrap();
    let (mut after_timeout, mut timed_out) = (0, false);
    for _ in 0..200 {
        if sim.step().is_none() {
            break;
        }
        let events = sim.last_events().to_vec();
        for beat in beats(sim.physical(), &events) {
            match &beat {
                Beat::AlignmentTimedOut { .. } => timed_out = true,
                Beat::Barrier {
                    timed_out: true, ..
                } => {
                    let told = Sentence::of(&beat, sim.physical(), BarrierMode::Aligned);
                    assert!(
                        matches!(
                            told,
                            Sentence::UnalignedComplete { .. }
                                | Sentence::UnalignedInputSaved { .. }
                        ),
                        "{told:?}"
                    );
                    after_timeout += 1;
                }
                _ => {}
            }
        }
    }
    assert!(timed_out, "no alignment timed out");
    assert!(after_timeout > 0, "no barrier came after a timeout");
}
