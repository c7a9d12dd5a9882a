//! The engine end to end: each preset teaches what `docs/presets.md` promises, history is exact,
//! manual mode and bad input behave.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::barrier::BarrierTake;
use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::record::ItemKind;
use abs_playground::engine::trace::AbortReason;
use abs_playground::engine::view;
use abs_playground::engine::{
    report, Action, ActionError, BarrierMode, Config, Event, GraphError, History, Simulation,
};
use abs_playground::scenario::{presets, Scenario, ScenarioError};

fn sim(preset: &str, mode: BarrierMode) -> Simulation {
    presets::by_name(preset)
        .unwrap()
        .with_mode(mode)
        .simulation()
        .unwrap()
}

/// Steps until `done` holds for the events of a step; returns the step number.
fn step_until(sim: &mut Simulation, limit: u64, done: impl Fn(&Simulation, &Event) -> bool) -> u64 {
    for _ in 0..limit {
        sim.step().expect("the simulation never runs dry");
        if sim.last_events().iter().any(|e| done(sim, e)) {
            return sim.steps();
        }
    }
    panic!("condition not reached in {limit} steps");
}

#[test]
fn alignment_shows_the_four_steps_in_order() {
    let mut s = sim("alignment", BarrierMode::Aligned);
    let merge = s.physical().task_by_name("Merge#0").unwrap();
    let from_a = s.physical().tasks[merge as usize].inputs[0];
    // ① barrier 1 arrives from Src A first and blocks that input.
    let blocked = step_until(
        &mut s,
        500,
        |_, e| matches!(e, Event::Barrier { task, channel, checkpoint: 1, take: BarrierTake::First, .. } if *task == merge && *channel == from_a),
    );
    assert!(view::is_blocked(&s, from_a));
    assert!(!view::is_blocked(
        &s,
        s.physical().tasks[merge as usize].inputs[1]
    ));
    // ② records that keep arriving from A wait in the buffer.
    let held = step_until(
        &mut s,
        500,
        |_, e| matches!(e, Event::Held { task, item: ItemKind::Record(_), .. } if *task == merge),
    );
    assert!(held > blocked);
    assert!(!view::held_items(&s, from_a).is_empty());
    // ③ barrier 1 from B: snapshot, forward, acknowledge.
    let snapshot = step_until(
        &mut s,
        500,
        |_, e| matches!(e, Event::Snapshot { task, checkpoint: 1, .. } if *task == merge),
    );
    assert!(s
        .last_events()
        .iter()
        .any(|e| matches!(e, Event::Acknowledged { task, .. } if *task == merge)));
    assert!(!view::is_blocked(&s, from_a));
    // ④ the buffer drains before any new input reaches Merge.
    let held_now = view::held_count(&s, merge);
    assert!(held_now > 0);
    for _ in 0..held_now {
        for waited in 0.. {
            assert!(waited < 500, "Merge replayed nothing for 500 steps");
            s.step().unwrap();
            let replayed = s
                .last_events()
                .iter()
                .any(|e| matches!(e, Event::Replayed { task, .. } if *task == merge));
            let arrived = s
                .last_events()
                .iter()
                .any(|e| matches!(e, Event::Arrived { task, .. } if *task == merge));
            assert!(
                !arrived,
                "new input reached Merge before its buffer drained"
            );
            if replayed {
                break;
            }
        }
    }
    assert_eq!(view::held_count(&s, merge), 0);
    assert!(snapshot > held);
    // The checkpoint completes when the sink acknowledges, and the cut is consistent.
    step_until(&mut s, 500, |_, e| {
        matches!(e, Event::CheckpointCompleted { checkpoint: 1, .. })
    });
    let gs = s.coordinator().global_state(1).unwrap();
    assert!(gs.verdict.ok());
    assert!(
        gs.channel_state.is_empty(),
        "aligned checkpoints record no channel state"
    );
    let m = &gs.tasks[merge as usize].metrics;
    assert!(m.alignment_duration > 0 && m.records_held > 0, "{m:?}");
}

