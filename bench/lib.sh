# Shared by the benchmark scripts that run a dist build of hexpost on
# PostgreSQL (load.sh, move_cost.sh, cache_memory.sh). Source it from the
# repository's root; it sets an EXIT trap that stops what it started and
# drops the databases it created.

PG_URL=${PG_URL:-postgres://postgres@127.0.0.1:5432}
CLIENTS=${CLIENTS:-16}
HEXPOST_BIN=${HEXPOST_BIN:-}
LOAD_BIN=${LOAD_BIN:-}

# The server writes its mails to files here (no SMTP_URL), standing in for
# the SMTP relay of a deployment. On tmpfs: on the root file system the
# inode allocator, after earlier runs deleted their tens of thousands of
# mail files, took as much CPU as the load generator.
MAIL_DIR_PARENT=${MAIL_DIR_PARENT:-/dev/shm}

bench_work=$(mktemp -d)
bench_dbs=()
bench_mail_dirs=()
server_pid=
load_pid=

bench_cleanup() {
  [ -n "$load_pid" ] && kill "$load_pid" 2>/dev/null
  stop_server
  local db
  for db in "${bench_dbs[@]}"; do
    PGOPTIONS="-c client_min_messages=warning" psql -qX "$PG_URL/postgres" \
      -c "DROP DATABASE IF EXISTS $db WITH (FORCE)" >/dev/null || true
  done
  rm -rf "$bench_work"
}
trap bench_cleanup EXIT

# sql DATABASE STATEMENT: one statement, its result unaligned.
sql() { psql -qXAt -v ON_ERROR_STOP=1 "$PG_URL/$1" -c "$2"; }

# Builds the server and the load generator, unless HEXPOST_BIN and LOAD_BIN
# both name existing binaries (to compare two builds).
bench_binaries() {
  if [ -z "$HEXPOST_BIN" ] || [ -z "$LOAD_BIN" ]; then
    cargo build --profile dist --locked --bin hexpost --example load
    HEXPOST_BIN=${HEXPOST_BIN:-target/dist/hexpost}
    LOAD_BIN=${LOAD_BIN:-target/dist/examples/load}
  fi
}

# create_db NAME: a new database, dropped when the script exits.
create_db() {
  sql postgres "CREATE DATABASE $1"
  bench_dbs+=("$1")
}

# start_server DATABASE PORT [VAR=value...]: `hexpost serve` on DATABASE,
# rate limits off, one pooled connection per client, mail written to files
# on tmpfs; the extra variables override these. Sets server_pid and returns
# once /readyz answers. Its log is $bench_work/server.log.
start_server() {
  local db=$1 port=$2
  shift 2
  local mail_dir
  mail_dir=$(mktemp -d -p "$MAIL_DIR_PARENT")
  bench_mail_dirs+=("$mail_dir")
  env DATABASE_URL="$PG_URL/$db" HEXPOST_BIND="127.0.0.1:$port" HEXPOST_DATA_DIR="$mail_dir" \
    DATABASE_POOL_SIZE="$CLIENTS" RATE_LIMIT_LOGIN_PER_MINUTE=0 RATE_LIMIT_MOVES_PER_MINUTE=0 \
    RUST_LOG=warn "$@" "$HEXPOST_BIN" serve 2>>"$bench_work/server.log" &
  server_pid=$!
  for _ in $(seq 1 100); do
    if curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then
      admin_token "$db" "$port"
      return 0
    fi
    sleep 0.2
  done
  cat "$bench_work/server.log" >&2
  return 1
}

# admin_token DATABASE PORT: an admin of DATABASE (made once by
# `hexpost admin create-user`), signed in at the server on PORT; exports
# HEXPOST_ADMIN_TOKEN, with which the load generator makes its players'
# accounts (a registration exists only once its mailed code is entered).
admin_token() {
  local email=bench-admin@example.org password='bench admin password'
  DATABASE_URL="$PG_URL/$1" RUST_LOG=warn "$HEXPOST_BIN" admin create-user \
    --email "$email" --name 'Bench admin' --password "$password" --admin >/dev/null 2>&1 || true
  HEXPOST_ADMIN_TOKEN=$(curl -sf -H 'content-type: application/json' "http://127.0.0.1:$2/api/v1/auth/token" \
    -d "{\"email\": \"$email\", \"password\": \"$password\"}" |
    python3 -c 'import json, sys; print(json.load(sys.stdin)["access_token"])')
  export HEXPOST_ADMIN_TOKEN
}

stop_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=
  fi
  local dir
  for dir in "${bench_mail_dirs[@]}"; do rm -rf "$dir"; done
  bench_mail_dirs=()
}

# mail_backlog DATABASE PORT SECONDS: a new database with the mails of
# SECONDS of games played by the load generator against a server whose
# mail worker is held back (it polls once an hour); prints them by kind.
mail_backlog() {
  create_db "$1"
  start_server "$1" "$2" MAIL_POLL_INTERVAL_MS=3600000
  "$LOAD_BIN" --base "http://127.0.0.1:$2" --clients "$CLIENTS" --duration "$3" \
    --warmup 0 --seed 1 >/dev/null
  stop_server
  echo "backlog: $(sql "$1" "SELECT string_agg(kind || ' ' || n, ', ') FROM
    (SELECT kind, count(*) AS n FROM outbox WHERE status = 'pending' GROUP BY kind ORDER BY kind) k")"
}
