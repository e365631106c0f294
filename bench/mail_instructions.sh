#!/usr/bin/env bash
# Instructions per mail of the outbox worker's drain, counted by valgrind's
# callgrind in the whole server process: a figure that does not depend on
# the machine's load, unlike bench/mail_throughput.sh's rate. The load
# generator plays games against a dist build whose worker is held back,
# the backlog is cut to its first MAILS mails and put off out of reach;
# then the server starts again under callgrind on that database, the
# counters are zeroed once it answers /readyz, the mails are made due, and
# the counters are dumped when none is pending. Files backend (tmpfs).
# Connections are slow to open under valgrind: a small pool, a long wait.
#
#   bench/mail_instructions.sh                      # 300 mails
#   MAILS=500 bench/mail_instructions.sh
#   HEXPOST_BIN=… LOAD_BIN=… bench/mail_instructions.sh   # another build
#   ANNOTATE=20 bench/mail_instructions.sh          # and the 20 costliest
#                                                   # functions, inclusive
#   KEEP=/tmp/drain.callgrind bench/mail_instructions.sh   # keep the profile
#
# Needs PostgreSQL at PG_URL with psql, and valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."

PLAY=${PLAY:-8}
MAILS=${MAILS:-300}
PORT=${PORT:-18492}
ANNOTATE=${ANNOTATE:-0}
command -v valgrind >/dev/null || { echo "valgrind is needed (Debian: apt-get install valgrind)" >&2; exit 2; }
source bench/lib.sh
bench_binaries

db=hexpost_mail_instr_$$
mail_backlog "$db" "$PORT" "$PLAY"

# The first MAILS pending mails, put off by a year until the counters are
# zeroed; the others are not sent in this run.
far=31536000000
sql "$db" "DELETE FROM outbox WHERE status = 'pending' AND id NOT IN
  (SELECT id FROM outbox WHERE status = 'pending' ORDER BY id LIMIT $MAILS)" >/dev/null
sql "$db" "UPDATE outbox SET due_at = due_at + $far WHERE status = 'pending'" >/dev/null
echo "mails: $(sql "$db" "SELECT string_agg(kind || ' ' || n, ', ') FROM
  (SELECT kind, count(*) AS n FROM outbox WHERE status = 'pending' GROUP BY kind ORDER BY kind) k")"

out=$bench_work/callgrind.out
mail_dir=$(mktemp -d -p "$MAIL_DIR_PARENT")
bench_mail_dirs+=("$mail_dir")
env DATABASE_URL="$PG_URL/$db" HEXPOST_BIND="127.0.0.1:$PORT" HEXPOST_DATA_DIR="$mail_dir" \
  DATABASE_POOL_SIZE=4 DATABASE_CHECKOUT_TIMEOUT_MS=60000 MAIL_POLL_INTERVAL_MS=50 RUST_LOG=warn \
  valgrind --tool=callgrind --callgrind-out-file="$out" --log-file="$bench_work/valgrind.log" \
  "$HEXPOST_BIN" serve 2>>"$bench_work/server.log" &
server_pid=$!
for _ in $(seq 1 600); do
  curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && break
  sleep 0.5
done
callgrind_control -z "$server_pid" >/dev/null
sql "$db" "UPDATE outbox SET due_at = due_at - $far WHERE status = 'pending'" >/dev/null
for _ in $(seq 1 6000); do
  [ "$(sql "$db" "SELECT count(*) FROM outbox WHERE status = 'pending'")" = 0 ] && break
  sleep 0.2
done
callgrind_control -d "$server_pid" >/dev/null
stop_server
sent=$(sql "$db" "SELECT count(*) FROM outbox WHERE status = 'sent'")
dump=$(ls "$out".* | head -1)
total=$(sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$dump")
python3 - "$sent" "$total" <<'EOF'
import sys
sent, total = map(int, sys.argv[1:])
print(f"{sent} mails sent, {total:,} instructions, {total / max(sent, 1):,.0f} per mail")
EOF
[ -n "${KEEP:-}" ] && cp "$dump" "$KEEP"
if [ "$ANNOTATE" -gt 0 ]; then
  callgrind_annotate --inclusive=yes "$dump" 2>/dev/null | sed -n '/^Ir/,$p' | head -n $((ANNOTATE + 3))
fi