#[test]
fn at_least_once_never_blocks_and_counts_duplicates() {
    let mut s = sim("alignment", BarrierMode::AtLeastOnce);
    step_until(&mut s, 1000, |_, e| {
        matches!(e, Event::CheckpointCompleted { checkpoint: 1, .. })
    });
    for _ in 0..300 {
        s.step();
        assert!(!s
            .last_events()
            .iter()
            .any(|e| matches!(e, Event::Unblocked { .. } | Event::Held { .. })));
    }
    let gs = s.coordinator().global_state(1).unwrap();
    assert!(!gs.verdict.consistent);
    assert_eq!(gs.verdict.lost, 0);
    assert!(
        gs.verdict.duplicated > 0,
        "records after the early barrier would be replayed"
    );
}

#[test]
fn unaligned_persists_in_flight_records_and_stays_consistent() {
    let mut s = sim("backpressure", BarrierMode::Unaligned);
    step_until(&mut s, 2000, |_, e| {
        matches!(e, Event::CheckpointCompleted { checkpoint: 2, .. })
    });
    let gs = s.coordinator().global_state(2).unwrap();
    assert!(gs.verdict.ok(), "{:?}", gs.verdict);
    assert!(
        !gs.channel_state.is_empty(),
        "the overtaken records are channel state"
    );
    let persisted: u64 = gs.tasks.iter().map(|t| t.metrics.persisted_in_flight).sum();
    assert_eq!(
        persisted,
        gs.channel_state
            .values()
            .map(|v| v.len() as u64)
            .sum::<u64>()
    );
    assert!(gs.tasks.iter().all(|t| t.metrics.records_held == 0));
}

#[test]
fn aligned_backpressure_holds_more_than_unaligned() {
    let held = |mode| {
        let mut s = sim("backpressure", mode);
        step_until(&mut s, 3000, |_, e| {
            matches!(e, Event::CheckpointCompleted { checkpoint: 1, .. })
        });
        let gs = s.coordinator().global_state(1).unwrap();
        gs.tasks.iter().map(|t| t.metrics.records_held).sum::<u64>()
    };
    assert!(held(BarrierMode::Aligned) >= 10);
    assert_eq!(held(BarrierMode::Unaligned), 0);
}

#[test]
fn wordcount_counts_match_the_input_prefix() {
    for mode in [BarrierMode::Aligned, BarrierMode::Unaligned] {
        let mut s = sim("wordcount", mode);
        step_until(&mut s, 3000, |_, e| {
            matches!(e, Event::CheckpointCompleted { checkpoint: 3, .. })
        });
        for gs in s.coordinator().completed() {
            let check = gs
                .verdict
                .word_check
                .as_ref()
                .expect("word count is checked");
            assert!(
                check.mismatches.is_empty(),
                "{mode}: {:?}",
                check.mismatches
            );
            assert!(check.words_checked > 0);
        }
    }
}

#[test]
fn concurrent_checkpoints_travel_together_in_order() {
    let mut s = sim("concurrent", BarrierMode::Aligned);
    let mut seen_two_on_one_channel = false;
    for _ in 0..1500 {
        s.step();
        for ch in s.channels() {
            let ids: Vec<u64> = ch
                .items()
                .iter()
                .filter_map(|i| match i.kind {
                    ItemKind::Barrier(n) => Some(n),
                    _ => None,
                })
                .collect();
            assert!(
                ids.windows(2).all(|w| w[0] < w[1]),
                "barriers out of order: {ids:?}"
            );
            seen_two_on_one_channel |= ids.len() >= 2;
        }
        assert!(s.coordinator().in_progress().count() <= 3);
    }
    assert!(seen_two_on_one_channel);
    let completed = s
        .coordinator()
        .checkpoints()
        .iter()
        .filter(|c| c.status == CheckpointStatus::Completed)
        .count();
    assert!(completed >= 5);
    assert!(s.coordinator().completed().all(|g| g.verdict.ok()));
}

#[test]
fn same_seed_same_trace_other_seed_other_trace() {
    let run = |seed| {
        let mut scenario = presets::wordcount();
        scenario.seed = seed;
        report::trace(&mut scenario.simulation().unwrap(), 400)
    };
    assert_eq!(run(5), run(5));
    assert_ne!(run(5), run(6));
}

