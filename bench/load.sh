#!/usr/bin/env bash
# Load benchmark: a dist build of hexpost on PostgreSQL, driven over HTTP
# by many concurrent random games (examples/load), next to `pgbench -N`
# against the same PostgreSQL server in the same run.
#
#   1. pgbench -N: the database's own rate for small write transactions;
#   2. saturation: moves per second when every client sends its next move
#      as soon as the answer to the last one arrives;
#   3. half load: latency at half the saturation rate, offered on a schedule;
#   4. the database is filled with SEED_GAMES finished games, then half load
#      again, twice, to show latency does not grow with history. The first
#      of the two starts right after the bulk load: on a VM's disk, commits
#      can stall for a while after gigabytes were written (see
#      docs/performance.md), which is the bulk load's, not the history's.
#
# Needs PostgreSQL (PG_URL names the server; databases are created and
# dropped here) and its pgbench and psql. Takes about 13 minutes with the
# defaults; a quick look: DURATION=20 SEED_GAMES=5000 bench/load.sh.
# VARIANT=ck_for_two (or any variant `hexpost simulate` knows) plays that
# variant's games instead of the standard game's.
set -euo pipefail
cd "$(dirname "$0")/.."

DURATION=${DURATION:-60}
WARMUP=${WARMUP:-10}
SEED_GAMES=${SEED_GAMES:-100000}
SEED_ROWS=${SEED_ROWS:-150}
SCALE=${SCALE:-10}
PORT=${PORT:-18480}
VARIANT=${VARIANT:-standard}
# The seeded history needs room: about 90 kB per game with the defaults.
DISK_HEADROOM_GB=${DISK_HEADROOM_GB:-$((SEED_GAMES * 90 / 1000000 + 5))}
source bench/lib.sh

tag=$$
app_db=hexpost_load_$tag
bench_db=hexpost_pgbench_$tag

# What the server wrote while a command ran: WAL bytes, and checkpoints
# (a checkpoint inside a run makes the next write of each page a full
# page image, and is one cause of run-to-run spread). And the share of
# the machine's CPU time the hypervisor gave to other guests (steal): on
# a shared VM it stalls every process at once, and a fixed-schedule
# latency counts each stall against every move queued behind it.
wal_mark() {
  echo "$(sql postgres "SELECT pg_current_wal_lsn() || ' ' || (checkpoints_timed + checkpoints_req) FROM pg_stat_bgwriter")" \
    "$(awk '/^cpu /{print $2+$3+$4+$5+$6+$7+$8+$9, $9}' /proc/stat)"
}
wal_report() { # mark before, label
  local lsn0 cp0 all0 st0 lsn1 cp1 all1 st1
  read -r lsn0 cp0 all0 st0 <<<"$1"
  read -r lsn1 cp1 all1 st1 <<<"$(wal_mark)"
  echo "   $2: $(sql postgres "SELECT pg_size_pretty(pg_wal_lsn_diff('$lsn1', '$lsn0'))") of WAL, $((cp1 - cp0)) checkpoint(s), $(((st1 - st0) * 100 / (all1 - all0 + 1)))% of CPU time stolen"
}

free_gb=$(df -BG --output=avail "$(sql postgres 'SHOW data_directory')" 2>/dev/null | tail -1 | tr -dc 0-9 || echo 0)
if [ -n "$free_gb" ] && [ "$free_gb" -gt 0 ] && [ "$free_gb" -lt "$DISK_HEADROOM_GB" ]; then
  echo "only ${free_gb} GB free for PostgreSQL; the seeded history needs about ${DISK_HEADROOM_GB} GB" >&2
  exit 1
fi

echo "== building (profile dist)"
bench_binaries

echo "== machine"
echo "cpus: $(nproc); $(sql postgres 'SELECT version()')"
echo "clients: $CLIENTS; duration: ${DURATION}s after ${WARMUP}s warm-up; pgbench scale $SCALE"

echo "== pgbench -N"
create_db "$bench_db"
pgbench -q -i -s "$SCALE" "$PG_URL/$bench_db" >/dev/null 2>&1
sql postgres "CHECKPOINT"
mark=$(wal_mark)
pgbench -N -n -c "$CLIENTS" -j 2 -T "$DURATION" "$PG_URL/$bench_db" | tee "$bench_work/pgbench.txt"
wal_report "$mark" pgbench
tps=$(sed -n 's/^tps = \([0-9.]*\) .*/\1/p' "$bench_work/pgbench.txt" | head -1)
sql postgres "DROP DATABASE $bench_db WITH (FORCE)"

echo "== starting hexpost (profile dist) on $app_db"
create_db "$app_db"
start_server "$app_db" "$PORT"

run_load() { # name, extra args...
  local name=$1 mark
  shift
  sql "$app_db" "CHECKPOINT"
  mark=$(wal_mark)
  "$LOAD_BIN" --base "http://127.0.0.1:$PORT" --clients "$CLIENTS" --duration "$DURATION" \
    --warmup "$WARMUP" --variant "$VARIANT" --json "$@" | tee "$bench_work/$name.txt"
  wal_report "$mark" "$name"
}
field() { tail -1 "$bench_work/$1.txt" | python3 -c "import json,sys; print(json.load(sys.stdin)['$2'])"; }

echo "== saturation"
run_load saturation --seed 1
saturated=$(field saturation moves_per_sec)
half=$(python3 -c "print(round($saturated / 2, 1))")

echo "== half load: $half moves/s"
run_load half --seed 2 --rate "$half"

echo "== seeding $SEED_GAMES finished games with $SEED_ROWS log rows each"
chunk=10000
for ((first = 1; first <= SEED_GAMES; first += chunk)); do
  last=$((first + chunk - 1 < SEED_GAMES ? first + chunk - 1 : SEED_GAMES))
  psql -qX "$PG_URL/$app_db" -v tag="$tag" -v first="$first" -v last="$last" \
    -v rows="$SEED_ROWS" -f bench/load_seed.sql
  echo "   games $first-$last"
done
sql "$app_db" "VACUUM ANALYZE"
echo "database now: $(sql "$app_db" "SELECT count(*) FROM games WHERE status = 'finished'") finished games, \
$(sql "$app_db" "SELECT count(*) FROM moves") log rows, \
$(sql "$app_db" "SELECT pg_size_pretty(pg_database_size(current_database()))")"

echo "== half load after seeding: $half moves/s"
run_load seeded --seed 3 --rate "$half"
echo "== the same again"
run_load seeded_again --seed 4 --rate "$half"

echo "== summary"
python3 - "$tps" "$bench_work" <<'EOF'
import json, sys
tps, work = float(sys.argv[1]), sys.argv[2]
r = {n: json.loads(open(f"{work}/{n}.txt").read().strip().splitlines()[-1])
     for n in ("saturation", "half", "seeded", "seeded_again")}
s = r["saturation"]["moves_per_sec"]
print(f"pgbench -N: {tps:.0f} tps")
print(f"saturation: {s:.0f} moves/s = {s / tps:.2f} of pgbench (target >= 0.40)")
for n, label in (("half", "half load"), ("seeded", "half load, seeded"),
                 ("seeded_again", "half load, seeded, again")):
    x = r[n]
    print(f"{label}: {x['moves_per_sec']:.0f} moves/s, p50 {x['p50_ms']:.2f} ms, "
          f"p99 {x['p99_ms']:.2f} ms (target < 25)")
EOF
