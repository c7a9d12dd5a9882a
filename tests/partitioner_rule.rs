//! Flink's partitioner rule (`StreamPartitioner.isSupportsUnalignedCheckpoint`) end to end:
//! under unaligned checkpoints and under the aligned-checkpoint timeout a barrier crosses a
//! forward, rescale or broadcast edge only aligned, and a task with such an input takes every
//! checkpoint aligned on all its inputs and never times out; its rebalance and hash outputs
//! still send priority barriers. Each test fails when the rule is taken out of the engine
//! (checked by making `BarrierPolicy::resolve` keep nothing aligned). Also: the rescale
//! partitioning's channels and routing.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::{
    BarrierMode, ChannelId, Config, Edge, Event, JobGraph, Operator, OperatorKind, Partitioning,
    Simulation, TaskId,
};

use Partitioning::{Broadcast, Forward, Hash, Rebalance, Rescale};

fn source(name: &str, parallelism: u32, interval: u64) -> Operator {
    Operator {
        name: name.into(),
        kind: OperatorKind::Source {
            lines: ["a b", "c d", "e f", "g h"]
                .iter()
                .map(|l| l.to_string())
                .collect(),
            interval,
            bounded: false,
        },
        parallelism,
        processing_time: 1,
    }
}

fn op(name: &str, kind: OperatorKind, parallelism: u32) -> Operator {
    Operator {
        name: name.into(),
        kind,
        parallelism,
        processing_time: 1,
    }
}

fn sink(name: &str, parallelism: u32) -> Operator {
    op(
        name,
        OperatorKind::Sink {
            transactional: false,
        },
        parallelism,
    )
}

fn edge(from: &str, to: &str, partitioning: Partitioning, latency: u64) -> Edge {
    Edge {
        latency,
        ..Edge::new(from, to, partitioning)
    }
}

/// Src A → Merge over `a` (latency 12, the fast input), Src B → Merge over `b` (latency 48, the
/// slow one), Merge (a union) → Sink by rebalance; every operator at parallelism 1.
fn merge_graph(a: Partitioning, b: Partitioning) -> JobGraph {
    JobGraph {
        operators: vec![
            source("Src A", 1, 5),
            source("Src B", 1, 5),
            op("Merge", OperatorKind::Union, 1),
            sink("Sink", 1),
        ],
        edges: vec![
            edge("Src A", "Merge", a, 12),
            edge("Src B", "Merge", b, 48),
            edge("Merge", "Sink", Rebalance, 10),
        ],
    }
}

fn config(mode: BarrierMode, aligned_timeout: Option<u64>) -> Config {
    Config {
        mode,
        aligned_checkpoint_timeout: aligned_timeout,
        ..Config::default()
    }
}

/// Runs `steps` steps (or until nothing is left to do) and returns the simulation with every
/// event of the run, in order.
fn run(graph: &JobGraph, config: &Config, steps: u64) -> (Simulation, Vec<Event>) {
    let mut sim = Simulation::new(graph, config, 7).expect("the graph builds");
    let mut events = Vec::new();
    for _ in 0..steps {
        if sim.step().is_none() {
            break;
        }
        events.extend_from_slice(sim.last_events());
    }
    (sim, events)
}

fn task(sim: &Simulation, name: &str) -> TaskId {
    sim.physical()
        .task_by_name(name)
        .unwrap_or_else(|| panic!("no task {name}"))
}

/// The `kept_aligned` of every barrier task `t` took.
fn kept_at(events: &[Event], t: TaskId) -> Vec<Option<Partitioning>> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Barrier {
                task, kept_aligned, ..
            } if task == t => Some(kept_aligned),
            _ => None,
        })
        .collect()
}

fn count(events: &[Event], f: impl Fn(&Event) -> bool) -> usize {
    events.iter().filter(|e| f(e)).count()
}

fn completed_consistent(sim: &Simulation) -> usize {
    let mut n = 0;
    for gs in sim.coordinator().completed() {
        assert!(
            gs.verdict.ok(),
            "checkpoint {} is inconsistent: {:?}",
            gs.checkpoint,
            gs.verdict
        );
        n += 1;
    }
    n
}

// ----- a. unaligned: a forward input makes the task align on all its inputs -----