/// The history keeps no copy of step 0: it builds it again from the graph, the configuration,
/// the seed and the failures planned then. Seeking to step 0 and to a step before the first
/// kept keyframe lands, in every preset and mode, exactly where a plain simulation is.
#[test]
fn step_0_built_again_is_the_first_simulation_in_every_preset_and_mode() {
    let mut cases = 0;
    for name in presets::NAMES {
        let scenario = presets::by_name(name).unwrap();
        let modes = abs_playground::engine::sim::modes_for(&scenario.graph, &scenario.config);
        for mode in modes {
            let scenario = scenario.clone().with_mode(mode);
            let fresh = || scenario.simulation().unwrap();
            let mut h = History::new(fresh());
            for _ in 0..300 {
                h.step();
            }
            let len = h.len();
            h.seek(0);
            assert_eq!(
                format!("{:?}", h.current()),
                format!("{:?}", fresh()),
                "{name} {mode:?}: step 0"
            );
            // Forward from step 0 built again, then back to a step before the first kept
            // keyframe (256): replayed from step 0 built again.
            // (A bounded job may end sooner; a step past its end is not taken.)
            let target = len.min(200);
            let mut direct = fresh();
            for _ in 0..target {
                direct.step();
            }
            h.seek(len);
            h.seek(target);
            assert_eq!(
                format!("{:?}", h.current()),
                format!("{direct:?}"),
                "{name} {mode:?}: step {target}"
            );
            cases += 1;
        }
    }
    println!("{cases} presets × modes");
    assert!(cases > presets::NAMES.len());
}

#[test]
fn history_seeks_exactly_and_forks() {
    let mut h = History::new(sim("wordcount", BarrierMode::Aligned));
    let mut traces = Vec::new();
    for _ in 0..2000 {
        h.step();
        traces.push(serde_json::to_string(h.current().last_events()).unwrap());
    }
    for target in [1999u64, 1, 700, 1500, 256, 1024, 2000] {
        h.seek(target);
        assert_eq!(h.position(), target);
        assert_eq!(
            serde_json::to_string(h.current().last_events()).unwrap(),
            traces[target as usize - 1]
        );
    }
    h.seek(10);
    h.step_back();
    assert_eq!(h.position(), 9);
    // Forking: a manual action at step 9 drops the recorded future.
    let action = h.current().enabled_actions()[0];
    h.apply(action).unwrap();
    assert_eq!(h.len(), 10);
    assert_eq!(h.position(), 10);
}

/// Memory stays bounded however long the run, and the end of a long run keeps keyframes close
/// together, so stepping back from it replays at most a few hundred steps.
#[test]
fn a_long_runs_keyframes_are_few_and_dense_near_the_end() {
    let mut h = History::new(sim("wordcount", BarrierMode::Aligned));
    for _ in 0..100_000 {
        h.step();
    }
    let steps: Vec<u64> = h.keyframe_steps().collect();
    assert!(steps.len() <= 32, "{} keyframes: {steps:?}", steps.len());
    assert_eq!(steps[0], 0);
    assert_eq!(
        steps[steps.len() - 4..],
        [99_072, 99_328, 99_584, 99_840],
        "{steps:?}"
    );
    // Older ones spread over the whole run: no gap more than twice the average.
    let older = &steps[..steps.len() - 3];
    let average = older[older.len() - 1] / (older.len() as u64 - 1);
    let gaps: Vec<u64> = older.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(gaps.iter().all(|&g| g <= 2 * average), "{gaps:?}");
    for _ in 0..5 {
        h.step_back();
    }
    assert_eq!(h.position(), 99_995);
    h.seek(100_000);
    assert_eq!(h.position(), 100_000);
}

/// The keyframes leave out the ended checkpoints' summaries (the history keeps them once):
/// after a fork far back, the summaries of the dropped future must not come back, and every
/// seek must show the list a plain simulation taking the same steps shows.
#[test]
fn history_after_a_fork_shows_the_new_futures_checkpoints() {
    let mut h = History::new(sim("wordcount", BarrierMode::Aligned));
    for _ in 0..20_000 {
        h.step();
    }
    // A manual trigger forks: the new future's checkpoint ids differ from the old one's.
    let fork = (9_000..10_000)
        .find(|&s| {
            h.seek(s);
            h.current().enabled_actions().contains(&Action::Trigger)
        })
        .expect("a step between 9,000 and 10,000 where a checkpoint can be triggered");
    h.apply(Action::Trigger).unwrap();
    for _ in 0..11_000 {
        h.step();
    }
    let mut plain = sim("wordcount", BarrierMode::Aligned);
    let mut lists = vec![plain.coordinator().checkpoints().to_vec()];
    for i in 0..h.len() {
        if i == fork {
            plain.apply(Action::Trigger).unwrap();
        } else {
            plain.step();
        }
        lists.push(plain.coordinator().checkpoints().to_vec());
    }
    let ended = |l: &[abs_playground::engine::coordinator::CheckpointSummary]| {
        l.iter().filter(|c| c.end_time.is_some()).count()
    };
    assert!(ended(&lists[fork as usize]) > 40);
    for target in [
        h.len(),
        0,
        fork - 1,
        fork,
        fork + 1,
        12_287,
        12_288,
        15_000,
        19_999,
        1,
    ] {
        h.seek(target);
        assert_eq!(h.position(), target);
        assert_eq!(
            h.current().coordinator().checkpoints(),
            &lists[target as usize][..],
            "at step {target}"
        );
    }
}

