//! Property tests over random job graphs, seeds, modes and action sequences. After every step:
//! FIFO per channel, no record lost or duplicated, every completed checkpoint a consistent cut
//! (exactly-once modes) or at least loss-free (at-least-once), checkpoint ids only growing; and
//! the same inputs twice give the same trace. 1,000 cases by default; set PROPTEST_CASES for
//! more. A failure prints the graph, seed and actions that reproduce it.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::record::ItemKind;
use abs_playground::engine::{
    Action, BarrierMode, Config, Edge, Event, JobGraph, Operator, OperatorKind, Partitioning,
    Simulation,
};
use proptest::prelude::*;

const LINES: &[&str] = &["a b c", "b c d e", "to be or not", "x"];

/// A random DAG: one or two sources, then 1–4 layers of one or two operators, each fed by one
/// or two operators of earlier layers.
fn graph() -> impl Strategy<Value = JobGraph> {
    (
        1usize..=2,
        prop::collection::vec((1usize..=2, prop::collection::vec(any::<u32>(), 6)), 1..=4),
        prop::collection::vec(1u32..=4, 12),
        prop::collection::vec(1u64..=20, 12),
        prop::collection::vec(1u64..=3, 12),
        any::<[bool; 2]>(),
    )
        .prop_map(|(sources, layers, par, latency, proc_time, bounded)| {
            let mut ops = Vec::new();
            let mut edges = Vec::new();
            for (s, &p) in par.iter().enumerate().take(sources) {
                ops.push(Operator {
                    name: format!("S{s}"),
                    kind: OperatorKind::Source {
                        lines: LINES.iter().map(|l| l.to_string()).collect(),
                        interval: 2 + s as u64 * 3,
                        // A bounded log ends its partition: end-of-partition flows
                        // downstream and finished tasks keep acknowledging checkpoints.
                        bounded: bounded[s],
                    },
                    parallelism: p,
                    processing_time: 1,
                });
            }
            let mut k = sources;
            for (width, picks) in &layers {
                let before = ops.len();
                for w in 0..*width {
                    let pick = |i: usize| picks[(w * 3 + i) % picks.len()] as usize;
                    let first = pick(0) % before;
                    let second = pick(1) % before;
                    let inputs = if pick(2) % 2 == 0 && first != second {
                        vec![first, second]
                    } else {
                        vec![first]
                    };
                    let kind = match (pick(3) % 6, inputs.len()) {
                        (_, 2) => OperatorKind::Union,
                        (0, _) => OperatorKind::Split,
                        (1, _) => OperatorKind::Map,
                        (2, _) => OperatorKind::Filter { min_len: 2 },
                        (3, _) => OperatorKind::Count,
                        _ => OperatorKind::Sink,
                    };
                    let name = format!("O{k}");
                    let p = par[k % par.len()];
                    for (j, &up) in inputs.iter().enumerate() {
                        let partitioning = match pick(4 + j) % 4 {
                            0 if ops[up].parallelism == p => Partitioning::Forward,
                            0 | 1 => Partitioning::Rebalance,
                            2 => Partitioning::Hash,
                            _ => Partitioning::Broadcast,
                        };
                        edges.push(Edge {
                            from: ops[up].name.clone(),
                            to: name.clone(),
                            partitioning,
                            latency: latency[(k + j) % latency.len()],
                            capacity: 4 + (k + j) as u32 % 12,
                        });
                    }
                    ops.push(Operator {
                        name,
                        kind,
                        parallelism: p,
                        processing_time: proc_time[k % proc_time.len()],
                    });
                    k += 1;
                }
            }
            JobGraph {
                operators: ops,
                edges,
            }
        })
}

#[derive(Clone, Debug)]
enum Move {
    Step,
    /// Pick the n-th enabled action (manual mode).
    Pick(u16),
    Pause(u16, bool),
    /// Any action at all, valid or not: refused ones must change nothing.
    Raw(u8, u32, u64),
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(
        prop_oneof![
            6 => Just(Move::Step),
            3 => any::<u16>().prop_map(Move::Pick),
            1 => (any::<u16>(), any::<bool>()).prop_map(|(c, p)| Move::Pause(c, p)),
            1 => (any::<u8>(), 0u32..40, 0u64..30).prop_map(|(k, a, b)| Move::Raw(k, a, b)),
        ],
        50..300,
    )
}

fn mode() -> impl Strategy<Value = BarrierMode> {
    prop_oneof![
        Just(BarrierMode::Aligned),
        Just(BarrierMode::AtLeastOnce),
        Just(BarrierMode::Unaligned)
    ]
}

