//! Stop-the-world (`synchronous`), the ABS paper's baseline (issue 27): the coordinator stops
//! the sources, waits until every channel is empty, snapshots every task at once and lets the
//! sources read again. Each rule below has a test that fails without it.
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::coordinator::CheckpointStatus;
use abs_playground::engine::record::ItemKind;
use abs_playground::engine::trace::AbortReason;
use abs_playground::engine::view::{last_sentences, Sentence};
use abs_playground::engine::{Action, ActionError, BarrierMode, Event, Simulation};
use abs_playground::scenario::presets;

fn sim(preset: &str) -> Simulation {
    presets::by_name(preset)
        .unwrap()
        .with_mode(BarrierMode::Synchronous)
        .simulation()
        .unwrap()
}

/// Steps until `done` holds for an event of a step (at most `limit` steps); the step's number.
fn step_until(sim: &mut Simulation, limit: u64, done: impl Fn(&Event) -> bool) -> u64 {
    for _ in 0..limit {
        sim.step().expect("the simulation never runs dry");
        if sim.last_events().iter().any(&done) {
            return sim.steps();
        }
    }
    panic!("condition not reached in {limit} steps");
}

fn triggered(n: u64) -> impl Fn(&Event) -> bool {
    move |e| matches!(e, Event::CheckpointTriggered { checkpoint, .. } if *checkpoint == n)
}

fn completed(n: u64) -> impl Fn(&Event) -> bool {
    move |e| matches!(e, Event::CheckpointCompleted { checkpoint, .. } if *checkpoint == n)
}

#[test]
fn the_world_stops_drains_and_then_every_task_snapshots_at_once() {
    let mut s = sim("wordcount");
    let tasks = s.physical().task_count();
    step_until(&mut s, 5_000, triggered(1));
    let trigger_time = s.now();
    assert!(
        s.channels().iter().any(|c| !c.items().is_empty()),
        "the job should be busy when the checkpoint is triggered"
    );
    // Until the checkpoint completes: no source reads, some source comes due and waits, and
    // nothing snapshots before the last channel is empty.
    let mut waited = false;
    let last_action = loop {
        let action = s.step().unwrap();
        waited |= s.stopped_sources().next().is_some();
        let events = s.last_events();
        assert!(
            !events.iter().any(|e| matches!(e, Event::SourceRead { .. })),
            "a source read while the world was stopped: {events:?}"
        );
        if events.iter().any(completed(1)) {
            break action;
        }
        assert!(
            !events.iter().any(|e| matches!(e, Event::Snapshot { .. })),
            "a task snapshotted before the job drained: {events:?}"
        );
    };
    assert!(waited, "no source came due while the world was stopped");
    // The completing step is the stop's own: every channel empty, every task's snapshot.
    assert_eq!(last_action, Action::SnapshotAll { checkpoint: 1 });
    assert!(s.channels().iter().all(|c| c.items().is_empty()));
    let events = s.last_events();
    assert!(matches!(events[0], Event::Drained { checkpoint: 1 }));
    let snapshots: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            Event::Snapshot {
                task, forwarded, ..
            } => {
                assert_eq!(*forwarded, 0, "a stopped world sends no barrier");
                Some(*task)
            }
            _ => None,
        })
        .collect();
    assert_eq!(snapshots, (0..tasks).collect::<Vec<_>>());
    let gs = s.coordinator().global_state(1).unwrap();
    assert!(gs.channel_state.is_empty());
    assert!(gs.verdict.ok(), "{:?}", gs.verdict);
    // Each task's start delay is the time the job took to drain.
    let drain = s.now() - trigger_time;
    assert!(drain > 0);
    for snap in &gs.tasks {
        assert_eq!(snap.metrics.start_delay, drain, "task {}", snap.task);
        assert_eq!(snap.metrics.alignment_duration, 0);
    }
    // The sources read again.
    assert!(s.stopped_sources().next().is_none());
    step_until(&mut s, 200, |e| matches!(e, Event::SourceRead { .. }));
}

#[test]
fn no_barrier_ever_travels_and_every_checkpoint_is_consistent_without_channel_state() {
    for preset in [
        "alignment",
        "wordcount",
        "backpressure",
        "iteration",
        "large",
    ] {
        let mut s = sim(preset);
        let mut completed = 0;
        for _ in 0..20_000 {
            if s.step().is_none() {
                break; // the job finished (its sources are bounded)
            }
            for c in s.channels() {
                assert!(
                    c.items().iter().all(|i| matches!(
                        i.kind,
                        ItemKind::Record(_) | ItemKind::EndOfData | ItemKind::EndOfPartition
                    )),
                    "{preset}: a barrier or marker in flight"
                );
            }
            for e in s.last_events() {
                if let Event::CheckpointCompleted { checkpoint, .. } = e {
                    completed += 1;
                    let gs = s.coordinator().global_state(*checkpoint).unwrap();
                    assert!(gs.channel_state.is_empty(), "{preset}");
                    assert!(gs.verdict.ok(), "{preset}: {:?}", gs.verdict);
                }
            }
        }
        assert!(
            completed >= 3,
            "{preset}: {completed} checkpoints completed"
        );
    }
}