#[test]
fn manual_mode_delivers_the_chosen_channel_and_refuses_the_rest() {
    let mut s = sim("alignment", BarrierMode::Aligned);
    while !s
        .enabled_actions()
        .iter()
        .any(|a| matches!(a, Action::Deliver { .. }))
    {
        assert!(
            s.step().is_some(),
            "the run ended before any delivery was on offer"
        );
        assert!(s.steps() < 1_000, "no delivery on offer in 1,000 steps");
    }
    let Some(&Action::Deliver { channel }) = s
        .enabled_actions()
        .iter()
        .find(|a| matches!(a, Action::Deliver { .. }))
    else {
        unreachable!()
    };
    let head = s.channels()[channel as usize]
        .items()
        .front()
        .copied()
        .unwrap();
    s.apply(Action::Deliver { channel }).unwrap();
    assert!(s.last_events().iter().any(|e| matches!(e, Event::Arrived { channel: c, item, .. } if *c == channel && *item == head.kind)));

    let before = report::summary(&s);
    let steps = s.steps();
    assert_eq!(
        s.apply(Action::Deliver { channel: 999 }),
        Err(ActionError::NoSuchChannel(999))
    );
    assert_eq!(
        s.apply(Action::Emit { task: 2 }),
        Err(ActionError::NotASource(2))
    );
    assert_eq!(
        s.apply(Action::SetLatency {
            channel: 0,
            latency: 0
        }),
        Err(ActionError::BadLatency(0))
    );
    assert_eq!(s.steps(), steps);
    assert_eq!(report::summary(&s), before);
}

#[test]
fn a_paused_channel_makes_the_checkpoint_time_out() {
    let mut scenario = presets::alignment();
    scenario.config.timeout = 150;
    // What happens to the expired checkpoint, not the job failing for it (Flink's default
    // tolerates no failed checkpoint; `tolerating_no_failed_checkpoint_...` shows that).
    scenario.config.tolerable_failed_checkpoints = None;
    let mut s = scenario.simulation().unwrap();
    let slow = s.physical().tasks[2].inputs[1];
    s.apply(Action::Pause {
        channel: slow,
        paused: true,
    })
    .unwrap();
    step_until(&mut s, 2000, |_, e| {
        matches!(
            e,
            Event::CheckpointAborted {
                checkpoint: 1,
                reason: AbortReason::Expired
            }
        )
    });
    // Merge is still aligning the expired checkpoint: as in Flink, nothing but barrier 1 or
    // a cancellation marker on its slow input ends that (the sources sent none: they had
    // snapshotted checkpoint 1 before it was aborted).
    assert_eq!(s.tasks()[2].aligning(), Some(1));
    for _ in 0..50 {
        s.step();
        assert!(
            !s.last_events().iter().any(|e| matches!(
                e,
                Event::Held {
                    item: ItemKind::Cancel(1),
                    ..
                }
            )),
            "a cancellation marker came from a source"
        );
    }
    assert_eq!(s.tasks()[2].aligning(), Some(1));
    // Resume the slow channel: barrier 1 completes the alignment, but Merge was told of the
    // abort, so it does not snapshot and sends a cancellation marker on instead.
    s.apply(Action::Pause {
        channel: slow,
        paused: false,
    })
    .unwrap();
    step_until(&mut s, 2000, |s, e| {
        assert!(
            !matches!(
                e,
                Event::Snapshot {
                    task: 2,
                    checkpoint: 1,
                    ..
                }
            ),
            "Merge snapshotted an aborted checkpoint at {}",
            s.now()
        );
        matches!(
            e,
            Event::SnapshotSkipped {
                task: 2,
                checkpoint: 1,
            }
        )
    });
    assert!(matches!(
        s.coordinator().summary(1).unwrap().status,
        CheckpointStatus::Aborted {
            reason: AbortReason::Expired
        }
    ));
}

