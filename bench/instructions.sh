#!/usr/bin/env bash
# Instructions per action of random playouts for each variant, counted by
# valgrind's callgrind (whole process): a figure that does not depend on
# the machine's load, to track the engine's cost over time. Recorded in
# docs/performance.md ("Variants").
#
#   bench/instructions.sh                        # 300 games a variant, seed 1, `hexpost simulate`
#   GAMES=100 VARIANTS="standard shadow" bench/instructions.sh
#   REVISION=0 bench/instructions.sh             # games of an earlier rules revision
#   ENGINE_ONLY=1 bench/instructions.sh          # the engine's `playouts` example: no server in
#                                                # the process, and a one-minute dist build
#   HEXPOST=/path/to/other/hexpost bench/instructions.sh   # another build of the server
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-300}
VARIANTS=${VARIANTS:-"standard duel catan_for_two neutral_trader shadow ck_for_two"}
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: apt-get install valgrind)" >&2; exit 2; }

# Each run prints "GAMES ACTIONS" on its last line.
if [ -n "${ENGINE_ONLY:-}" ]; then
  cargo build --profile dist --quiet -p hexpost-engine --example playouts
  cmd=(./target/dist/examples/playouts VARIANT "$GAMES" ${REVISION:-})
else
  if [ -z "${HEXPOST:-}" ]; then
    cargo build --profile dist --quiet --bin hexpost
    HEXPOST=./target/dist/hexpost
  fi
  cmd=("$HEXPOST" simulate --no-checks --variant VARIANT --games "$GAMES" --seed 1 ${REVISION:+--revision "$REVISION"})
fi

echo "| variant | games | actions | instructions | instructions per action |"
echo "|---|---:|---:|---:|---:|"
for variant in $VARIANTS; do
  log=$(mktemp)
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$log" \
    "${cmd[@]/VARIANT/$variant}")
  collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log")
  rm -f "$log"
  python3 - "$variant" "$collected" "$out" <<'PY'
import json, sys
variant, collected, out = sys.argv[1], int(sys.argv[2]), sys.argv[3].strip()
if out.startswith("{"):
    d = json.loads(out)
    games, actions = d["games"], round(d["mean_actions"] * d["games"])
else:
    games, actions = map(int, out.split()[-2:])
print(f"| `{variant}` | {games} | {actions:,} | {collected:,} | {collected / actions:,.0f} |")
PY
done
