//! Importing what a Flink cluster says about a job (issue 23 §3): a REST plan becomes a
//! scenario that runs, REST checkpoint statistics and the export bundle a checkpoint history,
//! a run's checkpoints the same history (bad JSON: `flink_import_errors.rs`). The plans,
//! checkpoint lists and the bundle in `tests/flink/` are written by hand from the REST API's
//! documented field names; `details-2.x.json`, `subtasks-2.x.json`,
//! `checkpoint-config-2.x.json`, `exceptions-2.x.json` (stack traces cut to 5 lines),
//! `vertex-2.x.json` and `config-2.x.json` are Flink 2.3's own responses, from one run of
//! `abs-sim flink run --preset wordcount --mode unaligned --fail Count#1@200 --cluster …` on
//! `.ci/flink-cluster.sh`'s cluster (issue 48 §4: the other documents the view reads).
#![cfg(not(target_arch = "wasm32"))]

use abs_playground::engine::view::checkpoint_figures;
use abs_playground::engine::{BarrierMode, OperatorKind, Partitioning, Simulation};
use abs_playground::scenario::flink::{
    import_flink_json, CheckpointConfig, CheckpointHistory, FlinkImport, HistoryCheckpoint,
    HistorySource, HistoryStatus, ImportError, JobException, Phase, PlanImport, PlanNotice,
    SubtaskAttempt, SubtaskTiming, TaskAggregate, VertexAttempts, VertexSubtasks,
};
use abs_playground::scenario::{presets, Scenario};
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/flink/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn fixture_value(name: &str) -> Value {
    serde_json::from_str(&fixture(name)).unwrap()
}

fn plan(text: &str) -> PlanImport {
    match import_flink_json(text) {
        Ok(FlinkImport::Plan(p)) => p,
        other => panic!("expected a plan, got {other:?}"),
    }
}

fn history(text: &str) -> CheckpointHistory {
    match import_flink_json(text) {
        Ok(FlinkImport::History(h)) => h,
        other => panic!("expected a history, got {other:?}"),
    }
}

/// `(from, to, partitioning)` of every edge.
fn edges(s: &Scenario) -> Vec<(&str, &str, Partitioning)> {
    s.graph
        .edges
        .iter()
        .map(|e| (e.from.as_str(), e.to.as_str(), e.partitioning))
        .collect()
}

fn notices(p: &PlanImport) -> Vec<String> {
    p.notices.iter().map(|n| n.to_string()).collect()
}

fn source_interval(s: &Scenario) -> u64 {
    s.graph
        .operators
        .iter()
        .find_map(|o| match o.kind {
            OperatorKind::Source { interval, .. } => Some(interval),
            _ => None,
        })
        .unwrap()
}

/// Runs `scenario` in `mode` for `steps` steps; the ids of its completed checkpoints, each
/// checked consistent in the exactly-once modes.
fn completed_checkpoints(scenario: &Scenario, mode: BarrierMode, steps: u32) -> Vec<u64> {
    let mut sim = scenario.with_mode(mode).simulation().unwrap();
    let mut done = Vec::new();
    for _ in 0..steps {
        if sim.step().is_none() {
            break;
        }
        for e in sim.last_events() {
            if let abs_playground::engine::Event::CheckpointCompleted { checkpoint, .. } = e {
                let g = sim.coordinator().global_state(*checkpoint).unwrap();
                // At-least-once may count a record twice; the other modes may not.
                assert!(
                    g.verdict.ok() || mode.may_slip(),
                    "{mode:?}: checkpoint {checkpoint} inconsistent"
                );
                done.push(*checkpoint);
            }
        }
    }
    done
}

#[test]
fn a_flink_1_15_plan_keeps_its_shape_and_says_what_it_guessed() {
    let p = plan(&fixture("plan-1.15.json"));
    let s = &p.scenario;
    // A vertex chains two operators, and no edge between vertices is one Flink would chain:
    // chaining was on, and stays on.
    assert!(s.config.chaining);
    let ops: Vec<(&str, &str, u32)> = s
        .graph
        .operators
        .iter()
        .map(|o| (o.name.as_str(), o.kind.label(), o.parallelism))
        .collect();
    assert_eq!(
        ops,
        [
            ("Source: Sentences → Flat Map", "source", 2),
            ("Filter", "filter", 4),
            ("Keyed Aggregation", "count", 4),
            ("Sink: Print to Std. Out", "sink", 1),
        ]
    );
    assert_eq!(
        edges(s),
        [
            (
                "Source: Sentences → Flat Map",
                "Filter",
                Partitioning::Rebalance
            ),
            ("Filter", "Keyed Aggregation", Partitioning::Hash),
            (
                "Keyed Aggregation",
                "Sink: Print to Std. Out",
                Partitioning::Rebalance
            ),
        ]
    );
    assert_eq!(s.title, "Streaming WordCount");
    assert_eq!(
        p.vertices[2],
        (
            "90bea66de1c231edf33913ecd54406c1".to_string(),
            "Keyed Aggregation".to_string()
        )
    );
    let interval = source_interval(s);
    assert_eq!(
        notices(&p),
        [
            format!(
                "a plan has no rates, latencies or keys: each source subtask reads one of 8 \
                 sample lines every {interval} ms, every channel takes 10 ms, records are keyed \
                 by word, and checkpoints are aligned, every 100 ms"
            ),
            "\"Source: Sentences → Flat Map\" chains 2 operators (\"Source: Sentences\", \
             \"Flat Map\"): one task in flink, one operator here"
                .to_string(),
            "\"Filter\" runs as a filter (keeping words of 2 letters or more), guessed from \
             \"Filter\""
                .to_string(),
            "\"Keyed Aggregation\" runs as a count, guessed from \"Keyed Aggregation\"".to_string(),
        ]
    );
    // Everything the 4 count subtasks emit goes to one sink subtask: the sources slow down
    // until it is busy at most half the time (2 sources × 11 words a line / interval ≤ ½).
    assert!(2 * 11 * 2 <= interval, "{interval}");
}

