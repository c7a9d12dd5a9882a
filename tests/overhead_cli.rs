//! `abs-sim overhead` (issue 27): the runtime overhead of checkpoints per mode and interval, as
//! the ABS paper measured it — the JSON line's shape, what the figures show (on a balanced job
//! asynchronous snapshots cost nothing; under backpressure aligned checkpoints cost time, more
//! the more often they are taken, and unaligned ones do not), bad input refused.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;

mod common;
use common::{abs_sim, text};

const INTERVALS: [&str; 6] = ["10", "20", "50", "100", "200", "500"];

/// `abs-sim overhead ARGS`: mode → interval → overhead %, and stderr.
fn overhead(args: &[&str]) -> (Value, String) {
    let mut all = vec!["overhead"];
    all.extend_from_slice(args);
    let out = abs_sim(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    (
        serde_json::from_str(stdout.trim()).unwrap(),
        text(&out.stderr).to_string(),
    )
}

fn cell(v: &Value, mode: &str, interval: &str) -> f64 {
    v[mode][interval]
        .as_f64()
        .unwrap_or_else(|| panic!("{mode} {interval}: {v}"))
}

#[test]
fn the_line_maps_each_mode_to_each_interval_in_the_order_given() {
    let args = [
        "overhead",
        "--preset",
        "backpressure",
        "--intervals",
        "500,10,100",
        "--modes",
        "unaligned,aligned",
    ];
    let out = abs_sim(&args);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let line = text(&out.stdout).trim();
    let v: Value = serde_json::from_str(line).unwrap();
    assert_eq!(v.as_object().unwrap().len(), 2);
    // As written: the modes and, within each, the intervals in the order asked for.
    let at = |s: &str| line.find(s).unwrap_or_else(|| panic!("{s} in {line}"));
    assert!(at("\"unaligned\"") < at("\"aligned\""), "{line}");
    let unaligned = &line[at("\"unaligned\"")..at("\"aligned\"")];
    let p = |s: &str| unaligned.find(s).unwrap();
    assert!(
        p("\"500\"") < p("\"10\"") && p("\"10\"") < p("\"100\""),
        "{line}"
    );
    for mode in ["aligned", "unaligned"] {
        for i in ["10", "100", "500"] {
            cell(&v, mode, i);
        }
    }
    let stderr = text(&out.stderr);
    assert!(stderr.contains("runtime overhead"), "{stderr}");
    assert!(stderr.contains("none"), "{stderr}");
}

#[test]
fn under_backpressure_aligned_checkpoints_cost_time_the_more_the_oftener_and_unaligned_do_not() {
    let (v, _) = overhead(&[
        "--preset",
        "backpressure",
        "--intervals",
        &INTERVALS.join(","),
    ]);
    assert!(cell(&v, "aligned", "10") > 10.0, "{v}");
    assert!(
        cell(&v, "aligned", "10") > cell(&v, "aligned", "500") + 10.0,
        "{v}"
    );
    for i in INTERVALS {
        assert!(cell(&v, "unaligned", i).abs() < 1.0, "{v}");
        assert!(cell(&v, "at-least-once", i).abs() < 1.0, "{v}");
        assert!(cell(&v, "aligned", i) >= cell(&v, "unaligned", i), "{v}");
    }
}

#[test]
fn on_a_balanced_job_asynchronous_snapshots_cost_nothing() {
    let (v, _) = overhead(&["--preset", "wordcount", "--intervals", "10,100,500"]);
    for mode in ["aligned", "unaligned", "at-least-once"] {
        for i in ["10", "100", "500"] {
            assert!(cell(&v, mode, i).abs() < 1.0, "{mode} {i}: {v}");
        }
    }
}

/// The ABS paper's figure: the synchronous scheme's overhead grows steeply as the interval
/// shrinks (each checkpoint stops the job for a whole drain), asynchronous snapshots stay flat.
#[test]
fn stopping_the_world_costs_more_the_oftener_it_checkpoints() {
    for preset in ["wordcount", "backpressure"] {
        let (v, _) = overhead(&[
            "--preset",
            preset,
            "--intervals",
            &INTERVALS.join(","),
            "--modes",
            "synchronous,unaligned",
        ]);
        let sync: Vec<f64> = INTERVALS
            .iter()
            .map(|i| cell(&v, "synchronous", i))
            .collect();
        for w in sync.windows(2) {
            assert!(
                w[0] > w[1],
                "{preset}: not falling with the interval: {sync:?}"
            );
        }
        assert!(sync[0] > 50.0, "{preset}: {sync:?}");
        assert!(*sync.last().unwrap() > 0.0, "{preset}: {sync:?}");
        for i in INTERVALS {
            assert!(
                cell(&v, "synchronous", i) > cell(&v, "unaligned", i) + 1.0,
                "{preset} {i}: {v}"
            );
        }
    }
}

#[test]
fn bad_input_is_refused_with_a_sentence() {
    let cases: [(&[&str], &str); 5] = [
        (&["--preset", "wordcount"], "name the intervals"),
        (
            &["--preset", "wordcount", "--intervals", "0,10"],
            "whole numbers of at least 1",
        ),
        (
            &["--preset", "token", "--intervals", "10"],
            "no source to bound",
        ),
        (
            &[
                "--preset",
                "wordcount",
                "--intervals",
                "10",
                "--modes",
                "sideways",
            ],
            "the modes are",
        ),
        (
            &["--preset", "wordcount", "--intervals", "10", "--lines", "0"],
            "--lines needs a number",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["overhead"];
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
