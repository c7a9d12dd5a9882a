//! `abs-sim compare` (issue 27): the same scenario and seed in several modes, what each costs,
//! as one JSON line — its fields in the contract's order, the seed's economics visible in the
//! figures (blocking costs throughput and latency under backpressure; unaligned checkpoints
//! carry in-flight data; at-least-once counts records twice after a failure), bad input refused.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;

mod common;
use abs_playground::engine::view::{measure, percentile, Cost};
use abs_playground::scenario::presets;
use common::{abs_sim, text};

const FIELDS: [&str; 8] = [
    "mode",
    "throughput",
    "latency_p50",
    "latency_p99",
    "checkpoints_completed",
    "checkpoint_duration_p50",
    "checkpoint_size_p50",
    "duplicates",
];

/// `abs-sim compare ARGS`: each mode's figures, by mode name, in the order given.
fn compare(args: &[&str]) -> Vec<(String, Value)> {
    let mut all = vec!["compare"];
    all.extend_from_slice(args);
    let out = abs_sim(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let line: Value = serde_json::from_str(stdout.trim()).unwrap();
    let modes = line["modes"].as_array().unwrap();
    for (i, _) in modes.iter().enumerate() {
        // Each object's fields in the contract's order.
        let object = stdout.split("{\"mode\"").nth(i + 1).unwrap();
        let at: Vec<usize> = FIELDS
            .iter()
            .skip(1)
            .map(|f| object.find(&format!("\"{f}\"")).unwrap())
            .collect();
        assert!(at.windows(2).all(|w| w[0] < w[1]), "{stdout}");
    }
    assert!(
        text(&out.stderr).contains("records/t"),
        "the table on stderr"
    );
    modes
        .iter()
        .map(|m| (m["mode"].as_str().unwrap().to_string(), m.clone()))
        .collect()
}

fn f(v: &Value, field: &str) -> f64 {
    v[field].as_f64().unwrap()
}

#[test]
fn under_backpressure_blocking_costs_throughput_and_latency_and_unaligned_carries_in_flight_data() {
    let rows = compare(&[
        "--preset",
        "backpressure",
        "--modes",
        "aligned,unaligned,at-least-once",
        "--steps",
        "20000",
    ]);
    let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["aligned", "unaligned", "at-least-once"]);
    let (aligned, unaligned, alo) = (&rows[0].1, &rows[1].1, &rows[2].1);
    for (_, m) in &rows {
        assert!(f(m, "checkpoints_completed") >= 10.0, "{m}");
        assert!(f(m, "throughput") > 0.0, "{m}");
    }
    // Aligned checkpoints block the fast input while the slow one catches up.
    assert!(
        f(aligned, "throughput") < f(unaligned, "throughput"),
        "{rows:?}"
    );
    assert!(f(aligned, "throughput") < f(alo, "throughput"), "{rows:?}");
    assert!(
        f(aligned, "latency_p50") > 2.0 * f(unaligned, "latency_p50"),
        "{rows:?}"
    );
    // Unaligned persists the records its barriers overtake; the others hold task state only.
    assert!(
        f(unaligned, "checkpoint_size_p50") > f(aligned, "checkpoint_size_p50"),
        "{rows:?}"
    );
    assert_eq!(
        f(alo, "checkpoint_size_p50"),
        f(aligned, "checkpoint_size_p50")
    );
    for (_, m) in &rows {
        assert_eq!(m["duplicates"], 0, "no failure planned: {m}");
    }
}

/// Stop-the-world: every checkpoint waits for the slow channel to drain with the sources
/// stopped, so it costs more throughput than aligned blocking, and it holds task state only.
#[test]
fn stopping_the_world_costs_the_most_throughput_and_stores_no_channel_state() {
    let rows = compare(&[
        "--preset",
        "backpressure",
        "--modes",
        "aligned,unaligned,synchronous",
        "--steps",
        "20000",
    ]);
    let (aligned, unaligned, sync) = (&rows[0].1, &rows[1].1, &rows[2].1);
    assert_eq!(rows[2].0, "synchronous");
    assert!(f(sync, "checkpoints_completed") >= 10.0, "{sync}");
    assert!(f(sync, "throughput") < f(aligned, "throughput"), "{rows:?}");
    assert_eq!(
        f(sync, "checkpoint_size_p50"),
        f(aligned, "checkpoint_size_p50"),
        "{rows:?}"
    );
    assert!(
        f(unaligned, "checkpoint_size_p50") > f(sync, "checkpoint_size_p50"),
        "{rows:?}"
    );
    assert_eq!(sync["duplicates"], 0);
}

