//! Cases derived from Apache Flink's own barrier-handler tests, run against `abs-sim gate`.
//!
//! Each case below takes the arrival sequence of one Flink test (`BarrierBufferTestBase` and
//! `BarrierTrackerTest` of Flink 1.x, `AlignedCheckpointsTest`, `CheckpointBarrierTrackerTest`,
//! `UnalignedCheckpointsTest` and `CheckpointedInputGateTest` of later versions) and states what
//! the task must print according to the project's barrier rules (`docs/barrier-rules.md`). Where the rules and Flink
//! disagree the rules win, and the case says so in a `RULES ≠ FLINK` note. Cases whose name ends
//! in `_finished_align_off` run with `--finished-channels-align false` (Flink's behaviour before
//! 1.15, which most of the older tests assume); all others use the default, `true`.
//!
//! Shorthand, expanded into the gate's JSON lines by this file:
//! - arrivals: `2:r` a record on channel 2, `1:b3` barrier 3 on channel 1, `0:c4` cancellation
//!   marker 4 on channel 0, `3:eop` end of partition on channel 3. A record is named `s` plus its
//!   0-based position in the arrival list, which is also its index in the Flink test's `sequence`
//!   array, so `s7` is Flink's `sequence[7]`.
//! - output: `s7` the record handed on, `T3` triggered 3, `A2` aborted 2, `E1` end of partition
//!   of channel 1 handled, `S5/2:s31` record `s31` of channel 2 persisted as in-flight state of
//!   checkpoint 5.
//!
//! The binary itself is exercised at the bottom: every case through `abs-sim gate` must print
//! exactly what `run_gate` returns, and malformed lines must end with status 2 and a message
//! naming the line.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Output, Stdio};

use abs_playground::engine::barrier::BarrierMode::{self, Aligned, AtLeastOnce, Unaligned};
use abs_playground::engine::gate::{run_gate, GateOptions};
use serde_json::Value;

/// One translated Flink test.
struct Case {
    name: &'static str,
    mode: BarrierMode,
    channels: u32,
    finished_channels_align: bool,
    arrivals: &'static str,
    expected: &'static str,
}

