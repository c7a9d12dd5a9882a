//! Golden traces: the first steps of every preset in every mode, kept in `tests/golden/`.
//! A change to the engine's behaviour shows up as a diff here. After checking that the new
//! behaviour is right, rewrite the files with `UPDATE_GOLDEN=1 cargo test --test golden`
//! (only the value `1` rewrites them).
//!
//! `tests/wasm_determinism.rs` reproduces every one of these files in wasm; a test here checks
//! that its table names them all, with the same number of steps.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use abs_playground::engine::{report, BarrierMode};
use abs_playground::scenario::presets;

/// Steps of every trace but the large preset's.
const STEPS: u64 = 250;
/// The large preset's 200 subtasks take 1,000 steps to reach the alignments at Filter, where
/// the modes first differ; its traces are about 250 KB.
const LARGE_STEPS: u64 = 1000;
/// No golden file may grow beyond this.
const MAX_BYTES: usize = 1 << 20;

fn steps(preset: &str) -> u64 {
    if preset == "large" {
        LARGE_STEPS
    } else {
        STEPS
    }
}

fn file_name(preset: &str, mode: BarrierMode) -> String {
    format!("{preset}-{}.jsonl", mode.as_str())
}

fn golden_dir() -> PathBuf {
    [env!("CARGO_MANIFEST_DIR"), "tests", "golden"]
        .iter()
        .collect()
}

fn update_requested() -> bool {
    std::env::var("UPDATE_GOLDEN").as_deref() == Ok("1")
}

/// The one trace of a variant of a mode: `slow-sink` aligned with buffer debloating.
const DEBLOAT_FILE: &str = "slow-sink-aligned-debloat.jsonl";

#[test]
fn slow_sink_aligned_debloat() {
    let scenario = presets::slow_sink().with_debloat(true);
    compare("slow-sink", "aligned-debloat", &scenario, DEBLOAT_FILE);
}

/// The other variant: `recovery` held up for minutes at a time (each Count subtask takes
/// 200 s a record, a restart 150 s, a checkpoint may run for a day), in which the periodic timer's ticks change nothing for
/// long stretches — turned away while the job is down, or once Flink's queue of waiting
/// requests is full — and are skipped, not walked. The file was written by the engine as it
/// was before the skip, walking them one by one: the run is the same.
const HELD_UP_FILE: &str = "recovery-aligned-held-up.jsonl";

#[test]
fn recovery_aligned_held_up() {
    let mut scenario = presets::by_name("recovery").unwrap();
    for op in &mut scenario.graph.operators {
        if op.name == "Count" {
            op.processing_time = 200_000;
        }
    }
    scenario.config.restart_delay = 150_000;
    scenario.config.timeout = 100_000_000;
    compare("recovery", "aligned-held-up", &scenario, HELD_UP_FILE);
}

fn check(name: &str, mode: BarrierMode) {
    let scenario = presets::by_name(name).unwrap().with_mode(mode);
    compare(name, mode.as_str(), &scenario, &file_name(name, mode));
}

fn compare(name: &str, mode: &str, scenario: &abs_playground::scenario::Scenario, file: &str) {
    let mut sim = scenario.simulation().unwrap();
    let actual = report::trace(&mut sim, steps(name));
    assert!(
        actual.len() <= MAX_BYTES,
        "the {name} ({mode}) trace is {} bytes; keep golden files under {MAX_BYTES}",
        actual.len()
    );
    let path = golden_dir().join(file);
    if update_requested() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|_| {
        panic!(
            "{} is missing; run with UPDATE_GOLDEN=1 to create it",
            path.display()
        )
    });
    if expected != actual {
        let line = expected
            .lines()
            .zip(actual.lines())
            .position(|(e, a)| e != a)
            .unwrap_or(expected.lines().count().min(actual.lines().count()));
        panic!(
            "{name} ({mode}) differs from {} at line {}:\nexpected: {}\nactual:   {}\n\
             (UPDATE_GOLDEN=1 rewrites the file once the new behaviour is checked)",
            path.display(),
            line + 1,
            expected.lines().nth(line).unwrap_or("<end>"),
            actual.lines().nth(line).unwrap_or("<end>"),
        );
    }
}

