#!/usr/bin/env bash
# Prints the release bundle's files, raw and gzip -9, and the weight of the page as a visit
# loads it: index.html (the style sheet is inlined) and one language's build, its JS loader and
# its wasm (index.html loads the English or the Chinese build, never both; the theory texts are
# fetched only when their panel is opened, course-example.html is a separate page), and a
# visit to the lesson page (`?lesson=`: index.html and the lessons build, both languages; the
# lesson's file is fetched). A visit in either language or to a lesson over ABS_PAGE_BUDGET
# bytes gzip (default 280000, this round's budget: 280 KB per visit, English and Chinese each)
# fails, after the table.
set -euo pipefail
budget="${ABS_PAGE_BUDGET:-280000}"
over=""
dir="${1:-dist}"
gz() { gzip -9 -c "$1" | wc -c; }
printf '| %-44s | %9s | %9s |\n' file raw gzip
printf '|%s|%s|%s|\n' "$(printf -- '-%.0s' {1..46})" '----------:' '----------:'
while IFS= read -r f; do
  printf '| %-44s | %9s | %9s |\n' "${f#"$dir"/}" "$(wc -c <"$f")" "$(gz "$f")"
done < <(find "$dir" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.html' -o -name '*.txt' \) | sort)
index=$(gz "$dir/index.html")
for build in en zh zh-Hans lessons; do
  case $build in
    en) pattern='abs-playground-[0-9a-f]*' ;;
    zh) pattern='abs-playground-zh-[0-9a-f]*' ;;
    zh-Hans) pattern='abs-playground-hans-[0-9a-f]*' ;;
    lessons) pattern='abs-lessons-[0-9a-f]*' ;;
  esac
  js=$(find "$dir" -maxdepth 1 -name "$pattern.js" | head -n1)
  wasm=$(find "$dir" -maxdepth 1 -name "${pattern}_bg.wasm" | head -n1)
  if [[ -z "$js" || -z "$wasm" ]]; then
    echo "bundle-size: no $build build in $dir" >&2
    exit 1
  fi
  total=$((index + $(gz "$js") + $(gz "$wasm")))
  awk -v b="$build" -v t="$total" -v i="$index" -v j="${js#"$dir"/}" -v w="${wasm#"$dir"/}" \
    'BEGIN { printf "page, %s build: %d bytes gzip (%.1f KB): index.html %d + %s + %s\n", b, t, t / 1000, i, j, w }'
  if ((total > budget)); then
    over="$over $build ($((total - budget)) bytes over)"
  fi
done
# The player for a job of real size (`?big`, `?preset=huge`; src/bin/abs-big.rs): a second
# build, loaded only for such a job, reported outside the budget (an engineer's view).
big_js=$(find "$dir" -maxdepth 1 -name 'abs-big-[0-9a-f]*.js' | head -n1)
big_wasm=$(find "$dir" -maxdepth 1 -name 'abs-big-[0-9a-f]*_bg.wasm' | head -n1)
if [[ -n "$big_js" && -n "$big_wasm" ]]; then
  echo "page, big build (not budgeted: loaded only for a job of real size or a chained one): $((index + $(gz "$big_js") + $(gz "$big_wasm"))) bytes gzip"
fi
if [[ -n "$over" ]]; then
  echo "bundle-size: over the budget of $budget bytes gzip per visit:$over" >&2
  exit 1
fi
echo "budget: $budget bytes gzip per visit; every build is within it"
