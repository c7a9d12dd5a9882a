#!/usr/bin/env bash
# The README's test command: set-up, then every check, failing fast.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/setup.sh"
step() { printf '\n\033[1;34m== %s\033[0m (at %ss)\n' "$*" "$SECONDS"; }

step "cargo fmt --check"
cargo fmt --all -- --check

step "clippy (host)"
cargo clippy --locked --all-targets -- -D warnings
step "clippy (wasm32)"
cargo clippy --locked --target wasm32-unknown-unknown --lib --bins -- -D warnings

step "cargo doc"
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --lib --quiet

step "native tests"
cargo test --locked

step "wasm-bindgen tests in headless Chromium"
WASM_BINDGEN_TEST_TIMEOUT="${WASM_BINDGEN_TEST_TIMEOUT:-120}" \
  cargo test --locked --target wasm32-unknown-unknown --test browser --test wasm_determinism

step "trunk build --release"
rm -rf dist
trunk build --release

step "end-to-end tests (Playwright, release build on loopback)"
site=target/e2e-site
rm -rf "$site" target/screenshots
mkdir -p "$site/course/abs-playground" target/screenshots
cp -r dist/. "$site/"
cp -r dist/. "$site/course/abs-playground/"
# A free loopback port, so a server left running elsewhere cannot break the run.
E2E_PORT="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
export E2E_PORT
(cd tests/e2e && npx playwright test)
echo "screenshots: target/screenshots/"

step "release bundle sizes"
.ci/bundle-size.sh dist
echo "total: ${SECONDS}s"
