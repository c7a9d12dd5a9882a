#!/usr/bin/env bash
# The README's test command: set-up, then every check, failing fast.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
step() { printf '\n\033[1;34m== %s\033[0m (at %ss)\n' "$*" "$SECONDS"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "clippy (host)"
cargo clippy --locked --workspace --all-targets -- -D warnings
step "clippy (wasm32)"
cargo clippy --locked --target wasm32-unknown-unknown --lib --bins -- -D warnings
# The page is built once per language (index.html), each build with one language's feature.
for lang in en zh hans; do
  step "clippy (wasm32, the $lang build alone)"
  cargo clippy --locked --target wasm32-unknown-unknown --no-default-features --features "$lang" \
    --lib --bins -- -D warnings
done
step "clippy (wasm32, the lesson page's build)"
cargo clippy --locked --target wasm32-unknown-unknown --no-default-features \
  --features en,zh,hans,lessons --lib --bins -- -D warnings

step "cargo doc"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --workspace --no-deps --lib --quiet

step "native tests"
# A bound on the whole native suite besides each long test's own (tests/common/time_limit.rs):
# a hang fails here with a message instead of holding CI to its limit.
timeout --foreground 1800 cargo test --locked --workspace || {
  status=$?
  if ((status == 124)); then echo "native tests: still running after 30 minutes, stopped" >&2; fi
  exit "$status"
}

step "wasm-bindgen tests in headless Chromium"
WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}" \
  cargo test --locked --target wasm32-unknown-unknown --test browser --test wasm_determinism

step "trunk build --release"
rm -rf dist
trunk build --release

step "the page's wasm names no path of this machine"
home_cargo="${CARGO_HOME:-$HOME/.cargo}"
if grep -l -F "$home_cargo" dist/*.wasm; then
  echo "the wasm above holds paths under $home_cargo (see setup.sh's --remap-path-prefix)" >&2
  exit 1
fi

step "abs-sim (release), the engine's own account for the inspector tests"
cargo build --locked --release --bin abs-sim
export ABS_SIM="${ABS_SIM:-$(cargo metadata --locked --no-deps --format-version 1 \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')/release/abs-sim}"

step "end-to-end tests (Playwright, release build on loopback)"
# Where the site copies and screenshots go; set these to keep two checkouts sharing one
# target directory apart (tests/e2e/sites.js reads the same variables).
site="${E2E_SITE:-target/e2e-site}"             # the build at a server's root
subsite="${E2E_SUBPATH_SITE:-target/e2e-subpath}" # a server's root holding only the sub-path
shots="${E2E_SCREENSHOTS:-target/screenshots}"
rm -rf "$site" "$subsite" "$shots"
mkdir -p "$site" "$subsite/course/abs-playground" "$shots"
cp -r dist/. "$site/"
cp -r dist/. "$subsite/course/abs-playground/"
export E2E_SITE="$site" E2E_SUBPATH_SITE="$subsite" E2E_SCREENSHOTS="$shots"
# Free loopback ports, so a server left running elsewhere cannot break the run.
read -r E2E_PORT E2E_SUBPATH_PORT < <(python3 -c '
import socket
socks = [socket.socket() for _ in range(2)]
for s in socks: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in socks))')
export E2E_PORT E2E_SUBPATH_PORT
(cd tests/e2e && npx playwright test)
echo "screenshots: $shots/"

step "release bundle sizes"
.ci/bundle-size.sh dist
echo "total: ${SECONDS}s"

step "the simulation against Flink 2.3 (issue 23, docs/flink.md)"
.ci/flink-test.sh
echo "total with Flink: ${SECONDS}s"
