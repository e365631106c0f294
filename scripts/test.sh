#!/usr/bin/env bash
# The whole test suite, as CI runs it (.ci/run calls this script and nothing
# else). Needs only a Rust toolchain; anything else the tests use is
# installed or started here.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== format"
cargo fmt --all -- --check
echo "== lint"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== tests"
cargo test --workspace --all-targets --locked
echo "== doc tests"
cargo test --workspace --doc --locked