#[test]
fn transactional_sinks_commit_on_notify_complete() {
    use abs_playground::engine::snapshot::TaskState;
    let mut s = sim("wordcount", BarrierMode::Aligned);
    let sink = s.physical().task_by_name("Sink#0").unwrap();
    let mut completed = 0;
    for _ in 0..3000 {
        s.step();
        let TaskState::Sink {
            received,
            committed,
            ..
        } = s.tasks()[sink as usize].state
        else {
            panic!("the sink has sink state")
        };
        assert!(committed <= received);
        for e in s.last_events() {
            if let Event::CheckpointCompleted { checkpoint, .. } = e {
                completed += 1;
                let gs = s.coordinator().global_state(*checkpoint).unwrap();
                let TaskState::Sink {
                    received: pre_committed,
                    ..
                } = gs.tasks[sink as usize].state
                else {
                    panic!("the snapshot has sink state")
                };
                assert_eq!(
                    committed, pre_committed,
                    "commit exactly what the snapshot pre-committed"
                );
            }
        }
    }
    assert!(completed >= 3);
}

#[test]
fn bad_scenarios_are_typed_errors() {
    let mut g = presets::alignment().graph;
    g.edges[0].to = "Nowhere".into();
    assert!(matches!(
        Simulation::new(&g, &Default::default(), 0),
        Err(GraphError::UnknownOperator { .. })
    ));

    let mut g = presets::wordcount().graph;
    g.edges[0].partitioning = abs_playground::engine::Partitioning::Forward;
    g.operators[1].parallelism = 3;
    assert!(matches!(
        Simulation::new(&g, &Default::default(), 0),
        Err(GraphError::ForwardParallelism { .. })
    ));

    let mut g = presets::alignment().graph;
    g.edges.push(abs_playground::engine::Edge {
        from: "Sink".into(),
        to: "Merge".into(),
        partitioning: abs_playground::engine::Partitioning::Forward,
        latency: 1,
        capacity: 8,
        fifo: true,
    });
    // A cycle runs aligned (the ABS paper's Algorithm 2), not at-least-once.
    assert!(Simulation::new(&g, &Default::default(), 0).is_ok());
    let at_least_once = Config {
        mode: BarrierMode::AtLeastOnce,
        ..Config::default()
    };
    let err = Simulation::new(&g, &at_least_once, 0).unwrap_err();
    assert!(matches!(err, GraphError::Cycle(_)));
    assert!(err.to_string().contains("cycle"));

    let mut g = presets::large().graph;
    g.operators[0].parallelism = 4000;
    assert!(matches!(
        Simulation::new(&g, &Default::default(), 0),
        Err(GraphError::TooManyTasks(_))
    ));

    assert!(matches!(
        Scenario::from_json("{ not json"),
        Err(ScenarioError::Syntax { line: 1, .. })
    ));
    let nope = presets::by_name("nope").unwrap_err();
    assert!(matches!(nope, ScenarioError::UnknownPreset(_)));
    assert!(
        nope.to_string()
            .starts_with("there is no preset named \"nope\" (known: alignment, "),
        "{nope}"
    );
    let round = Scenario::from_json(&presets::wordcount().to_json()).unwrap();
    assert_eq!(round, presets::wordcount());
}