#[test]
fn a_flink_2_plan_caps_parallelism_and_approximates_what_the_model_lacks() {
    let p = plan(&fixture("plan-2.x.json"));
    let s = &p.scenario;
    let ops: Vec<(&str, &OperatorKind, u32)> = s
        .graph
        .operators
        .iter()
        .map(|o| (o.name.as_str(), &o.kind, o.parallelism))
        .collect();
    assert_eq!(ops[0].0, "TableSourceScan");
    assert!(ops[0].1.is_source() && ops[1].1.is_source());
    assert_eq!(ops[1].0, "Source: Orders");
    assert_eq!((ops[2].0, ops[2].1), ("Map", &OperatorKind::Map));
    assert_eq!(
        (ops[3].0, ops[3].1, ops[3].2),
        ("Join → Calc", &OperatorKind::Count, 32)
    );
    assert_eq!(
        (ops[4].0, ops[4].1),
        (
            "Sink: Writer → Sink: Committer",
            &OperatorKind::Sink {
                transactional: true
            }
        )
    );
    assert_eq!(
        edges(s),
        [
            ("TableSourceScan", "Map", Partitioning::Forward),
            ("Map", "Join → Calc", Partitioning::Hash),
            ("Source: Orders", "Join → Calc", Partitioning::Hash),
            (
                "Join → Calc",
                "Sink: Writer → Sink: Committer",
                Partitioning::Rescale
            ),
        ]
    );
    let all = notices(&p);
    assert_eq!(
        all[1..],
        [
            "\"Join → Calc\" has parallelism 128 in flink; it runs with 32 subtasks here",
            "\"Map\" runs as a map: nothing in its description says more, so it passes records on",
            "\"Join → Calc\" chains 2 operators (\"Join\", \"Calc\"): one task in flink, one \
             operator here",
            "\"Join → Calc\" runs as a count, guessed from \"Join\"",
            "\"Sink: Writer → Sink: Committer\" chains 2 operators (\"Sink: Writer\", \
             \"Sink: Committer\"): one task in flink, one operator here",
            "\"Sink: Writer → Sink: Committer\" runs as a sink, guessed from \"Sink: Committer\"",
        ]
    );
    assert!(all[0].starts_with("a plan has no rates"), "{}", all[0]);
}

#[test]
fn an_execution_plan_reads_as_the_rest_plan_does() {
    // `env.getExecutionPlan()`: numeric ids, `contents`, `predecessors`, one node per
    // operator (not chained); listed here with a consumer before its input.
    let text = json!({"nodes": [
        {"id": 4, "type": "Keyed Aggregation", "pact": "Operator", "contents": "Keyed Aggregation",
         "parallelism": 3, "predecessors": [{"id": 2, "ship_strategy": "HASH", "side": "second"}]},
        {"id": 1, "type": "Source: Custom Source", "pact": "Data Source",
         "contents": "Source: Custom Source", "parallelism": 1},
        {"id": 2, "type": "Flat Map", "pact": "Operator", "contents": "Flat Map", "parallelism": 1,
         "predecessors": [{"id": 1, "ship_strategy": "FORWARD", "side": "second"}]},
        {"id": 5, "type": "Sink: Print to Std. Out", "pact": "Data Sink",
         "contents": "Sink: Print to Std. Out", "parallelism": 3,
         "predecessors": [{"id": 4, "ship_strategy": "FORWARD", "side": "second"}]}
    ]})
    .to_string();
    let p = plan(&text);
    // Operators before chaining: Flink chains Source → Flat Map (forward, parallelism 1, its
    // only input) and Keyed Aggregation → Sink (forward, 3 and 3), and so will the simulation.
    assert!(p.scenario.config.chaining);
    let sim = p.scenario.simulation().unwrap();
    assert_eq!(
        (0..sim.channels().len() as u32)
            .filter(|&c| sim.chains().is_chained(c))
            .count(),
        1 + 3
    );
    let kinds: Vec<(&str, &str)> = p
        .scenario
        .graph
        .operators
        .iter()
        .map(|o| (o.name.as_str(), o.kind.label()))
        .collect();
    assert_eq!(
        kinds,
        [
            ("Keyed Aggregation", "count"),
            ("Source: Custom Source", "source"),
            ("Flat Map", "split"),
            ("Sink: Print to Std. Out", "sink"),
        ]
    );
    assert_eq!(
        edges(&p.scenario),
        [
            ("Flat Map", "Keyed Aggregation", Partitioning::Hash),
            ("Source: Custom Source", "Flat Map", Partitioning::Forward),
            (
                "Keyed Aggregation",
                "Sink: Print to Std. Out",
                Partitioning::Forward
            ),
        ]
    );
    assert_eq!(p.vertices[1].0, "1");
    assert_eq!(p.scenario.title, "Flink job");
    assert!(completed_checkpoints(&p.scenario, BarrierMode::Aligned, 5_000).len() >= 5);
}