#[test]
fn unaligned_a_forward_input_makes_the_merge_align_and_persist_nothing() {
    let (sim, events) = run(
        &merge_graph(Forward, Rebalance),
        &config(BarrierMode::Unaligned, None),
        4000,
    );
    let merge = task(&sim, "Merge#0");
    let sink = task(&sim, "Sink#0");
    let merge_inputs = sim.physical().tasks[merge as usize].inputs.clone();

    // Every barrier Merge takes, on either input (the rebalance one too), is kept aligned
    // because of the forward edge.
    let kept = kept_at(&events, merge);
    assert!(
        kept.len() >= 10,
        "only {} barriers reached Merge",
        kept.len()
    );
    assert!(
        kept.iter().all(|k| *k == Some(Forward)),
        "Merge's barriers: {kept:?}"
    );
    // Merge aligns: it holds records of the input whose barrier came first …
    let held = count(
        &events,
        |e| matches!(e, Event::Held { task, .. } if *task == merge),
    );
    assert!(held > 0, "Merge never held a record: it did not align");
    assert!(
        count(
            &events,
            |e| matches!(e, Event::Unblocked { task, .. } if *task == merge)
        ) > 0
    );
    // … persists no channel state, and no barrier overtakes records on its inputs.
    assert_eq!(
        count(
            &events,
            |e| matches!(e, Event::ChannelState { task, .. } if *task == merge)
        ),
        0,
        "Merge persisted channel state"
    );
    assert_eq!(
        count(
            &events,
            |e| matches!(e, Event::BarrierOvertook { channel, .. } if merge_inputs.contains(channel))
        ),
        0,
        "a barrier overtook records on an input of Merge"
    );
    // Its output to the sink is a rebalance edge: the barrier still goes out as a priority
    // event there.
    let snapshots: Vec<(u32, bool)> = events
        .iter()
        .filter_map(|e| match *e {
            Event::Snapshot {
                task,
                forwarded,
                priority,
                ..
            } if task == merge => Some((forwarded, priority)),
            _ => None,
        })
        .collect();
    assert!(snapshots.len() >= 5, "{snapshots:?}");
    assert!(
        snapshots.iter().all(|&(f, p)| f == 1 && p),
        "Merge's snapshots (forwarded, priority): {snapshots:?}"
    );
    // The sink's only input is a rebalance edge: its barriers are not kept aligned.
    let at_sink = kept_at(&events, sink);
    assert!(!at_sink.is_empty() && at_sink.iter().all(Option::is_none));
    let completed = completed_consistent(&sim);
    assert!(completed >= 5, "{completed} checkpoints completed");
    println!(
        "forward + rebalance into Merge, unaligned: {} barriers kept aligned at Merge, {held} \
         records held, {} snapshots forwarded as priority, {completed} consistent checkpoints",
        kept.len(),
        snapshots.len()
    );
}

#[test]
fn unaligned_with_rebalance_inputs_only_the_merge_persists_channel_state_and_never_holds() {
    let (sim, events) = run(
        &merge_graph(Rebalance, Rebalance),
        &config(BarrierMode::Unaligned, None),
        4000,
    );
    let merge = task(&sim, "Merge#0");
    let kept = kept_at(&events, merge);
    assert!(kept.len() >= 10);
    assert!(kept.iter().all(Option::is_none), "{kept:?}");
    assert!(
        events.iter().all(|e| !matches!(
            e,
            Event::Barrier {
                kept_aligned: Some(_),
                ..
            }
        )),
        "no edge keeps barriers aligned here"
    );
    assert_eq!(
        count(
            &events,
            |e| matches!(e, Event::Held { task, .. } if *task == merge)
        ),
        0,
        "unaligned Merge held input"
    );
    let persisted = count(
        &events,
        |e| matches!(e, Event::ChannelState { task, .. } if *task == merge),
    );
    assert!(persisted > 0, "Merge persisted no channel state");
    let completed = completed_consistent(&sim);
    assert!(completed >= 5);
    println!(
        "rebalance + rebalance into Merge, unaligned: {} barriers, none kept, 0 held, {persisted} \
         records persisted as channel state at Merge",
        kept.len()
    );
}

// ----- b. unaligned: a barrier on a forward edge overtakes nothing -----

