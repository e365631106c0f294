#!/usr/bin/env bash
# Instructions per action of random playouts for each variant, counted by
# valgrind's callgrind (whole process, `simulate --no-checks`): a figure
# that does not depend on the machine's load, to track the engine's cost
# over time. Recorded in docs/performance.md ("Variants").
#
#   bench/instructions.sh                       # 300 games per variant, seed 1
#   GAMES=100 VARIANTS="standard shadow" bench/instructions.sh
#   HEXPOST=/path/to/other/hexpost bench/instructions.sh   # another build
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-300}
VARIANTS=${VARIANTS:-"standard duel catan_for_two neutral_trader shadow"}
if [ -z "${HEXPOST:-}" ]; then
  cargo build --release --quiet --bin hexpost
  HEXPOST=./target/release/hexpost
fi
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: apt-get install valgrind)" >&2; exit 2; }

echo "| variant | games | actions | instructions | instructions per action |"
echo "|---|---:|---:|---:|---:|"
for variant in $VARIANTS; do
  log=$(mktemp)
  out=$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --log-file="$log" \
    "$HEXPOST" simulate --no-checks --variant "$variant" --games "$GAMES" --seed 1)
  collected=$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$log")
  rm -f "$log"
  python3 - "$variant" "$GAMES" "$collected" "$out" <<'PY'
import json, sys
variant, games, collected, out = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4])
actions = round(out["mean_actions"] * out["games"])
print(f"| `{variant}` | {games} | {actions:,} | {collected:,} | {collected / actions:,.0f} |")
PY
done