#[test]
fn every_ship_strategy_maps_as_docs_scenario_md_says() {
    // (ship strategy, receiver's parallelism, partitioning, exact); the sender has 2.
    let table = [
        ("FORWARD", 2, Partitioning::Forward, true),
        ("FORWARD", 3, Partitioning::Rescale, false),
        ("HASH", 3, Partitioning::Hash, true),
        ("REBALANCE", 3, Partitioning::Rebalance, true),
        ("BROADCAST", 3, Partitioning::Broadcast, true),
        ("RESCALE", 2, Partitioning::Rescale, true),
        ("RESCALE", 4, Partitioning::Rescale, true),
        ("GLOBAL", 1, Partitioning::Rebalance, true),
        ("GLOBAL", 3, Partitioning::Rebalance, false),
        ("SHUFFLE", 3, Partitioning::Rebalance, false),
        ("CUSTOM", 3, Partitioning::Hash, false),
        ("SOMETHING NEW", 3, Partitioning::Rebalance, false),
    ];
    let mut nodes = vec![json!({"id": "s", "parallelism": 2, "description": "Source: S"})];
    for (i, (strategy, p, _, _)) in table.iter().enumerate() {
        nodes.push(json!({"id": format!("n{i}"), "parallelism": p,
            "description": format!("Sink: {i}"),
            "inputs": [{"num": 0, "id": "s", "ship_strategy": strategy}]}));
    }
    let p = plan(&json!({"name": "fan", "nodes": nodes}).to_string());
    let got: Vec<(Partitioning, bool)> = p
        .scenario
        .graph
        .edges
        .iter()
        .map(|e| {
            let approximated = p
                .notices
                .iter()
                .any(|n| matches!(n, PlanNotice::Approximated { to, .. } if *to == e.to));
            (e.partitioning, !approximated)
        })
        .collect();
    let expected: Vec<(Partitioning, bool)> = table
        .iter()
        .map(|&(_, _, part, exact)| (part, exact))
        .collect();
    assert_eq!(got, expected);
}

#[test]
fn imported_plans_run_with_checkpoints_completing_in_every_abs_mode() {
    for name in ["plan-1.15.json", "plan-2.x.json", "bundle-2.x.json"] {
        let scenario = match import_flink_json(&fixture(name)).unwrap() {
            FlinkImport::Plan(p) => p.scenario,
            FlinkImport::Bundle(b) => b.plan.unwrap().scenario,
            other => panic!("{name}: {other:?}"),
        };
        // What the editor would show reads back the same: the import is an ordinary scenario.
        assert_eq!(Scenario::from_json(&scenario.to_json()).unwrap(), scenario);
        for mode in [
            BarrierMode::Aligned,
            BarrierMode::Unaligned,
            BarrierMode::AtLeastOnce,
        ] {
            let done = completed_checkpoints(&scenario, mode, 20_000);
            assert!(done.len() >= 5, "{name} {mode:?}: {done:?}");
        }
    }
}

#[test]
fn a_1_15_checkpoint_list_reads_as_a_history_oldest_first() {
    let h = history(&fixture("checkpoints-1.15.json"));
    assert_eq!(h.source, HistorySource::Flink { version: None });
    let base = HistoryCheckpoint {
        id: 1,
        status: HistoryStatus::Completed,
        savepoint: false,
        trigger_ms: 1_700_000_000_000,
        duration_ms: 412,
        checkpointed_size: 4096,
        persisted_bytes: 0,
        processed_bytes: 2048,
        unaligned: false,
        acknowledged: 11,
        subtask_count: 11,
        failure: None,
        subtasks: Vec::new(),
        tasks: Vec::new(),
    };
    assert_eq!(
        h.checkpoints,
        [
            base.clone(),
            HistoryCheckpoint {
                id: 2,
                status: HistoryStatus::Failed,
                trigger_ms: 1_700_000_030_000,
                duration_ms: 600_000,
                checkpointed_size: 1024,
                processed_bytes: 512,
                acknowledged: 7,
                failure: Some("Checkpoint expired before completing.".into()),
                ..base.clone()
            },
            HistoryCheckpoint {
                id: 3,
                status: HistoryStatus::InProgress,
                trigger_ms: 1_700_000_060_000,
                duration_ms: 35,
                checkpointed_size: 0,
                processed_bytes: 0,
                acknowledged: 0,
                ..base
            },
        ]
    );
}

#[test]
fn without_its_end_to_end_duration_a_checkpoint_lasts_until_its_latest_ack() {
    let mut v = fixture_value("checkpoints-1.15.json");
    for c in v["history"].as_array_mut().unwrap() {
        c.as_object_mut().unwrap().remove("end_to_end_duration");
    }
    let h = history(&v.to_string());
    let durations: Vec<u64> = h.checkpoints.iter().map(|c| c.duration_ms).collect();
    // Checkpoint 3 has no acknowledgement yet (`-1`).
    assert_eq!(durations, [412, 150, 0]);
}

#[test]
fn a_file_with_a_byte_order_mark_reads_as_without() {
    let text = fixture("checkpoints-2.x.json");
    assert_eq!(history(&format!("\u{feff}{text}")), history(&text),);
}

#[test]
fn before_1_15_the_checkpointed_size_was_called_state_size() {
    let mut v = fixture_value("checkpoints-1.15.json");
    for c in v["history"].as_array_mut().unwrap() {
        c.as_object_mut().unwrap().remove("checkpointed_size");
    }
    let h = history(&v.to_string());
    assert_eq!(h.checkpoints[0].checkpointed_size, 9000);
    assert_eq!(h.checkpoints[1].checkpointed_size, 2048);
}

#[test]
fn a_2_x_checkpoint_list_says_unaligned_and_savepoint_by_its_type() {
    let h = history(&fixture("checkpoints-2.x.json"));
    let c: Vec<(u64, bool, bool, u64, u64)> = h
        .checkpoints
        .iter()
        .map(|c| {
            (
                c.id,
                c.savepoint,
                c.unaligned,
                c.persisted_bytes,
                c.checkpointed_size,
            )
        })
        .collect();
    assert_eq!(
        c,
        [(7, true, false, 0, 3072), (8, false, true, 49152, 52224)]
    );
}

/// A subtask's timing from `[start delay, alignment, sync, async, ack, checkpointed size,
/// persisted bytes]`.
fn timing(task: &str, index: u32, numbers: [u64; 7], unaligned: bool) -> SubtaskTiming {
    let [start_delay_ms, alignment_ms, sync_ms, async_ms, ack_ms, checkpointed_size, persisted_bytes] =
        numbers;
    SubtaskTiming {
        task: task.into(),
        index,
        acknowledged: true,
        start_delay_ms,
        alignment_ms,
        sync_ms,
        async_ms,
        ack_ms,
        checkpointed_size,
        persisted_bytes,
        unaligned,
    }
}

