#!/usr/bin/env bash
# The simulation against Flink (docs/flink.md): installs the JDK and Flink's jars when
# missing, builds abs-sim, and runs tools/flink_compare.py, which prints the job-level table and
# the facts subtask by subtask (a standalone cluster started and stopped on the way), and
# fails when a property that must hold in both does not, or a difference docs/flink.md does not
# list appears.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
ABS_FLINK_HOME="$(.ci/flink-setup.sh)"
export ABS_FLINK_HOME
cargo build --locked --release --bin abs-sim
target_dir="$(cargo metadata --locked --no-deps --format-version 1 \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
work="$target_dir/flink-compare"
rm -rf "$work"
python3 tools/flink_compare.py "$target_dir/release/abs-sim" "$work"
