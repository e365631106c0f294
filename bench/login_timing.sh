#!/usr/bin/env bash
# How long a refused login takes for an address that has an account and
# for one that has none. They should take the same (both check a password
# against an argon2id hash), so that the time does not tell who has an
# account. Runs `hexpost serve` on a throw-away SQLite file and times
# ROUNDS logins of each kind with curl, alternating, then prints the median
# and 90th percentile of each in milliseconds.
#
#   bench/login_timing.sh                  # 200 logins of each kind
#   HEXPOST_BIN=target/debug/hexpost bench/login_timing.sh
#
# The binary is built (profile dist) unless HEXPOST_BIN names one. Wall-clock
# times: run it on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-200}
PORT=${PORT:-18491}
source bench/sqlite_server.sh
start_server RATE_LIMIT_LOGIN_PER_MINUTE=0
work=$bench_work
base="http://127.0.0.1:$PORT/api/v1"

curl -sf -o /dev/null -H 'content-type: application/json' "$base/accounts" \
  -d '{"email": "ada@example.org", "display_name": "Ada", "password": "correct horse battery"}'

# login EMAIL: the seconds one refused login took.
login() {
  curl -s -o /dev/null -w '%{time_total}\n' -H 'content-type: application/json' \
    "$base/auth/token" -d "{\"email\": \"$1\", \"password\": \"wrong horse battery\"}"
}

for i in $(seq 1 "$ROUNDS"); do
  login ada@example.org >>"$work/known"
  login "nobody$i@example.org" >>"$work/unknown"
done

# stats FILE: "median p90" in milliseconds.
stats() {
  sort -n "$1" | awk '{t[NR] = $1 * 1000} END {printf "%.1f %.1f", t[int((NR + 1) / 2)], t[int(NR * 0.9 + 0.5)]}'
}
read -r known_median known_p90 <<<"$(stats "$work/known")"
read -r unknown_median unknown_p90 <<<"$(stats "$work/unknown")"
echo "refused logins, $ROUNDS each (ms):"
printf '  %-22s median %6s  p90 %6s\n' "address with account" "$known_median" "$known_p90"
printf '  %-22s median %6s  p90 %6s\n' "address without" "$unknown_median" "$unknown_p90"