#[test]
fn a_bundle_joins_plan_history_and_final_counts() {
    let Ok(FlinkImport::Bundle(b)) = import_flink_json(&fixture("bundle-2.x.json")) else {
        panic!("expected a bundle");
    };
    assert_eq!(
        b.history.source,
        HistorySource::Flink {
            version: Some("2.1.0".into())
        }
    );
    let plan = b.plan.unwrap();
    let names: Vec<&str> = plan
        .scenario
        .graph
        .operators
        .iter()
        .map(|o| o.name.as_str())
        .collect();
    let (src, keyed) = (
        "Source: Lines → Flat Map",
        "Keyed Aggregation → Sink: Print to Std. Out",
    );
    assert_eq!(names, [src, keyed]);
    assert!(notices(&plan).contains(
        &"\"Keyed Aggregation → Sink: Print to Std. Out\" runs as a count, guessed from \
          \"Keyed Aggregation\"; its chained \"Sink: Print to Std. Out\" is not simulated: the \
          counts are the job's result"
            .to_string()
    ));
    assert_eq!(
        b.final_counts.unwrap(),
        [
            ("a".into(), 12),
            ("barrier".into(), 40),
            ("the".into(), 120)
        ]
    );
    let [one, two] = &b.history.checkpoints[..] else {
        panic!("{:?}", b.history.checkpoints)
    };
    // Checkpoint 1's subtasks come from its /details, checkpoint 2's from the bundle's
    // `subtasks`: by vertex in plan order, then by index, named as the scenario's operators.
    assert_eq!(
        one.subtasks,
        [
            timing(src, 0, [2, 0, 1, 4, 12, 64, 0], false),
            timing(src, 1, [3, 0, 1, 4, 15, 64, 0], false),
            timing(keyed, 0, [10, 25, 2, 20, 60, 900, 0], false),
            timing(keyed, 1, [11, 24, 2, 19, 58, 900, 0], false),
        ]
    );
    assert!(!one.unaligned && two.unaligned);
    assert_eq!(
        two.subtasks,
        [
            timing(keyed, 0, [4, 0, 1, 55, 70, 6936, 6144], true),
            timing(keyed, 1, [5, 0, 1, 52, 66, 6936, 6144], true),
        ]
    );
    // Bars on one axis from the trigger: start delay, alignment, sync, async, to the ack.
    assert_eq!(
        one.subtasks[2].spans(),
        [
            (Phase::StartDelay, 0, 10),
            (Phase::Alignment, 10, 35),
            (Phase::Sync, 35, 37),
            (Phase::Async, 37, 57),
        ]
    );
}

/// A bundle as `abs-sim flink run` writes it: each checkpoint's `/details` with its own
/// `subtasks`, vertex id → the `…/subtasks/<vertex id>` response, and `tasks` entries without
/// subtasks (as Flink's `/details` has them). It reads as the fixture's form does; a vertex
/// given both ways is read once.
#[test]
fn a_run_bundle_keeps_each_checkpoints_subtasks_beside_its_tasks() {
    let reference = import_flink_json(&fixture("bundle-2.x.json"));
    let Ok(FlinkImport::Bundle(reference)) = reference else {
        panic!("expected a bundle");
    };
    let mut v = fixture_value("bundle-2.x.json");
    let details = &mut v["checkpoints"]["details"]["1"];
    let mut per_vertex = serde_json::Map::new();
    let tasks = details["tasks"].as_object_mut().unwrap();
    let vids: Vec<String> = tasks.keys().cloned().collect();
    for (i, vid) in vids.iter().enumerate() {
        let task = tasks.get_mut(vid).unwrap();
        let subtasks = if i == 0 {
            // The first vertex keeps its array too: read once, not twice.
            task["subtasks"].clone()
        } else {
            task.as_object_mut().unwrap().remove("subtasks").unwrap()
        };
        per_vertex.insert(vid.clone(), json!({ "id": 1, "subtasks": subtasks }));
    }
    details["subtasks"] = Value::Object(per_vertex);
    let Ok(FlinkImport::Bundle(b)) = import_flink_json(&v.to_string()) else {
        panic!("expected a bundle");
    };
    assert_eq!(b.history.checkpoints.len(), 2);
    assert_eq!(b.history.checkpoints[0].subtasks.len(), 4);
    assert_eq!(b.history, reference.history);
}

#[test]
fn details_may_come_as_a_list_and_subtasks_as_pending() {
    let mut v = fixture_value("bundle-2.x.json");
    let details = v["checkpoints"]["details"]["1"].take();
    v["checkpoints"]["details"] = json!([details.clone()]);
    let vid = "20ba6b65f97481d5570070de90e4e791";
    v["checkpoints"]["details"][0]["tasks"][vid]["subtasks"][1] =
        json!({"index": 1, "status": "pending_or_failed"});
    let Ok(FlinkImport::Bundle(b)) = import_flink_json(&v.to_string()) else {
        panic!("expected a bundle");
    };
    let last = b.history.checkpoints[0].subtasks.last().unwrap().clone();
    assert_eq!(
        last,
        SubtaskTiming {
            acknowledged: false,
            ..timing(
                "Keyed Aggregation → Sink: Print to Std. Out",
                1,
                [0; 7],
                false
            )
        }
    );
    // One checkpoint's /details pasted alone: a history of one, vertices named by their ids.
    let h = history(&details.to_string());
    let tasks: Vec<(&str, u32)> = h.checkpoints[0]
        .subtasks
        .iter()
        .map(|s| (s.task.as_str(), s.index))
        .collect();
    assert_eq!(
        tasks,
        [
            ("Vertex 20ba6b65", 0),
            ("Vertex 20ba6b65", 1),
            ("Vertex bc764cd8", 0),
            ("Vertex bc764cd8", 1)
        ]
    );
}

