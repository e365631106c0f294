#!/usr/bin/env python3
"""Speed yardstick: random-vs-random 2-player games played by catanatron.

Uses catanatron (installed separately: `pip install catanatron`) purely as a
library; no catanatron code lives in this repository.

Prints exactly one JSON line:
  {"engine":"catanatron","version":...,"games":N,"finished":...,
   "mean_turns":...,"mean_actions":...,"elapsed_s":...,
   "games_per_s":...,"actions_per_s":...}

Timing covers game construction (board shuffle) plus play, for all games;
imports and seed preparation are outside the timed region.

Notes on catanatron's counters (as of 3.2.1):
  * turns   = State.num_turns; it also counts the 2 seat changes of the set-up
              snake, and play stops at catanatron's own limit of 1000 turns
              (such games have no winner and are not "finished").
  * actions = len(State.actions): every decision applied, including set-up
              placements, rolls, discards, robber moves and END_TURN.
"""

import argparse
import json
import os
import random
import sys
import time


def _pin_and_reexec():
    """Re-exec with fixed string hashing and no ASLR (Linux); returns on failure."""
    env = dict(os.environ, PYTHONHASHSEED="0", _CATANATRON_BENCH_PINNED="1")
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        addr_no_randomize = 0x0040000
        current = libc.personality(0xFFFFFFFF)
        if current == -1 or libc.personality(current | addr_no_randomize) == -1:
            return
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    except Exception:
        return


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None,
                        help="seed for repeatable runs (default: unseeded)")
    parser.add_argument("--vps", type=int, default=10,
                        help="victory points to win (default 10)")
    args = parser.parse_args(argv)

    # catanatron lists some playable actions (maritime trades, robber
    # victims, year of plenty) by iterating over sets of tuples holding
    # strings and None.  Their order, and hence RandomPlayer's picks, depends
    # on the string-hash salt and, on Python < 3.12, on the address of None
    # (hash(None) is id-based there).  A seeded run therefore re-executes
    # itself once with PYTHONHASHSEED=0 and address-space randomisation off.
    if args.seed is not None and os.environ.get("_CATANATRON_BENCH_PINNED") != "1":
        _pin_and_reexec()
        print("warning: could not pin hashing; seeded run may not repeat",
              file=sys.stderr)

    from importlib.metadata import version as pkg_version
    from catanatron import Game, RandomPlayer, Color

    try:
        version = pkg_version("catanatron")
    except Exception:  # pragma: no cover - odd installs
        version = "unknown"

    # catanatron's Game() reseeds Python's global `random` with its own seed
    # (a fresh random one when none is given), and RandomPlayer draws from
    # that global generator.  So for repeatability we hand every game an
    # explicit seed derived from --seed.  Seed 0 means "unseeded" to
    # catanatron, hence the range starting at 1.
    if args.seed is not None:
        random.seed(args.seed)
        rng = random.Random(args.seed)
        seeds = [rng.randrange(1, 2**62) for _ in range(args.games)]
    else:
        seeds = [None] * args.games

    finished = 0
    total_turns = 0
    total_actions = 0

    start = time.perf_counter()
    for seed in seeds:
        players = [RandomPlayer(Color.RED), RandomPlayer(Color.BLUE)]
        game = Game(players, seed=seed, vps_to_win=args.vps)
        winner = game.play()
        if winner is not None:
            finished += 1
        total_turns += game.state.num_turns
        total_actions += len(game.state.actions)
    elapsed = time.perf_counter() - start

    n = max(args.games, 1)
    result = {
        "engine": "catanatron",
        "version": version,
        "games": args.games,
        "finished": finished,
        "mean_turns": round(total_turns / n, 2),
        "mean_actions": round(total_actions / n, 2),
        "elapsed_s": round(elapsed, 3),
        "games_per_s": round(args.games / elapsed, 3) if elapsed > 0 else None,
        "actions_per_s": round(total_actions / elapsed, 1) if elapsed > 0 else None,
    }
    sys.stdout.write(json.dumps(result) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