/// Runs the moves, checking the invariants after every step; returns the trace.
fn run(
    graph: &JobGraph,
    config: &Config,
    seed: u64,
    moves: &[Move],
) -> Result<String, TestCaseError> {
    let mut sim =
        Simulation::new(graph, config, seed).map_err(|e| TestCaseError::fail(e.to_string()))?;
    let mut trace = String::new();
    let mut last_delivered: BTreeMap<u32, u64> = BTreeMap::new();
    let mut last_processed: BTreeMap<u32, u64> = BTreeMap::new();
    let mut last_triggered = 0u64;
    let mut last_snapshot: BTreeMap<u32, u64> = BTreeMap::new();
    for m in moves {
        let steps_before = sim.steps();
        match *m {
            Move::Step => {
                sim.step();
            }
            Move::Pick(i) => {
                let actions = sim.enabled_actions();
                if !actions.is_empty() {
                    let a = actions[i as usize % actions.len()];
                    prop_assert!(sim.apply(a).is_ok(), "enabled action {a:?} was refused");
                }
            }
            Move::Raw(kind, a, b) => {
                let action = match kind % 7 {
                    0 => Action::Deliver { channel: a },
                    1 => Action::Replay { task: a },
                    2 => Action::Emit { task: a },
                    3 => Action::Trigger,
                    4 => Action::Expire { checkpoint: b },
                    5 => Action::Pause {
                        channel: a,
                        paused: b % 2 == 0,
                    },
                    _ => Action::SetLatency {
                        channel: a,
                        latency: b,
                    },
                };
                let (steps, now) = (sim.steps(), sim.now());
                let queued: usize = sim.channels().iter().map(|c| c.items().len()).sum();
                if sim.apply(action).is_err() {
                    let after: usize = sim.channels().iter().map(|c| c.items().len()).sum();
                    prop_assert_eq!((steps, now, queued), (sim.steps(), sim.now(), after));
                }
            }
            Move::Pause(c, paused) => {
                let n = sim.channels().len() as u16;
                let _ = sim.apply(Action::Pause {
                    channel: u32::from(c % n.max(1)),
                    paused,
                });
            }
        }
        // A refused action leaves the previous step's events in place: nothing new happened.
        let events = if sim.steps() > steps_before {
            sim.last_events()
        } else {
            &[]
        };
        trace.push_str(&serde_json::to_string(events).unwrap());
        trace.push('\n');
        for e in events {
            match e {
                Event::Arrived {
                    channel,
                    item: ItemKind::Record(r),
                    ..
                } => {
                    let last = last_delivered.insert(*channel, r.id).unwrap_or(0);
                    prop_assert!(
                        r.id > last,
                        "FIFO broken on channel {channel}: {} after {last}",
                        r.id
                    );
                }
                Event::Processed {
                    channel, record, ..
                } => {
                    let last = last_processed.insert(*channel, record.id).unwrap_or(0);
                    prop_assert!(
                        record.id > last,
                        "records of channel {channel} processed out of order"
                    );
                }
                Event::CheckpointTriggered { checkpoint } => {
                    prop_assert!(*checkpoint > last_triggered, "checkpoint ids must grow");
                    last_triggered = *checkpoint;
                }
                Event::Snapshot {
                    task, checkpoint, ..
                } => {
                    let last = last_snapshot.insert(*task, *checkpoint).unwrap_or(0);
                    prop_assert!(
                        *checkpoint > last,
                        "task {task} snapshotted {checkpoint} after {last}"
                    );
                }
                _ => {}
            }
        }
        // Conservation: every record sent on a channel is in flight, held, or received.
        for (c, ch) in sim.channels().iter().enumerate() {
            let in_flight = ch
                .items()
                .iter()
                .filter(|i| matches!(i.kind, ItemKind::Record(_)))
                .count() as u64;
            let held = abs_playground::engine::view::held_items(&sim, c as u32)
                .iter()
                .filter(|i| matches!(i, ItemKind::Record(_)))
                .count() as u64;
            prop_assert_eq!(
                ch.records_sent,
                in_flight + held + ch.records_received,
                "records lost or duplicated on channel {}",
                c
            );
        }
    }
    for summary in sim.coordinator().checkpoints() {
        if summary.status != CheckpointStatus::Completed {
            continue;
        }
        let Some(gs) = sim.coordinator().global_state(summary.id) else {
            continue;
        };
        match config.mode {
            BarrierMode::AtLeastOnce => {
                prop_assert_eq!(gs.verdict.lost, 0, "at-least-once lost records")
            }
            _ => prop_assert!(
                gs.verdict.ok(),
                "checkpoint {} is not consistent: {:?}",
                gs.checkpoint,
                gs.verdict
            ),
        }
    }
    Ok(trace)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000),
        max_shrink_iters: 200,
        .. ProptestConfig::default()
    })]

    #[test]
    fn invariants_hold_after_every_step(
        graph in graph(),
        mode in mode(),
        seed in any::<u64>(),
        moves in moves(),
        interval in 5u64..60,
        concurrent in 1u32..=3,
    ) {
        let config = Config {
            mode,
            checkpoint_interval: Some(interval),
            first_trigger: 3,
            max_concurrent_checkpoints: concurrent,
            timeout: 400,
            ..Config::default()
        };
        let first = run(&graph, &config, seed, &moves)?;
        let second = run(&graph, &config, seed, &moves)?;
        prop_assert!(first == second, "same inputs gave different traces");
    }
}

/// Scenario text from anywhere (a file, a permalink) never panics the engine: it is refused
/// with a typed error, or it builds and runs.
fn mutated_scenario() -> impl Strategy<Value = String> {
    let base = abs_playground::scenario::presets::wordcount().to_json();
    (
        prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
        any::<prop::sample::Index>(),
        0usize..4,
    )
        .prop_map(move |(edits, cut, how)| {
            let mut bytes = base.clone().into_bytes();
            for (at, b) in edits {
                let i = at.index(bytes.len());
                // Mostly digits, so numbers change and the JSON often stays valid.
                bytes[i] = if b % 3 == 0 { b } else { b'0' + b % 10 };
            }
            if how == 0 {
                bytes.truncate(cut.index(bytes.len() + 1));
            }
            String::from_utf8_lossy(&bytes).into_owned()
        })
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1000),
        .. ProptestConfig::default()
    })]

    #[test]
    fn any_scenario_text_is_refused_or_runs(text in mutated_scenario()) {
        use abs_playground::scenario::Scenario;
        if let Ok(scenario) = Scenario::from_json(&text) {
            // Keep the run small: a mutation may have made the graph large.
            if scenario.graph.operators.iter().map(|o| o.parallelism as u64).sum::<u64>() <= 64 {
                let mut sim = scenario.simulation().map_err(|e| TestCaseError::fail(e.to_string()))?;
                for _ in 0..200 {
                    sim.step();
                }
            }
        }
    }
}