#[test]
fn a_run_reads_as_the_same_history_with_the_inspectors_figures() {
    let scenario = presets::by_name("backpressure").unwrap();
    for mode in [BarrierMode::Aligned, BarrierMode::Unaligned] {
        let mut sim: Simulation = scenario.with_mode(mode).simulation().unwrap();
        for _ in 0..6_000 {
            sim.step();
        }
        let h = CheckpointHistory::from_simulation(&sim);
        assert_eq!(h.source, HistorySource::Simulation);
        assert_eq!(h.checkpoints.len(), sim.coordinator().checkpoints().len());
        let completed: Vec<&HistoryCheckpoint> = h
            .checkpoints
            .iter()
            .filter(|c| c.status == HistoryStatus::Completed && !c.subtasks.is_empty())
            .collect();
        assert!(completed.len() >= 3, "{mode:?}: {}", completed.len());
        for c in &completed {
            let g = sim.coordinator().global_state(c.id).unwrap();
            let f = checkpoint_figures(g);
            assert_eq!(
                (c.duration_ms, c.checkpointed_size, c.persisted_bytes),
                (f.end_to_end, f.checkpointed_size, f.persisted_bytes),
                "{mode:?} checkpoint {}",
                c.id
            );
            assert_eq!(c.subtasks.len(), sim.physical().tasks.len());
            assert_eq!(c.unaligned, mode == BarrierMode::Unaligned);
            for s in &c.subtasks {
                assert!(
                    s.ack_ms <= c.duration_ms && s.start_delay_ms <= s.ack_ms,
                    "{s:?}"
                );
            }
        }
        let persisted: u64 = completed.iter().map(|c| c.persisted_bytes).sum();
        let aligned: u64 = completed
            .iter()
            .flat_map(|c| &c.subtasks)
            .map(|s| s.alignment_ms)
            .sum();
        match mode {
            // Backpressure: unaligned barriers overtake full channels, which are persisted; the
            // alignment (first barrier to last, as Flink reports it in every mode) is not 0.
            BarrierMode::Unaligned => assert!(persisted > 0 && aligned > 0),
            _ => assert!(persisted == 0 && aligned > 0, "{persisted} {aligned}"),
        }
    }
}

#[test]
fn a_run_aligned_with_a_timeout_says_which_checkpoints_went_unaligned() {
    let scenario = presets::by_name("backpressure")
        .unwrap()
        .with_aligned_timeout(true);
    let timeout = scenario.config.aligned_checkpoint_timeout.unwrap();
    let mut sim = scenario.simulation().unwrap();
    for _ in 0..6_000 {
        sim.step();
    }
    let h = CheckpointHistory::from_simulation(&sim);
    let completed: Vec<&HistoryCheckpoint> = h
        .checkpoints
        .iter()
        .filter(|c| c.status == HistoryStatus::Completed && !c.subtasks.is_empty())
        .collect();
    assert!(completed.len() >= 3);
    for c in &completed {
        // Whatever persisted in-flight data, or ran past the timeout, went unaligned.
        assert_eq!(
            c.unaligned,
            c.persisted_bytes > 0 || c.duration_ms > timeout,
            "checkpoint {}: {c:?}",
            c.id
        );
        let subtasks_persisted: u64 = c.subtasks.iter().map(|s| s.persisted_bytes).sum();
        assert_eq!(subtasks_persisted, c.persisted_bytes);
    }
    assert!(completed
        .iter()
        .any(|c| c.unaligned && c.persisted_bytes > 0));
}

// ----- the other documents the view reads: Flink 2.3's own responses -----

fn subtasks(text: &str) -> VertexSubtasks {
    match import_flink_json(text) {
        Ok(FlinkImport::Subtasks(v)) => v,
        other => panic!("expected one vertex's subtasks, got {other:?}"),
    }
}

fn config(text: &str) -> CheckpointConfig {
    match import_flink_json(text) {
        Ok(FlinkImport::Config(c)) => c,
        other => panic!("expected a checkpoint configuration, got {other:?}"),
    }
}

/// The vertex ids of the run the samples come from, and the name `/details` alone gives each.
const COUNT: &str = "b1e531cbbe0476059ef9a2c162ba2ee2";

#[test]
fn one_checkpoints_details_keep_each_vertexs_figures() {
    let h = history(&fixture("details-2.x.json"));
    let [c] = &h.checkpoints[..] else {
        panic!("{:?}", h.checkpoints)
    };
    assert_eq!(
        (c.id, c.status, c.unaligned),
        (2, HistoryStatus::Completed, true)
    );
    // `/details` has no subtask statistics: the vertices' figures only.
    assert!(c.subtasks.is_empty());
    let figures: Vec<(&str, Option<u64>, u64, u32)> = c
        .tasks
        .iter()
        .map(|t| {
            (
                &t.vertex[..8],
                t.latest_ack_ms.map(|a| a - c.trigger_ms),
                t.checkpointed_size,
                t.subtask_count,
            )
        })
        .collect();
    assert_eq!(
        figures,
        [
            ("837a29e0", Some(52), 1499, 1),
            ("8620727f", Some(52), 394, 2),
            ("b1e531cb", Some(52), 4417, 2),
            ("f66e4a01", Some(50), 2795, 2),
        ]
    );
    // Without a plan, by vertex id.
    assert_eq!(
        c.tasks[2],
        TaskAggregate {
            vertex: COUNT.into(),
            name: "Vertex b1e531cb".into(),
            latest_ack_ms: Some(1_796_468_547_256),
            checkpointed_size: 4417,
            subtask_count: 2,
        }
    );
    // A checkpoint list's entries have an empty `tasks`; a run has none.
    let list = history(&fixture("checkpoints-2.x.json"));
    assert!(list.checkpoints.iter().all(|c| c.tasks.is_empty()));
}

