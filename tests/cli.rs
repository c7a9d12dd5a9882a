//! `abs-sim` as a user runs it: the built binary, its exit statuses and its output.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::time::{Duration, Instant};

use abs_playground::engine::BarrierMode;
use abs_playground::scenario::{presets, Scenario};
use serde_json::Value;

mod common;
use common::{abs_sim, text};

/// A file under the test's scratch directory.
fn scratch(name: &str) -> PathBuf {
    common::scratch("cli", name)
}

/// Waits at most `limit` for `child`; kills it and fails if it is still running.
fn wait_at_most(child: &mut Child, limit: Duration, what: &str) -> ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} still running after {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn summary(stdout: &str) -> Value {
    let last = stdout.lines().last().expect("no output");
    let line: Value = serde_json::from_str(last).unwrap();
    line["summary"].clone()
}

#[test]
fn help_prints_each_commands_usage_with_every_flag() {
    let cases: &[(&[&str], &[&str])] = &[
        (
            &[],
            &[
                "abs-sim run",
                "abs-sim gate",
                "abs-sim bench",
                "abs-sim preset",
                "abs-sim explore",
            ],
        ),
        (
            &["run"],
            &[
                "usage: abs-sim run",
                "--preset",
                "FILE.json",
                "--mode",
                "--seed",
                "--steps",
                "--until-finished",
                "--replay",
                "--help",
            ],
        ),
        (
            &["gate"],
            &[
                "usage: abs-sim gate",
                "--mode",
                "--channels",
                "--finished-channels-align",
                "--help",
            ],
        ),
        (&["bench"], &["usage: abs-sim bench", "--quick", "--help"]),
        (&["preset"], &["usage: abs-sim preset", "NAME", "--help"]),
        (
            &["explore"],
            &[
                "usage: abs-sim explore",
                "--preset",
                "--mode",
                "--non-fifo",
                "--max-states",
                "--snapshots",
                "--help",
            ],
        ),
    ];
    for (command, expected) in cases {
        for flag in ["--help", "-h"] {
            let mut args = command.to_vec();
            args.push(flag);
            let out = abs_sim(&args);
            let stdout = text(&out.stdout);
            assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
            assert!(out.stderr.is_empty(), "{args:?}: {out:?}");
            for e in *expected {
                assert!(
                    stdout.contains(e),
                    "{args:?} does not mention {e}:\n{stdout}"
                );
            }
        }
    }
    // Help wins over other arguments, and `help` is a command.
    let out = abs_sim(&["run", "--preset", "alignment", "--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).starts_with("usage: abs-sim run"));
    let out = abs_sim(&["help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(text(&out.stdout).contains("abs-sim preset"));
}

#[test]
fn no_command_or_an_unknown_one_is_a_usage_error() {
    for args in [&[][..], &["walk"]] {
        let out = abs_sim(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        assert!(text(&out.stderr).contains("abs-sim run"), "{args:?}");
    }
    assert!(text(&abs_sim(&["walk"]).stderr).contains("walk"));
}

/// The reader goes away after 100 bytes (`| head -c 100`): a quiet exit with status 0, not a
/// panic or a signal. The run is far too long to finish (and to hold in memory), so the first
/// bytes arriving at once also show that lines are written as the steps run.
#[test]
fn run_exits_cleanly_when_the_pipe_closes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_abs-sim"))
        .args(["run", "--preset", "large", "--steps", "100000000"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let (sent, received) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut first = [0u8; 100];
        let read = stdout.read_exact(&mut first).map(|()| first);
        let _ = sent.send(read);
        // The pipe closes here, when the reader thread ends.
    });
    let first = match received.recv_timeout(Duration::from_secs(10)) {
        Ok(read) => read.unwrap(),
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            panic!("no output within 10 s: the trace is not written as the steps run");
        }
    };
    reader.join().unwrap();
    assert!(first.starts_with(b"{\"action\""));
    let status = wait_at_most(&mut child, Duration::from_secs(60), "abs-sim run");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    assert!(status.success(), "{status:?}: {stderr}");
    assert_eq!(status.code(), Some(0));
    assert!(stderr.is_empty(), "{stderr}");
}

#[test]
fn gate_exits_cleanly_when_the_pipe_closes() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_abs-sim"))
        .args(["gate", "--mode", "aligned", "--channels", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The reader is gone before the gate writes anything.
    drop(child.stdout.take());
    let mut stdin = child.stdin.take().unwrap();
    for i in 0..20_000 {
        writeln!(stdin, r#"{{"ch":0,"record":"r{i}"}}"#).unwrap();
    }
    drop(stdin);
    let status = wait_at_most(&mut child, Duration::from_secs(60), "abs-sim gate");
    assert_eq!(status.code(), Some(0), "{status:?}");
}

#[test]
fn bench_refuses_an_unknown_flag() {
    for (args, named) in [
        (&["bench", "--fast"][..], "--fast"),
        (&["bench", "--quick", "-q"], "-q"),
        (&["bench", "quick"], "quick"),
    ] {
        let out = abs_sim(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(text(&out.stderr).contains(named), "{args:?}: {out:?}");
    }
}

/// The quick bench's timed windows are a steady state (else it exits with 1 and says why):
/// bounded queues and completed checkpoints at 8, 64 and 512 tasks and at 1,024 tasks with
/// 131,072 channels between them. Only the exit status
/// and the facts are checked, never the timings.
#[test]
fn bench_quick_times_a_steady_state() {
    let out = abs_sim(&["bench", "--quick"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let stdout = text(&out.stdout);
    for expected in [
        "## Throughput",
        "checkpoints completed",
        "| 512 | 16640 |",
        "| 1024 | 131328 |",
        "## History",
        "bytes/event",
        "seek from step 0",
    ] {
        assert!(stdout.contains(expected), "{expected:?} in {stdout}");
    }
}

#[test]
fn preset_lists_the_presets_with_their_titles() {
    let out = abs_sim(&["preset"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.lines().count(), presets::NAMES.len());
    for (line, scenario) in stdout.lines().zip(presets::all()) {
        assert!(line.starts_with(&scenario.name), "{line}");
        assert!(line.ends_with(&scenario.title), "{line}");
    }
}

#[test]
fn an_unknown_preset_is_an_error_listing_the_names() {
    for args in [&["preset", "nope"][..], &["run", "--preset", "nope"]] {
        let out = abs_sim(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty());
        let stderr = text(&out.stderr);
        assert!(stderr.contains("\"nope\""), "{stderr}");
        for name in presets::NAMES {
            assert!(stderr.contains(name), "{stderr}");
        }
    }
    assert_eq!(
        abs_sim(&["preset", "alignment", "wordcount"]).status.code(),
        Some(2)
    );
}

/// `abs-sim preset NAME` is a scenario file that runs exactly as the preset.
#[test]
fn a_printed_preset_parses_back_and_runs_identically() {
    for name in presets::NAMES {
        let out = abs_sim(&["preset", name]);
        assert_eq!(out.status.code(), Some(0), "{name}");
        let json = text(&out.stdout);
        assert!(json.starts_with("{\n  \""), "not pretty: {name}");
        assert_eq!(
            Scenario::from_json(json).unwrap(),
            presets::by_name(name).unwrap()
        );
        let file = scratch(&format!("{name}.json"));
        std::fs::write(&file, json).unwrap();
        let file = file.to_str().unwrap();
        // Another mode that applies: the Chandy-Lamport systems have no other, and Flink
        // refuses unaligned checkpoints in a preset that runs several at once.
        let preset = presets::by_name(name).unwrap();
        let other = match preset.config.mode {
            BarrierMode::ChandyLamport => "chandy-lamport",
            _ if preset.modes().contains(&BarrierMode::Unaligned) => "unaligned",
            _ => "at-least-once",
        };
        for extra in [&[][..], &["--mode", other, "--seed", "9"]] {
            let mut from_file = vec!["run", file, "--steps", "400"];
            from_file.extend_from_slice(extra);
            let mut from_preset = vec!["run", "--preset", name, "--steps", "400"];
            from_preset.extend_from_slice(extra);
            let a = abs_sim(&from_file);
            let b = abs_sim(&from_preset);
            assert_eq!(a.status.code(), Some(0), "{name}: {a:?}");
            assert_eq!(b.status.code(), Some(0), "{name}: {b:?}");
            // 400 steps and the summary — fewer for a bounded preset that finishes first.
            let lines = text(&a.stdout).lines().count();
            if matches!(*name, "iteration" | "recovery") {
                assert!((50..401).contains(&lines), "{name}: {lines} lines");
            } else {
                assert_eq!(lines, 401, "{name}");
            }
            assert!(a.stdout == b.stdout, "{name} {extra:?}: the traces differ");
        }
    }
}

/// The word-count preset with bounded sources, as a file.
fn bounded_wordcount() -> PathBuf {
    let mut scenario = presets::wordcount();
    for op in &mut scenario.graph.operators {
        if let abs_playground::engine::OperatorKind::Source { bounded, .. } = &mut op.kind {
            *bounded = true;
        }
    }
    let file = scratch("bounded-wordcount.json");
    std::fs::write(&file, scenario.to_json()).unwrap();
    file
}

#[test]
fn run_until_finished_stops_when_the_job_has_finished() {
    let file = bounded_wordcount();
    for mode in ["aligned", "at-least-once", "unaligned"] {
        let out = abs_sim(&[
            "run",
            file.to_str().unwrap(),
            "--mode",
            mode,
            "--seed",
            "3",
            "--until-finished",
        ]);
        assert_eq!(out.status.code(), Some(0), "{mode}: {out:?}");
        let stdout = text(&out.stdout);
        let summary = summary(stdout);
        assert_eq!(summary["finished"], true, "{mode}");
        let steps = summary["steps"].as_u64().unwrap();
        // One line per step, then the summary; the job finished on the last step only.
        assert_eq!(stdout.lines().count() as u64, steps + 1, "{mode}");
        assert!(steps > 20, "{mode}: {steps}");
        let shorter = abs_sim(&[
            "run",
            file.to_str().unwrap(),
            "--mode",
            mode,
            "--seed",
            "3",
            "--steps",
            &(steps - 1).to_string(),
        ]);
        assert_eq!(shorter.status.code(), Some(0));
        assert_eq!(summary_of(&shorter)["finished"], false, "{mode}");
    }
}

fn summary_of(out: &Output) -> Value {
    summary(text(&out.stdout))
}

#[test]
fn run_until_finished_fails_at_the_step_limit_after_the_trace() {
    let file = bounded_wordcount();
    let out = abs_sim(&[
        "run",
        file.to_str().unwrap(),
        "--until-finished",
        "--steps",
        "17",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert_eq!(text(&out.stdout).lines().count(), 18);
    assert_eq!(summary_of(&out)["finished"], false);
    assert_eq!(summary_of(&out)["steps"], 17);
    assert!(text(&out.stderr).contains("17"), "{out:?}");

    // An unbounded job never finishes.
    let out = abs_sim(&[
        "run",
        "--preset",
        "alignment",
        "--until-finished",
        "--steps",
        "3000",
    ]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    assert!(text(&out.stderr).contains("3000"), "{out:?}");
    assert_eq!(summary_of(&out)["finished"], false);
}

#[test]
fn the_summary_always_says_whether_the_job_finished() {
    let out = abs_sim(&["run", "--preset", "alignment", "--steps", "20"]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout).lines().count(), 21);
    assert_eq!(summary_of(&out)["finished"], false);
}

#[test]
fn run_refuses_bad_arguments() {
    for (args, named) in [
        (&["run"][..], "--preset"),
        (&["run", "--preset", "alignment", "--fast"], "--fast"),
        (&["run", "--preset", "alignment", "--steps", "many"], "many"),
        (
            &["run", "--preset", "alignment", "--mode", "exact"],
            "exact",
        ),
        (
            &["run", "--preset", "alignment", "--preset", "wordcount"],
            "one scenario",
        ),
        (&["run", "no-such-file.json"], "no-such-file.json"),
    ] {
        let out = abs_sim(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert!(text(&out.stderr).contains(named), "{args:?}: {out:?}");
    }
}

#[test]
fn run_refuses_a_scenario_file_with_an_unknown_field() {
    let json = presets::alignment()
        .to_json()
        .replacen("\"seed\"", "\"sed\": 1,\n  \"seed\"", 1);
    let file = scratch("misspelt.json");
    std::fs::write(&file, json).unwrap();
    let out = abs_sim(&["run", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("unknown field `sed`") && stderr.contains("line"),
        "{stderr}"
    );
}

/// `abs-sim run`'s summary gives each checkpoint's kind and, once completed, every subtask's
/// statistics under Flink's REST names.
#[test]
fn the_run_summary_gives_each_subtasks_flink_statistics() {
    let out = abs_sim(&[
        "run",
        "--preset",
        "alignment",
        "--mode",
        "unaligned",
        "--steps",
        "200",
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let last = text(&out.stdout).lines().last().unwrap().to_string();
    let summary: serde_json::Value = serde_json::from_str(&last).unwrap();
    let checkpoints = summary["summary"]["checkpoints"].as_array().unwrap();
    assert!(checkpoints.iter().all(|c| c["kind"] == "checkpoint"));
    let completed: Vec<_> = checkpoints
        .iter()
        .filter(|c| c["status"]["status"] == "completed")
        .collect();
    assert!(!completed.is_empty());
    for c in completed {
        let subtasks = c["subtasks"].as_object().unwrap();
        let names: Vec<&str> = subtasks.keys().map(String::as_str).collect();
        assert_eq!(names, ["Merge#0", "Sink#0", "Src A#0", "Src B#0"], "{c}");
        for (name, s) in subtasks {
            let mut keys: Vec<&str> = s.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                [
                    "alignment_duration",
                    "async_duration",
                    "checkpointed_size",
                    "persisted_data",
                    "processed_data",
                    "start_delay",
                    "sync_duration",
                    "unaligned_checkpoint"
                ],
                "{name}"
            );
        }
        assert_eq!(subtasks["Sink#0"]["unaligned_checkpoint"], false, "{c}");
        assert_eq!(subtasks["Merge#0"]["unaligned_checkpoint"], true, "{c}");
    }
}
