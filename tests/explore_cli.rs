//! `abs-sim explore` and `abs-sim run --replay` as a user runs them: the JSON line's fields,
//! a counterexample played back to its inconsistent verdict, and bad input refused.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::Value;

mod common;
use common::{abs_sim, text};

const FIELDS: [&str; 6] = [
    "states",
    "transitions",
    "snapshots",
    "violations",
    "complete",
    "counterexample",
];

/// Runs `abs-sim explore ARGS`: the JSON line, and stderr.
fn explore(args: &[&str]) -> (Value, String) {
    let mut all = vec!["explore"];
    all.extend_from_slice(args);
    let out = abs_sim(&all);
    assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), 1, "{stdout}");
    let line: Value = serde_json::from_str(stdout.trim()).unwrap();
    // The fields, in the order the contract writes them.
    let keys: Vec<usize> = FIELDS
        .iter()
        .map(|f| stdout.find(&format!("\"{f}\"")).unwrap())
        .collect();
    assert!(keys.windows(2).all(|w| w[0] < w[1]), "{stdout}");
    (line, text(&out.stderr).to_string())
}

#[test]
fn fifo_token_is_consistent_in_every_interleaving() {
    let (line, stderr) = explore(&["--preset", "token"]);
    assert_eq!(line["violations"], 0);
    assert_eq!(line["complete"], true);
    assert_eq!(line["counterexample"], Value::Array(vec![]));
    assert!(line["snapshots"].as_u64().unwrap() > 100);
    assert!(line["transitions"].as_u64() > line["states"].as_u64());
    // Progress and the closing figures go to stderr.
    assert!(
        stderr.contains("explore: ") && stderr.contains("complete in"),
        "{stderr}"
    );
}

#[test]
fn a_counterexample_replays_to_its_inconsistent_verdict() {
    let cases: [&[&str]; 2] = [
        &["--preset", "alignment-tiny", "--mode", "at-least-once"],
        &[
            "--preset",
            "bank-tiny",
            "--non-fifo",
            "--max-states",
            "5000",
        ],
    ];
    for args in cases {
        let (line, _) = explore(args);
        assert!(line["violations"].as_u64().unwrap() > 0, "{args:?}");
        let moves = line["counterexample"].as_array().unwrap().clone();
        assert!(!moves.is_empty());
        let file = common::scratch("explore_cli", "counterexample.json");
        std::fs::write(&file, serde_json::to_string(&moves).unwrap()).unwrap();
        let mut run = vec!["run", args[0], args[1]];
        run.extend(
            args[2..]
                .iter()
                .filter(|a| **a != "--max-states" && **a != "5000"),
        );
        run.extend(["--replay", file.to_str().unwrap()]);
        let out = abs_sim(&run);
        assert_eq!(out.status.code(), Some(0), "{run:?}: {out:?}");
        let stdout = text(&out.stdout);
        let lines: Vec<&str> = stdout.lines().collect();
        // One line per move, then the summary.
        assert_eq!(lines.len(), moves.len() + 1, "{stdout}");
        for (l, m) in lines.iter().zip(&moves) {
            let step: Value = serde_json::from_str(l).unwrap();
            assert_eq!(&step["action"], m);
        }
        let last: Value = serde_json::from_str(lines[moves.len() - 1]).unwrap();
        let completed = last["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"] == "checkpoint-completed")
            .expect("the last move completes a snapshot");
        assert_eq!(completed["consistent"], false, "{last}");
        let summary: Value = serde_json::from_str(lines[moves.len()]).unwrap();
        let verdicts: Vec<&Value> = summary["summary"]["checkpoints"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| &c["verdict"])
            .collect();
        assert!(
            verdicts.iter().any(|v| v.get("inconsistent").is_some()),
            "{summary}"
        );
        // The whole explore line is a replay file too.
        std::fs::write(&file, line.to_string()).unwrap();
        assert_eq!(text(&abs_sim(&run).stdout), stdout);
    }
}

#[test]
fn the_search_stops_at_max_states_and_says_so() {
    let (line, stderr) = explore(&["--preset", "alignment-tiny", "--max-states", "50"]);
    assert_eq!(line["complete"], false);
    assert_eq!(line["states"], 50);
    assert!(stderr.contains("stopped at --max-states"), "{stderr}");
}

#[test]
fn bad_arguments_and_replay_files_are_refused_with_a_sentence() {
    let bad = common::scratch("explore_cli", "bad.json");
    std::fs::write(&bad, r#"[{"action": "deliver", "channel": 9}]"#).unwrap();
    let not_moves = common::scratch("explore_cli", "not-moves.json");
    std::fs::write(&not_moves, r#"{"states": 3}"#).unwrap();
    let bad_path = bad.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["explore"], "name a scenario"),
        (vec!["explore", "--preset", "token", "--fast"], "--fast"),
        (
            vec!["explore", "--preset", "token", "--max-states", "x"],
            "--max-states needs a number",
        ),
        (
            vec!["explore", "--preset", "token", "--mode", "exact"],
            "exact",
        ),
        (vec!["explore", "--preset", "nope"], "nope"),
        (
            vec!["explore", "--preset", "token", "--mode", "aligned"],
            "no source",
        ),
        (
            vec!["run", "--preset", "token", "--replay", "missing.json"],
            "cannot read missing.json",
        ),
        (
            vec![
                "run",
                "--preset",
                "token",
                "--replay",
                not_moves.to_str().unwrap(),
            ],
            "a list of moves",
        ),
        (
            vec![
                "run", "--preset", "token", "--replay", bad_path, "--steps", "3",
            ],
            "--replay plays its moves",
        ),
        (
            vec!["run", "--preset", "token", "--replay", bad_path],
            "move 1",
        ),
    ];
    for (args, says) in cases {
        let out = abs_sim(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {out:?}");
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}
