#!/usr/bin/env bash
# Where a move's CPU time goes: runs the saturation load of bench/load.sh
# against a release build on PostgreSQL and reports, over a window in the
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

PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
CLIENTS=${CLIENTS:-16}
WINDOW=${WINDOW:-30}
PORT=${PORT:-18481}
HEXPOST_BIN=${HEXPOST_BIN:-}
LOAD_BIN=${LOAD_BIN:-}

if [ -z "$HEXPOST_BIN" ] || [ -z "$LOAD_BIN" ]; then
  cargo build --release --locked --bin hexpost --example load
  HEXPOST_BIN=${HEXPOST_BIN:-target/release/hexpost}
  LOAD_BIN=${LOAD_BIN:-target/release/examples/load}
fi

db=hexpost_cost_$$
mail_dir=$(mktemp -d -p "${MAIL_DIR_PARENT:-/dev/shm}")
log=$(mktemp)
server_pid=
load_pid=
cleanup() {
  [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  psql -qX "$PG_URL/postgres" -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
  rm -rf "$mail_dir" "$log"
}
trap cleanup EXIT
sql() { psql -qXAt -v ON_ERROR_STOP=1 "$PG_URL/$db" -c "$1"; }

psql -qX "$PG_URL/postgres" -c "CREATE DATABASE $db"
statements=false
if sql "SHOW shared_preload_libraries" | grep -q pg_stat_statements; then
  sql "CREATE EXTENSION IF NOT EXISTS pg_stat_statements" && statements=true
fi

DATABASE_URL="$PG_URL/$db" HEXPOST_BIND="127.0.0.1:$PORT" HEXPOST_DATA_DIR="$mail_dir" \
  DATABASE_POOL_SIZE="$CLIENTS" RATE_LIMIT_LOGIN_PER_MINUTE=0 RATE_LIMIT_MOVES_PER_MINUTE=0 \
  RUST_LOG=warn "$HEXPOST_BIN" serve 2>"$log" &
server_pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
  sleep 0.2
done

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
moves() { sql "SELECT count(*) FROM moves WHERE actor LIKE 'seat:%'"; }

sleep 10 # warm-up: the clients register and start their games
$statements && sql "SELECT pg_stat_statements_reset()" >/dev/null
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
  sql "SELECT round(calls::numeric / $((m1 - m0)), 2) || ' x ' || round(mean_exec_time::numeric, 3) || ' ms  '
         || left(regexp_replace(query, '\s+', ' ', 'g'), 90)
       FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
       WHERE d.datname = current_database() AND calls >= $((m1 - m0)) / 100
       ORDER BY calls DESC"
else
  echo "(load pg_stat_statements into the PostgreSQL server to see the statements)"
fi