#[test]
fn every_preset_builds_and_runs_in_every_mode() {
    for scenario in presets::all() {
        let modes = scenario.modes();
        // The dataflows run in every mode; the Chandy-Lamport systems have no source to
        // inject barriers at, so only in theirs.
        let expected = if scenario.config.mode == BarrierMode::ChandyLamport {
            vec![BarrierMode::ChandyLamport]
        } else if scenario.name == "iteration" {
            // A cycle: barrier tracking would lose what is in flight round the loop; a stopped
            // world waits until the loop has drained.
            vec![
                BarrierMode::Aligned,
                BarrierMode::Unaligned,
                BarrierMode::ChandyLamport,
                BarrierMode::Synchronous,
            ]
        } else if scenario.config.max_concurrent_checkpoints > 1 {
            // Several checkpoints at once: Flink refuses unaligned checkpoints there.
            let mut all = BarrierMode::ALL.to_vec();
            all.retain(|&m| m != BarrierMode::Unaligned);
            all
        } else {
            BarrierMode::ALL.to_vec()
        };
        assert_eq!(modes, expected, "{}", scenario.name);
        for mode in modes {
            let mut s = scenario.with_mode(mode).simulation().unwrap();
            let steps = if scenario.name == "large" {
                40_000
            } else {
                3000
            };
            for _ in 0..steps {
                s.step();
            }
            assert!(
                s.coordinator().completed().next().is_some(),
                "{} in {mode} completed no checkpoint in {steps} steps",
                scenario.name
            );
        }
    }
}

#[test]
fn the_large_preset_keeps_about_two_thousand_items_in_flight() {
    let mut s = sim("large", BarrierMode::Aligned);
    assert_eq!(s.physical().task_count(), 200);
    let mut samples = Vec::new();
    for i in 0..60_000 {
        s.step();
        if i % 1000 == 0 && s.now() > 200 {
            samples.push(s.channels().iter().map(|c| c.items().len()).sum::<usize>());
        }
    }
    let mean = samples.iter().sum::<usize>() / samples.len().max(1);
    // Steady, not growing: the benchmark needs a stable load, not an ever-longer backlog.
    let (first, last) = (samples[0], *samples.last().unwrap());
    assert!((1200..=3000).contains(&mean), "mean in flight {mean}");
    assert!(last < first * 2, "backlog grows: {first} → {last}");
}

#[test]
fn unaligned_acknowledges_only_once_all_channel_state_is_in() {
    let mut s = sim("alignment", BarrierMode::Unaligned);
    let merge = s.physical().task_by_name("Merge#0").unwrap();
    let slow = s.physical().tasks[merge as usize].inputs[1];
    let snapshot = step_until(
        &mut s,
        500,
        |_, e| matches!(e, Event::Snapshot { task, checkpoint: 1, .. } if *task == merge),
    );
    assert!(!s
        .last_events()
        .iter()
        .any(|e| matches!(e, Event::Acknowledged { task, .. } if *task == merge)));
    let ack = step_until(
        &mut s,
        500,
        |_, e| matches!(e, Event::Acknowledged { task, checkpoint: 1, .. } if *task == merge),
    );
    assert!(ack > snapshot);
    // The acknowledgement comes with the barrier on the slow input, the last channel state.
    assert!(s.last_events().iter().any(|e| matches!(e, Event::Arrived { channel, item: ItemKind::Barrier(1), .. } if *channel == slow)));
    assert!(s
        .coordinator()
        .global_state(1)
        .is_some_and(|g| g.verdict.ok()));
}

/// What saturating times promise, checked on `sim` after a step or an action: every channel
/// item arrives no earlier than one time unit after it was sent (or at `u64::MAX`), a busy
/// task is busy for at least one processing time from 0 (`busy_until` is 0 or a sum that
/// includes `processing_time`), checkpoints end no earlier than they began, and every channel
/// balances (sent = in flight + held + received).
fn check_saturated(sim: &Simulation, processing_time: u64, after: &str) {
    let now = sim.now();
    for (c, ch) in sim.channels().iter().enumerate() {
        for item in ch.items() {
            assert!(
                item.arrives_at >= item.sent_at.saturating_add(1),
                "{after}: an item on channel {c} sent at {} arrives at {} (wrapped?)",
                item.sent_at,
                item.arrives_at
            );
            assert!(
                item.sent_at <= now,
                "{after}: an item on channel {c} was sent at {}, after now ({now})",
                item.sent_at
            );
        }
        let in_flight = ch
            .items()
            .iter()
            .filter(|i| matches!(i.kind, ItemKind::Record(_)))
            .count() as u64;
        let held = view::held_items(sim, c as u32)
            .iter()
            .filter(|i| matches!(i, ItemKind::Record(_)))
            .count() as u64;
        assert_eq!(
            ch.records_sent,
            in_flight + held + ch.records_received,
            "{after}: channel {c} does not balance"
        );
    }
    for (t, task) in sim.tasks().iter().enumerate() {
        assert!(
            task.busy_until == 0 || task.busy_until >= processing_time,
            "{after}: task {t} is busy until {}, less than one processing time \
             ({processing_time}) from 0 (wrapped?)",
            task.busy_until
        );
    }
    for c in sim.coordinator().checkpoints() {
        assert!(
            c.trigger_time <= now,
            "{after}: checkpoint {} triggered at {}, after now ({now})",
            c.id,
            c.trigger_time
        );
        if let Some(end) = c.end_time {
            assert!(
                c.trigger_time <= end && end <= now,
                "{after}: checkpoint {} triggered at {} ended at {end} (now {now})",
                c.id,
                c.trigger_time
            );
        }
        if let CheckpointStatus::Aborted {
            reason: AbortReason::Expired,
        } = c.status
        {
            // The timeout is u64::MAX: the deadline saturates at u64::MAX, which never comes;
            // an expiry before it would be a sum that wrapped.
            assert_eq!(
                c.end_time,
                Some(u64::MAX),
                "{after}: checkpoint {} expired before its saturated deadline",
                c.id
            );
        }
    }
}

