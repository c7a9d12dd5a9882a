//! Seeded random sequences, checked against the invariants every mode must keep.
//!
//! The generator is SplitMix64 (Steele, Lea and Flood), written out here so the sequences are
//! the same on every platform and every run; a failure names the seed that reproduces it.

use std::collections::{BTreeMap, BTreeSet};

use crate::barrier::{BarrierHandler, BarrierMode, ChannelIndex, Input, Output};

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..bound` (`bound` > 0); the tiny modulo bias does not matter here.
    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound
    }
}

struct Scenario {
    mode: BarrierMode,
    channels: u32,
    finished_channels_align: bool,
    arrivals: Vec<(ChannelIndex, Input<u32>)>,
    /// After which arrivals to call `replay_one` a few times instead of leaving the replay to
    /// the next arrival: the outcome must not depend on it.
    replays: Vec<u32>,
}

fn scenario(seed: u64) -> Scenario {
    let mut rng = SplitMix64(seed);
    let mode = BarrierMode::ALL[rng.below(3) as usize];
    let channels = 1 + rng.below(4) as u32;
    let finished_channels_align = rng.below(2) == 0;
    let length = rng.below(80);
    let mut next_record = 0;
    let mut newest_id = 1;
    let mut arrivals = Vec::new();
    let mut replays = Vec::new();
    for _ in 0..length {
        // Mostly real channels, now and then one the task does not have.
        let ch = rng.below(u64::from(channels) + 1) as u32;
        let input = match rng.below(20) {
            0..=9 => {
                next_record += 1;
                Input::Record(next_record)
            }
            10..=15 => {
                // Barrier ids mostly grow, but stale and skipped ids occur too.
                newest_id += rng.below(2);
                Input::Barrier(newest_id.saturating_sub(rng.below(3)))
            }
            16..=18 => Input::Cancel(newest_id + rng.below(3) - 1),
            _ => Input::EndOfPartition,
        };
        arrivals.push((ch, input));
        replays.push(if rng.below(4) == 0 {
            1 + rng.below(3) as u32
        } else {
            0
        });
    }
    Scenario {
        mode,
        channels,
        finished_channels_align,
        arrivals,
        replays,
    }
}

fn play(scenario: &Scenario, with_replays: bool) -> Vec<Output<u32>> {
    let mut handler = BarrierHandler::new(
        scenario.mode,
        scenario.channels,
        scenario.finished_channels_align,
    );
    let mut out = Vec::new();
    for ((ch, input), replays) in scenario.arrivals.iter().zip(&scenario.replays) {
        handler.receive(*ch, input.clone(), &mut out);
        check_views(&handler);
        if with_replays {
            for _ in 0..*replays {
                handler.replay_one(&mut out);
                check_views(&handler);
            }
        }
    }
    handler.end_of_input(&mut out);
    assert!(!handler.has_replay());
    assert_eq!(handler.held_count(), 0);
    assert_eq!(handler.current_checkpoint(), None);
    out
}

/// The page draws these: they must agree with each other.
fn check_views(handler: &BarrierHandler<u32>) {
    let per_channel: usize = (0..handler.channels())
        .map(|ch| handler.held_on(ch).len())
        .sum();
    assert_eq!(per_channel, handler.held_count() as usize);
    for ch in 0..handler.channels() {
        assert!(!(handler.is_blocked(ch) && handler.is_closed(ch)));
        if handler.is_blocked(ch) {
            assert!(handler.has_delivered_current(ch));
        }
    }
    if !handler.blocks_inputs() {
        assert_eq!(handler.held_count(), 0);
    }
}

fn check_invariants(seed: u64, scenario: &Scenario, out: &[Output<u32>]) {
    let context = format!("seed {seed}: {out:?}");
    // Every record sent on a real channel reaches the operator exactly once, in channel order.
    let mut sent: BTreeMap<ChannelIndex, Vec<u32>> = BTreeMap::new();
    for (ch, input) in &scenario.arrivals {
        if let Input::Record(record) = input {
            if *ch < scenario.channels {
                sent.entry(*ch).or_default().push(*record);
            }
        }
    }
    let mut received: BTreeMap<ChannelIndex, Vec<u32>> = BTreeMap::new();
    let mut triggered = Vec::new();
    let mut aborted = BTreeSet::new();
    for (index, output) in out.iter().enumerate() {
        match output {
            Output::Record { ch, record } => received.entry(*ch).or_default().push(*record),
            Output::Triggered(id) => triggered.push(*id),
            Output::Aborted(id) => assert!(aborted.insert(*id), "{id} aborted twice, {context}"),
            Output::EndOfData(ch) | Output::EndOfPartition(ch) => {
                assert!(*ch < scenario.channels, "{context}")
            }
            Output::Barrier { have, need, .. } => {
                assert!(have <= need, "{context}");
                assert_eq!(*need, scenario.channels, "{context}");
            }
            // Only alignment holds items and unblocks inputs.
            Output::Held { ch, held } => {
                assert_eq!(scenario.mode, BarrierMode::Aligned, "{context}");
                assert!(*ch < scenario.channels && *held > 0, "{context}");
            }
            Output::Unblocked { .. } => {
                assert_eq!(scenario.mode, BarrierMode::Aligned, "{context}")
            }
            Output::ChannelState { ch, record, .. } => {
                assert_eq!(scenario.mode, BarrierMode::Unaligned, "{context}");
                // Persisted right before it is handed on.
                let next = out.get(index + 1);
                assert_eq!(
                    next,
                    Some(&Output::Record {
                        ch: *ch,
                        record: *record
                    }),
                    "{context}"
                );
            }
        }
    }
    assert_eq!(sent, received, "{context}");
    assert!(
        triggered.windows(2).all(|pair| pair[0] < pair[1]),
        "triggers must grow, {context}"
    );
    if scenario.mode != BarrierMode::Unaligned {
        assert!(
            triggered.iter().all(|id| !aborted.contains(id)),
            "triggered and aborted, {context}"
        );
    }
}

#[test]
fn random_sequences_keep_every_invariant() {
    for seed in 0..3_000 {
        let scenario = scenario(seed);
        let out = play(&scenario, true);
        check_invariants(seed, &scenario, &out);
        // Replaying step by step in between changes nothing but the timing.
        assert_eq!(out, play(&scenario, false), "seed {seed}");
    }
}

#[test]
fn the_same_seed_gives_the_same_trace() {
    for seed in [7, 1_234, 99_999] {
        let first = play(&scenario(seed), true);
        let second = play(&scenario(seed), true);
        assert_eq!(first, second, "seed {seed}");
    }
}

#[test]
fn huge_channel_counts_and_extreme_ids_are_harmless() {
    for mode in BarrierMode::ALL {
        let mut handler = BarrierHandler::new(mode, u32::MAX, true);
        let mut out = Vec::new();
        handler.receive(u32::MAX - 1, Input::Barrier(u64::MAX), &mut out);
        handler.receive(u32::MAX, Input::Record(1), &mut out);
        handler.receive(0, Input::Cancel(0), &mut out);
        handler.receive(0, Input::Barrier(u64::MAX), &mut out);
        handler.end_of_input(&mut out);
        handler.end_of_input(&mut out);
        let acts = out.iter().filter(|o| !o.is_note()).count();
        assert!(acts <= 2, "{mode}: {out:?}");
        let mut none: BarrierHandler<u32> = BarrierHandler::new(mode, 0, false);
        none.receive(0, Input::Record(1), &mut out);
        none.end_of_input(&mut out);
    }
}
