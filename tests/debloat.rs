//! Buffer debloating (Flink's FLIP-183, issue 27): each input channel's capacity follows what
//! its receiver consumes — its share of a target's worth of the task's input, plus what is on
//! its wire — so under backpressure less waits in the buffers and an aligned barrier passes
//! sooner. Each rule below has a test that fails without it.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::debloat::DEFAULT_DEBLOAT_TARGET;
use abs_playground::engine::{Action, BarrierMode, Event, Simulation};
use abs_playground::scenario::{presets, Scenario};

const STEPS: u64 = 20_000;

fn run(scenario: &Scenario, steps: u64) -> Simulation {
    let mut sim = scenario.simulation().unwrap();
    for _ in 0..steps {
        if sim.step().is_none() {
            break;
        }
    }
    sim
}

/// Median duration (trigger to completion) of the completed checkpoints the coordinator keeps.
fn median_duration(sim: &Simulation) -> u64 {
    let mut d: Vec<u64> = sim
        .coordinator()
        .checkpoints()
        .iter()
        .filter(|c| c.status == CheckpointStatus::Completed)
        .filter_map(|c| c.end_time.map(|e| e - c.trigger_time))
        .collect();
    assert!(d.len() >= 10, "only {} checkpoints completed", d.len());
    d.sort_unstable();
    d[d.len() / 2]
}

fn records_at_sinks(sim: &Simulation) -> u64 {
    let phys = sim.physical();
    phys.channels
        .iter()
        .enumerate()
        .filter(|(_, c)| phys.tasks[c.to as usize].outputs.is_empty())
        .map(|(i, _)| sim.channels()[i].records_received)
        .sum()
}

#[test]
fn debloating_halves_the_aligned_checkpoint_duration_under_backpressure_from_a_slow_sink() {
    let plain = presets::slow_sink();
    let aligned = run(&plain, STEPS);
    let debloated = run(&plain.with_debloat(true), STEPS);
    let unaligned = run(&plain.with_mode(BarrierMode::Unaligned), STEPS);
    let (a, d, u) = (
        median_duration(&aligned),
        median_duration(&debloated),
        median_duration(&unaligned),
    );
    println!(
        "slow-sink, {STEPS} steps: median checkpoint duration aligned {a}, aligned with \
         debloating {d}, unaligned {u} (ratio aligned / debloated {:.2})",
        a as f64 / d as f64
    );
    assert!(2 * d <= a, "debloating: {d}, plain aligned: {a}");
    assert!(
        d - u < a - d,
        "debloated {d} should be nearer unaligned {u} than aligned {a}"
    );
    // The throughput stays: the buffers are smaller, not emptier.
    let per_time = |s: &Simulation| records_at_sinks(s) as f64 / s.now() as f64;
    let (ta, td) = (per_time(&aligned), per_time(&debloated));
    println!("records per time unit at the sink: aligned {ta:.3}, debloated {td:.3}");
    assert!(
        td >= 0.95 * ta,
        "debloating cost throughput: {td:.3} vs {ta:.3}"
    );
}

#[test]
fn a_debloated_aligned_snapshot_holds_no_in_flight_data() {
    let sim = run(&presets::slow_sink().with_debloat(true), STEPS);
    let mut seen = 0;
    for gs in sim.coordinator().completed() {
        assert!(
            gs.channel_state.is_empty(),
            "checkpoint {} recorded channel state",
            gs.checkpoint
        );
        assert!(gs.verdict.ok(), "checkpoint {} inconsistent", gs.checkpoint);
        seen += 1;
    }
    assert!(seen > 0);
}

#[test]
fn capacities_stay_between_one_and_the_edges_and_the_events_tell_every_change() {
    let scenario = presets::slow_sink().with_debloat(true);
    let mut sim = scenario.simulation().unwrap();
    let edge_capacity: Vec<u32> = sim.physical().channels.iter().map(|c| c.capacity).collect();
    let mut before: Vec<u32> = sim.channels().iter().map(|c| c.capacity()).collect();
    let (mut resized, mut shrunk, mut grown) = (0, 0, 0);
    for _ in 0..STEPS {
        sim.step().unwrap();
        let mut told = before.clone();
        for e in sim.last_events() {
            if let Event::BufferResized {
                channel,
                capacity: n,
                throughput,
                target,
            } = *e
            {
                resized += 1;
                assert_eq!(target, DEFAULT_DEBLOAT_TARGET);
                assert!(throughput > 0);
                let old = told[channel as usize];
                assert_ne!(n, old, "a resize to the same capacity was told");
                if n < old {
                    shrunk += 1;
                    // Flink's threshold: a shrink of 25 % or less is not made.
                    assert!(n == 1 || (old - n) * 4 > old, "{old} → {n}");
                } else {
                    grown += 1;
                }
                told[channel as usize] = n;
            }
        }
        for (c, ch) in sim.channels().iter().enumerate() {
            assert_eq!(ch.capacity(), told[c], "channel {c} changed untold");
            assert!((1..=edge_capacity[c]).contains(&ch.capacity()));
        }
        before = told;
    }
    println!("{resized} resizes: {shrunk} channels shrunk, {grown} grown");
    assert!(shrunk > 10 && grown > 10);
    // At the end the buffers are far below the edges' (64, 24, 24).
    let total: u32 = before.iter().sum();
    let edges: u32 = edge_capacity.iter().sum();
    assert!(
        2 * total < edges,
        "capacities {before:?} of {edge_capacity:?}"
    );
}

