//! The narration's sentences (`abs_engine::view`), told of the presets.

use abs_engine::barrier::BarrierTake;
use abs_engine::model::Partitioning;
use abs_engine::trace::Event;
use abs_engine::view::*;
use abs_engine::BarrierMode;
use abs_scenario::presets;

/// The sentence of an event in a run of `mode`'s protocol.
fn of(event: &Event, mode: BarrierMode) -> Sentence {
    Sentence::of(event, mode.description()).expect("told")
}

/// The same event is told in the words of the protocol: the choice the languages no longer
/// make themselves.
#[test]
fn the_protocol_chooses_the_sentence_of_an_event() {
    let sim = presets::alignment().simulation().unwrap();
    let phys = sim.physical();
    let merge = phys.task_by_name("Merge#0").unwrap();
    let channel = phys.tasks[merge as usize].inputs[0];
    let at = Input {
        task: merge,
        channel,
    };
    let first = Event::Barrier {
        task: merge,
        channel,
        checkpoint: 1,
        take: BarrierTake::First,
        have: 1,
        need: 2,
        unawaited: 0,
        kept_aligned: None,
        timed_out: false,
        back_edge: false,
        savepoint: false,
        chained: false,
    };
    let told = |mode| of(&first, mode);
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
    // A savepoint's barrier, which the unaligned task takes aligned: told as an alignment.
    let mut savepoint = first.clone();
    if let Event::Barrier { savepoint: s, .. } = &mut savepoint {
        *s = true;
    }
    assert_eq!(
        of(&savepoint, BarrierMode::Unaligned),
        Sentence::AlignmentStarts {
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
    // How a snapshot's barriers went out is the engine's decision, carried by the event: the
    // sentence follows it in every mode (an aligned checkpoint that timed out forwards with
    // priority too); Chandy-Lamport tells a process's records instead. Items in alignment
    // buffers are lost in a failure only when aligned.
    let snapshot = |priority| Event::Snapshot {
        task: merge,
        checkpoint: 1,
        forwarded: 1,
        offset: None,
        priority,
    };
    let forward = |mode, priority| match of(&snapshot(priority), mode) {
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
    let failed = Event::Failed {
        task: None,
        dropped: 3,
        restart_at: 9,
        region: None,
    };
    let buffers = |mode| matches!(of(&failed, mode), Sentence::Failed { buffers: true, .. });
    assert!(buffers(BarrierMode::Aligned));
    assert!(!buffers(BarrierMode::AtLeastOnce) && !buffers(BarrierMode::Unaligned));
    // One input: nothing to wait for, in every mode but Chandy-Lamport's words.
    let only = Event::Barrier {
        task: merge,
        channel,
        checkpoint: 1,
        take: BarrierTake::First,
        have: 1,
        need: 1,
        unawaited: 0,
        kept_aligned: None,
        timed_out: false,
        back_edge: false,
        savepoint: false,
        chained: false,
    };
    assert_eq!(
        of(&only, BarrierMode::Aligned),
        Sentence::BarrierOnOnlyInput { n: 1, task: merge }
    );
    // Handed over inside a chain: told as the chain's one call in every mode, a snapshot's in
    // Chandy-Lamport's words, even where a forward edge would otherwise keep it aligned.
    let mut chained = only.clone();
    if let Event::Barrier {
        chained: c,
        kept_aligned: k,
        ..
    } = &mut chained
    {
        (*c, *k) = (true, Some(Partitioning::Forward));
    }
    for mode in [
        BarrierMode::Aligned,
        BarrierMode::Unaligned,
        BarrierMode::AtLeastOnce,
    ] {
        assert_eq!(
            of(&chained, mode),
            Sentence::ChainedBarrier {
                n: 1,
                at: Input {
                    task: merge,
                    channel
                },
                snapshot: false
            },
            "{mode}"
        );
    }
    assert!(matches!(
        of(&chained, BarrierMode::ChandyLamport),
        Sentence::ChainedBarrier { snapshot: true, .. }
    ));
}

/// After an aligned checkpoint times out, its tasks forward their barriers as priority events
/// (they overtake the queued records): the snapshot event says so and the narration tells it,
/// where it once told a queued barrier because it read the mode. Plain aligned never does.
#[test]
fn a_snapshot_after_the_alignment_timeout_is_told_as_overtaking() {
    let told = |timeout: Option<u64>| {
        let mut scenario = presets::backpressure().with_mode(BarrierMode::Aligned);
        scenario.config.aligned_checkpoint_timeout = timeout;
        let mut sim = scenario.simulation().unwrap();
        let (mut priority, mut queued) = (0, 0);
        for _ in 0..3_000 {
            if sim.step().is_none() {
                break;
            }
            for event in sim.last_events() {
                let Event::Snapshot {
                    forwarded,
                    offset: None,
                    priority: flagged,
                    ..
                } = *event
                else {
                    continue;
                };
                if forwarded == 0 {
                    continue;
                }
                match of(event, BarrierMode::Aligned) {
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
        for event in sim.last_events() {
            match event {
                Event::AlignmentTimedOut { .. } => timed_out = true,
                Event::Barrier {
                    timed_out: true, ..
                } => {
                    let told = of(event, BarrierMode::Aligned);
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

/// A savepoint is told as Flink takes it: aligned in the exactly-once modes (in unaligned mode
/// although its barriers would overtake), tracked at-least-once.
#[test]
fn a_savepoint_is_told_by_how_the_mode_takes_it() {
    let triggered = Event::CheckpointTriggered {
        checkpoint: 4,
        savepoint: true,
    };
    let told = |mode| of(&triggered, mode);
    assert_eq!(
        told(BarrierMode::Aligned),
        Sentence::SavepointTriggered {
            n: 4,
            overtaking: false,
            exactly_once: true
        }
    );
    assert_eq!(
        told(BarrierMode::Unaligned),
        Sentence::SavepointTriggered {
            n: 4,
            overtaking: true,
            exactly_once: true
        }
    );
    assert_eq!(
        told(BarrierMode::AtLeastOnce),
        Sentence::SavepointTriggered {
            n: 4,
            overtaking: false,
            exactly_once: false
        }
    );
}