#[test]
fn by_hand_a_stopped_source_cannot_read_and_the_snapshot_waits_for_the_drain() {
    let mut s = sim("alignment");
    let source = 0;
    s.apply(Action::Emit { task: source }).unwrap();
    s.apply(Action::Trigger).unwrap();
    assert_eq!(s.stopped_for(), Some(1));
    assert_eq!(
        s.apply(Action::Emit { task: source }),
        Err(ActionError::SourceStopped(source))
    );
    assert_eq!(
        s.apply(Action::SnapshotAll { checkpoint: 1 }),
        Err(ActionError::NotDrained(1))
    );
    let listed = |s: &Simulation| s.enabled_actions();
    assert!(!listed(&s)
        .iter()
        .any(|a| matches!(a, Action::Emit { .. } | Action::SnapshotAll { .. })));
    // Deliver what is in flight, by hand, until the job has drained.
    for _ in 0..100 {
        if s.channels().iter().all(|c| c.items().is_empty()) {
            break;
        }
        let deliver = listed(&s)
            .into_iter()
            .find(|a| matches!(a, Action::Deliver { .. }))
            .expect("something to deliver");
        s.apply(deliver).unwrap();
    }
    assert!(listed(&s).contains(&Action::SnapshotAll { checkpoint: 1 }));
    assert_eq!(
        s.apply(Action::SnapshotAll { checkpoint: 2 }),
        Err(ActionError::NotDrained(2))
    );
    s.apply(Action::SnapshotAll { checkpoint: 1 }).unwrap();
    assert_eq!(
        s.coordinator().summary(1).unwrap().status,
        CheckpointStatus::Completed
    );
    assert_eq!(s.stopped_for(), None);
    s.apply(Action::Emit { task: source }).unwrap();
}

#[test]
fn an_expired_stop_lets_the_sources_read_again() {
    let mut scenario = presets::alignment().with_mode(BarrierMode::Synchronous);
    scenario.config.timeout = 150;
    scenario.config.tolerable_failed_checkpoints = None;
    let mut s = scenario.simulation().unwrap();
    let slow = s.physical().tasks[2].inputs[1];
    // Something on the slow channel, then paused: the job cannot drain.
    step_until(&mut s, 2_000, |e| {
        matches!(e, Event::SourceRead { task: 1, .. })
    });
    s.apply(Action::Pause {
        channel: slow,
        paused: true,
    })
    .unwrap();
    step_until(&mut s, 5_000, |e| {
        matches!(
            e,
            Event::CheckpointAborted {
                reason: AbortReason::Expired,
                ..
            }
        )
    });
    assert_eq!(s.stopped_for(), None);
    step_until(&mut s, 200, |e| matches!(e, Event::SourceRead { .. }));
}

#[test]
fn a_failure_while_the_world_is_stopped_restarts_the_sources() {
    let mut s = sim("wordcount");
    step_until(&mut s, 5_000, triggered(1));
    step_until(&mut s, 50, |_| true);
    s.apply(Action::Fail { task: 4 }).unwrap();
    assert_eq!(s.stopped_for(), None);
    assert!(s.stopped_sources().next().is_none());
    step_until(&mut s, 5_000, |e| matches!(e, Event::Restored { .. }));
    step_until(&mut s, 500, |e| matches!(e, Event::SourceRead { .. }));
    step_until(&mut s, 20_000, |e| {
        matches!(e, Event::CheckpointCompleted { .. })
    });
}

/// A stopped world runs at least an interval between two checkpoints (its min pause is the
/// interval), one checkpoint at a time, whatever the scenario asks.
#[test]
fn the_job_runs_an_interval_between_two_stops() {
    for preset in ["backpressure", "concurrent"] {
        let mut s = sim(preset);
        let interval = s.config().checkpoint_interval.unwrap();
        let mut ends: Vec<(u64, u64)> = Vec::new();
        let mut last_end = None;
        for _ in 0..30_000 {
            s.step().unwrap();
            assert!(s.coordinator().in_progress().count() <= 1, "{preset}");
            for e in s.last_events() {
                match e {
                    Event::CheckpointTriggered { .. } => {
                        if let Some(end) = last_end {
                            ends.push((end, s.now()));
                        }
                    }
                    Event::CheckpointCompleted { .. } => last_end = Some(s.now()),
                    _ => {}
                }
            }
        }
        assert!(ends.len() >= 5, "{preset}: {ends:?}");
        for (end, next) in ends {
            assert!(
                next >= end + interval,
                "{preset}: ended {end}, next at {next}"
            );
        }
    }
}

/// The narration tells the stop as one sentence, not a sentence per task.
#[test]
fn the_narration_tells_the_stop_and_the_drain() {
    let mut s = sim("wordcount");
    step_until(&mut s, 5_000, triggered(1));
    let b = last_sentences(&s);
    assert!(matches!(b[0], Sentence::WorldStops { n: 1 }), "{b:?}");
    step_until(&mut s, 5_000, completed(1));
    let b = last_sentences(&s);
    let tasks = s.physical().task_count();
    assert_eq!(b[0], Sentence::Drained { n: 1, tasks });
    assert!(
        !b.iter().any(|b| matches!(
            b,
            Sentence::Snapshot { .. }
                | Sentence::SourceSnapshot { .. }
                | Sentence::AckSnapshot { .. }
                | Sentence::AckFinished { .. }
        )),
        "{b:?}"
    );
    assert!(
        b.iter().any(|b| matches!(b, Sentence::Completed { .. })),
        "{b:?}"
    );
}