#[test]
fn one_vertexs_subtasks_in_one_checkpoint_read_unnamed() {
    let v = subtasks(&fixture("subtasks-2.x.json"));
    assert_eq!(
        (
            v.checkpoint,
            v.status,
            v.latest_ack_ms,
            v.checkpointed_size,
            v.subtask_count
        ),
        (
            2,
            HistoryStatus::Completed,
            Some(1_796_468_547_256),
            4417,
            2
        )
    );
    assert_eq!(
        v.subtasks,
        [
            timing("", 0, [22, 10, 0, 20, 52, 1815, 612], true),
            timing("", 1, [21, 16, 0, 16, 43, 2602, 1404], true),
        ]
    );
    // Without its end-to-end duration, a subtask lasts from the trigger (the vertex's latest
    // acknowledgement less its duration) to its own acknowledgement.
    let mut doc = fixture_value("subtasks-2.x.json");
    doc["subtasks"][1]
        .as_object_mut()
        .unwrap()
        .remove("end_to_end_duration");
    assert_eq!(subtasks(&doc.to_string()).subtasks[1].ack_ms, 43);
}

#[test]
fn the_checkpoint_configuration_reads_with_its_mode_and_interval() {
    let c = config(&fixture("checkpoint-config-2.x.json"));
    assert_eq!(
        c,
        CheckpointConfig {
            exactly_once: true,
            interval_ms: Some(90),
            timeout_ms: 10_000,
            min_pause_ms: 0,
            max_concurrent: 1,
            unaligned: true,
            aligned_timeout_ms: 0,
            tolerable_failed: Some(0),
            after_tasks_finish: Some(true),
        }
    );
    // Periodic checkpoints off: Flink writes Long.MAX_VALUE.
    let mut doc = fixture_value("checkpoint-config-2.x.json");
    doc["interval"] = json!(9_223_372_036_854_775_807u64);
    doc["mode"] = json!("at_least_once");
    doc.as_object_mut()
        .unwrap()
        .remove("checkpoints_after_tasks_finish");
    let c = config(&doc.to_string());
    assert_eq!(
        (c.exactly_once, c.interval_ms, c.after_tasks_finish),
        (false, None, None)
    );
}

#[test]
fn the_exceptions_read_newest_first_with_their_task() {
    let Ok(FlinkImport::Exceptions(e)) = import_flink_json(&fixture("exceptions-2.x.json")) else {
        panic!("expected exceptions");
    };
    assert_eq!(
        e,
        [JobException {
            time_ms: 1_796_468_538_737,
            name: "java.lang.RuntimeException".into(),
            message: "planned failure: Count#1 fails after 33 records".into(),
            task: Some("Count (2/2) - execution #0".into()),
        }]
    );
    // Flink 1.x: the root cause, then the subtasks' failures (the root's own not twice).
    let old = json!({
        "root-exception": "org.apache.flink.runtime.JobException: Recovery is suppressed\n\tat x",
        "timestamp": 20,
        "all-exceptions": [
            {"exception": "java.io.IOException: disk full\n\tat y", "task": "Sink (1/1)",
             "location": "tm:1", "timestamp": 10},
            {"exception": "org.apache.flink.runtime.JobException: Recovery is suppressed\n\tat x",
             "task": "Map (1/2)", "timestamp": 20}
        ],
        "truncated": false
    });
    let Ok(FlinkImport::Exceptions(e)) = import_flink_json(&old.to_string()) else {
        panic!("expected exceptions");
    };
    let got: Vec<(u64, &str, &str, Option<&str>)> = e
        .iter()
        .map(|e| (e.time_ms, &e.name[..], &e.message[..], e.task.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            (
                20,
                "org.apache.flink.runtime.JobException",
                "Recovery is suppressed",
                None
            ),
            (10, "java.io.IOException", "disk full", Some("Sink (1/1)")),
        ]
    );
    // No failure yet: an empty list, in either form.
    for empty in [
        json!({"exceptionHistory": {"entries": [], "truncated": false}}),
        json!({"root-exception": null, "timestamp": null, "all-exceptions": [], "truncated": false}),
    ] {
        assert_eq!(
            import_flink_json(&empty.to_string()),
            Ok(FlinkImport::Exceptions(Vec::new()))
        );
    }
    // At most 1,000, the newest.
    let entry = |t: u64| json!({"exceptionName": "E", "stacktrace": "E", "timestamp": t});
    let many: Vec<Value> = (0..1_200u64).rev().map(entry).collect();
    let doc = json!({"exceptionHistory": {"entries": many, "truncated": true}});
    let Ok(FlinkImport::Exceptions(e)) = import_flink_json(&doc.to_string()) else {
        panic!("expected exceptions");
    };
    assert_eq!(
        (e.len(), e[0].time_ms, &e[0].message[..]),
        (1_000, 1_199, "")
    );
}

#[test]
fn a_vertex_reads_with_its_subtasks_attempts() {
    let Ok(FlinkImport::Vertex(v)) = import_flink_json(&fixture("vertex-2.x.json")) else {
        panic!("expected a vertex");
    };
    let finished = |index| SubtaskAttempt {
        index,
        // The job restarted once (Count#1 failed): every subtask runs its second attempt.
        attempt: 1,
        status: "FINISHED".into(),
    };
    assert_eq!(
        v,
        VertexAttempts {
            id: COUNT.into(),
            name: "Count".into(),
            subtasks: vec![finished(0), finished(1)],
        }
    );
}

#[test]
fn the_clusters_configuration_says_its_version() {
    assert_eq!(
        import_flink_json(&fixture("config-2.x.json")),
        Ok(FlinkImport::Cluster {
            version: "2.3.0".into()
        })
    );
}