/// Every time setting at or near `u64::MAX`: sums of times saturate at `u64::MAX` instead of
/// wrapping round to small numbers, and `u64::MAX` itself is never (nothing planned for it
/// happens). Virtual time never goes back, neither by a step nor by any enabled action; the run
/// comes to rest at `u64::MAX - 1`, where the checkpoint triggered with a timeout of `u64::MAX`
/// stays in progress; a source never reads again (its interval is `u64::MAX`); and what
/// [`check_saturated`] checks holds throughout.
#[test]
fn extreme_numbers_saturate_instead_of_overflowing() {
    const PROCESSING_TIME: u64 = u64::MAX / 2 + 7;
    let mut scenario = presets::alignment();
    for op in &mut scenario.graph.operators {
        op.processing_time = PROCESSING_TIME;
        if let abs_playground::engine::OperatorKind::Source { interval, .. } = &mut op.kind {
            *interval = u64::MAX;
        }
    }
    for e in &mut scenario.graph.edges {
        e.latency = u64::MAX;
    }
    scenario.config.checkpoint_interval = Some(u64::MAX);
    scenario.config.first_trigger = u64::MAX - 1;
    scenario.config.timeout = u64::MAX;
    scenario.config.min_pause = u64::MAX;
    let mut s = scenario.simulation().unwrap();
    // The engine clamps the latency to its range (the scenario reader would refuse it).
    assert!(s
        .channels()
        .iter()
        .all(|c| c.latency == abs_playground::engine::sim::MAX_LATENCY));
    let mut steps = 0;
    let mut busy_saturated = false;
    // Per source subtask, the time of its last read.
    let mut last_read: std::collections::BTreeMap<u32, u64> = Default::default();
    let mut reads = 0;
    for _ in 0..300 {
        let before = s.now();
        for a in s.enabled_actions() {
            let mut copy = s.clone();
            if copy.apply(a).is_ok() {
                assert!(
                    copy.now() >= before,
                    "{a:?} took time back from {before} to {}",
                    copy.now()
                );
                check_saturated(&copy, PROCESSING_TIME, &format!("after {a:?}"));
            }
        }
        let Some(action) = s.step() else { break };
        steps += 1;
        assert!(
            s.now() >= before,
            "step {steps} ({action:?}) took time back from {before} to {}",
            s.now()
        );
        assert_eq!(s.steps(), steps, "the step counter");
        check_saturated(&s, PROCESSING_TIME, &format!("step {steps} ({action:?})"));
        for e in s.last_events() {
            if let Event::SourceRead { task, .. } = e {
                reads += 1;
                if let Some(last) = last_read.insert(*task, s.now()) {
                    assert!(
                        s.now() >= last.saturating_add(u64::MAX),
                        "step {steps}: source task {task} read at {}, its last read was at \
                         {last} and the interval is u64::MAX",
                        s.now()
                    );
                }
            }
        }
        busy_saturated |= s.tasks().iter().any(|t| t.busy_until == u64::MAX);
    }
    // What would happen at u64::MAX never does (`clock::NEVER`): the deliveries after the
    // clamped latency, the sources' next reads, the end of a processing. The run comes to
    // rest at the last thing planned before it — the trigger at u64::MAX - 1 — and stays.
    assert!(steps < 300, "still stepping at {}", s.now());
    assert!(s.step().is_none(), "stepped once at rest");
    assert_eq!(s.now(), u64::MAX - 1, "the run rests at the first trigger");
    assert!(busy_saturated, "no task's busy time ever saturated");
    assert_eq!(
        reads,
        last_read.len(),
        "a source read again, its interval (u64::MAX) after its first read"
    );
    assert!(reads > 0, "no source read");
    // The first checkpoint triggered at u64::MAX - 1; with its deadline saturated at u64::MAX,
    // it never ends.
    let first = &s.coordinator().checkpoints()[0];
    assert_eq!(first.trigger_time, u64::MAX - 1, "{first:?}");
    assert_eq!(first.end_time, None, "{first:?}");
}

