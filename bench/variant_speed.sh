#!/usr/bin/env bash
# Random playouts per second for each variant next to the base game, on one
# core (`taskset -c $CORE` when available), each run $RUNS times; prints one
# table row per variant with the median run's figures. Recorded in
# docs/performance.md ("Variants").
#
#   bench/variant_speed.sh                  # 2000 games, 3 runs, core 1
#   GAMES=5000 RUNS=5 CORE=0 bench/variant_speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-2000}
RUNS=${RUNS:-3}
CORE=${CORE:-1}
cargo build --profile dist --quiet --bin hexpost

pin() { if command -v taskset >/dev/null; then taskset -c "$CORE" "$@"; else "$@"; fi; }

lines=$(mktemp)
trap 'rm -f "$lines"' EXIT
for variant in standard catan_for_two neutral_trader shadow ck_for_two; do
  for _ in $(seq "$RUNS"); do
    pin ./target/dist/hexpost simulate --no-checks --variant "$variant" --games "$GAMES" --seed 1 >>"$lines"
  done
done
python3 - "$lines" <<'PY'
import json, sys
runs = {}
for line in open(sys.argv[1]):
    d = json.loads(line)
    runs.setdefault(d["variant"], []).append(d)
base = None
print("| variant | games/s | actions/s | actions/game | turns/game | time per action vs standard |")
print("|---|---:|---:|---:|---:|---:|")
for v, rs in runs.items():
    rs.sort(key=lambda d: d["actions_per_s"])
    m = rs[len(rs) // 2]
    base = base or m["actions_per_s"]
    row = (v, m["games_per_s"], m["actions_per_s"], m["mean_actions"], m["mean_turns"], base / m["actions_per_s"])
    print("| `%s` | %.0f | %s | %.0f | %.0f | %.2fx |" % (row[0], row[1], format(round(row[2]), ","), row[3], row[4], row[5]))
PY