#[test]
fn unaligned_a_forward_barrier_reaches_the_sink_after_every_record_sent_before_it() {
    // The sink takes 3 per record, the source reads one every 2: the channel fills up (the
    // source is backpressured), so records are queued at the sink when each barrier comes —
    // an unaligned barrier would overtake them.
    let graph = JobGraph {
        operators: vec![
            source("Src", 1, 2),
            Operator {
                processing_time: 3,
                ..sink("Sink", 1)
            },
        ],
        edges: vec![edge("Src", "Sink", Forward, 10)],
    };
    let (sim, events) = run(&graph, &config(BarrierMode::Unaligned, None), 4000);
    let src = task(&sim, "Src#0");
    let sink = task(&sim, "Sink#0");

    // Records read by the source so far, in order, and the processing position of each record
    // at the sink.
    let mut read: Vec<u64> = Vec::new();
    let mut processed_at = std::collections::HashMap::new();
    // Per checkpoint: the records the source had sent when its barrier went out.
    let mut sent_before: Vec<(u64, Vec<u64>)> = Vec::new();
    let mut sink_snapshot_at = std::collections::HashMap::new();
    for (i, e) in events.iter().enumerate() {
        match *e {
            Event::SourceRead { task, record, .. } if task == src => read.push(record.id),
            Event::Processed { task, record, .. } if task == sink => {
                processed_at.insert(record.id, i);
            }
            Event::Snapshot {
                task, checkpoint, ..
            } if task == src => sent_before.push((checkpoint, read.clone())),
            Event::Snapshot {
                task, checkpoint, ..
            } if task == sink => {
                sink_snapshot_at.insert(checkpoint, i);
            }
            _ => {}
        }
    }
    let mut checked = 0;
    let mut in_flight_at_barrier = 0;
    for (n, before) in &sent_before {
        let Some(&snap) = sink_snapshot_at.get(n) else {
            continue; // its barrier had not reached the sink when the run stopped
        };
        let src_snap = events
            .iter()
            .position(|e| matches!(e, Event::Snapshot { task, checkpoint, .. } if *task == src && checkpoint == n))
            .unwrap();
        for id in before {
            let at = processed_at.get(id).copied();
            assert!(
                at.is_some_and(|at| at < snap),
                "checkpoint {n}: record {id}, sent before the barrier, was processed at {at:?}, \
                 the sink snapshotted at {snap}: the barrier overtook it"
            );
            if at.is_some_and(|at| at > src_snap) {
                in_flight_at_barrier += 1;
            }
        }
        checked += 1;
    }
    assert!(checked >= 10, "only {checked} checkpoints reached the sink");
    // The test means something only if records were on the channel when the barrier went out.
    assert!(
        in_flight_at_barrier >= checked,
        "only {in_flight_at_barrier} records were in flight behind {checked} barriers"
    );
    assert_eq!(
        count(&events, |e| matches!(e, Event::ChannelState { .. })),
        0
    );
    assert_eq!(
        count(&events, |e| matches!(e, Event::BarrierOvertook { .. })),
        0
    );
    let kept = kept_at(&events, sink);
    assert!(kept.iter().all(|k| *k == Some(Forward)), "{kept:?}");
    println!(
        "Src → Sink forward, unaligned: {checked} barriers each behind every record sent before \
         it ({in_flight_at_barrier} records were in flight behind a barrier)"
    );
}

// ----- c. aligned with a timeout: a kept task never times out -----