#[test]
fn the_job_fails_and_restarts_after_more_failed_checkpoints_in_a_row_than_tolerated() {
    // Src B's channel paused: every checkpoint expires. Tolerating 2, the third failure in a
    // row fails the job, which restarts (from the beginning: nothing completed) and counts
    // afresh; tolerating any number, it runs on.
    let run = |tolerable: Option<u32>| {
        let mut scenario = presets::alignment();
        scenario.config.timeout = 150;
        scenario.config.tolerable_failed_checkpoints = tolerable;
        let mut s = scenario.simulation().unwrap();
        let slow = s.physical().tasks[2].inputs[1];
        s.apply(Action::Pause {
            channel: slow,
            paused: true,
        })
        .unwrap();
        let mut failed_at = Vec::new();
        let mut restarts = Vec::new();
        for _ in 0..5_000 {
            let Some(action) = s.step() else { break };
            for e in s.last_events() {
                if let Event::JobFailed {
                    failed_checkpoints,
                    restore,
                } = e
                {
                    // The narration's "restarts from" is the latest completed checkpoint.
                    assert_eq!(
                        *restore,
                        s.coordinator().latest_completed().map(|g| g.checkpoint)
                    );
                    failed_at.push((*failed_checkpoints, s.coordinator().checkpoints().len()));
                }
                if let Event::Failed { task, .. } = e {
                    assert_eq!(action, Action::FailJob);
                    assert_eq!(*task, None, "no task failed: the checkpoints did");
                }
                if let Event::Restored { checkpoint, .. } = e {
                    restarts.push(*checkpoint);
                }
            }
        }
        (s, failed_at, restarts)
    };
    let (s, failed_at, restarts) = run(Some(2));
    assert_eq!(
        failed_at[0],
        (3, 3),
        "fails at the third expired checkpoint"
    );
    // After the restart the count starts afresh: three more expire (one running at the
    // failure may be abandoned instead, which does not count).
    let (n, upto) = failed_at[1];
    let expired = s.coordinator().checkpoints()[3..upto]
        .iter()
        .filter(|c| {
            c.status
                == CheckpointStatus::Aborted {
                    reason: AbortReason::Expired,
                }
        })
        .count();
    assert_eq!((n, expired), (3, 3), "{:?}", s.coordinator().checkpoints());
    assert_eq!(
        restarts[..2],
        [None, None],
        "nothing completed: from the beginning"
    );
    assert!(
        s.coordinator().checkpoints().len() > 6,
        "ids go on after a restart"
    );
    let (s, failed_at, restarts) = run(None);
    assert!(failed_at.is_empty() && restarts.is_empty());
    assert!(s.coordinator().checkpoints().len() > 5);
}

#[test]
fn unaligned_tasks_have_an_asynchronous_part_aligned_ones_do_not() {
    for (mode, waits) in [
        (BarrierMode::Unaligned, true),
        (BarrierMode::Aligned, false),
    ] {
        let mut s = sim("alignment", mode);
        step_until(&mut s, 2000, |_, e| {
            matches!(e, Event::CheckpointCompleted { checkpoint: 1, .. })
        });
        let gs = s.coordinator().global_state(1).unwrap();
        let merge = s.physical().task_by_name("Merge#0").unwrap();
        let m = &gs.tasks[merge as usize].metrics;
        assert_eq!(m.sync_duration, 0);
        // Unaligned, Merge snapshots at Src A's barrier and acknowledges at Src B's.
        assert_eq!(m.async_duration > 0, waits, "{mode}: {m:?}");
    }
}
