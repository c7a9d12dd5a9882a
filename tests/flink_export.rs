//! `abs-sim flink export` and `run` (issue 23): the generated job says what the scenario says
//! (parallelism, partitionings, checkpoint settings, planned failures), what Flink cannot
//! express is refused with a sentence, and — only when `ABS_FLINK_HOME` names Flink's jars —
//! a job really runs on a local Flink and ends with the simulation's counts.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

mod common;
use common::{abs_sim, text};

/// Exports with `args` into a fresh folder; the Java source, or the failed output.
fn export(name: &str, args: &[&str]) -> Result<String, Output> {
    let dir = common::scratch("flink-export", name);
    let _ = std::fs::remove_dir_all(&dir);
    let dir_text = dir.to_str().unwrap().to_string();
    let mut all = vec!["flink", "export"];
    all.extend_from_slice(args);
    all.extend_from_slice(&["--out", &dir_text]);
    let out = abs_sim(&all);
    if !out.status.success() {
        return Err(out);
    }
    for file in ["run.sh", "README.md", "log4j2.properties", "scenario.json"] {
        assert!(dir.join(file).is_file(), "{file} missing");
    }
    Ok(std::fs::read_to_string(dir.join("AbsJob.java")).unwrap())
}

fn ok(name: &str, args: &[&str]) -> String {
    export(name, args).unwrap_or_else(|out| panic!("{}", text(&out.stderr)))
}

fn setting(java: &str, key: &str) -> Option<String> {
    let needle = format!("conf.setString(\"{key}\", \"");
    let at = java.find(&needle)? + needle.len();
    Some(java[at..].split('"').next()?.to_string())
}

#[test]
fn a_scenario_with_chaining_keeps_flinks_chaining_on() {
    let dir = common::scratch("flink-export", "chaining-file");
    std::fs::create_dir_all(&dir).unwrap();
    let out = abs_sim(&["preset", "wordcount"]);
    let mut scenario: Value = serde_json::from_slice(&out.stdout).unwrap();
    scenario["config"]["chaining"] = Value::Bool(true);
    let file = dir.join("chained.json");
    std::fs::write(&file, scenario.to_string()).unwrap();
    let java = ok("chained", &[file.to_str().unwrap()]);
    assert!(!java.contains("disableOperatorChaining"));
    assert_eq!(
        setting(&java, "pipeline.operator-chaining.enabled").as_deref(),
        Some("true")
    );
}

#[test]
fn wordcount_keeps_its_topology_and_checkpoint_settings() {
    let java = ok("wc", &["--preset", "wordcount"]);
    // Each operator a task with its parallelism; each edge its partitioning.
    assert!(java.contains("env.disableOperatorChaining();"));
    assert_eq!(
        setting(&java, "pipeline.operator-chaining.enabled").as_deref(),
        Some("false")
    );
    assert!(java.contains(
        "env.addSource(new Source(0, 17), \"Sentences\", REC)\n                .setParallelism(2)"
    ));
    assert!(java.contains(
        "s0.forward()\n                .transform(\"Split\", REC, new Step(1, Step.SPLIT, 1,"
    ));
    assert!(java.contains(
        "s1.keyBy(WORD)\n                .transform(\"Count\", REC, new Step(2, Step.COUNT, 1,"
    ));
    assert!(java.contains("s2.rebalance()\n                .transform(\"Sink\", REC, new Step(3, Step.SINK, 1, 0, true,"));
    assert!(java.contains(".setParallelism(1).uid(\"op-3\")"));
    // Checkpoints every 90 ticks of 1 ms, aligned exactly-once, one at a time.
    assert_eq!(
        setting(&java, "execution.checkpointing.interval").as_deref(),
        Some("90 ms")
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.mode").as_deref(),
        Some("EXACTLY_ONCE")
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.unaligned.enabled").as_deref(),
        Some("false")
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.max-concurrent-checkpoints").as_deref(),
        Some("1")
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.timeout").as_deref(),
        Some("10000 ms")
    );
    assert_eq!(
        setting(
            &java,
            "execution.checkpointing.tolerable-failed-checkpoints"
        )
        .as_deref(),
        Some("0")
    );
    assert_eq!(
        setting(&java, "restart-strategy.type").as_deref(),
        Some("none")
    );
    // The unbounded source reads its 6 lines 11 times: 6 checkpoint intervals of reading.
    assert!(
        java.contains("static final long[] LOG = {66, 0, 0, 0};"),
        "{java}"
    );
    assert!(java.contains("static final long[][] FAILURES = {\n    };"));
    // Latencies: 8 ticks on each edge.
    assert!(java.contains("{0, 8, 0, 0},\n        {0, 0, 8, 0},\n        {0, 0, 0, 8},"));
}

