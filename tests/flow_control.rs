//! Credit-based flow control: a channel holds at most its capacity (in flight plus held in the
//! receiver's alignment buffer); a sender with a full output takes no input — it is
//! backpressured — and the pressure travels upstream. That is why aligned checkpoints cost
//! throughput under backpressure, and why unaligned checkpoints exist.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::snapshot::TaskState;
use abs_playground::engine::{Action, ActionError, BarrierMode, Event, Simulation};
use abs_playground::scenario::presets;

fn sink_received(sim: &Simulation) -> u64 {
    let sink = sim.physical().task_by_name("Sink#0").unwrap();
    match sim.tasks()[sink as usize].state {
        TaskState::Sink { received, .. } => received,
        _ => 0,
    }
}

/// Runs `backpressure` in `mode` to virtual time `until`; returns the records the sink got and
/// how often Src A was backpressured.
fn run(mode: BarrierMode, until: u64) -> (u64, u32) {
    let mut sim = presets::backpressure()
        .with_mode(mode)
        .simulation()
        .unwrap();
    let src_a = sim.physical().task_by_name("Src A#0").unwrap();
    let mut stalls = 0;
    while sim.now() < until {
        sim.step().unwrap();
        stalls += sim
            .last_events()
            .iter()
            .filter(|e| matches!(e, Event::Backpressured { task, .. } if *task == src_a))
            .count() as u32;
    }
    (sink_received(&sim), stalls)
}

#[test]
fn aligned_blocking_backpressures_the_fast_input_and_costs_throughput() {
    let until = 20_000;
    let (aligned, aligned_stalls) = run(BarrierMode::Aligned, until);
    let (unaligned, unaligned_stalls) = run(BarrierMode::Unaligned, until);
    let (at_least_once, alo_stalls) = run(BarrierMode::AtLeastOnce, until);
    eprintln!(
        "records at the sink by t = {until}: aligned {aligned} ({aligned_stalls} stalls of Src A), \
         unaligned {unaligned} ({unaligned_stalls}), at-least-once {at_least_once} ({alo_stalls})"
    );
    // Each aligned checkpoint blocks input A for ~160 while its 24 slots fill up.
    assert!(aligned_stalls >= 50, "{aligned_stalls}");
    assert_eq!(unaligned_stalls, 0);
    assert_eq!(alo_stalls, 0);
    // Blocking costs throughput: at least a tenth fewer records reach the sink.
    assert!(aligned * 10 < unaligned * 9, "{aligned} vs {unaligned}");
    assert!(
        aligned * 10 < at_least_once * 9,
        "{aligned} vs {at_least_once}"
    );
}

#[test]
fn no_channel_holds_more_than_its_capacity_plus_one_records_fan_out() {
    for mode in BarrierMode::ALL {
        let mut sim = presets::backpressure()
            .with_mode(mode)
            .simulation()
            .unwrap();
        let mut full_seen = false;
        for _ in 0..20_000 {
            sim.step();
            for ch in sim.channels() {
                // Sources and Merge emit one record per record: never over capacity.
                assert!(ch.occupancy() <= ch.capacity(), "{mode}");
                full_seen |= ch.is_full();
            }
        }
        assert!(
            full_seen || mode != BarrierMode::Aligned,
            "{mode}: nothing ever filled up"
        );
    }
}

#[test]
fn a_backpressured_task_takes_no_input_by_hand_either() {
    let mut sim = presets::backpressure().simulation().unwrap();
    let src_a = sim.physical().task_by_name("Src A#0").unwrap();
    // Run until Src A is backpressured (its channel to Merge is full during an alignment).
    loop {
        sim.step().unwrap();
        if sim
            .last_events()
            .iter()
            .any(|e| matches!(e, Event::Backpressured { task, .. } if *task == src_a))
        {
            break;
        }
        assert!(sim.now() < 5_000, "Src A never backpressured");
    }
    assert_eq!(
        sim.apply(Action::Emit { task: src_a }),
        Err(ActionError::Backpressured(src_a))
    );
    assert!(!sim
        .enabled_actions()
        .contains(&Action::Emit { task: src_a }));
    // Every action the engine offers is accepted.
    for action in sim.enabled_actions() {
        let mut copy = sim.clone();
        assert_eq!(copy.apply(action), Ok(()), "{action:?}");
    }
}

#[test]
fn capacity_is_a_scenario_setting_per_edge() {
    let mut scenario = presets::backpressure();
    for edge in &mut scenario.graph.edges {
        edge.capacity = 1_000;
    }
    let mut sim = scenario.simulation().unwrap();
    let src_a = sim.physical().task_by_name("Src A#0").unwrap();
    while sim.now() < 5_000 {
        sim.step();
        assert!(!sim
            .last_events()
            .iter()
            .any(|e| matches!(e, Event::Backpressured { task, .. } if *task == src_a)));
    }
}
