#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script and nothing
# else). Needs only a Rust toolchain (and Debian's apt for Chromium,
# Node.js and Dovecot where they are missing); anything else the tests use
# is installed or started here.
set -euo pipefail
cd "$(dirname "$0")/.."

# Python tools the tests drive, in a private virtualenv (pinned versions).
venv=target/test-venv
if [ ! -x "$venv/bin/st" ]; then
  echo "== installing schemathesis into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'schemathesis==4.32.5'
fi
export HEXPOST_SCHEMATHESIS="$PWD/$venv/bin/st"
# The mail tests' SMTP server (tests/smtp_sink.py).
if ! "$venv/bin/python" -c 'import aiosmtpd' 2>/dev/null; then
  echo "== installing aiosmtpd into $venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check 'aiosmtpd==1.4.6'
fi
export HEXPOST_TEST_PYTHON="$PWD/$venv/bin/python"

# The server tests need PostgreSQL at HEXPOST_TEST_PG_URL (default below).
# Where it is installed but stopped, start it.
pg_url=${HEXPOST_TEST_PG_URL:-postgres://postgres@127.0.0.1:5432/test}
if command -v pg_isready >/dev/null && ! pg_isready -q -d "$pg_url" && command -v pg_ctlcluster >/dev/null; then
  echo "== starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start || true
fi

# The web client's browser tests: Debian's Chromium and playwright-core
# (pinned by web/e2e/package-lock.json; it downloads no browser). The
# inbound mail tests start their own Dovecot (tests/common/dovecot.rs).
sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
missing=()
[ -x "${CHROMIUM:-/usr/bin/chromium}" ] || missing+=(chromium)
[ -x /usr/sbin/dovecot ] || missing+=(dovecot-imapd)
command -v node >/dev/null && command -v npm >/dev/null || missing+=(nodejs npm)
# libpq's TLS needs OpenSSL. Building its own (openssl-sys's `vendored`, as
# the README's run command and the image do, so a fresh machine needs no
# headers) took four of a cold build's minutes on two cores: the tests link
# the system's instead (docs/testing.md).
[ -f /usr/include/openssl/ssl.h ] || missing+=(libssl-dev)
command -v pkg-config >/dev/null || missing+=(pkg-config)
if [ ${#missing[@]} -gt 0 ]; then
  echo "== installing ${missing[*]}"
  $sudo apt-get update -q && $sudo apt-get install -y -q "${missing[@]}"
fi
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export OPENSSL_NO_VENDOR=1
if ! cmp -s web/e2e/package-lock.json web/e2e/node_modules/.package-lock.json.installed; then
  echo "== installing playwright-core into web/e2e/node_modules"
  (cd web/e2e && npm ci --no-audit --no-fund --loglevel=error)
  cp web/e2e/package-lock.json web/e2e/node_modules/.package-lock.json.installed
fi
export HEXPOST_E2E_NODE_MODULES="$PWD/web/e2e/node_modules"

# The generated clients (tests/generated_clients.rs, examples/bots): the
# Python generator in its own virtualenv (pinned by
# tests/clients/python/requirements.txt), and openapi-typescript,
# openapi-fetch, Ajv and tsc (pinned by tests/clients/typescript's
# package-lock.json). The test generates the clients afresh each run.
client_venv=target/client-venv
if ! cmp -s tests/clients/python/requirements.txt "$client_venv/requirements.installed"; then
  echo "== installing openapi-python-client into $client_venv"
  python3 -m venv "$client_venv"
  "$client_venv/bin/pip" install --quiet --disable-pip-version-check -r tests/clients/python/requirements.txt
  cp tests/clients/python/requirements.txt "$client_venv/requirements.installed"
fi
export HEXPOST_CLIENT_VENV="$PWD/$client_venv"
ts_client=tests/clients/typescript
if ! cmp -s "$ts_client/package-lock.json" "$ts_client/node_modules/.package-lock.json.installed"; then
  echo "== installing openapi-typescript and openapi-fetch into $ts_client/node_modules"
  (cd "$ts_client" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$ts_client/package-lock.json" "$ts_client/node_modules/.package-lock.json.installed"
fi
export HEXPOST_TS_CLIENT_MODULES="$PWD/$ts_client/node_modules"

echo "== deployment files"
./deploy/check.sh
echo "== format"
cargo fmt --all -- --check
echo "== lint"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== web client unit tests"
node --test web/test/
echo "== tests"
cargo test --workspace --all-targets --locked --no-fail-fast
echo "== doc tests"
cargo test --workspace --doc --locked
