//! Operator chaining, as Flink does it by default: an operator whose only input is a forward
//! edge from one of equal parallelism runs in its sender's task. Between them there is no
//! channel (nothing ever waits on it, nothing is persisted from it, it cannot be paused or
//! slowed), no barrier is handed over (the chained operator snapshots in the same step as its
//! head), one thread does the work of both, and a chained operator's full output holds back
//! its chain's head.
#![cfg(not(target_arch = "wasm32"))]

mod common;
use abs_playground::engine::chaining::chainable_edges;
use abs_playground::engine::{Action, ActionError, BarrierMode, Event, Simulation};
use abs_playground::scenario::Scenario;
use common::word_counts;

/// Src → Split (forward) → Count (hash) → Sink (forward), parallelism 2, bounded: with
/// chaining two chains per subtask index, Src+Split and Count+Sink.
fn wordcount(mode: BarrierMode, chaining: bool, extra: &str) -> Simulation {
    let json = format!(
        r#"{{"name": "chained", "title": "chained",
            "graph": {{
              "operators": [
                {{"name": "Src", "kind": {{"type": "source", "lines": ["a b c", "c d", "a c e", "b d", "a a b", "d c", "b b", "c a e", "e e", "a d"], "interval": 6, "bounded": true}}, "parallelism": 2}},
                {{"name": "Split", "kind": {{"type": "split"}}, "parallelism": 2, "processing_time": 2}},
                {{"name": "Count", "kind": {{"type": "count"}}, "parallelism": 2, "processing_time": 3}},
                {{"name": "Sink", "kind": {{"type": "sink", "transactional": true}}, "parallelism": 2}}
              ],
              "edges": [
                {{"from": "Src", "to": "Split", "partitioning": "forward"}},
                {{"from": "Split", "to": "Count", "partitioning": "hash", "capacity": 3}},
                {{"from": "Count", "to": "Sink", "partitioning": "forward"}}
              ]
            }},
            "config": {{"mode": "{}", "checkpoint_interval": 25, "first_trigger": 7, "chaining": {chaining}{extra}}}}}"#,
        mode.as_str()
    );
    Scenario::from_json(&json).unwrap().simulation().unwrap()
}

const FLINK_MODES: [BarrierMode; 3] = [
    BarrierMode::Aligned,
    BarrierMode::Unaligned,
    BarrierMode::AtLeastOnce,
];

fn task(sim: &Simulation, name: &str) -> u32 {
    sim.physical().task_by_name(name).unwrap()
}

#[test]
fn flink_chains_a_forward_edge_of_equal_parallelism_into_an_operator_with_no_other_input() {
    let scenario = |edges: &str, par_b: u32| {
        let json = format!(
            r#"{{"name": "c", "title": "c", "graph": {{
              "operators": [
                {{"name": "S", "kind": {{"type": "source", "lines": ["a"], "interval": 5}}, "parallelism": 2}},
                {{"name": "T", "kind": {{"type": "source", "lines": ["b"], "interval": 5}}, "parallelism": 2}},
                {{"name": "A", "kind": {{"type": "map"}}, "parallelism": {par_b}}},
                {{"name": "B", "kind": {{"type": "sink", "transactional": false}}, "parallelism": {par_b}}}
              ],
              "edges": [{edges}]}}}}"#
        );
        let s = Scenario::from_json(&json).unwrap();
        chainable_edges(s.simulation().unwrap().physical())
    };
    let e = |from: &str, to: &str, p: &str| {
        format!(r#"{{"from": "{from}", "to": "{to}", "partitioning": "{p}"}}"#)
    };
    // One forward input of equal parallelism: chained, all along the line.
    assert_eq!(
        scenario(
            &[e("S", "A", "forward"), e("A", "B", "forward")].join(","),
            2
        ),
        [true, true]
    );
    // A shuffle is a network exchange: never chained; nor is rescale, a pointwise edge but not
    // Flink's forward partitioner.
    assert_eq!(
        scenario(
            &[e("S", "A", "rebalance"), e("A", "B", "rescale")].join(","),
            2
        ),
        [false, false]
    );
    // Two inputs (a union in Flink needs the network stack): neither is chained.
    assert_eq!(
        scenario(
            &[
                e("S", "A", "forward"),
                e("T", "A", "forward"),
                e("A", "B", "forward")
            ]
            .join(","),
            2
        ),
        [false, false, true]
    );
    // Unequal parallelism: a forward edge Flink would refuse, rescale instead; never chained.
    assert_eq!(
        scenario(
            &[e("S", "A", "rescale"), e("A", "B", "forward")].join(","),
            1
        ),
        [false, true]
    );
}

