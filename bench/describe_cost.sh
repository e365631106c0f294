#!/usr/bin/env bash
# Instructions the log's sentences (the `text` of each row, src/describe)
# cost, counted by valgrind's callgrind over random games of each variant:
# a figure that does not depend on the machine's load. Each run of
# examples/describe_cost.rs plays and records the same games; the baseline
# run does nothing more, so each difference is one mode's work alone: the
# events redacted and serialized for both players (what a log read did
# before), worded for both players (what it adds), and the game state
# parsed (what it adds once per request). Recorded in docs/performance.md
# ("The log's sentences").
#
#   bench/describe_cost.sh                       # 20 games a variant, dist build
#   GAMES=5 VARIANTS="standard ck_for_two" bench/describe_cost.sh
#   DESCRIBE_COST=/path/to/describe_cost bench/describe_cost.sh   # a build already made
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-20}
VARIANTS=${VARIANTS:-"standard catan_for_two shadow ck_for_two"}
. bench/callgrind.sh
if [ -z "${DESCRIBE_COST:-}" ]; then
  cargo build --profile dist --quiet --example describe_cost
  DESCRIBE_COST=./target/dist/examples/describe_cost
fi

# Prints "INSTRUCTIONS ROWS EVENTS" for one mode and variant.
count() { callgrind_count "$DESCRIBE_COST" "$1" "$2" "$GAMES"; }

echo "| variant | rows | events | JSON, instructions per event and reader | sentence, instructions per event and reader | state parse, instructions per request |"
echo "|---|---:|---:|---:|---:|---:|"
for variant in $VARIANTS; do
  read -r none rows events < <(count none "$variant")
  read -r json _ < <(count json "$variant")
  read -r text _ < <(count text "$variant")
  read -r state _ < <(count state "$variant")
  python3 - "$variant" "$rows" "$events" "$none" "$json" "$text" "$state" <<'PY'
import sys
variant, rows, events, none, json, text, state = sys.argv[1], *map(int, sys.argv[2:])
per = lambda x: (x - none) / (2 * events)
print(f"| {variant} | {rows:,} | {events:,} | {per(json):,.0f} | {per(text):,.0f} | {(state - none) / rows:,.0f} |")
PY
done
