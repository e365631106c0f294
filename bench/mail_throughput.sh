#!/usr/bin/env bash
# Mails sent per second by the outbox worker, from a backlog of mails of
# real games: the load generator plays games against a dist build whose
# worker is held back (it polls once an hour), then the server starts again
# on copies of that database, writing the mails to files (on tmpfs) or
# sending them over SMTP to tests/smtp_sink.py (aiosmtpd) on localhost. The
# pace is read from the rows' sent_at (marked at the end of each batch, so
# the first batch only starts the clock: the mails marked after it, over
# the time from it to the last); the CPU is the server's
# from the moment it answers /readyz to the last mail, per mail (start-up,
# the same whatever is sent, left out).
#
#   bench/mail_throughput.sh                 # ~8 s of play, 3 runs a backend
#   PLAY=20 RUNS=5 bench/mail_throughput.sh
#   BACKENDS=files bench/mail_throughput.sh
#
# Needs PostgreSQL at PG_URL with psql and, for SMTP, a Python with
# aiosmtpd (HEXPOST_TEST_PYTHON as scripts/test.sh sets it; by default the
# virtualenv that script installs). The binaries are built unless
# HEXPOST_BIN and LOAD_BIN name existing ones (to compare two builds).
set -euo pipefail
cd "$(dirname "$0")/.."

PLAY=${PLAY:-8}
RUNS=${RUNS:-3}
BACKENDS=${BACKENDS:-files smtp}
PORT=${PORT:-18491}
PYTHON=${HEXPOST_TEST_PYTHON:-target/test-venv/bin/python}
source bench/lib.sh
bench_binaries

sink_pid=
stop_sink() {
  if [ -n "$sink_pid" ]; then
    kill "$sink_pid" 2>/dev/null || true
    wait "$sink_pid" 2>/dev/null || true
    sink_pid=
  fi
}
trap 'stop_sink; bench_cleanup' EXIT

# start_sink DIR: tests/smtp_sink.py on a free port, in sink_port.
start_sink() {
  sink_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
  "$PYTHON" tests/smtp_sink.py "$sink_port" "$1" >"$bench_work/sink.out" &
  sink_pid=$!
  for _ in $(seq 1 100); do
    grep -q ready "$bench_work/sink.out" 2>/dev/null && return 0
    sleep 0.1
  done
  echo "the SMTP sink did not start" >&2
  return 1
}

backlog=hexpost_mail_backlog_$$
mail_backlog "$backlog" "$PORT" "$PLAY"

ticks() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

for backend in $BACKENDS; do
  for run in $(seq 1 "$RUNS"); do
    db=hexpost_mail_run_$$_${backend}_$run
    sql postgres "CREATE DATABASE $db TEMPLATE $backlog"
    bench_dbs+=("$db")
    extra=(MAIL_POLL_INTERVAL_MS=50)
    if [ "$backend" = smtp ]; then
      start_sink "$bench_work/sink-$run"
      extra+=("SMTP_URL=smtp://127.0.0.1:$sink_port")
    fi
    start_server "$db" "$PORT" "${extra[@]}"
    ready_cpu=$(ticks "$server_pid")
    for _ in $(seq 1 3000); do
      [ "$(sql "$db" "SELECT count(*) FROM outbox WHERE status = 'pending'")" = 0 ] && break
      sleep 0.1
    done
    cpu=$(( $(ticks "$server_pid") - ready_cpu ))
    stop_server
    stop_sink
    rm -rf "$bench_work/sink-$run"
    read -r sent timed span failed <<<"$(sql "$db" "SELECT count(*) FILTER (WHERE status = 'sent'),
      count(*) FILTER (WHERE sent_at > (SELECT min(sent_at) FROM outbox)),
      max(sent_at) - min(sent_at), count(*) FILTER (WHERE status <> 'sent') FROM outbox" | tr '|' ' ')"
    python3 - "$backend" "$run" "$sent" "$timed" "$span" "$failed" "$cpu" "$(getconf CLK_TCK)" <<'EOF'
import sys
backend, run, sent, timed, span, failed, cpu, hz = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:])
rate = timed * 1000 / span if span > 0 else float("nan")
print(f"{backend} run {run}: {sent} sent ({failed} not) at {rate:.0f} mails/s, "
      f"server CPU {cpu / hz * 1000 / max(sent, 1):.2f} ms per mail")
EOF
  done
done