#[test]
fn aligned_timeout_never_times_out_a_task_with_a_forward_input_but_does_with_rebalance() {
    let timeout = config(BarrierMode::Aligned, Some(20));
    // Merge's barrier from Src A arrives about 12 after the trigger, the one from Src B about
    // 48 after: at 20 Merge is still aligning.
    let (sim, events) = run(&merge_graph(Forward, Rebalance), &timeout, 4000);
    let merge = task(&sim, "Merge#0");
    let inputs = sim.physical().tasks[merge as usize].inputs.clone();
    let kept = kept_at(&events, merge);
    assert!(kept.len() >= 10);
    assert!(kept.iter().all(|k| *k == Some(Forward)), "{kept:?}");
    assert_eq!(
        count(
            &events,
            |e| matches!(e, Event::AlignmentTimedOut { task, .. } if *task == merge)
        ),
        0,
        "Merge's alignment timed out although its forward input keeps it aligned"
    );
    assert_eq!(
        count(
            &events,
            |e| matches!(e, Event::ChannelState { task, .. } if *task == merge)
        ),
        0
    );
    assert_eq!(
        count(
            &events,
            |e| matches!(e, Event::BarrierOvertook { channel, .. } if inputs.contains(channel))
        ),
        0,
        "a timed-out barrier overtook records on Merge's inputs"
    );
    let held = count(
        &events,
        |e| matches!(e, Event::Held { task, .. } if *task == merge),
    );
    assert!(held > 0);
    // The checkpoints did time out: Merge's barrier goes on to the sink as a priority event
    // (over the rebalance edge) once its checkpoint has gone on unaligned.
    let priority = count(
        &events,
        |e| matches!(e, Event::Snapshot { task, priority: true, .. } if *task == merge),
    );
    assert!(priority > 0, "no checkpoint went on unaligned");
    assert!(completed_consistent(&sim) >= 5);

    let (sim, events) = run(&merge_graph(Rebalance, Rebalance), &timeout, 4000);
    let merge = task(&sim, "Merge#0");
    let timed_out = count(
        &events,
        |e| matches!(e, Event::AlignmentTimedOut { task, .. } if *task == merge),
    );
    assert!(timed_out > 0, "with rebalance inputs Merge should time out");
    assert!(kept_at(&events, merge).iter().all(Option::is_none));
    let persisted = count(
        &events,
        |e| matches!(e, Event::ChannelState { task, .. } if *task == merge),
    );
    assert!(
        persisted > 0,
        "a timed-out Merge persists what is in flight"
    );
    assert!(completed_consistent(&sim) >= 5);
    println!(
        "aligned, timeout 20: forward + rebalance — Merge held {held} records, 0 timeouts, \
         {priority} priority snapshots; rebalance + rebalance — {timed_out} timeouts, \
         {persisted} records persisted"
    );
}

// ----- d. broadcast and rescale inputs count; other modes keep nothing -----

/// Src (p = `src_p`) → Map (p = `map_p`) over `p`, Map → Sink by rebalance. Map is slow (12
/// per record): records queue up before it, for an unaligned barrier to overtake.
fn fan_graph(p: Partitioning, src_p: u32, map_p: u32) -> JobGraph {
    JobGraph {
        operators: vec![
            source("Src", src_p, 5),
            Operator {
                processing_time: 12,
                ..op("Map", OperatorKind::Map, map_p)
            },
            sink("Sink", 1),
        ],
        edges: vec![
            edge("Src", "Map", p, 30),
            edge("Map", "Sink", Rebalance, 10),
        ],
    }
}

/// Every barrier each subtask of `operator` took.
fn kept_at_operator(
    sim: &Simulation,
    events: &[Event],
    operator: &str,
) -> Vec<Option<Partitioning>> {
    let op = sim
        .physical()
        .graph
        .operators
        .iter()
        .position(|o| o.name == operator)
        .unwrap();
    sim.physical().operator_tasks[op]
        .iter()
        .flat_map(|&t| kept_at(events, t))
        .collect()
}