#[test]
fn the_mode_and_the_tick_become_flink_settings() {
    let java = ok(
        "wc-unaligned",
        &["--preset", "wordcount", "--mode", "unaligned"],
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.unaligned.enabled").as_deref(),
        Some("true")
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.mode").as_deref(),
        Some("EXACTLY_ONCE")
    );
    let java = ok(
        "wc-alo",
        &["--preset", "wordcount", "--mode", "at-least-once"],
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.mode").as_deref(),
        Some("AT_LEAST_ONCE")
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.unaligned.enabled").as_deref(),
        Some("false")
    );
    let java = ok(
        "wc-timeout",
        &["--preset", "wordcount", "--mode", "aligned-timeout"],
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.aligned-checkpoint-timeout").as_deref(),
        Some("40 ms")
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.unaligned.enabled").as_deref(),
        Some("true")
    );
    // Concurrent checkpoints are kept, aligned; 2 ms per tick doubles every time.
    let java = ok(
        "concurrent",
        &[
            "--preset",
            "concurrent",
            "--tick-us",
            "2000",
            "--passes",
            "3",
        ],
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.max-concurrent-checkpoints").as_deref(),
        Some("3")
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.interval").as_deref(),
        Some("40 ms")
    );
    assert!(java.contains("TICK_MICROS = 2000;"));
    assert!(java.contains("static final long[] LOG = {18, 0, 0, 0};"));
}

#[test]
fn two_inputs_are_a_union_of_their_partitioned_streams() {
    let java = ok("bp", &["--preset", "backpressure"]);
    assert!(java.contains("s0.rebalance().union(s1.rebalance())\n                .transform(\"Merge\", REC, new Step(2, Step.UNION, 1,"));
    // Src B's slow channel: 160 ticks.
    assert!(java.contains("{0, 0, 160, 0},"), "{java}");
    assert_eq!(
        setting(&java, "execution.checkpointing.interval").as_deref(),
        Some("200 ms")
    );
}

#[test]
fn planned_failures_become_record_counts_in_an_attempt() {
    let java = ok("recovery", &["--preset", "recovery"]);
    // Count#1 at tick 120: in the first attempt, after the records the simulation says it took.
    let line = java
        .lines()
        .find(|l| l.contains("// Count#1 at tick 120"))
        .expect("the planned failure");
    let numbers: Vec<u64> = line
        .split(['{', '}', ','])
        .filter_map(|s| s.trim().parse().ok())
        .collect();
    assert_eq!(&numbers[..3], &[2, 1, 0], "{line}");
    assert!(numbers[3] > 0, "{line}");
    assert_eq!(
        setting(&java, "restart-strategy.type").as_deref(),
        Some("fixed-delay")
    );
    assert_eq!(
        setting(&java, "restart-strategy.fixed-delay.attempts").as_deref(),
        Some("1")
    );
    assert_eq!(
        setting(&java, "restart-strategy.fixed-delay.delay").as_deref(),
        Some("20 ms")
    );
    // A second, later failure from --fail is thrown in the second attempt.
    let java = ok(
        "recovery-2",
        &["--preset", "recovery", "--fail", "Split#0@200"],
    );
    assert!(java.contains("{1, 0, 1, "), "{java}");
    assert_eq!(
        setting(&java, "restart-strategy.fixed-delay.attempts").as_deref(),
        Some("2")
    );
    // A failure after the simulated job has finished is not exported.
    let java = ok(
        "recovery-late",
        &["--preset", "recovery", "--fail", "Split#0@100000"],
    );
    assert_eq!(
        setting(&java, "restart-strategy.fixed-delay.attempts").as_deref(),
        Some("1")
    );
}

