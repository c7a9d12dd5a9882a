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
    // A snapshot's barrier goes out as a priority event only when unaligned; items in
    // alignment buffers are lost in a failure only when aligned.
    let snapshot = Beat::Snapshot {
        task: merge,
        checkpoint: 1,
        forwarded: 1,
        acked: None,
    };
    let forward = |mode| match Sentence::of(&snapshot, phys, mode) {
        Sentence::Snapshot { forward, .. } => Some(forward),
        _ => None,
    };
    assert_eq!(forward(BarrierMode::Unaligned), Some(Forward::Priority));
    assert_eq!(forward(BarrierMode::Aligned), Some(Forward::Queued));
    assert_eq!(forward(BarrierMode::ChandyLamport), None);
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
    };
    assert_eq!(
        Sentence::of(&only, phys, BarrierMode::Aligned),
        Sentence::BarrierOnOnlyInput { n: 1, task: merge }
    );
}
