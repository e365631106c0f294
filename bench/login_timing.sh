#!/usr/bin/env bash
# How long a refused login, and a registration, take for an address that
# has an account and for one that has none. They should take the same
# (a login checks a password against an argon2id hash either way; a
# registration hashes the password and queues a mail with a code either
# way: a code to create the account, or one to reset the password of the
# account that exists), so that the time does not tell who has an account.
# Runs `hexpost serve` on a throw-away SQLite file and times ROUNDS of each
# kind with curl, alternating, then prints the median and 90th percentile
# of each in milliseconds.
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

# Accounts as an admin makes them (a registration only exists once its
# mailed code is entered): one to log in to, and one per registration
# round, since an address gets at most three codes an hour.
admin() {
  HEXPOST_DATA_DIR="$work" RUST_LOG=warn "$HEXPOST_BIN" admin create-user \
    --email "$1" --name "$2" --password 'correct horse battery' >/dev/null
}
admin ada@example.org Ada
for i in $(seq 1 "$ROUNDS"); do
  admin "known$i@example.org" "Known $i"
done

# login EMAIL: the seconds one refused login took.
login() {
  curl -s -o /dev/null -w '%{time_total}\n' -H 'content-type: application/json' \
    "$base/auth/token" -d "{\"email\": \"$1\", \"password\": \"wrong horse battery\"}"
}

# register EMAIL: the seconds one registration took.
register() {
  curl -s -o /dev/null -w '%{time_total}\n' -H 'content-type: application/json' \
    "$base/accounts" -d "{\"email\": \"$1\", \"display_name\": \"Someone\", \"password\": \"correct horse battery\"}"
}

for i in $(seq 1 "$ROUNDS"); do
  login ada@example.org >>"$work/known"
  login "nobody$i@example.org" >>"$work/unknown"
  register "known$i@example.org" >>"$work/known_register"
  register "new$i@example.org" >>"$work/new_register"
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
read -r known_median known_p90 <<<"$(stats "$work/known_register")"
read -r unknown_median unknown_p90 <<<"$(stats "$work/new_register")"
echo "registrations, $ROUNDS each (ms):"
printf '  %-22s median %6s  p90 %6s\n' "address with account" "$known_median" "$known_p90"
printf '  %-22s median %6s  p90 %6s\n' "address without" "$unknown_median" "$unknown_p90"