#[test]
fn broadcast_and_rescale_inputs_keep_barriers_aligned_too_and_hash_does_not() {
    for (p, src_p, map_p, expect) in [
        (Broadcast, 1, 2, Some(Broadcast)),
        (Rescale, 2, 4, Some(Rescale)),
        (Forward, 2, 2, Some(Forward)),
        (Hash, 1, 2, None),
    ] {
        for (mode, timeout) in [
            (BarrierMode::Unaligned, None),
            (BarrierMode::Aligned, Some(15)),
        ] {
            let (sim, events) = run(&fan_graph(p, src_p, map_p), &config(mode, timeout), 3000);
            let at_map = kept_at_operator(&sim, &events, "Map");
            assert!(at_map.len() >= 10, "{p:?} {mode}: {}", at_map.len());
            assert!(
                at_map.iter().all(|k| *k == expect),
                "{p:?} {mode} {timeout:?}: {at_map:?}"
            );
            // The sink's rebalance input is not kept: Map's barriers overtake towards it.
            assert!(kept_at_operator(&sim, &events, "Sink")
                .iter()
                .all(Option::is_none));
            let map_tasks: Vec<TaskId> = (0..map_p)
                .map(|s| task(&sim, &format!("Map#{s}")))
                .collect();
            let map_inputs: Vec<ChannelId> = map_tasks
                .iter()
                .flat_map(|&t| sim.physical().tasks[t as usize].inputs.clone())
                .collect();
            let overtook_into_map = count(
                &events,
                |e| matches!(e, Event::BarrierOvertook { channel, .. } if map_inputs.contains(channel)),
            );
            let timeouts_at_map = count(
                &events,
                |e| matches!(e, Event::AlignmentTimedOut { task, .. } if map_tasks.contains(task)),
            );
            if expect.is_some() {
                assert_eq!(overtook_into_map, 0, "{p:?} {mode}: a barrier overtook");
                assert_eq!(timeouts_at_map, 0, "{p:?} {mode}: an alignment timed out");
                assert_eq!(
                    count(
                        &events,
                        |e| matches!(e, Event::ChannelState { task, .. } if map_tasks.contains(task))
                    ),
                    0,
                    "{p:?} {mode}: Map persisted channel state"
                );
            } else {
                // Unaligned barriers, and timed-out aligned ones, overtake the records queued
                // before the slow Map.
                assert!(overtook_into_map > 0, "hash, {mode}: nothing overtaken");
            }
            assert!(completed_consistent(&sim) >= 3);
            println!(
                "{p:?} into Map ({src_p} → {map_p}), {mode} {timeout:?}: {} barriers at Map, \
                 kept {expect:?}; {overtook_into_map} overtakings and {timeouts_at_map} \
                 timeouts at Map",
                at_map.len()
            );
        }
    }
}

#[test]
fn the_first_keeping_input_edge_is_named_for_every_input() {
    // Rebalance first, then broadcast, then forward: all three inputs are kept aligned, and
    // the broadcast edge, the first that keeps them, is the one named.
    let graph = JobGraph {
        operators: vec![
            source("A", 1, 5),
            source("B", 1, 7),
            source("C", 1, 9),
            op("Merge", OperatorKind::Union, 1),
            sink("Sink", 1),
        ],
        edges: vec![
            edge("A", "Merge", Rebalance, 10),
            edge("B", "Merge", Broadcast, 20),
            edge("C", "Merge", Forward, 30),
            edge("Merge", "Sink", Hash, 10),
        ],
    };
    let (sim, events) = run(&graph, &config(BarrierMode::Unaligned, None), 3000);
    let merge = task(&sim, "Merge#0");
    let inputs = &sim.physical().tasks[merge as usize].inputs;
    for &c in inputs {
        let on_c: Vec<_> = events
            .iter()
            .filter_map(|e| match *e {
                Event::Barrier {
                    task,
                    channel,
                    kept_aligned,
                    ..
                } if task == merge && channel == c => Some(kept_aligned),
                _ => None,
            })
            .collect();
        assert!(on_c.len() >= 5, "channel {c}");
        assert!(on_c.iter().all(|k| *k == Some(Broadcast)), "{c}: {on_c:?}");
    }
    assert!(
        count(
            &events,
            |e| matches!(e, Event::Held { task, .. } if *task == merge)
        ) > 0
    );
    assert!(completed_consistent(&sim) >= 3);
}

#[test]
fn modes_without_priority_barriers_or_a_timeout_keep_nothing_aligned() {
    let graphs = [
        merge_graph(Forward, Rebalance),
        fan_graph(Broadcast, 1, 2),
        fan_graph(Rescale, 2, 4),
        fan_graph(Forward, 2, 2),
    ];
    let mut runs = 0;
    let mut barriers = 0;
    for mode in BarrierMode::ALL {
        if mode == BarrierMode::Unaligned {
            continue;
        }
        // Aligned without a timeout; the others with one too (only aligned mode has it).
        let timeouts: &[Option<u64>] = if mode == BarrierMode::Aligned {
            &[None]
        } else {
            &[None, Some(15)]
        };
        for graph in &graphs {
            for &timeout in timeouts {
                let Ok(mut sim) = Simulation::new(graph, &config(mode, timeout), 7) else {
                    continue; // a mode this graph does not run in
                };
                for _ in 0..2000 {
                    if sim.step().is_none() {
                        break;
                    }
                    for e in sim.last_events() {
                        if let Event::Barrier { kept_aligned, .. } = e {
                            barriers += 1;
                            assert_eq!(*kept_aligned, None, "{mode} {timeout:?}");
                        }
                        assert!(
                            !matches!(e, Event::AlignmentTimedOut { .. }),
                            "{mode}: a timeout without one set"
                        );
                    }
                }
                runs += 1;
            }
        }
    }
    // Every mode but unaligned runs every graph (the ones other than aligned also with a
    // timeout set, which only aligned mode heeds).
    assert!(runs >= 12, "{runs} runs");
    assert!(barriers > 100);
    println!("{runs} runs in modes without priority barriers: {barriers} barriers, none kept");
}

