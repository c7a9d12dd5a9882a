//! What a run's snapshots do (`abs_engine::modes`), asked of the presets.

use abs_engine::barrier::BarrierMode::{self, *};
use abs_scenario::presets;

/// Each answer the page reads instead of comparing modes, for an acyclic and a cyclic job,
/// without and with the aligned-checkpoint timeout.
#[test]
fn a_run_answers_what_its_snapshots_do() {
    // (mode, timeout, cyclic) → blocks, persists, logs back-edges, holds channel state,
    // may slip, processes initiate, keeps some barriers aligned. `alignment`'s Merge → Sink is
    // forward: with unaligned checkpoints or the timeout, Sink aligns there (Flink's rule).
    let cases: [(BarrierMode, bool, bool, [bool; 7]); 7] = [
        (
            Aligned,
            false,
            false,
            [true, false, false, false, false, false, false],
        ),
        (
            Aligned,
            true,
            false,
            [true, true, false, true, false, false, true],
        ),
        (
            Aligned,
            false,
            true,
            [true, false, true, true, false, false, false],
        ),
        (
            Unaligned,
            false,
            false,
            [true, true, false, true, false, false, true],
        ),
        (
            Unaligned,
            false,
            true,
            [false, true, false, true, false, false, false],
        ),
        (
            AtLeastOnce,
            false,
            false,
            [false, false, false, false, true, false, false],
        ),
        (
            ChandyLamport,
            false,
            false,
            [false, true, false, true, false, true, false],
        ),
    ];
    for (mode, timeout, cyclic, want) in cases {
        let preset = if cyclic {
            presets::iteration()
        } else {
            presets::alignment()
        };
        // The timeout entry is aligned mode with the timeout set.
        let scenario = if timeout {
            preset.with_aligned_timeout(true)
        } else {
            preset.with_mode(mode)
        };
        let sim = scenario.simulation().unwrap();
        let c = sim.capabilities();
        let got = [
            c.blocks_inputs,
            c.persists_in_flight,
            c.logs_back_edges,
            c.holds_channel_state,
            c.may_slip,
            c.processes_initiate,
            c.keeps_aligned,
        ];
        assert_eq!(got, want, "{mode} timeout {timeout} cyclic {cyclic}");
    }
}