#[test]
fn a_chained_channel_never_holds_an_item_and_its_barrier_is_taken_in_the_same_step() {
    for mode in FLINK_MODES {
        let mut sim = wordcount(mode, true, "");
        let chained: Vec<u32> = (0..sim.channels().len() as u32)
            .filter(|&c| sim.chains().is_chained(c))
            .collect();
        assert_eq!(chained.len(), 4, "{mode}: Src→Split and Count→Sink, twice");
        let (split0, src0) = (task(&sim, "Split#0"), task(&sim, "Src#0"));
        assert_eq!(sim.chains().head_of(split0), src0);
        let (mut chained_barriers, mut snapshots_together) = (0, 0);
        while sim.step().is_some() {
            assert!(sim.steps() < 50_000, "{mode}");
            for &c in &chained {
                assert!(
                    sim.channels()[c as usize].items().is_empty(),
                    "{mode}: chained channel {c} holds an item"
                );
            }
            let events = sim.last_events();
            for e in events {
                match e {
                    Event::Barrier {
                        task,
                        channel,
                        checkpoint,
                        chained: true,
                        ..
                    } => {
                        assert!(chained.contains(channel), "{mode}");
                        chained_barriers += 1;
                        // Its sender snapshotted this checkpoint in this very step, and so
                        // does it: one call for the whole chain.
                        let from = sim.physical().channels[*channel as usize].from;
                        let took = |who: u32| {
                            events.iter().any(|e| {
                                matches!(e, Event::Snapshot { task, checkpoint: n, .. }
                                    if *task == who && n == checkpoint)
                            })
                        };
                        assert!(
                            took(from) && took(*task),
                            "{mode}: barrier {checkpoint} at {task}"
                        );
                        snapshots_together += 1;
                    }
                    Event::Barrier { channel, .. } => {
                        assert!(!chained.contains(channel), "{mode}: unmarked");
                    }
                    Event::ChannelState { channel, .. }
                    | Event::BarrierOvertook { channel, .. } => {
                        assert!(!chained.contains(channel), "{mode}: persisted from a chain");
                    }
                    _ => {}
                }
            }
        }
        assert!(sim.job_finished(), "{mode}");
        assert!(chained_barriers > 8, "{mode}: {chained_barriers}");
        assert_eq!(chained_barriers, snapshots_together);
        // The same counts as the job without chaining: chaining changes no result.
        let mut plain = wordcount(mode, false, "");
        while plain.step().is_some() {}
        assert_eq!(word_counts(&sim), word_counts(&plain), "{mode}");
        for gs in sim.coordinator().completed() {
            assert!(
                gs.verdict.ok(),
                "{mode} {}: {:?}",
                gs.checkpoint,
                gs.verdict
            );
        }
    }
}

#[test]
fn one_thread_does_the_work_of_the_whole_chain() {
    // Split takes 2 per record and Count 3: chained to their heads, the source's chain works
    // 2 per line and the Count chain 3 + 1 (the sink) per word, one after the other; a task
    // takes its next input only once the whole chain is done.
    let mut sim = wordcount(BarrierMode::Aligned, true, "");
    let count0 = task(&sim, "Count#0");
    let mut taken: Vec<u64> = Vec::new();
    while sim.step().is_some() {
        for e in sim.last_events() {
            if let Event::Processed { task, .. } = e {
                if *task == count0 {
                    taken.push(sim.now());
                }
            }
        }
    }
    let gaps: Vec<u64> = taken.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.len() > 10);
    assert!(
        gaps.iter().all(|&g| g >= 4),
        "Count#0 took a record before its chained sink was done: {gaps:?}"
    );
    // Unchained, Count and Sink work side by side: Count takes records 3 apart.
    let mut plain = wordcount(BarrierMode::Aligned, false, "");
    let mut plain_taken: Vec<u64> = Vec::new();
    while plain.step().is_some() {
        for e in plain.last_events() {
            if let Event::Processed { task, .. } = e {
                if *task == count0 {
                    plain_taken.push(plain.now());
                }
            }
        }
    }
    assert!(
        plain_taken.windows(2).any(|w| w[1] - w[0] == 3),
        "the unchained Count never worked at its own pace"
    );
}