// ----- e. rescale: pointwise channels, round robin over the local group -----

#[test]
fn rescale_connects_each_sender_to_its_local_group_and_routes_round_robin() {
    let graph = JobGraph {
        operators: vec![
            source("Src", 2, 3),
            op("Map", OperatorKind::Map, 4),
            sink("Sink", 2),
        ],
        edges: vec![
            edge("Src", "Map", Rescale, 10),
            edge("Map", "Sink", Rescale, 10),
        ],
    };
    let (sim, events) = run(&graph, &config(BarrierMode::Aligned, None), 3000);
    let phys = sim.physical();
    let name = |t: TaskId| phys.tasks[t as usize].name.clone();
    let pairs = |e: u32| -> Vec<(String, String)> {
        phys.channels
            .iter()
            .filter(|c| c.edge == e)
            .map(|c| (name(c.from), name(c.to)))
            .collect()
    };
    let pair = |a: &str, b: &str| (a.to_string(), b.to_string());
    // 2 → 4: each sender to two receivers.
    assert_eq!(
        pairs(0),
        vec![
            pair("Src#0", "Map#0"),
            pair("Src#0", "Map#1"),
            pair("Src#1", "Map#2"),
            pair("Src#1", "Map#3"),
        ]
    );
    // 4 → 2: two senders to each receiver.
    assert_eq!(
        pairs(1),
        vec![
            pair("Map#0", "Sink#0"),
            pair("Map#1", "Sink#0"),
            pair("Map#2", "Sink#1"),
            pair("Map#3", "Sink#1"),
        ]
    );
    assert_eq!(phys.channel_count(), 8);
    let src0 = task(&sim, "Src#0");
    assert_eq!(phys.tasks[src0 as usize].outputs, vec![vec![0, 1]]);

    // Where each record of Src#0 was processed, in the order it was read.
    let mut read = Vec::new();
    let mut receiver = std::collections::HashMap::new();
    for e in &events {
        match *e {
            Event::SourceRead { task, record, .. } if task == src0 => read.push(record.id),
            Event::Processed {
                task,
                channel,
                record,
                ..
            } if phys.channels[channel as usize].edge == 0 => {
                receiver.insert(
                    record.id,
                    (name(task), phys.channels[channel as usize].from),
                );
            }
            _ => {}
        }
    }
    let reached: Vec<String> = read
        .iter()
        .filter_map(|id| receiver.get(id))
        .map(|(to, from)| {
            assert_eq!(*from, src0);
            to.clone()
        })
        .collect();
    assert!(
        reached.len() >= 50,
        "only {} records of Src#0 processed",
        reached.len()
    );
    assert!(
        reached.iter().all(|r| r == "Map#0" || r == "Map#1"),
        "{reached:?}"
    );
    // Round robin: consecutive records alternate between the two.
    assert!(
        reached.windows(2).all(|w| w[0] != w[1]),
        "not round robin: {reached:?}"
    );
    // And the other sender's records reach only the other two.
    let src1 = task(&sim, "Src#1");
    for (i, c) in phys.channels.iter().enumerate() {
        if c.edge == 0 {
            let got = sim.channels()[i].records_received;
            assert!(got > 0, "{} → {} carried nothing", name(c.from), name(c.to));
            if c.from == src1 {
                assert!(matches!(name(c.to).as_str(), "Map#2" | "Map#3"));
            }
        }
    }
    println!(
        "rescale 2 → 4: {} records of Src#0 processed, alternating Map#0 / Map#1",
        reached.len()
    );
}
