//! Helpers the tests of the `abs-sim` command share: running the built binary, reading its
//! output, a scratch file. (Each test file uses some of them.)
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs the built `abs-sim` with `args` and nothing on stdin.
pub fn abs_sim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_abs-sim"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

pub fn text(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap()
}

/// A file under the tests' scratch directory, named after the test file (`prefix`) and this
/// process so that test binaries running at once do not collide.
pub fn scratch(prefix: &str, name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("{prefix}-{}-{name}", std::process::id()))
}

/// The words counted over every Count subtask of `sim`, by word.
pub fn word_counts(sim: &abs_playground::engine::Simulation) -> Vec<(u32, u64)> {
    let mut all = std::collections::BTreeMap::new();
    for t in sim.tasks() {
        if let abs_playground::engine::snapshot::TaskState::Count { counts } = &t.state {
            for (&w, &n) in counts {
                *all.entry(w).or_insert(0) += n;
            }
        }
    }
    all.into_iter().collect()
}
