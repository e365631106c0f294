#!/usr/bin/env bash
# What clients that never finish their requests cost the server: opens
# CLIENTS connections that send a request's headers and then trickle its
# body a byte every 2 s (half of them) or stall (the other half), and
# samples, once a second for DURATION seconds, the server's open file
# descriptors and resident memory and how long a normal request
# (/healthz) takes meanwhile. Runs `hexpost serve` on a throw-away SQLite
# file with the given server variables, e.g.
#
#   bench/slow_clients.sh                               # the defaults
#   CLIENTS=3000 DURATION=30 bench/slow_clients.sh REQUEST_READ_TIMEOUT_SECS=10
#
# The binary is built (profile dist) unless HEXPOST_BIN names one. Needs
# python3 and curl; the shell's open-file limit must exceed CLIENTS.
set -euo pipefail
cd "$(dirname "$0")/.."

CLIENTS=${CLIENTS:-3000}
DURATION=${DURATION:-30}
PORT=${PORT:-18492}
source bench/sqlite_server.sh
client_pid=
trap '[ -n "$client_pid" ] && kill "$client_pid" 2>/dev/null; bench_cleanup' EXIT
start_server "$@"

python3 - "$PORT" "$CLIENTS" "$DURATION" <<'EOF' &
import asyncio, sys
port, clients, seconds = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
head = (b"POST /api/v1/auth/token HTTP/1.1\r\nHost: bench\r\n"
        b"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")

async def slow(i):
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(head)
        await writer.drain()
        for _ in range(seconds):
            await asyncio.sleep(2)
            if i % 2 == 0:
                writer.write(b" ")
                await writer.drain()
    except OSError:
        pass
    await asyncio.sleep(seconds + 5)

async def main():
    await asyncio.gather(*(slow(i) for i in range(clients)))

asyncio.run(main())
EOF
client_pid=$!

fds() { ls "/proc/$server_pid/fd" | wc -l; }
rss_mb() { awk '/^VmRSS:/ {printf "%.0f", $2 / 1024}' "/proc/$server_pid/status"; }
healthz_ms() {
  curl -s -o /dev/null -m 10 -w '%{time_total}' "http://127.0.0.1:$PORT/healthz" |
    awk '{printf "%.1f", $1 * 1000}'
}
echo "clients: $CLIENTS; server: $*"
printf '%4s %6s %7s %11s\n' s fds rss_MB healthz_ms
for s in $(seq 1 "$DURATION"); do
  sleep 1
  printf '%4s %6s %7s %11s\n' "$s" "$(fds)" "$(rss_mb)" "$(healthz_ms)"
done
