# Shared by the benchmark scripts that run `hexpost serve` alone on a
# throw-away SQLite file (login_timing.sh, slow_clients.sh). Source it from
# the repository's root after setting PORT; it builds the binary (profile dist)
# unless HEXPOST_BIN names one, and sets an EXIT trap that stops the server
# and removes its files.

HEXPOST_BIN=${HEXPOST_BIN:-}
if [ -z "$HEXPOST_BIN" ]; then
  cargo build --profile dist --locked --bin hexpost
  HEXPOST_BIN=target/dist/hexpost
fi

bench_work=$(mktemp -d)
server_pid=
bench_cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
  rm -rf "$bench_work"
}
trap bench_cleanup EXIT

# start_server [VAR=value...]: `hexpost serve` on 127.0.0.1:$PORT with
# these variables; sets server_pid and returns once /readyz answers. Its
# log is $bench_work/server.log.
start_server() {
  # Another server on the port would answer for ours, which would fail to
  # bind and exit.
  if curl -s -o /dev/null "http://127.0.0.1:$PORT/healthz"; then
    echo "port $PORT is in use: set PORT" >&2
    return 1
  fi
  env HEXPOST_DATA_DIR="$bench_work" HEXPOST_BIND="127.0.0.1:$PORT" RUST_LOG=warn "$@" \
    "$HEXPOST_BIN" serve 2>"$bench_work/server.log" &
  server_pid=$!
  for _ in $(seq 1 100); do
    kill -0 "$server_pid" 2>/dev/null || break
    curl -sf "http://127.0.0.1:$PORT/readyz" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  cat "$bench_work/server.log" >&2
  return 1
}
