#!/usr/bin/env bash
# What emptying old mail contexts costs (store::retention): a scratch
# PostgreSQL database with the server's schema, ROWS sent mails spread
# over 200 days with 2 kB contexts, then the sweeper's statement as it
# runs after an upgrade (empties every context older than a month) and
# three times an hour apart (nothing left to empty; the old rows are read
# again). Prints psql's timings and the table's size.
#
#   bench/outbox_retention.sh            # a million mails
#   ROWS=200000 bench/outbox_retention.sh
#
# Needs PostgreSQL at PG_URL with psql; builds nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${ROWS:-1000000}
source bench/lib.sh
db=hexpost_retention_$$
create_db "$db"
for up in migrations/postgres/*/up.sql; do
  psql -qX -v ON_ERROR_STOP=1 "$PG_URL/$db" -f "$up" >/dev/null
done

# One mail every 200 days / ROWS, the last sent "now"; the statement below
# is store::retention's, its cutoff a month before now (plus `hour` hours).
step=$((200 * 86400000 / ROWS))
now=$((ROWS * step))
month=2592000000
empty() {
  local cutoff=$((now - month + $1 * 3600000))
  echo "UPDATE outbox SET context = '' WHERE status = 'sent' AND due_at < $cutoff AND sent_at < $cutoff AND context <> '';"
}
psql -qX -v ON_ERROR_STOP=1 "$PG_URL/$db" <<SQL
\pset tuples_only on
INSERT INTO outbox (kind, recipient, context, message_id, status, attempts, due_at, created_at, sent_at)
SELECT 'your_move', 'player@example.org',
  (SELECT string_agg(md5((i * 100 + j)::text), '') FROM generate_series(1, 64) j),
  'bench-' || i, 'sent', 1, i::bigint * $step, i::bigint * $step, i::bigint * $step + 50
FROM generate_series(1, $ROWS) i;
VACUUM ANALYZE outbox;
SELECT 'outbox before: ' || pg_size_pretty(pg_total_relation_size('outbox'));
\timing on
\echo the first run, after an upgrade:
$(empty 0)
\timing off
VACUUM ANALYZE outbox;
SELECT 'outbox after vacuum: ' || pg_size_pretty(pg_total_relation_size('outbox'));
\timing on
\echo the next three hourly runs:
$(empty 1)
$(empty 2)
$(empty 3)
SQL