#[test]
fn a_chained_operators_full_output_backpressures_its_chains_head() {
    // Split emits into a hash edge of capacity 3 towards a slower Count chain: Split's output
    // fills, and it is Src, the chain's head, that waits, never reading past it.
    let mut sim = wordcount(BarrierMode::Aligned, true, "");
    let heads: Vec<u32> = vec![task(&sim, "Src#0"), task(&sim, "Src#1")];
    let split_outputs: Vec<u32> = (0..sim.channels().len() as u32)
        .filter(|&c| {
            let from = sim.physical().channels[c as usize].from;
            sim.physical().tasks[from as usize]
                .name
                .starts_with("Split")
        })
        .collect();
    let mut backpressured = 0;
    while sim.step().is_some() {
        for e in sim.last_events() {
            if let Event::Backpressured { task, channel } = e {
                assert!(
                    heads.contains(task),
                    "a chained operator stalled on its own"
                );
                assert!(split_outputs.contains(channel));
                backpressured += 1;
            }
        }
        for &c in &split_outputs {
            let ch = &sim.channels()[c as usize];
            // One line's words at most beyond the capacity (the fan-out of one record).
            assert!(
                ch.occupancy() <= ch.capacity() + 3,
                "{c}: {}",
                ch.occupancy()
            );
        }
    }
    assert!(backpressured > 0, "the source was never held back");
}

#[test]
fn a_chained_channel_cannot_be_paused_slowed_or_reordered() {
    let mut sim = wordcount(BarrierMode::Aligned, true, "");
    let c = (0..sim.channels().len() as u32)
        .find(|&c| sim.chains().is_chained(c))
        .unwrap();
    for action in [
        Action::Pause {
            channel: c,
            paused: true,
        },
        Action::SetLatency {
            channel: c,
            latency: 30,
        },
        Action::SetFifo {
            channel: c,
            fifo: false,
        },
    ] {
        assert_eq!(sim.apply(action), Err(ActionError::Chained(c)));
    }
    // Nothing to deliver on it, ever: it is never offered.
    for _ in 0..200 {
        assert!(!sim
            .enabled_actions()
            .contains(&Action::Deliver { channel: c }));
        sim.step();
    }
}

#[test]
fn a_failure_in_a_chain_restores_every_operator_of_it_exactly_once() {
    for mode in [BarrierMode::Aligned, BarrierMode::Unaligned] {
        let mut clean = wordcount(mode, true, "");
        while clean.step().is_some() {}
        let mut sim = wordcount(mode, true, "");
        let split1 = task(&sim, "Split#1");
        sim.plan_failure(split1, 60);
        let mut restored = false;
        while sim.step().is_some() {
            assert!(sim.steps() < 50_000);
            restored |= sim
                .last_events()
                .iter()
                .any(|e| matches!(e, Event::Restored { .. }));
        }
        assert!(restored, "{mode}");
        assert_eq!(
            word_counts(&sim),
            word_counts(&clean),
            "{mode}: exactly once"
        );
        let arrived_on_chain = sim
            .channels()
            .iter()
            .enumerate()
            .filter(|(c, _)| sim.chains().is_chained(*c as u32))
            .all(|(_, ch)| ch.records_sent == ch.records_received);
        assert!(arrived_on_chain, "{mode}: a chained channel lost a record");
    }
}

#[test]
fn without_chaining_nothing_is_chained() {
    let sim = wordcount(BarrierMode::Unaligned, false, "");
    assert!(!sim.chains().any());
    // And the barrier over a forward edge is told as kept aligned, not chained.
    let mut sim = sim;
    let mut chained = 0;
    while sim.step().is_some() {
        chained += sim
            .last_events()
            .iter()
            .filter(|e| matches!(e, Event::Barrier { chained: true, .. }))
            .count();
    }
    assert_eq!(chained, 0);
}