#[test]
fn a_vertexs_subtasks_are_named_by_the_details_figures_they_share() {
    let mut h = history(&fixture("details-2.x.json"));
    let v = subtasks(&fixture("subtasks-2.x.json"));
    assert_eq!(h.add_vertex(v.clone()), "Vertex b1e531cb");
    let named: Vec<(&str, u32)> = h.checkpoints[0]
        .subtasks
        .iter()
        .map(|s| (s.task.as_str(), s.index))
        .collect();
    assert_eq!(named, [("Vertex b1e531cb", 0), ("Vertex b1e531cb", 1)]);
    // Pasted again: the same vertex, its subtasks replaced, not doubled.
    assert_eq!(h.add_vertex(v.clone()), "Vertex b1e531cb");
    assert_eq!(h.checkpoints[0].subtasks.len(), 2);
    // Figures no vertex of the checkpoint has: an unknown vertex, numbered.
    let other = |size| VertexSubtasks {
        checkpointed_size: size,
        ..v.clone()
    };
    assert_eq!(h.add_vertex(other(1)), "Vertex ?1");
    assert_eq!(h.add_vertex(other(2)), "Vertex ?2");
    assert_eq!(h.checkpoints[0].subtasks.len(), 6);
    // With the plan's names (a bundle's details), the plan's name.
    let doc = fixture_value("details-2.x.json");
    let wrapped = json!({"flink_version": "2.3.0", "checkpoints": {"history": [doc.clone()],
        "details": {"2": doc.clone()}},
        "plan": {"jid": "j", "name": "wordcount", "nodes": [
            {"id": "8620727fa2e78983d1f17365a82e3908", "parallelism": 2, "description": "Source: Sentences"},
            {"id": "f66e4a017c3dd19b3e549d8c17157a7a", "parallelism": 2, "description": "Split",
             "inputs": [{"num": 0, "id": "8620727fa2e78983d1f17365a82e3908", "ship_strategy": "FORWARD"}]},
            {"id": COUNT, "parallelism": 2, "description": "Count",
             "inputs": [{"num": 0, "id": "f66e4a017c3dd19b3e549d8c17157a7a", "ship_strategy": "HASH"}]},
            {"id": "837a29e000477e8f2fff90adaaa5696e", "parallelism": 1, "description": "Sink",
             "inputs": [{"num": 0, "id": COUNT, "ship_strategy": "REBALANCE"}]}]}});
    let Ok(FlinkImport::Bundle(mut b)) = import_flink_json(&wrapped.to_string()) else {
        panic!("expected a bundle");
    };
    assert_eq!(b.history.add_vertex(v.clone()), "Count");
    // A checkpoint the history lacks is added, with what the response says of it.
    let mut empty = CheckpointHistory {
        source: HistorySource::Flink { version: None },
        checkpoints: Vec::new(),
    };
    assert_eq!(empty.add_vertex(v.clone()), "Vertex ?1");
    let c = &empty.checkpoints[0];
    assert_eq!(
        (
            c.id,
            c.trigger_ms,
            c.duration_ms,
            c.checkpointed_size,
            c.persisted_bytes
        ),
        (2, 0, 52, 4417, 2016)
    );
    assert_eq!((c.acknowledged, c.subtask_count, c.unaligned), (2, 2, true));
}

#[test]
fn merging_keeps_the_subtasks_and_figures_a_newer_document_lacks() {
    let mut h = history(&fixture("details-2.x.json"));
    h.add_vertex(subtasks(&fixture("subtasks-2.x.json")));
    let before = h.checkpoints[0].clone();
    // The checkpoint list of the same job later: checkpoint 2 without subtasks or figures,
    // and a newer checkpoint 3.
    let mut entry = fixture_value("details-2.x.json");
    entry["tasks"] = json!({});
    entry["checkpoint_type"] = json!("CHECKPOINT");
    let mut third = entry.clone();
    third["id"] = json!(3);
    let list = history(&json!({"history": [third, entry]}).to_string());
    h.merge(list);
    let ids: Vec<u64> = h.checkpoints.iter().map(|c| c.id).collect();
    assert_eq!(ids, [2, 3]);
    let two = &h.checkpoints[0];
    assert_eq!(
        (&two.subtasks, &two.tasks),
        (&before.subtasks, &before.tasks)
    );
    // The newer entry's own figures replace the older's.
    assert!(before.unaligned && !two.unaligned);
    assert_eq!(h.source, HistorySource::Flink { version: None });
    // A newer document that says the version: it is known from then on.
    let Ok(FlinkImport::Bundle(b)) = import_flink_json(&fixture("bundle-2.x.json")) else {
        panic!("expected a bundle");
    };
    h.merge(b.history);
    assert_eq!(
        h.source,
        HistorySource::Flink {
            version: Some("2.1.0".into())
        }
    );
    let ids: Vec<u64> = h.checkpoints.iter().map(|c| c.id).collect();
    assert_eq!(ids, [1, 2, 3]);
    // The bundle's checkpoint 2 has subtasks of its own: they replace the pasted vertex's.
    assert!(h.checkpoints[1]
        .subtasks
        .iter()
        .all(|s| s.task != "Vertex b1e531cb"));
    assert_eq!(h.checkpoints[1].tasks, before.tasks);
}

