#!/usr/bin/env bash
# The cost of the board picture in mails: time to draw and encode one
# picture on one thread, and its size, over the positions of random games
# of every variant (examples/board_picture.rs, dist build), and over the
# last positions of 200 games taken in turn (more layouts than are kept).
# Sample pictures of each variant go to OUT.
#
#   bench/board_picture.sh                    # 20 rounds
#   ROUNDS=50 OUT=/tmp/pictures bench/board_picture.sh
set -euo pipefail
cd "$(dirname "$0")/.."

ROUNDS=${ROUNDS:-20}
cargo build --profile dist --locked --example board_picture
args=(--rounds "$ROUNDS")
[ -n "${OUT:-}" ] && args+=(--out "$OUT")
target/dist/examples/board_picture "${args[@]}"