/// Declares every case twice: as its own `#[test]` (so it can fail or be ignored on its own) and
/// as a row of [`CASES`] (for the whole-table checks further down).
macro_rules! flink_cases {
    ($(
        $(#[$attr:meta])*
        $name:ident {
            mode: $mode:ident,
            channels: $channels:literal,
            finished_channels_align: $align:literal,
            arrivals: $arrivals:literal,
            expected: $expected:literal $(,)?
        }
    )*) => {
        $(
            $(#[$attr])*
            #[test]
            fn $name() {
                check(&Case {
                    name: stringify!($name),
                    mode: $mode,
                    channels: $channels,
                    finished_channels_align: $align,
                    arrivals: $arrivals,
                    expected: $expected,
                });
            }
        )*

        const CASES: &[Case] = &[$(
            Case {
                name: stringify!($name),
                mode: $mode,
                channels: $channels,
                finished_channels_align: $align,
                arrivals: $arrivals,
                expected: $expected,
            },
        )*];
    };
}

flink_cases! {
    // ====================================================================================
    // Aligned, exactly-once: BarrierBufferTestBase (1.x, items of blocked channels are held
    // and replayed) and AlignedCheckpointsTest (later versions, blocking in the network stack).
    // ====================================================================================

    /// testSingleChannelNoBarriers: a lone channel without barriers passes everything through.
    aligned_single_channel_no_barriers {
        mode: Aligned,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:r 0:r 0:eop",
        expected: "s0 s1 s2 E0",
    }

    /// testMultiChannelNoBarriers: four channels, no barriers: arrival order is kept, each eop
    /// is handled where it arrives.
    aligned_multi_channel_no_barriers {
        mode: Aligned,
        channels: 4,
        finished_channels_align: true,
        arrivals: "2:r 2:r 0:r 1:r 0:r 0:eop 3:r 1:r 3:eop 1:r 1:eop 2:r 2:eop",
        expected: "s0 s1 s2 s3 s4 E0 s6 s7 E3 s9 E1 s11 E2",
    }

    /// testSingleChannelWithBarriers: with one channel every newer barrier triggers at once and
    /// nothing is ever held, even for back-to-back barriers.
    aligned_single_channel_with_barriers {
        mode: Aligned,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:r 0:r 0:b1 0:r 0:r 0:r 0:r 0:b2 0:b3 0:r 0:r 0:b4 0:b5 0:b6 0:r 0:eop",
        expected: "s0 s1 s2 T1 s4 s5 s6 s7 T2 T3 s10 s11 T4 T5 T6 s15 E0",
    }

    /// BarrierBufferTestBase.testMultiChannelWithBarriers: five checkpoints; items that arrive
    /// on channels that already delivered the barrier are held and replayed right after the
    /// trigger, in arrival order.
    barrier_buffer_multi_channel_with_barriers {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 \
                   0:r 0:r 1:r 1:r 2:r 0:b2 1:b2 2:b2 \
                   2:r 2:r 2:b3 2:r 2:r 0:b3 1:b3 \
                   1:b4 2:b4 0:b4 \
                   0:r 2:r 0:r 1:b5 2:r 0:r 2:r 1:r 2:b5 1:r 0:r 2:r 1:r 0:b5 \
                   0:r 0:eop 1:eop 2:eop",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s11 s12 s13 T2 s17 s18 T3 s20 s21 T4 \
                   s27 s28 s29 s31 s32 s33 s37 T5 s34 s36 s38 s39 s41 E0 E1 E2",
    }

    /// AlignedCheckpointsTest.testMultiChannelWithBarriers: the later variant, where nothing
    /// arrives on a blocked channel; checkpoints 1–4 trigger on their last barrier.
    aligned_multi_channel_with_barriers {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 0:r 0:b1 \
                   0:r 0:r 1:r 1:r 2:r 0:b2 1:b2 2:b2 \
                   2:r 2:r 2:b3 0:r 0:r 0:b3 1:b3 \
                   1:b4 2:b4 0:b4 \
                   0:r 0:eop 1:eop 2:eop",
        expected: "s0 s1 s2 s5 T1 s7 s8 s9 s10 s11 T2 s15 s16 s18 s19 T3 T4 s25 E0 E1 E2",
    }

    /// testMetrics (aligned): three records pass on free channels during the alignment, the
    /// trigger comes with the last barrier.
    aligned_metrics {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 1:r 2:r 1:b1 0:r 2:r 0:b1 2:r 2:b1 0:r 1:r 2:r 0:eop 1:eop 2:eop",
        expected: "s0 s1 s2 s4 s5 s7 T1 s9 s10 s11 E0 E1 E2",
    }

    /// BarrierBufferTestBase.testMultiChannelTrailingBlockedData: checkpoint 2 is still aligning
    /// when the last open channel ends. RULES ≠ FLINK: with the option on (the rules' default)
    /// that end of partition completes checkpoint 2 (trigger before the eop, then the held items
    /// replay); Flink 1.x had no such option and gave up checkpoint 2 instead.
    barrier_buffer_multi_channel_trailing_blocked_data {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 1:r 2:r 1:b1 2:b1 0:b1 \
                   2:r 1:r 0:r 1:b2 1:r 1:r 1:eop 0:r 2:r 2:b2 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 T1 s6 s7 s8 s13 s14 s18 T2 E0 s10 s11 E1 s16 E2",
    }

    /// BarrierBufferTestBase.testEarlyCleanup (same arrivals as the trailing-blocked-data test)
    /// with the option off, as Flink ran it: the eop aborts checkpoint 2, is handled at once, and
    /// the held items, a held eop among them, replay after it.
    barrier_buffer_early_cleanup_finished_align_off {
        mode: Aligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:r 1:r 2:r 1:b1 2:b1 0:b1 \
                   2:r 1:r 0:r 1:b2 1:r 1:r 1:eop 0:r 2:r 2:b2 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 T1 s6 s7 s8 s13 s14 s18 A2 E0 s10 s11 E1 s16 E2",
    }

    /// testMultiChannelTrailingBlockedData cut short before the final eop (the buffer cleanup
    /// the Flink test ends with): the input ends mid-alignment, so checkpoint 2 is dropped
    /// without a report and the held items come out in arrival order.
    barrier_buffer_trailing_blocked_data_input_ends {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 1:r 2:r 1:b1 2:b1 0:b1 \
                   2:r 1:r 0:r 1:b2 1:r 1:r 1:eop 0:r 2:r 2:b2 2:r 2:eop 0:r",
        expected: "s0 s1 s2 T1 s6 s7 s8 s13 s14 s18 s10 s11 E1 s16 E2",
    }

    /// BarrierBufferTestBase.testMultiChannelWithQueuedFutureBarriers: barriers of checkpoints
    /// 3–6 are held behind the running alignment; each replay starts the next alignment, whose
    /// own held items come back first. RULES ≠ FLINK: with the option on the final eop completes
    /// checkpoint 5 and, with a single channel left open, the replayed barrier 6 triggers at once;
    /// Flink 1.x aborted 5 and 6 instead (see the `_finished_align_off` twin).
    barrier_buffer_multi_channel_with_queued_future_barriers {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 1:r 0:r \
                   1:b2 1:r 2:r 0:b2 0:b3 0:r 1:b3 0:r 1:r 2:r 1:b4 1:r 2:r \
                   2:b2 2:r 1:r 2:r 0:r 0:b4 2:r 1:r 2:r 0:r 1:b5 \
                   2:b3 2:r 1:r 2:r 0:r 1:b6 \
                   2:b4 2:r 1:r 1:eop 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s13 s20 s23 T2 s12 s25 s27 s30 s32 \
                   T3 s16 s18 s19 s28 s36 s38 T4 s22 s26 s31 s33 s39 s42 s45 E2 s47 \
                   T5 E0 s37 T6 s43 E1",
    }

    /// testMultiChannelWithQueuedFutureBarriers as Flink ran it (option off): the eop of channel
    /// 2 aborts checkpoint 5, the replayed barrier 6 starts another alignment, and the eop of
    /// channel 0 aborts that one too.
    barrier_buffer_multi_channel_with_queued_future_barriers_finished_align_off {
        mode: Aligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 1:r 0:r \
                   1:b2 1:r 2:r 0:b2 0:b3 0:r 1:b3 0:r 1:r 2:r 1:b4 1:r 2:r \
                   2:b2 2:r 1:r 2:r 0:r 0:b4 2:r 1:r 2:r 0:r 1:b5 \
                   2:b3 2:r 1:r 2:r 0:r 1:b6 \
                   2:b4 2:r 1:r 1:eop 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s13 s20 s23 T2 s12 s25 s27 s30 s32 \
                   T3 s16 s18 s19 s28 s36 s38 T4 s22 s26 s31 s33 s39 s42 s45 A5 E2 s37 \
                   s47 A6 E0 s43 E1",
    }

    /// testMultiChannelWithQueuedFutureBarriers cut short after barrier 4 of channel 2 (derived):
    /// the input ends while checkpoint 5 aligns with barrier 6 held behind it; 5 is dropped
    /// without a report, the held items come out in arrival order and the held barrier 6 is
    /// ignored rather than starting anything.
    barrier_buffer_queued_future_barriers_input_ends {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 1:r 0:r \
                   1:b2 1:r 2:r 0:b2 0:b3 0:r 1:b3 0:r 1:r 2:r 1:b4 1:r 2:r \
                   2:b2 2:r 1:r 2:r 0:r 0:b4 2:r 1:r 2:r 0:r 1:b5 \
                   2:b3 2:r 1:r 2:r 0:r 1:b6 \
                   2:b4 2:r 1:r",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s13 s20 s23 T2 s12 s25 s27 s30 s32 \
                   T3 s16 s18 s19 s28 s36 s38 T4 s22 s26 s31 s33 s39 s42 s37 s43",
    }

    /// BarrierBufferTestBase.testMultiChannelSkippingCheckpoints: barrier 3 on a free channel
    /// subsumes checkpoint 2 (reported aborted, its held items replayed). RULES ≠ FLINK: with
    /// the option on the trailing eops complete checkpoint 3 instead of aborting it.
    barrier_buffer_multi_channel_skipping_checkpoints {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 1:r 0:r \
                   1:b2 1:r 2:r 0:b2 2:r 0:r 2:b3 \
                   2:r 1:r 1:eop 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s13 s15 A2 s12 s16 s19 E1 s23 T3 E0 s18 s21 E2",
    }

    /// testMultiChannelSkippingCheckpoints as Flink ran it: the first eop on a free channel
    /// aborts checkpoint 3 and is handled before the held record of channel 2 replays.
    barrier_buffer_multi_channel_skipping_checkpoints_finished_align_off {
        mode: Aligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 1:r 0:r \
                   1:b2 1:r 2:r 0:b2 2:r 0:r 2:b3 \
                   2:r 1:r 1:eop 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s13 s15 A2 s12 s16 s19 A3 E1 s18 s21 E2 s23 E0",
    }

    /// BarrierBufferTestBase.testMultiChannelJumpingOverCheckpoint: barrier 4 overtakes
    /// checkpoint 2 while barriers of 3 sit in its buffer; replayed, they are older than 4 and
    /// ignored. RULES ≠ FLINK: option on, so the eops complete 4 rather than abort it.
    barrier_buffer_multi_channel_jumping_over_checkpoint {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 1:r 0:r \
                   1:b2 1:r 2:r 0:b2 2:r 0:r 1:b3 1:r 2:r 0:b3 2:r 0:r 2:b4 \
                   2:r 1:r 1:eop 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s13 s15 s19 s21 A2 s12 s16 s18 s22 \
                   s25 E1 s29 T4 E0 s24 s27 E2",
    }

    /// testMultiChannelJumpingOverCheckpoint (1.x) as Flink ran it: the eop of channel 1 aborts
    /// checkpoint 4.
    barrier_buffer_multi_channel_jumping_over_checkpoint_finished_align_off {
        mode: Aligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 1:r 0:r \
                   1:b2 1:r 2:r 0:b2 2:r 0:r 1:b3 1:r 2:r 0:b3 2:r 0:r 2:b4 \
                   2:r 1:r 1:eop 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s13 s15 s19 s21 A2 s12 s16 s18 s22 \
                   s25 A4 E1 s24 s27 E2 s29 E0",
    }

    /// AlignedCheckpointsTest.testMultiChannelJumpingOverCheckpoint: 3 subsumes 2, 4 subsumes 3.
    /// RULES ≠ FLINK: Flink expects one trigger and three aborts (4 aborted by the eop of channel
    /// 0); with the option on, that eop leaves 4 waiting and the eop of channel 2 completes it.
    aligned_multi_channel_jumping_over_checkpoint {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 0:r 0:b1 1:r 0:r \
                   1:b2 2:r 0:b2 2:r 2:b3 1:r 0:r 0:b3 1:b4 2:r 0:r \
                   0:eop 2:r 2:eop 1:r 1:eop",
        expected: "s0 s1 s2 s5 T1 s7 s8 s10 s12 A2 s14 s15 A3 s18 s19 E0 s21 T4 E2 s23 E1",
    }

    /// AlignedCheckpointsTest.testMultiChannelJumpingOverCheckpoint with the option off: one
    /// trigger and three aborts, exactly Flink's counts.
    aligned_multi_channel_jumping_over_checkpoint_finished_align_off {
        mode: Aligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 0:r 0:b1 1:r 0:r \
                   1:b2 2:r 0:b2 2:r 2:b3 1:r 0:r 0:b3 1:b4 2:r 0:r \
                   0:eop 2:r 2:eop 1:r 1:eop",
        expected: "s0 s1 s2 s5 T1 s7 s8 s10 s12 A2 s14 s15 A3 s18 s19 A4 E0 s21 E2 s23 E1",
    }

    /// BarrierBufferTestBase.testMultiChannelSkippingCheckpointsViaBlockedInputs: barriers 3 and
    /// 4 are held behind checkpoint 2. On replay barrier 3 starts an alignment, the replayed
    /// barrier 4 (on a channel 3 did not block) subsumes it, and what 3 held comes back before
    /// the rest of 2's buffer; the late barrier 3 of channel 2 is ignored.
    barrier_buffer_multi_channel_skipping_checkpoints_via_blocked_inputs {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 1:r 0:r \
                   1:b2 1:r 2:r 0:b2 1:r 0:r \
                   0:b3 0:r \
                   1:b4 1:r 0:r 2:r \
                   2:b2 0:r \
                   2:b3 2:r 0:b4 0:r 1:r 2:r 2:b4 \
                   1:r 1:eop 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 s7 T1 s5 s6 s9 s10 s13 s22 T2 s12 s15 s16 A3 s18 s21 \
                   s24 s26 s30 T4 s20 s28 s29 s32 E1 s34 E2 s36 E0",
    }

    /// BarrierBufferTestBase.testStartAlignmentWithClosedChannels: channels closed before any
    /// barrier are never waited for; once only channel 3 is open its barrier triggers at once.
    barrier_buffer_start_alignment_with_closed_channels {
        mode: Aligned,
        channels: 4,
        finished_channels_align: true,
        arrivals: "2:eop 1:eop 0:r 0:r 3:r 3:b2 0:b2 3:r 0:r 3:b3 3:r 0:r 0:b3 \
                   0:b4 3:b4 0:r 0:r 3:r 0:eop 3:r 3:b5 3:r 3:eop",
        expected: "E2 E1 s2 s3 s4 T2 s7 s8 s11 T3 s10 T4 s15 s16 s17 E0 s19 T5 s21 E3",
    }

    /// testStartAlignmentWithClosedChannels (1.x) with the option off, as Flink ran it: a channel
    /// closed before the alignment needs no barrier either way, so the output is the same.
    barrier_buffer_start_alignment_with_closed_channels_finished_align_off {
        mode: Aligned,
        channels: 4,
        finished_channels_align: false,
        arrivals: "2:eop 1:eop 0:r 0:r 3:r 3:b2 0:b2 3:r 0:r 3:b3 3:r 0:r 0:b3 \
                   0:b4 3:b4 0:r 0:r 3:r 0:eop 3:r 3:b5 3:r 3:eop",
        expected: "E2 E1 s2 s3 s4 T2 s7 s8 s11 T3 s10 T4 s15 s16 s17 E0 s19 T5 s21 E3",
    }

    /// AlignedCheckpointsTest.testStartAlignmentWithClosedChannels: the later variant without
    /// held data.
    aligned_start_alignment_with_closed_channels {
        mode: Aligned,
        channels: 4,
        finished_channels_align: true,
        arrivals: "2:eop 1:eop 0:r 0:r 3:r 3:b2 0:b2 0:b3 3:b3 0:r 0:r 3:r 0:eop \
                   3:r 3:b4 3:r 3:eop",
        expected: "E2 E1 s2 s3 s4 T2 T3 s9 s10 s11 E0 s13 T4 s15 E3",
    }

    /// BarrierBufferTestBase.testEndOfStreamWhileCheckpoint: during checkpoint 2 channel 2 (which
    /// delivered the barrier) ends first, its eop is held; then channel 1 (which did not) ends.
    /// RULES ≠ FLINK: option on, so that second eop completes checkpoint 2.
    barrier_buffer_end_of_stream_while_checkpoint {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:b1 1:b1 2:b1 0:r 0:r 2:r 2:b2 0:b2 0:r 2:r 1:r 2:eop 1:eop 0:r 0:eop",
        expected: "T1 s3 s4 s5 s10 T2 E1 s8 s9 E2 s13 E0",
    }

    /// testEndOfStreamWhileCheckpoint (1.x) as Flink ran it: the eop of the unblocked channel 1
    /// aborts checkpoint 2; the held eop of channel 2 replays after it.
    barrier_buffer_end_of_stream_while_checkpoint_finished_align_off {
        mode: Aligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:b1 1:b1 2:b1 0:r 0:r 2:r 2:b2 0:b2 0:r 2:r 1:r 2:eop 1:eop 0:r 0:eop",
        expected: "T1 s3 s4 s5 s10 A2 E1 s8 s9 E2 s13 E0",
    }

    /// AlignedCheckpointsTest.testEndOfStreamWhileCheckpoint: the later variant. RULES ≠ FLINK:
    /// Flink says checkpoint 2 "will not be completed"; with the option on the eop of channel 1
    /// completes it.
    aligned_end_of_stream_while_checkpoint {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:b1 1:b1 2:b1 0:r 0:r 2:r 2:b2 0:b2 1:r 1:eop 2:eop 0:r 0:eop",
        expected: "T1 s3 s4 s5 s8 T2 E1 E2 s11 E0",
    }

    /// AlignedCheckpointsTest.testEndOfStreamWhileCheckpoint with the option off: checkpoint 2
    /// is aborted by the first eop, as Flink expects.
    aligned_end_of_stream_while_checkpoint_finished_align_off {
        mode: Aligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:b1 1:b1 2:b1 0:r 0:r 2:r 2:b2 0:b2 1:r 1:eop 2:eop 0:r 0:eop",
        expected: "T1 s3 s4 s5 s8 A2 E1 E2 s11 E0",
    }

    /// BarrierBufferTestBase.testSingleChannelAbortCheckpoint: a marker for a newer id aborts it
    /// without ever starting it; the next barrier still triggers.
    barrier_buffer_single_channel_abort_checkpoint {
        mode: Aligned,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:b1 0:r 0:b2 0:c4 0:b5 0:r 0:c6 0:r",
        expected: "s0 T1 s2 T2 A4 T5 s6 A6 s8",
    }

    /// AlignedCheckpointsTest.testSingleChannelAbortCheckpoint: three triggers, two aborts.
    aligned_single_channel_abort_checkpoint {
        mode: Aligned,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:b1 0:r 0:b2 0:r 0:c4 0:b5 0:r 0:c6 0:r",
        expected: "s0 T1 s2 T2 s4 A4 T5 s7 A6 s9",
    }

    /// BarrierBufferTestBase.testMultiChannelAbortCheckpoint: cancelled on the last barrier
    /// (held data released), cancelled before the first barrier (later barriers of 4 ignored),
    /// and several markers for the same id reported once.
    barrier_buffer_multi_channel_abort_checkpoint {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:b1 0:r 2:r \
                   0:b2 2:b2 0:r 2:r 1:c2 \
                   2:r 1:r 1:b3 2:b3 0:b3 \
                   0:r 1:r 1:c4 2:b4 0:r 0:b4 \
                   0:r 1:r 2:r 2:b5 1:b5 0:b5 0:r 1:r \
                   1:c6 2:c6 0:b6 0:r",
        expected: "s0 s1 s2 T1 s5 s6 s8 s9 A2 s12 s13 s15 s16 T3 s20 s21 A4 s24 \
                   s26 s27 s28 T5 s32 s33 A6 s37",
    }

    /// AlignedCheckpointsTest.testMultiChannelAbortCheckpoint: three triggers, three aborts.
    aligned_multi_channel_abort_checkpoint {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 0:r 0:b1 0:r 2:r \
                   0:b2 2:b2 1:r 1:c2 \
                   2:r 1:r 1:b3 2:b3 0:b3 \
                   0:r 1:r 1:c4 2:b4 2:r 0:b4 \
                   0:r 1:r 2:r 2:b5 1:b5 0:b5 0:r 1:r \
                   1:c6 2:c6 0:b6 0:r",
        expected: "s0 s1 s2 s5 T1 s7 s8 s11 A2 s13 s14 T3 s18 s19 A4 s22 s24 s25 s26 \
                   T5 s30 s31 A6 s35",
    }

    /// BarrierBufferTestBase.testAbortViaQueuedBarriers: a marker and a barrier of checkpoint 2
    /// are held behind checkpoint 1; replayed after 1 triggers, the marker aborts 2 and the
    /// barrier of 2 is then ignored, so no alignment follows.
    barrier_buffer_abort_via_queued_barriers {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "1:r 1:b1 2:b1 2:r 0:r 1:r 2:c2 1:b2 0:r 1:r 2:r 0:b1 \
                   2:r 1:r 0:r 0:b2 0:r 1:r 2:r",
        expected: "s0 s4 s8 T1 s3 s5 A2 s9 s10 s12 s13 s14 s16 s17 s18",
    }

    /// BarrierBufferTestBase.testAbortWhileHavingQueuedBarriers: checkpoint 1 is cancelled while
    /// a barrier of 2 is held; replayed, it starts checkpoint 2 (which the late barrier 1 must not
    /// disturb) and 2 completes normally.
    barrier_buffer_abort_while_having_queued_barriers {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "1:r 1:b1 2:r 0:r 1:r 1:b2 2:r 1:r 0:c1 2:r 1:r 0:r 2:b1 \
                   0:r 1:r 2:r 0:b2 2:b2 0:r 1:r 2:r",
        expected: "s0 s2 s3 s6 A1 s4 s9 s11 s13 s15 T2 s7 s10 s14 s18 s19 s20",
    }

    /// BarrierBufferTestBase.testIgnoreCancelBarrierIfCheckpointSubsumed: 5 subsumes 3; a later
    /// marker for 3 (held, then replayed) is ignored, so 3 is reported aborted only once.
    barrier_buffer_ignore_cancel_barrier_if_checkpoint_subsumed {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "2:r 1:b3 0:b3 0:r 1:r 2:r 2:b5 2:r 1:r 0:r 2:c3 2:r 0:r 1:r \
                   0:b5 1:b5 0:r 1:r 2:r",
        expected: "s0 s5 A3 s3 s4 s8 s9 s12 s13 T5 s7 s11 s16 s17 s18",
    }

    /// AlignedCheckpointsTest.testIgnoreCancelBarrierIfCheckpointSubsumed: the later variant.
    aligned_ignore_cancel_barrier_if_checkpoint_subsumed {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "2:r 1:b3 0:b3 2:r 2:b5 1:r 0:r 0:c3 0:r 1:r 0:b5 1:b5 0:r 1:r 2:r",
        expected: "s0 s3 A3 s5 s6 s8 s9 T5 s12 s13 s14",
    }

    /// AlignedCheckpointsTest.testAbortOnCanceledBarriers: checkpoint 1 is cancelled mid
    /// alignment; its late barrier neither blocks nor aborts checkpoint 2.
    aligned_abort_on_canceled_barriers {
        mode: Aligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "1:r 1:b1 2:r 0:r 0:c1 1:r 1:b2 2:r 0:r 2:b1 0:r 2:r 0:b2 2:b2 0:r 1:r 2:r",
        expected: "s0 s2 s3 A1 s5 s7 s8 s10 s11 T2 s14 s15 s16",
    }

    /// AlignedCheckpointsTest.testMissingCancellationBarriers: a marker for 3 while 1 aligns
    /// drops 1 silently, reports 3, and unblocks; the stale markers that follow do nothing.
    aligned_missing_cancellation_barriers {
        mode: Aligned,
        channels: 2,
        finished_channels_align: true,
        arrivals: "0:b1 1:c3 0:c2 0:c3 0:r",
        expected: "A3 s4",
    }

    // ====================================================================================
    // At-least-once: BarrierTrackerTest (1.x) and CheckpointBarrierTrackerTest.
    // ====================================================================================

    /// testSingleChannelNoBarriers (tracker).
    tracker_single_channel_no_barriers {
        mode: AtLeastOnce,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:r 0:r",
        expected: "s0 s1 s2",
    }

    /// testMultiChannelNoBarriers (tracker).
    tracker_multi_channel_no_barriers {
        mode: AtLeastOnce,
        channels: 4,
        finished_channels_align: true,
        arrivals: "2:r 2:r 0:r 1:r 0:r 3:r 1:r 1:r 2:r",
        expected: "s0 s1 s2 s3 s4 s5 s6 s7 s8",
    }

    /// testSingleChannelWithBarriers (tracker): checkpoints 1 to 6 in order.
    tracker_single_channel_with_barriers {
        mode: AtLeastOnce,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:r 0:r 0:b1 0:r 0:r 0:r 0:r 0:b2 0:b3 0:r 0:r 0:b4 0:b5 0:b6 0:r",
        expected: "s0 s1 s2 T1 s4 s5 s6 s7 T2 T3 s10 s11 T4 T5 T6 s15",
    }

    /// testSingleChannelWithSkippedBarriers: gaps in the ids do not matter.
    tracker_single_channel_with_skipped_barriers {
        mode: AtLeastOnce,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:b1 0:r 0:r 0:b3 0:r 0:b4 0:b6 0:r 0:b7 0:r 0:b10 0:r",
        expected: "s0 T1 s2 s3 T3 s5 T4 T6 s8 T7 s10 T10 s12",
    }

    /// testSingleChannelMetrics (tracker): one channel, one checkpoint, then the end.
    tracker_single_channel_metrics {
        mode: AtLeastOnce,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:b1 0:r 0:eop",
        expected: "s0 T1 s2 E0",
    }

    /// testMultiChannelWithBarriers (tracker): records after an early barrier are not held back;
    /// each checkpoint triggers on its last barrier.
    tracker_multi_channel_with_barriers {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:b1 0:r 0:r 1:r 1:r 2:r 0:b2 1:b2 2:b2 \
                   2:r 2:r 2:b3 2:r 2:r 0:b3 1:b3 1:b4 2:b4 0:b4 0:r",
        expected: "s0 s1 s2 s5 s6 T1 s8 s9 s10 s11 s12 T2 s16 s17 s19 s20 T3 T4 s26",
    }

    /// testMultiChannelSkippingCheckpoints (tracker): checkpoint 3 never completes and is dropped
    /// silently when 4 completes.
    tracker_multi_channel_skipping_checkpoints {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:b1 0:r 0:r 1:r 1:r 2:r 0:b2 1:b2 2:b2 \
                   2:r 2:r 2:b3 2:r 2:r 0:b4 0:r 1:r 2:r 1:b4 1:r 2:b4 0:r",
        expected: "s0 s1 s2 s5 s6 T1 s8 s9 s10 s11 s12 T2 s16 s17 s19 s20 s22 s23 s24 s26 T4 s28",
    }

    /// testCompleteCheckpointsOnLateBarriers: barriers of 4, 8, 9 and 10 arrive before older
    /// checkpoints complete; those still complete, in order, and only the never-completed 6 is
    /// dropped (silently) when 7 completes.
    tracker_complete_checkpoints_on_late_barriers {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "1:r 1:r 0:r 2:r 1:b2 0:b2 2:b2 \
                   1:r 0:r 1:b3 2:b3 \
                   1:r 0:r 2:b4 1:b4 1:r 2:r \
                   0:b3 \
                   0:r 0:b4 \
                   1:r 2:r 1:b5 0:r 0:b5 1:r 2:b5 \
                   1:r 1:b6 0:r 0:b6 \
                   1:r 1:b7 0:r 2:b7 2:r 2:b8 0:r 1:b8 1:r 1:b9 \
                   0:b7 0:r 2:b9 2:r 2:b10 \
                   0:b8 1:r 2:r 0:b9 \
                   1:r 0:r 2:r \
                   0:b10 1:b10",
        expected: "s0 s1 s2 s3 T2 s7 s8 s11 s12 s15 s16 T3 s18 T4 s20 s21 s23 s25 T5 \
                   s27 s29 s31 s33 s35 s37 s39 T7 s42 s44 T8 s47 s48 T9 s50 s51 s52 T10",
    }

    /// testNextFirstCheckpointBarrierOvertakesCancellationBarrier: checkpoint 2 opens before the
    /// marker for 1 arrives; the marker aborts 1 only, and 2 completes.
    tracker_next_first_checkpoint_barrier_overtakes_cancellation_barrier {
        mode: AtLeastOnce,
        channels: 2,
        finished_channels_align: true,
        arrivals: "1:b1 1:b2 0:c1 0:b2",
        expected: "A1 T2",
    }

    /// testTwoLastBarriersOneByOne: two checkpoints pending at once complete one after the other.
    tracker_two_last_barriers_one_by_one {
        mode: AtLeastOnce,
        channels: 2,
        finished_channels_align: true,
        arrivals: "1:b1 1:b2 0:b1 0:b2",
        expected: "T1 T2",
    }

    /// testSingleChannelAbortCheckpoint (tracker): Flink's expected sequence 1, 2, -4, 5, -6.
    tracker_single_channel_abort_checkpoint {
        mode: AtLeastOnce,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:b1 0:r 0:b2 0:c4 0:b5 0:r 0:c6 0:r",
        expected: "s0 T1 s2 T2 A4 T5 s6 A6 s8",
    }

    /// testMultiChannelAbortCheckpoint (tracker): Flink's expected sequence 1, -2, 3, -4, 5, -6;
    /// an aborted checkpoint is never triggered, even when all its barriers arrive.
    tracker_multi_channel_abort_checkpoint {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:b1 \
                   0:r 2:r 0:b2 2:b2 0:r 2:r 1:c2 \
                   2:r 1:r 1:b3 2:b3 0:b3 \
                   0:r 1:r 1:c4 2:b4 0:r 0:b4 \
                   0:r 1:r 2:r 2:b5 1:b5 0:b5 \
                   0:r 1:r 1:c6 2:c6 0:b6 0:r",
        expected: "s0 s1 s2 s5 s6 T1 s8 s9 s12 s13 A2 s15 s16 T3 s20 s21 A4 s24 \
                   s26 s27 s28 T5 s32 s33 A6 s37",
    }

    /// testInterleavedCancellationBarriers: markers of 1 and 2 interleave on three channels;
    /// each checkpoint is reported aborted exactly once.
    tracker_interleaved_cancellation_barriers {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:b1 0:c2 1:c1 1:c2 2:c1 2:c2 0:r",
        expected: "A1 A2 s6",
    }

    /// testMetrics (tracker): nothing is held while checkpoint 1 is pending.
    tracker_metrics {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 1:r 2:r 1:b1 0:r 2:r 0:b1 2:r 2:b1 0:r 1:r 2:r 0:eop 1:eop 2:eop",
        expected: "s0 s1 s2 s4 s5 s7 T1 s9 s10 s11 E0 E1 E2",
    }

    /// CheckpointBarrierTracker's limit of 50 tracked checkpoints (no Flink test of its own):
    /// barriers 1..51 on channel 0 open 51 entries, so entry 1 is dropped silently; its late
    /// barrier on channel 1 is then ignored and barrier 2 on channel 1 completes checkpoint 2.
    tracker_max_checkpoints_to_track {
        mode: AtLeastOnce,
        channels: 2,
        finished_channels_align: true,
        arrivals: "0:b1 0:b2 0:b3 0:b4 0:b5 0:b6 0:b7 0:b8 0:b9 0:b10 0:b11 0:b12 0:b13 0:b14 0:b15 0:b16 0:b17 0:b18 0:b19 0:b20 0:b21 0:b22 0:b23 0:b24 0:b25 0:b26 0:b27 0:b28 0:b29 0:b30 0:b31 0:b32 0:b33 0:b34 0:b35 0:b36 0:b37 0:b38 0:b39 0:b40 0:b41 0:b42 0:b43 0:b44 0:b45 0:b46 0:b47 0:b48 0:b49 0:b50 0:b51 1:b1 1:b2",
        expected: "T2",
    }

    /// testTriggerCheckpointsWithEndOfPartition: the eop completes the newest checkpoint it can
    /// (4, not the incomplete 5), older ones go silently. Flink then checks that 5 is still
    /// pending with two open channels; the extra barrier 5 on channel 0 shows it: it completes 5.
    tracker_trigger_checkpoints_with_end_of_partition {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:b1 0:b2 1:b2 0:b3 0:b4 1:b4 1:b5 2:eop 0:b5",
        expected: "T4 E2 T5",
    }

    /// testTriggerCheckpointsWithEndOfPartition with the option off (derived): the eop aborts
    /// every pending checkpoint, oldest first, before it is reported; late barriers of the
    /// aborted 5 open nothing (5 is not newer than every id seen), and afterwards the closed
    /// channel is not waited for.
    tracker_trigger_checkpoints_with_end_of_partition_finished_align_off {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:b1 0:b2 1:b2 0:b3 0:b4 1:b4 1:b5 2:eop 0:b5 1:b5 0:b6 1:b6",
        expected: "A1 A2 A3 A4 A5 E2 T6",
    }

    /// testDeduplicateChannelsWithBothBarrierAndEndOfPartition: a channel that delivered the
    /// barrier and then ended counts once, so the eop does not complete checkpoint 2.
    tracker_deduplicate_channels_with_both_barrier_and_end_of_partition {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:b2 1:b2 1:eop 2:b2",
        expected: "E1 T2",
    }

    /// testTriggerCheckpointsAfterReceivedEndOfPartition: after eops only the open channels are
    /// awaited; with one left, its barrier triggers at once.
    tracker_trigger_checkpoints_after_received_end_of_partition {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "2:eop 0:b5 0:b6 1:b6 1:eop 0:b7",
        expected: "E2 T6 E1 T7",
    }

    /// testNoFastPathWithChannelFinishedDuringCheckpoints: the barrier on the last open channel
    /// completes the pending checkpoint 1 (triggered once).
    tracker_no_fast_path_with_channel_finished_during_checkpoints {
        mode: AtLeastOnce,
        channels: 2,
        finished_channels_align: true,
        arrivals: "0:b1 0:eop 1:b1",
        expected: "E0 T1",
    }

    /// testNoFastPathWithChannelFinishedDuringCheckpointsCancel: the marker aborts the pending
    /// checkpoint 1 and removes it (Flink checks nothing stays pending: the extra barrier 2 on the
    /// last open channel shows it, triggering at once).
    tracker_no_fast_path_with_channel_finished_during_checkpoints_cancel {
        mode: AtLeastOnce,
        channels: 2,
        finished_channels_align: true,
        arrivals: "0:b1 0:eop 1:c1 1:b2",
        expected: "E0 A1 T2",
    }

    /// testCompleteAndRemoveAbortedCheckpointWithEndOfPartition: the eop completes the aborted
    /// checkpoint 4 (removed, never triggered); 5 stays pending, and the extra barrier 5 on
    /// channel 0 completes it.
    tracker_complete_and_remove_aborted_checkpoint_with_end_of_partition {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:c4 1:b4 1:b5 2:eop 0:b5",
        expected: "A4 E2 T5",
    }

    /// testAbortCheckpointsAfterEndOfPartitionReceived: the marker for 6 aborts the older 5 and 6
    /// itself; the marker for 7 aborts 7 at once. Flink expects aborts 5, 6, 7 and no trigger.
    tracker_abort_checkpoints_after_end_of_partition_received {
        mode: AtLeastOnce,
        channels: 3,
        finished_channels_align: true,
        arrivals: "2:eop 0:b5 0:b6 1:c6 1:eop 0:c7",
        expected: "E2 A5 A6 E1 A7",
    }

    // ====================================================================================
    // Unaligned: UnalignedCheckpointsTest (and CheckpointBarrierUnalignerTest before it).
    // ====================================================================================

    /// testSingleChannelNoBarriers (unaligned): no channel state without a checkpoint.
    unaligned_single_channel_no_barriers {
        mode: Unaligned,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:r 0:r 0:eop",
        expected: "s0 s1 s2 E0",
    }

    /// testMultiChannelNoBarriers (unaligned).
    unaligned_multi_channel_no_barriers {
        mode: Unaligned,
        channels: 4,
        finished_channels_align: true,
        arrivals: "2:r 2:r 0:r 1:r 0:r 0:eop 3:r 1:r 3:eop 1:r 1:eop 2:r 2:eop",
        expected: "s0 s1 s2 s3 s4 E0 s6 s7 E3 s9 E1 s11 E2",
    }

    /// testSingleChannelWithBarriers (unaligned): one channel completes every checkpoint at its
    /// first barrier, so nothing is ever persisted.
    unaligned_single_channel_with_barriers {
        mode: Unaligned,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:r 0:r 0:b1 0:r 0:r 0:r 0:r 0:b2 0:b3 0:r 0:r 0:b4 0:b5 0:b6 0:r 0:eop",
        expected: "s0 s1 s2 T1 s4 s5 s6 s7 T2 T3 s10 s11 T4 T5 T6 s15 E0",
    }

    /// testMultiChannelWithBarriers (unaligned): triggered on the first barrier; the in-flight
    /// records are exactly those Flink expects (sequence1[7], then sequence5[4], [5], [6], [10]).
    unaligned_multi_channel_with_barriers {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:r 0:b1 \
                   0:r 0:r 1:r 1:r 2:r 0:b2 1:b2 2:b2 \
                   2:r 2:r 2:b3 2:r 2:r 0:b3 1:b3 \
                   1:b4 2:b4 0:b4 \
                   0:r 2:r 0:r 1:b5 2:r 0:r 2:r 1:r 2:b5 1:r 0:r 2:r 1:r 0:b5 \
                   0:r 0:eop 1:eop 2:eop",
        expected: "s0 s1 s2 T1 s5 s6 S1/0:s7 s7 s9 s10 s11 s12 s13 T2 s17 s18 T3 s20 s21 T4 \
                   s27 s28 s29 T5 S5/2:s31 s31 S5/0:s32 s32 S5/2:s33 s33 s34 s36 S5/0:s37 s37 \
                   s38 s39 s41 E0 E1 E2",
    }

    /// testMetrics (unaligned): six records are processed between the first and last barrier;
    /// those from channels that had not yet delivered it are persisted first.
    unaligned_metrics {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 1:r 2:r 1:b1 0:r 1:r 2:r 0:b1 0:r 1:r 2:r 2:b1 0:r 1:r 2:r \
                   0:eop 1:eop 2:eop",
        expected: "s0 s1 s2 T1 S1/0:s4 s4 s5 S1/2:s6 s6 s8 s9 S1/2:s10 s10 s12 s13 s14 \
                   E0 E1 E2",
    }

    /// testMultiChannelTrailingInflightData (run by Flink with the option off): the eop of
    /// channel 1 aborts the pending checkpoint 2, so nothing after it is persisted (Flink
    /// expects no in-flight data) and the late barrier 2 is ignored.
    unaligned_multi_channel_trailing_inflight_data_finished_align_off {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:r 1:r 2:r 1:b1 2:b1 0:b1 \
                   2:r 1:r 0:r 1:b2 1:r 1:r 1:eop 0:r 2:r 2:b2 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 T1 s6 s7 s8 T2 s10 s11 A2 E1 s13 s14 s16 E2 s18 E0",
    }

    /// testEarlyCleanup (unaligned; the same arrivals, Flink again runs it with the option off).
    /// RULES ≠ FLINK: with the option on the eop of channel 1 does not abort checkpoint 2, so the
    /// records of channels 0 and 2 that precede their barrier (or eop) are persisted.
    unaligned_early_cleanup {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 1:r 2:r 1:b1 2:b1 0:b1 \
                   2:r 1:r 0:r 1:b2 1:r 1:r 1:eop 0:r 2:r 2:b2 2:r 2:eop 0:r 0:eop",
        expected: "s0 s1 s2 T1 s6 s7 s8 T2 s10 s11 E1 S2/0:s13 s13 S2/2:s14 s14 s16 E2 \
                   S2/0:s18 s18 E0",
    }

    /// testMissingCancellationBarriers (unaligned): the marker for 2 reports only 2 (the
    /// triggered 1 is dropped silently), the marker for 3 reports 3; nothing is persisted.
    unaligned_missing_cancellation_barriers {
        mode: Unaligned,
        channels: 2,
        finished_channels_align: true,
        arrivals: "0:b1 0:c2 0:c3 1:c3 0:r 0:eop 1:eop",
        expected: "T1 A2 A3 s4 E0 E1",
    }

    /// testStartAlignmentWithClosedChannels (unaligned): closed channels need no barrier; the
    /// only in-flight record is sequence2[4]; one open channel triggers and completes at once.
    unaligned_start_alignment_with_closed_channels {
        mode: Unaligned,
        channels: 4,
        finished_channels_align: true,
        arrivals: "2:eop 1:eop 0:r 0:r 3:r 3:b2 0:b2 3:r 0:r 3:b3 3:r 0:r 0:b3 \
                   0:b4 3:b4 0:r 0:r 3:r 0:eop 3:r 3:b5 3:r 3:eop",
        expected: "E2 E1 s2 s3 s4 T2 s7 s8 T3 s10 S3/0:s11 s11 T4 s15 s16 s17 E0 s19 T5 s21 E3",
    }

    /// testEndOfStreamWhileCheckpoint (unaligned, option on as in Flink's test): the record of
    /// channel 1 before its eop is persisted (Flink: sequence2[7]); that eop completes 2.
    unaligned_end_of_stream_while_checkpoint {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:b1 1:b1 2:b1 0:r 0:r 2:r 2:b2 0:b2 0:r 2:r 1:r 2:eop 1:eop 0:r 0:eop",
        expected: "T1 s3 s4 s5 T2 s8 s9 S2/1:s10 s10 E2 E1 s13 E0",
    }

    /// testEndOfStreamWhileCheckpoint (unaligned) with the option off (derived): the first eop
    /// aborts the triggered checkpoint 2 and is reported after the abort.
    unaligned_end_of_stream_while_checkpoint_finished_align_off {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:b1 1:b1 2:b1 0:r 0:r 2:r 2:b2 0:b2 0:r 2:r 1:r 2:eop 1:eop 0:r 0:eop",
        expected: "T1 s3 s4 s5 T2 s8 s9 S2/1:s10 s10 A2 E2 E1 s13 E0",
    }

    /// testEndOfStreamWithPendingCheckpoint: with the option off an eop aborts the pending
    /// checkpoint (Flink's checkpoint id 0 kept as is).
    unaligned_end_of_stream_with_pending_checkpoint_finished_align_off {
        mode: Unaligned,
        channels: 2,
        finished_channels_align: false,
        arrivals: "0:b0 0:eop",
        expected: "T0 A0 E0",
    }

    /// testNotifyAbortCheckpointBeforeCanellingAsyncCheckpoint: a checkpoint already triggered is
    /// aborted by its own marker.
    unaligned_notify_abort_checkpoint_before_cancelling_async_checkpoint {
        mode: Unaligned,
        channels: 2,
        finished_channels_align: true,
        arrivals: "0:b1 1:c1 0:eop 1:eop",
        expected: "T1 A1 E0 E1",
    }

    /// testSingleChannelAbortCheckpoint (unaligned): Flink expects last started 2 then 5, last
    /// cancelled 4 then 6, and no in-flight data.
    unaligned_single_channel_abort_checkpoint {
        mode: Unaligned,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:r 0:b1 0:r 0:b2 0:c4 0:b5 0:r 0:c6 0:r 0:eop",
        expected: "s0 T1 s2 T2 A4 T5 s6 A6 s8 E0",
    }

    /// testMultiChannelAbortCheckpoint (unaligned): 2 is triggered then cancelled; 4 and 6 are
    /// cancelled before their first barrier and never start; nothing is persisted.
    unaligned_multi_channel_abort_checkpoint {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 2:r 1:r 0:b1 0:r 2:r \
                   0:b2 2:b2 0:r 2:r 1:c2 \
                   2:r 1:r 1:b3 2:b3 0:b3 \
                   0:r 1:r 1:c4 2:b4 0:r 0:b4 \
                   0:r 1:r 2:r 2:b5 1:b5 0:b5 0:r 1:r \
                   1:c6 2:c6 0:b6 0:r 0:eop 1:eop 2:eop",
        expected: "s0 s1 s2 T1 s5 s6 s8 s9 T2 s12 s13 A2 s15 s16 T3 s20 s21 A4 s24 \
                   s26 s27 s28 T5 s32 s33 A6 s37 E0 E1 E2",
    }

    /// testProcessCancellationBarrierAfterProcessBarrier, the branch where the marker names the
    /// pending checkpoint: it is aborted, then a newer marker aborts the next id.
    unaligned_process_cancellation_barrier_after_process_barrier {
        mode: Unaligned,
        channels: 2,
        finished_channels_align: true,
        arrivals: "0:b0 0:c0 0:c1",
        expected: "T0 A0 A1",
    }

    /// testProcessCancellationBarrierAfterProcessBarrier, the branch where the marker names a
    /// newer id (Flink picks a branch at random): only the marked ids are reported.
    unaligned_process_cancellation_barrier_after_process_barrier_newer_marker {
        mode: Unaligned,
        channels: 2,
        finished_channels_align: true,
        arrivals: "0:b0 0:c1 0:c2",
        expected: "T0 A1 A2",
    }

    /// testProcessCancellationBarrierBeforeProcessAndReceiveBarrier: a checkpoint cancelled
    /// before its first barrier never starts; the barrier that follows is ignored.
    unaligned_process_cancellation_barrier_before_process_and_receive_barrier {
        mode: Unaligned,
        channels: 1,
        finished_channels_align: true,
        arrivals: "0:c0 0:b0",
        expected: "A0",
    }

    /// testTriggerCheckpointsWithEndOfPartition (unaligned): channel 2 never delivers barrier 1
    /// but its eop completes it; one trigger, no abort, in-flight data sequence[1].
    unaligned_trigger_checkpoints_with_end_of_partition {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "1:b1 0:r 0:b1 1:r 2:eop 0:eop 1:eop",
        expected: "T1 S1/0:s1 s1 s3 E2 E0 E1",
    }

    /// testTriggerCheckpointsAfterReceivedEndOfPartition (unaligned): triggers 3 and 4, no abort;
    /// in-flight data sequence1[3] only (barrier 4 on the last open channel completes at once).
    unaligned_trigger_checkpoints_after_received_end_of_partition {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:eop 1:b3 1:r 2:r 1:eop 2:b3 2:r 2:b4 2:eop",
        expected: "E0 T3 s2 S3/2:s3 s3 E1 s6 T4 E2",
    }

    /// CheckpointedInputGateTest.testPersisting: obsolete barriers of checkpoint 1 arrive after
    /// checkpoint 2 was triggered and are ignored; records keep being persisted per channel until
    /// that channel's barrier 2 (Flink: 3 on channel 1, 3 on channel 2). Modelling difference:
    /// Flink's barrier 2 overtakes a record already queued on channel 0 and persists it; the gate
    /// sees arrivals in processing order, so channel 0's barrier comes first and that record is
    /// not part of this translation.
    checkpointed_input_gate_persisting {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:b2 0:r 1:r 1:b1 1:r 2:r 0:r 1:r 2:r 1:b2 1:r 2:b1 2:r 2:b2 2:r",
        expected: "T2 s1 S2/1:s2 s2 S2/1:s4 s4 S2/2:s5 s5 s6 S2/1:s7 s7 S2/2:s8 s8 s10 \
                   S2/2:s12 s12 s14",
    }

    /// AlignedCheckpointsTest.testMultiChannelJumpingOverCheckpoint run unaligned (derived; Flink
    /// has no unaligned twin): every newer barrier aborts the pending checkpoint and triggers its
    /// own at once, and records of channels behind the newest barrier are persisted for it.
    unaligned_multi_channel_jumping_over_checkpoint {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: true,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 0:r 0:b1 1:r 0:r \
                   1:b2 2:r 0:b2 2:r 2:b3 1:r 0:r 0:b3 1:b4 2:r 0:r \
                   0:eop 2:r 2:eop 1:r 1:eop",
        expected: "s0 s1 s2 T1 S1/0:s5 s5 s7 s8 T2 S2/2:s10 s10 S2/2:s12 s12 A2 T3 \
                   S3/1:s14 s14 S3/0:s15 s15 A3 T4 S4/2:s18 s18 S4/0:s19 s19 E0 \
                   S4/2:s21 s21 E2 s23 E1",
    }

    /// The same, option off: the eop of channel 0 aborts the triggered checkpoint 4 and nothing
    /// after it is persisted.
    unaligned_multi_channel_jumping_over_checkpoint_finished_align_off {
        mode: Unaligned,
        channels: 3,
        finished_channels_align: false,
        arrivals: "0:r 2:r 0:r 1:b1 2:b1 0:r 0:b1 1:r 0:r \
                   1:b2 2:r 0:b2 2:r 2:b3 1:r 0:r 0:b3 1:b4 2:r 0:r \
                   0:eop 2:r 2:eop 1:r 1:eop",
        expected: "s0 s1 s2 T1 S1/0:s5 s5 s7 s8 T2 S2/2:s10 s10 S2/2:s12 s12 A2 T3 \
                   S3/1:s14 s14 S3/0:s15 s15 A3 T4 S4/2:s18 s18 S4/0:s19 s19 A4 E0 \
                   s21 E2 s23 E1",
    }
}

// ----------------------------------------------------------------------------------------
// Expanding the shorthand and checking one case.
// ----------------------------------------------------------------------------------------

fn options(case: &Case) -> GateOptions {
    GateOptions {
        mode: case.mode,
        channels: case.channels,
        finished_channels_align: case.finished_channels_align,
    }
}

/// One arrival token as its channel and the stdin line for it.
fn arrival(index: usize, token: &str) -> (u32, String) {
    let (ch, item) = token
        .split_once(':')
        .unwrap_or_else(|| panic!("arrival {token:?} has no channel"));
    let ch: u32 = ch
        .parse()
        .unwrap_or_else(|_| panic!("arrival {token:?}: bad channel"));
    let line = if item == "r" {
        format!(r#"{{"ch":{ch},"record":"s{index}"}}"#)
    } else if item == "eop" {
        format!(r#"{{"ch":{ch},"end_of_partition":true}}"#)
    } else if let Some(id) = item.strip_prefix('b') {
        let id: u64 = id.parse().expect("barrier id");
        format!(r#"{{"ch":{ch},"barrier":{id}}}"#)
    } else if let Some(id) = item.strip_prefix('c') {
        let id: u64 = id.parse().expect("cancel id");
        format!(r#"{{"ch":{ch},"cancel":{id}}}"#)
    } else {
        panic!("unknown arrival {token:?}")
    };
    (ch, line)
}

fn stdin_of(case: &Case) -> String {
    case.arrivals
        .split_whitespace()
        .enumerate()
        .map(|(index, token)| arrival(index, token).1 + "\n")
        .collect()
}

/// One expected-output token as the stdout line the gate must print.
fn output_line(token: &str) -> String {
    if token.starts_with('s') {
        return format!(r#"{{"record":"{token}"}}"#);
    }
    let (kind, rest) = token.split_at(1);
    match kind {
        "T" => format!(r#"{{"triggered":{}}}"#, rest.parse::<u64>().expect("id")),
        "A" => format!(r#"{{"aborted":{}}}"#, rest.parse::<u64>().expect("id")),
        "E" => format!(
            r#"{{"end_of_partition":{}}}"#,
            rest.parse::<u32>().expect("ch")
        ),
        "S" => {
            let (checkpoint, rest) = rest.split_once('/').expect("S<checkpoint>/<ch>:<record>");
            let (ch, record) = rest.split_once(':').expect("S<checkpoint>/<ch>:<record>");
            format!(
                r#"{{"channel_state":{{"checkpoint":{},"ch":{},"record":"{record}"}}}}"#,
                checkpoint.parse::<u64>().expect("checkpoint"),
                ch.parse::<u32>().expect("ch"),
            )
        }
        _ => panic!("unknown output token {token:?}"),
    }
}

fn stdout_of(case: &Case) -> String {
    case.expected
        .split_whitespace()
        .map(|token| output_line(token) + "\n")
        .collect()
}

/// The gate's output turned back into shorthand, so that a failure reads like the case table.
fn shorthand(printed: &str) -> String {
    printed
        .lines()
        .map(|line| {
            let value: Value = match serde_json::from_str(line) {
                Ok(value) => value,
                Err(_) => return format!("<{line}>"),
            };
            if let Some(record) = value.get("record").and_then(Value::as_str) {
                record.to_owned()
            } else if let Some(id) = value.get("triggered") {
                format!("T{id}")
            } else if let Some(id) = value.get("aborted") {
                format!("A{id}")
            } else if let Some(ch) = value.get("end_of_partition") {
                format!("E{ch}")
            } else if let Some(state) = value.get("channel_state") {
                let record = state.get("record").and_then(Value::as_str).unwrap_or("?");
                format!("S{}/{}:{record}", state["checkpoint"], state["ch"])
            } else {
                format!("<{line}>")
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn check(case: &Case) {
    let input = stdin_of(case);
    let expected = stdout_of(case);
    let actual = match run_gate(&options(case), &input) {
        Ok(actual) => actual,
        Err(error) => panic!("{}: the gate rejected the input: {error}", case.name),
    };
    if actual != expected {
        let first_difference = expected
            .lines()
            .zip(actual.lines())
            .position(|(want, got)| want != got)
            .unwrap_or_else(|| expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name} ({mode}, {channels} channels, --finished-channels-align {align})\n\
             arrivals: {arrivals}\n\
             expected: {want}\n\
             actual:   {got}\n\
             first difference at output line {line}",
            name = case.name,
            mode = case.mode,
            channels = case.channels,
            align = case.finished_channels_align,
            arrivals = case
                .arrivals
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            want = case
                .expected
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            got = shorthand(&actual),
            line = first_difference + 1,
        );
    }
}

// ----------------------------------------------------------------------------------------
// Checks over the whole table.
// ----------------------------------------------------------------------------------------

/// The translation covers what it is meant to: at least 40 cases, every mode, both settings of
/// the option, single-channel inputs, markers and end of partition in each mode.
#[test]
fn the_table_covers_every_mode_and_option() {
    assert!(CASES.len() >= 40, "only {} cases", CASES.len());
    for mode in [Aligned, AtLeastOnce, Unaligned] {
        let of_mode: Vec<&Case> = CASES.iter().filter(|case| case.mode == mode).collect();
        assert!(of_mode.len() >= 10, "{mode}: only {} cases", of_mode.len());
        assert!(of_mode.iter().any(|case| case.channels == 1), "{mode}");
        assert!(
            of_mode.iter().any(|case| !case.finished_channels_align),
            "{mode}"
        );
        assert!(
            of_mode.iter().any(|case| case.arrivals.contains(":c")),
            "{mode}"
        );
        assert!(
            of_mode.iter().any(|case| case.arrivals.contains(":eop")),
            "{mode}"
        );
    }
    let mut names: Vec<&str> = CASES.iter().map(|case| case.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), CASES.len(), "case names must be unique");
}

/// A self-check of the expected outputs, independent of the handler: every record that arrives
/// is handed on exactly once (the gate releases everything by the end of the input), each
/// channel's records keep their order, channel state only names records of its own channel that
/// are handed on right after it, and a checkpoint is never triggered or aborted twice.
#[test]
fn the_expected_outputs_are_self_consistent() {
    for case in CASES {
        let mut channel_of = BTreeMap::new();
        let mut sent: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        for (index, token) in case.arrivals.split_whitespace().enumerate() {
            let (ch, _) = arrival(index, token);
            if token.ends_with(":r") {
                channel_of.insert(format!("s{index}"), ch);
                sent.entry(ch).or_default().push(format!("s{index}"));
            }
        }
        let tokens: Vec<&str> = case.expected.split_whitespace().collect();
        let mut received: BTreeMap<u32, Vec<String>> = BTreeMap::new();
        let mut triggered = Vec::new();
        let mut aborted = Vec::new();
        for (at, token) in tokens.iter().enumerate() {
            output_line(token); // every token must be well formed
            if token.starts_with('s') {
                let ch = *channel_of
                    .get(*token)
                    .unwrap_or_else(|| panic!("{}: {token} never arrives", case.name));
                received.entry(ch).or_default().push((*token).to_owned());
            } else if let Some(id) = token.strip_prefix('T') {
                triggered.push(id);
            } else if let Some(id) = token.strip_prefix('A') {
                aborted.push(id);
            } else if let Some(state) = token.strip_prefix('S') {
                let (_, rest) = state.split_once('/').unwrap_or_default();
                let (ch, record) = rest.split_once(':').unwrap_or_default();
                assert_eq!(case.mode, Unaligned, "{}: channel state", case.name);
                assert_eq!(
                    channel_of.get(record).map(u32::to_string).as_deref(),
                    Some(ch),
                    "{}: {token} names the wrong channel",
                    case.name
                );
                assert_eq!(
                    tokens.get(at + 1),
                    Some(&record),
                    "{}: {token} must be followed by its record",
                    case.name
                );
            }
        }
        assert_eq!(
            sent, received,
            "{}: records lost, added or reordered",
            case.name
        );
        for ids in [&mut triggered, &mut aborted] {
            let count = ids.len();
            ids.sort_unstable();
            ids.dedup();
            assert_eq!(ids.len(), count, "{}: reported twice", case.name);
        }
    }
}

// ----------------------------------------------------------------------------------------
// The real binary.
// ----------------------------------------------------------------------------------------

fn abs_sim_gate(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_abs-sim"))
        .arg("gate")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("abs-sim starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("stdin is written");
    child.wait_with_output().expect("abs-sim finishes")
}

fn case_args(case: &Case) -> Vec<String> {
    vec![
        "--mode".to_owned(),
        case.mode.as_str().to_owned(),
        "--channels".to_owned(),
        case.channels.to_string(),
        "--finished-channels-align".to_owned(),
        case.finished_channels_align.to_string(),
    ]
}

/// Every case through `abs-sim gate`: status 0, nothing on stderr, and stdout byte for byte what
/// `run_gate` returns (whether or not that matches the case: the cases themselves are judged by
/// their own tests above).
#[test]
fn every_case_through_the_binary_prints_what_run_gate_returns() {
    for case in CASES {
        let input = stdin_of(case);
        let args = case_args(case);
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let output = abs_sim_gate(&args, &input);
        assert_eq!(output.status.code(), Some(0), "{}", case.name);
        assert!(
            output.stderr.is_empty(),
            "{}: {}",
            case.name,
            String::from_utf8_lossy(&output.stderr)
        );
        let library = run_gate(&options(case), &input).expect("valid input");
        assert_eq!(
            String::from_utf8_lossy(&output.stdout),
            library,
            "{}",
            case.name
        );
    }
}

/// Without `--finished-channels-align` the binary behaves as with `true`, Flink's default since
/// 1.15 (checked on a case whose outcome depends on the option).
#[test]
fn the_binary_defaults_to_finished_channels_aligning() {
    let case = CASES
        .iter()
        .find(|case| case.name == "barrier_buffer_end_of_stream_while_checkpoint")
        .expect("the case exists");
    let output = abs_sim_gate(&["--mode", "aligned", "--channels", "3"], &stdin_of(case));
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&output.stdout), stdout_of(case));
}

/// True when `stderr` names line `line` (and not, say, line 30 for line 3) and says more than
/// just the number.
fn names_line(stderr: &str, line: u64) -> bool {
    let needle = format!("line {line}");
    stderr.match_indices(&needle).any(|(at, _)| {
        let after = &stderr[at + needle.len()..];
        !after.starts_with(|c: char| c.is_ascii_digit())
            && after.trim_start_matches([':', ' ']).trim().len() > 3
    })
}

/// Malformed input lines (the only place where the gate speaks for itself rather than for
/// Flink): exit status 2 and the 1-based line number with a reason on stderr. Blank lines count
/// towards the line number.
#[test]
fn malformed_lines_exit_with_status_2_naming_the_line() {
    let good = r#"{"ch":0,"record":"s0"}"#;
    let malformed: &[(&str, &str, u64)] = &[
        ("not json at all", "broken", 1),
        ("truncated object", r#"{"ch":0,"record":"#, 3),
        ("channel out of range", r#"{"ch":2,"barrier":1}"#, 2),
        ("negative channel", r#"{"ch":-1,"barrier":1}"#, 2),
        ("missing channel", r#"{"barrier":1}"#, 2),
        ("unknown kind", r#"{"ch":0,"watermark":5}"#, 2),
        (
            "two items on one line",
            r#"{"ch":0,"record":"a","barrier":1}"#,
            2,
        ),
        ("barrier id as a string", r#"{"ch":1,"barrier":"3"}"#, 2),
        ("negative cancel id", r#"{"ch":1,"cancel":-2}"#, 2),
        ("record that is not a string", r#"{"ch":0,"record":7}"#, 2),
        (
            "end_of_partition false",
            r#"{"ch":0,"end_of_partition":false}"#,
            2,
        ),
        ("a json array", "[0,1]", 2),
        ("no item at all", r#"{"ch":0}"#, 2),
    ];
    for (what, bad, line) in malformed {
        // Put the bad line at `line`, after good lines and one blank line where there is room.
        let mut lines: Vec<&str> = match line {
            1 => vec![],
            2 => vec![good],
            _ => vec![good, ""],
        };
        lines.push(bad);
        lines.push(good);
        let stdin = lines.join("\n") + "\n";
        for mode in ["aligned", "at-least-once", "unaligned"] {
            let output = abs_sim_gate(&["--mode", mode, "--channels", "2"], &stdin);
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(output.status.code(), Some(2), "{what} ({mode}): {stderr}");
            assert!(
                names_line(&stderr, *line),
                "{what} ({mode}): stderr should name line {line}, got {stderr:?}"
            );
        }
        let error = run_gate(
            &GateOptions {
                mode: Aligned,
                channels: 2,
                finished_channels_align: true,
            },
            &stdin,
        )
        .expect_err(what);
        assert_eq!(error.line, *line, "{what}");
        assert!(!error.reason.trim().is_empty(), "{what}");
    }
}