#[test]
fn a_checkpoint_configuration_sets_the_scenarios_mode_and_interval() {
    let flink = config(&fixture("checkpoint-config-2.x.json"));
    let base = presets::by_name("wordcount").unwrap();
    let mut s = base.clone();
    assert_eq!(flink.apply(&mut s), Vec::<String>::new());
    assert_eq!(
        (
            s.config.mode,
            s.config.checkpoint_interval,
            s.config.timeout
        ),
        (BarrierMode::Unaligned, Some(90), 10_000)
    );
    assert_eq!(
        (
            s.config.max_concurrent_checkpoints,
            s.config.min_pause,
            s.config.tolerable_failed_checkpoints,
            s.config.finished_channels_align,
            s.config.aligned_checkpoint_timeout,
        ),
        (1, 0, Some(0), true, None)
    );
    s.validate().unwrap();
    // Aligned, unaligned after a timeout; at-least-once; aligned; periodic checkpoints off.
    let cases = [
        (true, true, 40, BarrierMode::Aligned, Some(40)),
        (false, false, 0, BarrierMode::AtLeastOnce, None),
        (true, false, 0, BarrierMode::Aligned, None),
    ];
    for (exactly_once, unaligned, aligned_timeout_ms, mode, timeout) in cases {
        let mut s = base.clone();
        let c = CheckpointConfig {
            exactly_once,
            unaligned,
            aligned_timeout_ms,
            interval_ms: None,
            ..flink.clone()
        };
        assert!(c.apply(&mut s).is_empty());
        assert_eq!(
            (s.config.mode, s.config.aligned_checkpoint_timeout),
            (mode, timeout)
        );
        assert_eq!(s.config.checkpoint_interval, None);
    }
    // What the scenario would not run with keeps the scenario's value, and says why.
    let mut s = base.clone();
    let bad = CheckpointConfig {
        interval_ms: Some(0),
        timeout_ms: 0,
        max_concurrent: 3,
        ..flink.clone()
    };
    let said = bad.apply(&mut s);
    assert_eq!(
        said,
        [
            format!(
                "Kept the scenario's checkpoint interval ({} ms), not Flink's (0 ms): \
                 checkpoint_interval is 0; it must be at least 1 (or null, to trigger \
                 checkpoints only by hand).",
                base.config.checkpoint_interval.unwrap()
            ),
            format!(
                "Kept the scenario's checkpoint timeout ({} ms), not Flink's (0 ms): timeout \
                 is 0; it must be at least 1.",
                base.config.timeout
            ),
            "Kept the scenario's number of concurrent checkpoints (1), not Flink's (3): Flink \
             refuses to start this job: max_concurrent_checkpoints is 3, but with unaligned \
             checkpoints on (the unaligned mode, or aligned with a timeout) at most 1 may run at \
             once (“maxConcurrentCheckpoints can't be > 1 if UnalignedCheckpoints enabled”); \
             set it to 1."
                .to_string(),
        ]
    );
    // The rest is Flink's: unaligned, one checkpoint at a time.
    assert_eq!(
        (
            s.config.mode,
            s.config.checkpoint_interval,
            s.config.timeout,
            s.config.max_concurrent_checkpoints
        ),
        (
            BarrierMode::Unaligned,
            base.config.checkpoint_interval,
            base.config.timeout,
            1
        )
    );
    s.validate().unwrap();
}

#[test]
fn an_unrecognised_document_is_told_what_to_paste() {
    let e = import_flink_json(r#"{"jobs": [], "foo": 1}"#).unwrap_err();
    let said = e.to_string();
    for path in [
        "`/jobs/<id>/plan`",
        "`/jobs/<id>/checkpoints`",
        "`/jobs/<id>/checkpoints/details/<cid>`",
        "`/jobs/<id>/checkpoints/details/<cid>/subtasks/<vertex id>`",
        "`/jobs/<id>/checkpoints/config`",
        "`/jobs/<id>/exceptions`",
        "`/jobs/<id>/vertices/<vertex id>`",
        "`/config`",
        "`abs-sim flink run`",
    ] {
        assert!(said.contains(path), "{said} lacks {path}");
    }
    assert!(said.ends_with("; its fields are `jobs`, `foo`"), "{said}");
    let e = import_flink_json("[1]").unwrap_err();
    assert!(e.to_string().contains("flink's REST API"), "{e}");
}

#[test]
fn a_wrong_type_in_each_new_document_names_its_path() {
    type Edit = fn(&mut Value);
    let cases: [(&str, Edit, &str, &str); 9] = [
        (
            "subtasks-2.x.json",
            |v| v["subtasks"][1]["index"] = json!("1"),
            "subtasks[1].index",
            "a whole number",
        ),
        (
            "subtasks-2.x.json",
            |v| v["subtasks"] = json!({}),
            "subtasks",
            "an array",
        ),
        (
            "subtasks-2.x.json",
            |v| v["latest_ack_timestamp"] = json!(1.5),
            "latest_ack_timestamp",
            "a whole number",
        ),
        (
            "checkpoint-config-2.x.json",
            |v| v["interval"] = json!("90"),
            "interval",
            "a whole number",
        ),
        (
            "checkpoint-config-2.x.json",
            |v| v["mode"] = json!("twice"),
            "mode",
            "\"exactly_once\" or \"at_least_once\"",
        ),
        (
            "checkpoint-config-2.x.json",
            |v| v["unaligned_checkpoints"] = json!(1),
            "unaligned_checkpoints",
            "a boolean",
        ),
        (
            "exceptions-2.x.json",
            |v| v["exceptionHistory"]["entries"][0]["timestamp"] = json!("now"),
            "exceptionHistory.entries[0].timestamp",
            "a whole number",
        ),
        (
            "vertex-2.x.json",
            |v| v["subtasks"][1]["attempt"] = json!(true),
            "subtasks[1].attempt",
            "a whole number",
        ),
        (
            "config-2.x.json",
            |v| v["flink-version"] = json!(2),
            "flink-version",
            "a string",
        ),
    ];
    for (name, edit, at, wanted) in cases {
        let mut v = fixture_value(name);
        edit(&mut v);
        match import_flink_json(&v.to_string()) {
            Err(ImportError::WrongType { path, expected, .. }) => {
                assert_eq!((&path[..], expected), (at, wanted), "{name}")
            }
            other => panic!("{name}, {at}: {other:?}"),
        }
    }
    // A vertex without a name, a field of the wrong kind in old exceptions: refused, no panic.
    let mut v = fixture_value("vertex-2.x.json");
    v.as_object_mut().unwrap().remove("name");
    assert!(matches!(
        import_flink_json(&v.to_string()),
        Err(ImportError::Missing { .. })
    ));
    let old = json!({"root-exception": "E", "all-exceptions": [{"exception": 3}]});
    assert!(matches!(
        import_flink_json(&old.to_string()),
        Err(ImportError::WrongType { path, .. }) if path == "all-exceptions[0].exception"
    ));
}
