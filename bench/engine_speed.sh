#!/usr/bin/env bash
# Random two-player playouts per second on one core: hexpost's engine and
# catanatron's (Python, RandomPlayer) measured in the same run. Prints each
# engine's JSON line, then the ratio. Figures are recorded in docs/performance.md.
#
#   bench/engine_speed.sh                 # defaults below
#   GAMES=20000 CATANATRON_GAMES=1000 bench/engine_speed.sh
set -euo pipefail
cd "$(dirname "$0")/.."

GAMES=${GAMES:-10000}
CATANATRON_GAMES=${CATANATRON_GAMES:-500}
VENV=target/bench-venv

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c 'import catanatron' 2>/dev/null; then
  "$VENV/bin/python" -m pip install --quiet 'catanatron==3.2.1'
fi
cargo build --profile dist --quiet --bin hexpost

# One core for each run, the same core for both.
pin() { if command -v taskset >/dev/null; then taskset -c 0 "$@"; else "$@"; fi; }

full=$(pin ./target/dist/hexpost simulate --no-checks --games "$GAMES" --seed 1)
notrade=$(pin ./target/dist/hexpost simulate --no-checks --no-domestic-trade --games "$GAMES" --seed 1)
cat_line=$(pin "$VENV/bin/python" bench/catanatron_random.py --games "$CATANATRON_GAMES" --seed 1)

echo "hexpost (random players, domestic trade on):  $full"
echo "hexpost (random players, no domestic trade):  $notrade"
echo "catanatron (RandomPlayer, no domestic trade): $cat_line"
python3 - "$full" "$notrade" "$cat_line" <<'PY'
import json, sys
full, notrade, cat = (json.loads(a) for a in sys.argv[1:])
c = cat["games_per_s"]
print(f"ratio games/s, like for like (no domestic trade): {notrade['games_per_s'] / c:.1f}x")
print(f"ratio games/s, hexpost with domestic trade:      {full['games_per_s'] / c:.1f}x")
print(f"ratio actions/s (no domestic trade):             {notrade['actions_per_s'] / cat['actions_per_s']:.1f}x")
PY
