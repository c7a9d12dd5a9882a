#!/usr/bin/env bash
# Installs whatever is missing, idempotently; each step is skipped when the right version is
# already there. Sourced by .ci/test.sh and .ci/serve.sh (it also exports PATH for them).
# Everything comes from the package registries (Debian, crates.io, npm); nothing else.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
say() { printf '\033[1msetup:\033[0m %s\n' "$*" >&2; }

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$root/tests/e2e/node_modules/.bin:$PATH"
# Keep Chromium's profile and caches out of the home directory.
export XDG_CONFIG_HOME="${XDG_CONFIG_HOME:-$root/target/xdg/config}"
export XDG_CACHE_HOME="${XDG_CACHE_HOME:-$root/target/xdg/cache}"
mkdir -p "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME"

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. Chromium and ChromeDriver (Debian's packages).
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing chromium and chromium-driver"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null
fi
# A CJK font, so the Chinese page renders in headless screenshots instead of empty boxes.
if ! dpkg-query -W -f='${Status}' fonts-noto-cjk 2>/dev/null | grep -q 'install ok installed'; then
  say "installing fonts-noto-cjk"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-cjk >/dev/null
fi
export CHROMEDRIVER="${CHROMEDRIVER:-$(command -v chromedriver)}"

# 2. The wasm32 target (rustup does not auto-install from rust-toolchain.toml here).
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi
for component in rustfmt clippy; do
  if ! rustup component list --installed | grep -q "^$component"; then
    rustup component add "$component"
  fi
done

# 3. Trunk, pinned (0.22 needs a newer rustc).
trunk_version=0.21.14
if ! trunk --version 2>/dev/null | grep -qx "trunk $trunk_version"; then
  say "installing trunk $trunk_version (takes several minutes)"
  cargo install trunk --version "$trunk_version" --locked
fi

# 4. wasm-bindgen-cli at exactly the wasm-bindgen version in Cargo.lock.
wb_version="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
if ! wasm-bindgen --version 2>/dev/null | grep -qx "wasm-bindgen $wb_version"; then
  say "installing wasm-bindgen-cli $wb_version"
  # --locked names a crate version the registry mirror may lack; fall back without it.
  cargo install wasm-bindgen-cli --version "$wb_version" --locked \
    || cargo install wasm-bindgen-cli --version "$wb_version"
fi

# 5. Node packages: Playwright (it drives the system Chromium; no browser download),
#    binaryen's wasm-opt (Debian's is too old to read this Rust's output) and terser (the
#    build's post-build hook, tools/post_build.py, minifies the JS loaders with it).
node_ok() {
  (cd tests/e2e && node -e '
    const deps = require("./package.json").devDependencies;
    for (const [name, want] of Object.entries(deps)) {
      let got; try { got = require(`./node_modules/${name}/package.json`).version; } catch { process.exit(1); }
      if (got !== want) process.exit(1);
    }') 2>/dev/null
}
if ! node_ok; then
  say "installing the Node packages (npm ci)"
  (cd tests/e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi

# 6. Crates, so Trunk's offline build finds them.
cargo fetch --locked >/dev/null

# 7. The wasm names the crates' sources by their path in the registry, which is this
#    machine's cargo home: map it to the crate's own path, so that no local path is shipped
#    (and the page is ~200 bytes smaller). Only the wasm target: host builds keep theirs.
#    Sourced twice, it adds nothing twice (other flags would rebuild everything).
wasm_flags="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:-}"
for src in "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/; do
  flag="--remap-path-prefix=$src="
  if [ -d "$src" ] && [[ " $wasm_flags " != *" $flag "* ]]; then
    wasm_flags="${wasm_flags:+$wasm_flags }$flag"
  fi
done
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="$wasm_flags"