/// Refused with status 2 and a sentence containing `why`.
fn refused(name: &str, args: &[&str], why: &str) {
    let out = export(name, args).expect_err("exported what Flink cannot express");
    assert_eq!(out.status.code(), Some(2));
    let err = text(&out.stderr);
    assert!(err.contains(why), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}

#[test]
fn what_flink_cannot_express_is_refused_with_a_sentence() {
    refused(
        "bank",
        &["--preset", "bank"],
        "Flink has no Chandy-Lamport mode",
    );
    refused(
        "token",
        &["--preset", "token", "--mode", "aligned"],
        "is a Chandy-Lamport process",
    );
    refused(
        "iteration",
        &["--preset", "iteration"],
        "Flink 2.x has no iterations",
    );
    refused(
        "cl",
        &["--preset", "wordcount", "--mode", "chandy-lamport"],
        "no Chandy-Lamport mode",
    );
    let mut s: Value =
        serde_json::from_str(text(&abs_sim(&["preset", "wordcount"]).stdout)).unwrap();
    s["graph"]["edges"][1]["partitioning"] = "rebalance".into();
    let file = common::scratch("flink-export", "rebalanced-count.json");
    std::fs::write(&file, s.to_string()).unwrap();
    refused(
        "rebalanced",
        &[file.to_str().unwrap()],
        "every edge into a count must be hash",
    );
    s["graph"]["edges"][1]["partitioning"] = "hash".into();
    s["graph"]["edges"][0]["fifo"] = false.into();
    std::fs::write(&file, s.to_string()).unwrap();
    refused("non-fifo", &[file.to_str().unwrap()], "is not FIFO");
    let out = abs_sim(&["flink", "export", "--preset", "wordcount"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--out is required"));
}

#[test]
fn run_without_flink_says_what_is_missing() {
    let out = Command::new(env!("CARGO_BIN_EXE_abs-sim"))
        .args(["flink", "run", "--preset", "wordcount", "--out"])
        .arg(common::scratch("flink-export", "none.json"))
        .env_remove("ABS_FLINK_HOME")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("set ABS_FLINK_HOME to the folder holding flink-dist-2.3.0.jar"),
        "{err}"
    );
}

/// Flink's jars, when the environment names them; the tests below need them.
fn flink_home() -> Option<PathBuf> {
    let dir = PathBuf::from(std::env::var_os("ABS_FLINK_HOME")?);
    dir.join("flink-dist-2.3.0.jar").is_file().then_some(dir)
}

#[test]
fn recovery_on_flink_ends_with_the_simulations_counts() {
    let Some(_) = flink_home() else {
        eprintln!("skipped: ABS_FLINK_HOME does not name Flink 2.3.0's jars");
        return;
    };
    let bundle = common::scratch("flink-export", "recovery-run.json");
    let out = abs_sim(&[
        "flink",
        "run",
        "--preset",
        "recovery",
        "--timeout",
        "180",
        "--out",
        bundle.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let b: Value = serde_json::from_str(&std::fs::read_to_string(&bundle).unwrap()).unwrap();
    assert_eq!(b["flink_version"], "2.3.0");
    assert_eq!(
        b["plan"]["nodes"].as_array().unwrap().len(),
        4,
        "every operator a task"
    );
    let counts = &b["checkpoints"]["counts"];
    assert!(counts["completed"].as_u64().unwrap() >= 1, "{counts}");
    assert_eq!(
        counts["restored"], 1,
        "the planned failure restored a checkpoint"
    );
    let details = b["checkpoints"]["details"].as_object().unwrap();
    assert_eq!(details.len() as u64, counts["completed"].as_u64().unwrap());
    assert!(details
        .values()
        .all(|d| d["subtasks"].as_object().unwrap().len() == 4));
    // The truth: the simulation of the same scenario without the failure.
    let sim = abs_sim(&["run", "--preset", "recovery", "--until-finished"]);
    let last: Value = serde_json::from_str(text(&sim.stdout).lines().last().unwrap()).unwrap();
    assert_eq!(b["final"]["counts"], last["summary"]["final"]["counts"]);
    // A taken port is one sentence and status 1.
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let out = abs_sim(&[
        "flink",
        "run",
        "--preset",
        "recovery",
        "--port",
        &port,
        "--out",
        bundle.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is taken"),
        "{}",
        text(&out.stderr)
    );
}

/// With unaligned checkpoints, the job's README says which edges keep their barriers aligned
/// (forward, rescale and broadcast), in Flink as in the simulation; aligned runs and jobs
/// whose edges all shuffle say nothing of it.
#[test]
fn the_readme_names_the_edges_flink_keeps_aligned() {
    let readme = |name: &str, args: &[&str]| {
        ok(name, args);
        std::fs::read_to_string(common::scratch("flink-export", name).join("README.md")).unwrap()
    };
    let unaligned = readme(
        "readme-wc-unaligned",
        &["--preset", "wordcount", "--mode", "unaligned"],
    );
    assert!(
        unaligned.contains("Flink keeps barriers aligned on forward, rescale and broadcast edges")
            && unaligned.contains("Sentences → Split (forward)")
            && !unaligned.contains("Split → Count"),
        "{unaligned}"
    );
    let timeout = readme(
        "readme-al-timeout",
        &["--preset", "alignment", "--mode", "aligned-timeout"],
    );
    assert!(timeout.contains("Merge → Sink (forward)"), "{timeout}");
    assert!(!timeout.contains("Src B → Merge"), "{timeout}");
    let shuffled = readme(
        "readme-bp-unaligned",
        &["--preset", "backpressure", "--mode", "unaligned"],
    );
    assert!(!shuffled.contains("keeps barriers aligned"), "{shuffled}");
    let aligned = readme(
        "readme-wc-aligned",
        &["--preset", "wordcount", "--mode", "aligned"],
    );
    assert!(!aligned.contains("keeps barriers aligned"), "{aligned}");
}

#[test]
fn buffer_debloating_becomes_flinks_own_settings() {
    let java = ok("slow-sink", &["--preset", "slow-sink"]);
    assert_eq!(
        setting(&java, "taskmanager.network.memory.buffer-debloat.enabled"),
        None
    );
    let mut s = abs_playground::scenario::presets::slow_sink();
    s.config.buffer_debloat = Some(abs_playground::engine::debloat::BufferDebloat { target: 40 });
    let dir = common::scratch("flink-export", "debloat-scenario");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("slow-sink.json");
    std::fs::write(&file, s.to_json()).unwrap();
    let java = ok("slow-sink-debloat", &[file.to_str().unwrap()]);
    let key = |k: &str| {
        setting(
            &java,
            &format!("taskmanager.network.memory.buffer-debloat.{k}"),
        )
    };
    assert_eq!(key("enabled").as_deref(), Some("true"));
    assert_eq!(key("target").as_deref(), Some("40 ms"));
    assert_eq!(key("period").as_deref(), Some("8 ms"));
}

/// `--flink-option KEY=VALUE` replaces one of the scenario's settings in the job, or adds one;
/// anything but KEY=VALUE is a usage error.
#[test]
fn a_flink_option_replaces_or_adds_a_setting() {
    let java = ok(
        "option",
        &[
            "--preset",
            "alignment",
            "--mode",
            "unaligned",
            "--flink-option",
            "execution.checkpointing.max-concurrent-checkpoints=2",
            "--flink-option",
            "state.backend.type = hashmap",
        ],
    );
    assert_eq!(
        setting(&java, "execution.checkpointing.max-concurrent-checkpoints").as_deref(),
        Some("2")
    );
    assert_eq!(
        java.matches("execution.checkpointing.max-concurrent-checkpoints")
            .count(),
        1,
        "replaced, not repeated"
    );
    assert_eq!(
        setting(&java, "state.backend.type").as_deref(),
        Some("hashmap")
    );
    for bad in ["no-equals", "=2"] {
        let out = abs_sim(&[
            "flink",
            "export",
            "--preset",
            "alignment",
            "--flink-option",
            bad,
            "--out",
            "unused",
        ]);
        assert_eq!(out.status.code(), Some(2), "{bad}");
        assert!(
            text(&out.stderr).contains("--flink-option needs KEY=VALUE"),
            "{}",
            text(&out.stderr)
        );
    }
}

/// `--cluster` takes the REST API's URL; anything else is one sentence and status 1, before
/// any Flink is needed.
#[test]
fn a_cluster_is_named_by_its_rest_url() {
    let out = Command::new(env!("CARGO_BIN_EXE_abs-sim"))
        .args([
            "flink",
            "run",
            "--preset",
            "wordcount",
            "--cluster",
            "localhost",
        ])
        .arg("--out")
        .arg(common::scratch("flink-export", "cluster.json"))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains("--cluster needs the REST API's URL, like http://127.0.0.1:8081"),
        "{err}"
    );
    assert_eq!(err.trim().lines().count(), 1, "{err}");
}
