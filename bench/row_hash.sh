#!/usr/bin/env bash
# Instructions a log row's hash costs under each scheme (the plain scheme of
# earlier releases and the committed one, docs/architecture.md "The log's
# hash chain"), counted by valgrind's callgrind over random games of each
# variant: a figure that does not depend on the machine's load. Each run of
# examples/row_hash.rs plays and records the same games; the baseline run
# hashes nothing, so the difference is the hashing alone. Recorded in
# docs/performance.md ("Hashing the log").
#
#   bench/row_hash.sh                          # 20 games a variant
#   GAMES=50 VARIANTS="standard shadow" bench/row_hash.sh
#   ROW_HASH=/path/to/row_hash bench/row_hash.sh   # a build of the example already made
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-20}
VARIANTS=${VARIANTS:-"standard duel catan_for_two neutral_trader shadow"}
. bench/callgrind.sh
if [ -z "${ROW_HASH:-}" ]; then
  cargo build --profile dist --quiet --example row_hash
  ROW_HASH=./target/dist/examples/row_hash
fi

# Prints "INSTRUCTIONS ROWS" for one mode and variant.
count() { callgrind_count "$ROW_HASH" "$1" "$2" "$GAMES"; }

echo "| variant | rows | plain, instructions per row | committed, instructions per row | committed / plain |"
echo "|---|---:|---:|---:|---:|"
for variant in $VARIANTS; do
  read -r none rows < <(count none "$variant")
  read -r plain _ < <(count plain "$variant")
  read -r committed _ < <(count committed "$variant")
  python3 - "$variant" "$rows" "$none" "$plain" "$committed" <<'PY'
import sys
variant, rows, none, plain, committed = sys.argv[1], *map(int, sys.argv[2:])
p, c = (plain - none) / rows, (committed - none) / rows
print(f"| {variant} | {rows:,} | {p:,.0f} | {c:,.0f} | {c / p:.2f} |")
PY
done