#[test]
fn after_a_failure_only_at_least_once_counts_records_twice() {
    let rows = compare(&[
        "--preset",
        "recovery",
        "--modes",
        "aligned,aligned-timeout,unaligned,at-least-once",
    ]);
    for (name, m) in &rows {
        if name == "at-least-once" {
            assert!(m["duplicates"].as_u64().unwrap() > 0, "{m}");
        } else {
            assert_eq!(m["duplicates"], 0, "{name} is exactly-once: {m}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_figures() {
    let args = [
        "--preset",
        "wordcount",
        "--modes",
        "aligned,unaligned",
        "--steps",
        "5000",
    ];
    assert_eq!(compare(&args), compare(&args));
}

#[test]
fn bad_input_is_refused_with_a_sentence() {
    let cases: [(&[&str], &str); 5] = [
        (
            &["--preset", "token", "--modes", "aligned"],
            "cannot run in mode aligned",
        ),
        (
            &["--preset", "wordcount", "--modes", "sideways"],
            "the modes are aligned, aligned-timeout",
        ),
        (&["--preset", "wordcount"], "name the modes"),
        (&["--modes", "aligned"], "name a scenario"),
        (
            &[
                "--preset",
                "wordcount",
                "--modes",
                "aligned",
                "--steps",
                "x",
            ],
            "--steps needs a number",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["compare"];
        all.extend_from_slice(args);
        let out = abs_sim(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stdout).is_empty(), "{args:?}");
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// Every latency is at least the edges' latencies along the record's path (a sink record of
/// word count crosses three edges), and the percentiles are ranks of the samples.
#[test]
fn latency_is_measured_from_the_source_read_along_the_path() {
    let s = presets::wordcount();
    let least: u64 = s.graph.edges.iter().map(|e| e.latency).min().unwrap();
    let figures = measure(s.simulation().unwrap(), 5_000);
    assert!(figures.sink_records > 100);
    assert!(figures.latency_p50 >= 3 * least, "{figures:?}");
    assert!(figures.latency_p99 >= figures.latency_p50);
    // Observed step by step, the same figures.
    let mut sim = s.simulation().unwrap();
    let mut cost = Cost::new(&sim);
    for _ in 0..5_000 {
        sim.step();
        cost.observe(&sim);
    }
    assert_eq!(cost.figures(&sim), figures);
    let mut v = vec![5, 1, 4, 2, 3];
    assert_eq!(percentile(&mut v, 50), 3);
    assert_eq!(percentile(&mut v, 99), 5);
    assert_eq!(percentile(&mut v, 1), 1);
    assert_eq!(percentile(&mut [], 50), 0);
}

#[test]
fn the_debloated_lane_halves_the_aligned_duration_under_a_slow_sink_and_stores_nothing_in_flight() {
    let m = compare(&[
        "--preset",
        "slow-sink",
        "--modes",
        "aligned,aligned-debloat,unaligned",
        "--steps",
        "20000",
    ]);
    let names: Vec<&str> = m.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["aligned", "aligned-debloat", "unaligned"]);
    let (a, d, u) = (&m[0].1, &m[1].1, &m[2].1);
    let dur = |v| f(v, "checkpoint_duration_p50");
    assert!(2.0 * dur(d) <= dur(a), "{a} {d}");
    assert!(dur(d) - dur(u) < dur(a) - dur(d), "{a} {d} {u}");
    // No in-flight data: the size of aligned, far below unaligned's.
    assert_eq!(f(d, "checkpoint_size_p50"), f(a, "checkpoint_size_p50"));
    assert!(f(u, "checkpoint_size_p50") > 4.0 * f(d, "checkpoint_size_p50"));
    assert!(f(d, "throughput") >= 0.95 * f(a, "throughput"));
    // The lane is the scenario with `buffer_debloat` on: a file that sets it, compared as
    // plain aligned, gives the same figures.
    let mut s = presets::slow_sink();
    s.config.buffer_debloat = Some(abs_playground::engine::debloat::BufferDebloat {
        target: abs_playground::engine::debloat::DEFAULT_DEBLOAT_TARGET,
    });
    let dir = std::env::temp_dir().join(format!("abs-debloat-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("slow-sink-debloat.json");
    std::fs::write(&file, s.to_json()).unwrap();
    let from_file = compare(&[
        file.to_str().unwrap(),
        "--modes",
        "aligned-debloat,unaligned",
        "--steps",
        "20000",
    ]);
    let mut lane = from_file[0].1.clone();
    lane["mode"] = Value::from("aligned-debloat");
    assert_eq!(lane, *d);
}
