#!/usr/bin/env bash
# Installs what `abs-sim flink run` needs, only when missing: a JDK (Debian's
# openjdk-17-jdk-headless) and Flink's jars, pinned, from PyPI's apache-flink-libraries
# (installed with --no-deps: only its pyflink/lib folder is used, no Python code runs).
# Prints the folder holding the jars, for ABS_FLINK_HOME:
#   export ABS_FLINK_HOME="$(.ci/flink-setup.sh)"
# The jars go under target/flink/ (about 350 MB), or under $ABS_FLINK_CACHE if set.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
say() { printf '\033[1mflink-setup:\033[0m %s\n' "$*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

flink_version=2.3.0
cache="${ABS_FLINK_CACHE:-$root/target/flink}"
dir="$cache/apache-flink-libraries-$flink_version"
lib="$dir/pyflink/lib"

# 1. A JDK: javac compiles the exported job, java runs it.
if ! command -v javac >/dev/null || ! command -v java >/dev/null; then
  say "installing openjdk-17-jdk-headless"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openjdk-17-jdk-headless >/dev/null
fi

# 2. Flink's jars, pinned; a download interrupted half-way is started again, not used.
if [ ! -f "$lib/flink-dist-$flink_version.jar" ]; then
  say "installing apache-flink-libraries $flink_version from PyPI (about 350 MB)"
  mkdir -p "$cache"
  rm -rf "$dir.partial"
  python3 -m pip install --quiet --disable-pip-version-check --no-deps \
    --target "$dir.partial" "apache-flink-libraries==$flink_version" >&2
  rm -rf "$dir"
  mv "$dir.partial" "$dir"
fi
printf '%s\n' "$lib"
