#!/usr/bin/env bash
# Where a move's CPU time goes: runs the saturation load of bench/load.sh
# against a dist build on PostgreSQL and reports, over a window in the
# middle of the run, the CPU seconds of the server, the PostgreSQL backends
# and the load generator per move (from /proc/PID/stat), and, when the
# server has pg_stat_statements loaded, the statements a move runs.
#
#   bench/move_cost.sh              # 30 s window, 16 clients
#   WINDOW=60 bench/move_cost.sh
#
# Needs PostgreSQL at PG_URL with psql. The binaries are built unless
# HEXPOST_BIN and LOAD_BIN name existing ones (to compare two builds).
set -euo pipefail
cd "$(dirname "$0")/.."

WINDOW=${WINDOW:-30}
PORT=${PORT:-18481}
source bench/lib.sh
bench_binaries

db=hexpost_cost_$$
create_db "$db"
statements=false
if sql "$db" "SHOW shared_preload_libraries" | grep -q pg_stat_statements; then
  sql "$db" "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" && statements=true
fi
start_server "$db" "$PORT"

"$LOAD_BIN" --base "http://127.0.0.1:$PORT" --clients "$CLIENTS" --duration $((WINDOW + 20)) \
  --warmup 0 --seed 1 >/dev/null &
load_pid=$!

ticks() { # user + system clock ticks of the given processes
  local total=0 pid
  for pid in "$@"; do
    total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)))
  done
  echo "$total"
}
backends() { pgrep -f "postgres: .* $db " | tr '\n' ' '; }
moves() { sql "$db" "SELECT count(*) FROM moves WHERE actor LIKE 'seat:%'"; }

sleep 10 # warm-up: the clients register and start their games
$statements && sql "$db" "SELECT pg_stat_statements_reset()" >/dev/null
m0=$(moves)
s0=$(ticks "$server_pid")
l0=$(ticks "$load_pid")
p0=$(ticks $(backends))
sleep "$WINDOW"
s1=$(ticks "$server_pid")
l1=$(ticks "$load_pid")
p1=$(ticks $(backends))
m1=$(moves)

hz=$(getconf CLK_TCK)
python3 - "$((m1 - m0))" "$WINDOW" "$hz" "$((s1 - s0))" "$((p1 - p0))" "$((l1 - l0))" <<'EOF'
import sys
moves, window, hz = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
server, pg, load = (int(t) / hz for t in sys.argv[4:7])
print(f"moves: {moves} in {window} s = {moves / window:.0f} moves/s")
for name, secs in (("hexpost", server), ("PostgreSQL backends", pg), ("load generator", load)):
    print(f"{name}: {secs:.1f} CPU s = {secs * 1000 / moves:.2f} ms per move")
print(f"all three: {(server + pg + load) * 1000 / moves:.2f} ms per move")
EOF
if $statements; then
  echo "statements per move (calls / moves) and mean execution time:"
  sql "$db" "SELECT round(calls::numeric / $((m1 - m0)), 2) || ' x ' || round(mean_exec_time::numeric, 3) || ' ms  '
         || left(regexp_replace(query, '\s+', ' ', 'g'), 90)
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = current_database() AND calls >= $((m1 - m0)) / 100
       ORDER BY calls DESC"
else
  echo "(load pg_stat_statements into the PostgreSQL server to see the statements)"
fi
