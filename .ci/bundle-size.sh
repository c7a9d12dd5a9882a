#!/usr/bin/env bash
# Prints the release bundle's sizes per kind of file, raw and gzip -9.
set -euo pipefail
dir="${1:-dist}"
printf '| %-5s | %10s | %10s |\n' kind raw gzip
printf '|-------|-----------:|-----------:|\n'
total_raw=0; total_gz=0
for kind in wasm js css html; do
  raw=0; gz=0
  while IFS= read -r -d '' f; do
    raw=$((raw + $(wc -c <"$f")))
    gz=$((gz + $(gzip -9 -c "$f" | wc -c)))
  done < <(find "$dir" -type f -name "*.$kind" -print0)
  total_raw=$((total_raw + raw)); total_gz=$((total_gz + gz))
  printf '| %-5s | %10s | %10s |\n' "$kind" "$raw" "$gz"
done
printf '| %-5s | %10s | %10s |\n' total "$total_raw" "$total_gz"