macro_rules! golden {
    ($($test:ident: $preset:literal, $mode:expr;)*) => {
        $( #[test] fn $test() { check($preset, $mode); } )*

        /// Every preset in every mode it runs in has a golden trace, and every golden file is
        /// one of them.
        #[test]
        fn every_preset_and_mode_has_a_golden_trace() {
            let listed: Vec<String> = vec![$(file_name($preset, $mode)),*];
            for preset in presets::NAMES {
                for mode in presets::by_name(preset).unwrap().modes() {
                    let file = file_name(preset, mode);
                    assert!(listed.contains(&file), "no golden test for {file}");
                }
            }
            let mut on_disk: Vec<String> = std::fs::read_dir(golden_dir())
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|f| f.ends_with(".jsonl"))
                .collect();
            on_disk.sort();
            let mut expected = listed.clone();
            expected.push(DEBLOAT_FILE.to_string());
            expected.push(HELD_UP_FILE.to_string());
            expected.sort();
            assert_eq!(on_disk, expected, "golden files on disk and tests differ");
        }
    };
}

golden! {
    alignment_aligned: "alignment", BarrierMode::Aligned;
    alignment_at_least_once: "alignment", BarrierMode::AtLeastOnce;
    alignment_unaligned: "alignment", BarrierMode::Unaligned;
    wordcount_aligned: "wordcount", BarrierMode::Aligned;
    wordcount_at_least_once: "wordcount", BarrierMode::AtLeastOnce;
    wordcount_unaligned: "wordcount", BarrierMode::Unaligned;
    concurrent_aligned: "concurrent", BarrierMode::Aligned;
    concurrent_at_least_once: "concurrent", BarrierMode::AtLeastOnce;
    backpressure_aligned: "backpressure", BarrierMode::Aligned;
    backpressure_at_least_once: "backpressure", BarrierMode::AtLeastOnce;
    backpressure_unaligned: "backpressure", BarrierMode::Unaligned;
    large_aligned: "large", BarrierMode::Aligned;
    large_at_least_once: "large", BarrierMode::AtLeastOnce;
    large_unaligned: "large", BarrierMode::Unaligned;
    alignment_chandy_lamport: "alignment", BarrierMode::ChandyLamport;
    wordcount_chandy_lamport: "wordcount", BarrierMode::ChandyLamport;
    concurrent_chandy_lamport: "concurrent", BarrierMode::ChandyLamport;
    backpressure_chandy_lamport: "backpressure", BarrierMode::ChandyLamport;
    large_chandy_lamport: "large", BarrierMode::ChandyLamport;
    token_chandy_lamport: "token", BarrierMode::ChandyLamport;
    iteration_aligned: "iteration", BarrierMode::Aligned;
    iteration_unaligned: "iteration", BarrierMode::Unaligned;
    iteration_chandy_lamport: "iteration", BarrierMode::ChandyLamport;
    bank_chandy_lamport: "bank", BarrierMode::ChandyLamport;
    recovery_aligned: "recovery", BarrierMode::Aligned;
    recovery_at_least_once: "recovery", BarrierMode::AtLeastOnce;
    recovery_unaligned: "recovery", BarrierMode::Unaligned;
    recovery_chandy_lamport: "recovery", BarrierMode::ChandyLamport;
    alignment_synchronous: "alignment", BarrierMode::Synchronous;
    wordcount_synchronous: "wordcount", BarrierMode::Synchronous;
    concurrent_synchronous: "concurrent", BarrierMode::Synchronous;
    backpressure_synchronous: "backpressure", BarrierMode::Synchronous;
    large_synchronous: "large", BarrierMode::Synchronous;
    recovery_synchronous: "recovery", BarrierMode::Synchronous;
    iteration_synchronous: "iteration", BarrierMode::Synchronous;
    slow_sink_aligned: "slow-sink", BarrierMode::Aligned;
    slow_sink_at_least_once: "slow-sink", BarrierMode::AtLeastOnce;
    slow_sink_unaligned: "slow-sink", BarrierMode::Unaligned;
    slow_sink_chandy_lamport: "slow-sink", BarrierMode::ChandyLamport;
    slow_sink_synchronous: "slow-sink", BarrierMode::Synchronous;
}

/// The wasm test's table names every golden file with the steps used here, so each trace
/// is reproduced in wasm too.
#[test]
fn the_wasm_test_reproduces_every_golden_trace() {
    // However the table is laid out, compare without whitespace and trailing commas.
    let squeeze = |s: &str| s.split_whitespace().collect::<String>().replace(",)", ")");
    let wasm_test = squeeze(include_str!("wasm_determinism.rs"));
    for preset in presets::NAMES {
        for mode in presets::by_name(preset).unwrap().modes() {
            let file = file_name(preset, mode);
            let entry = format!(
                "(\"{preset}\", BarrierMode::{mode:?}, {}, include_str!(\"golden/{file}\"))",
                steps(preset)
            );
            assert!(
                wasm_test.contains(&squeeze(&entry)),
                "tests/wasm_determinism.rs does not reproduce {file}: add `{entry},` to its table"
            );
        }
    }
}
