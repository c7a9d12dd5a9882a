#!/usr/bin/env bash
# The simulation against Flink (issue 23, docs/flink.md): installs the JDK and Flink's jars
# when missing, builds abs-sim, and runs tools/flink_compare.py, which prints one table and
# fails when a property that must hold in both does not.
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
