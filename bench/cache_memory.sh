#!/usr/bin/env bash
# The memory the game cache (GAME_CACHE_SIZE) costs: plays the same load
# against a dist build on PostgreSQL with the cache off and with room
# for every game, CLIENTS games in play at once, and compares the server's
# resident memory after each run. The difference over the games kept
# (hexpost_game_cache_games) is the cost of one cached game, in the
# allocator's pages as the operating system counts them.
#
#   bench/cache_memory.sh                     # 1000 games, 90 s per run
#   CLIENTS=2000 DURATION=120 bench/cache_memory.sh
#
# Needs PostgreSQL at PG_URL with psql. The binaries are built unless
# HEXPOST_BIN and LOAD_BIN name existing ones.
set -euo pipefail
cd "$(dirname "$0")/.."

CLIENTS=${CLIENTS:-1000}
DURATION=${DURATION:-90}
ROUNDS=${ROUNDS:-2}
PORT=${PORT:-18482}
source bench/lib.sh
bench_binaries

# Resident now, and the most it ever was.
rss_kb() { awk '/^VmRSS:|^VmHWM:/{printf "%s ", $2}' "/proc/$server_pid/status"; }
kept() {
  curl -sf "http://127.0.0.1:$PORT/metrics" | awk '$1 == "hexpost_game_cache_games" {print $2}'
}

run() { # GAME_CACHE_SIZE, round: prints "size peak_kb rss_kb kept active_games moves"
  local size=$1 db=hexpost_mem_${1}_$2_$$
  create_db "$db"
  # Sixteen connections, as in load.sh: the clients wait their turn for
  # one, so the games in play, not the connections, grow with CLIENTS.
  start_server "$db" "$PORT" GAME_CACHE_SIZE="$size" DATABASE_POOL_SIZE=16
  "$LOAD_BIN" --base "http://127.0.0.1:$PORT" --clients "$CLIENTS" --duration "$DURATION" \
    --warmup 0 --seed "$2" --timeout 600 --json >"$bench_work/load.txt" 2>&1 ||
    { cat "$bench_work/load.txt" >&2; return 1; }
  # The clients have gone: what the server holds now is its own.
  sleep 2
  echo "$size $(rss_kb) $(kept) $(sql "$db" "SELECT count(*) FROM games WHERE status = 'active'") \
$(sql "$db" "SELECT count(*) FROM moves WHERE actor LIKE 'seat:%'")"
  stop_server
  sql postgres "DROP DATABASE $db WITH (FORCE)"
}

echo "clients: $CLIENTS; $DURATION s of saturation per run; $ROUNDS round(s)"
# Not in a pipe: the runs must start and stop the server in this shell.
for round in $(seq 1 "$ROUNDS"); do
  run 0 "$round" >>"$bench_work/runs.txt"
  run $((CLIENTS * 2)) "$round" >>"$bench_work/runs.txt"
done

python3 - "$bench_work/runs.txt" <<'EOF'
import sys
runs = [list(map(int, line.split())) for line in open(sys.argv[1])]
print("GAME_CACHE_SIZE  peak RSS MB  RSS MB  games kept  active games  moves")
for size, peak, rss, kept, active, moves in runs:
    print(f"{size:>15}  {peak / 1024:11.1f}  {rss / 1024:6.1f}  {kept:>10}  {active:>12}  {moves:>5}")
off = [r for r in runs if r[0] == 0]
on = [r for r in runs if r[0] != 0]
for a, b in zip(off, on):
    print(f"round: {b[2] - a[2]} kB more with {b[3]} games kept = "
          f"{(b[2] - a[2]) / max(b[3], 1):.1f} kB per cached game "
          f"({b[5] / max(b[4], 1):.0f} moves per active game)")
EOF
