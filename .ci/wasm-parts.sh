#!/usr/bin/env bash
# What each part of the page's wasm costs in gzip (tools/wasm_parts.py): builds one language's
# page as the release build does (index.html's cargo features and wasm-opt settings), keeping
# the function names, and prints the table. `.ci/wasm-parts.sh [en|zh|hans]` (default en); about two
# minutes. Not part of the test command: it measures, it does not check.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source .ci/setup.sh >/dev/null
lang="${1:-en}"
case "$lang" in
  en) bin=abs-playground ;;
  zh) bin=abs-playground-zh ;;
  hans) bin=abs-playground-hans ;;
  *) echo "wasm-parts: en, zh or hans, not $lang" >&2; exit 2 ;;
esac
target_dir="$(cargo metadata --locked --no-deps --format-version 1 \
  | python3 -c 'import json, sys; print(json.load(sys.stdin)["target_directory"])')"
cargo build --locked --release --target wasm32-unknown-unknown --bin "$bin" \
  --no-default-features --features "$lang"
out="$target_dir/wasm-parts/$lang"
rm -rf "$out" && mkdir -p "$out"
wasm-bindgen --target web --out-dir "$out" "$target_dir/wasm32-unknown-unknown/release/$bin.wasm"
# index.html's data-wasm-opt="z" and data-wasm-opt-params, and the features Trunk enables;
# -g keeps the names.
tests/e2e/node_modules/.bin/wasm-opt -g -Oz --converge --zero-filled-memory --low-memory-unused \
  --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
  "$out/${bin}_bg.wasm" -o "$out/named.wasm"
python3 tools/wasm_parts.py "$out/named.wasm"
