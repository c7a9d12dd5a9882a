//! Golden traces: the first steps of every preset in every mode, kept in `tests/golden/`.
//! A change to the engine's behaviour shows up as a diff here. After checking that the new
//! behaviour is right, rewrite the files with `UPDATE_GOLDEN=1 cargo test --test golden`.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use abs_playground::engine::{report, BarrierMode};
use abs_playground::scenario::presets;

const STEPS: u64 = 250;

fn check(name: &str, mode: BarrierMode) {
    let scenario = presets::by_name(name).unwrap().with_mode(mode);
    let mut sim = scenario.simulation().unwrap();
    let actual = report::trace(&mut sim, STEPS);
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "golden"]
        .iter()
        .collect::<PathBuf>()
        .join(format!("{name}-{}.jsonl", mode.as_str()));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
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
    concurrent_unaligned: "concurrent", BarrierMode::Unaligned;
    backpressure_aligned: "backpressure", BarrierMode::Aligned;
    backpressure_at_least_once: "backpressure", BarrierMode::AtLeastOnce;
    backpressure_unaligned: "backpressure", BarrierMode::Unaligned;
}