#[test]
fn under_backpressure_debloating_keeps_far_fewer_records_in_the_channels() {
    let average_queued = |scenario: &Scenario| {
        let mut sim = scenario.simulation().unwrap();
        let mut sum = 0u64;
        for _ in 0..STEPS {
            sim.step().unwrap();
            sum += sim
                .channels()
                .iter()
                .map(|c| u64::from(c.occupancy()))
                .sum::<u64>();
        }
        sum as f64 / STEPS as f64
    };
    let plain = average_queued(&presets::slow_sink());
    let debloated = average_queued(&presets::slow_sink().with_debloat(true));
    println!("records in the channels, average over the steps: plain {plain:.1}, debloated {debloated:.1}");
    assert!(2.0 * debloated < plain);
}

#[test]
fn without_the_setting_no_channel_is_ever_resized() {
    let mut sim = presets::slow_sink().simulation().unwrap();
    let edges: Vec<u32> = sim.physical().channels.iter().map(|c| c.capacity).collect();
    for _ in 0..5_000 {
        sim.step().unwrap();
        assert!(!sim
            .last_events()
            .iter()
            .any(|e| matches!(e, Event::BufferResized { .. })));
    }
    let now: Vec<u32> = sim.channels().iter().map(|c| c.capacity()).collect();
    assert_eq!(now, edges);
}

#[test]
fn a_failure_gives_the_restarted_tasks_full_buffers_that_debloat_again() {
    let mut sim = presets::slow_sink()
        .with_debloat(true)
        .simulation()
        .unwrap();
    let edges: Vec<u32> = sim.physical().channels.iter().map(|c| c.capacity).collect();
    for _ in 0..3_000 {
        sim.step().unwrap();
    }
    assert_ne!(
        sim.channels()
            .iter()
            .map(|c| c.capacity())
            .collect::<Vec<_>>(),
        edges
    );
    let sink = sim.physical().tasks.len() as u32 - 1;
    sim.apply(Action::Fail { task: sink }).unwrap();
    let after: Vec<u32> = sim.channels().iter().map(|c| c.capacity()).collect();
    assert_eq!(after, edges, "new tasks start with the edges' buffers");
    let mut resized_again = false;
    for _ in 0..3_000 {
        sim.step().unwrap();
        resized_again |= sim
            .last_events()
            .iter()
            .any(|e| matches!(e, Event::BufferResized { .. }));
    }
    assert!(resized_again);
}

#[test]
fn a_run_with_debloating_is_the_same_run_every_time() {
    let a = run(&presets::slow_sink().with_debloat(true), 4_000);
    let b = run(&presets::slow_sink().with_debloat(true), 4_000);
    assert_eq!(a.now(), b.now());
    let caps = |s: &Simulation| {
        s.channels()
            .iter()
            .map(|c| c.capacity())
            .collect::<Vec<_>>()
    };
    assert_eq!(caps(&a), caps(&b));
}

#[test]
fn the_setting_reads_true_false_or_a_target_and_refuses_the_rest() {
    let with = |value: &str| {
        let mut json = presets::slow_sink().to_json();
        let at = json.find("\"restart_delay\"").unwrap();
        json.insert_str(at, &format!("\"buffer_debloat\": {value},\n    "));
        Scenario::from_json(&json)
    };
    let target = |value: &str| with(value).unwrap().config.buffer_debloat.map(|b| b.target);
    assert_eq!(target("true"), Some(DEFAULT_DEBLOAT_TARGET));
    assert_eq!(target("false"), None);
    assert_eq!(target("null"), None);
    assert_eq!(target(r#"{"target": 50}"#), Some(50));
    let zero = with(r#"{"target": 0}"#).unwrap_err().to_string();
    assert!(zero.contains("buffer_debloat.target is 0"), "{zero}");
    let unknown = with(r#"{"tagret": 5}"#).unwrap_err().to_string();
    assert!(unknown.contains("unknown field `tagret`"), "{unknown}");
    let word = with(r#""yes""#).unwrap_err().to_string();
    assert!(!word.is_empty());
    // Written back as the target, and read again the same.
    let s = with(r#"{"target": 50}"#).unwrap();
    assert!(s.to_json().contains("\"buffer_debloat\""));
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
}

#[test]
fn on_a_latency_bound_preset_debloating_cannot_shorten_the_alignment() {
    // `backpressure`'s barrier waits for Src B's slow channel (160), not behind queued
    // records: there is nothing for debloating to take away, and it keeps the throughput.
    let plain = presets::backpressure();
    let aligned = median_duration(&run(&plain, STEPS));
    let debloated_run = run(&plain.with_debloat(true), STEPS);
    let debloated = median_duration(&debloated_run);
    println!("backpressure: median duration aligned {aligned}, debloated {debloated}");
    assert!(debloated >= 160 && aligned >= 160);
    assert!(aligned.abs_diff(debloated) * 10 <= aligned);
}
