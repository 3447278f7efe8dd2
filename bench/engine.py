"""Engine speed: random full `parceria` rounds per second, ours against the `dominoes` package.

Both play the same game (four seats in pairs, 7 tiles each, no boneyard, random
legal moves picked the same cheap way: ``legal[int(rng.random() * len(legal))]``,
so that the random generator does not drown the engines' own cost) in the same process, in alternating slices so that machine noise
hits both alike. Prints rounds per second for each, the ratio, and the cost of
one `legal_actions` + `apply` and of one `clone()`.

    python bench/engine.py [--seconds 6]
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import dominoes  # noqa: E402  (dev dependency: requirements-dev.txt)

from games.engine import PRESETS, Round  # noqa: E402

RULES = PRESETS["parceria"]


def our_round(rng: random.Random) -> int:
    """Deal and play one round at random; returns the number of actions."""
    rnd = Round.deal(RULES, rng)
    random_ = rng.random
    actions = 0
    while not rnd.is_over:
        legal = rnd.legal_actions()
        rnd.apply(rnd.turn, legal[int(random_() * len(legal))])
        actions += 1
    return actions


def their_round(rng: random.Random) -> int:
    """The `dominoes` package's own four-seat game: the 6-6 holder opens, passes are
    implicit, the game ends on domino or block."""
    game = dominoes.Game.new(starting_domino=dominoes.Domino(6, 6))
    random_ = rng.random
    moves = 1
    while game.result is None:
        legal = game.valid_moves
        game.make_move(*legal[int(random_() * len(legal))])
        moves += 1
    return moves


def rounds_per_second(play, seconds: float, rng: random.Random) -> tuple[int, float]:
    """Rounds played in ``seconds``; the garbage collector is off while timing, as
    `timeit` does, for both engines alike."""
    gc.collect()
    gc.disable()
    try:
        return _rounds_per_second(play, seconds, rng)
    finally:
        gc.enable()


def _rounds_per_second(play, seconds: float, rng: random.Random) -> tuple[int, float]:
    done = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        play(rng)
        done += 1
    return done, time.perf_counter() - start


def per_action_microseconds(samples: int, rng: random.Random) -> float:
    total = 0.0
    count = 0
    for _ in range(samples):
        rnd = Round.deal(RULES, rng)
        while not rnd.is_over:
            t0 = time.perf_counter()
            rnd.apply(rnd.turn, rng.choice(rnd.legal_actions()))
            total += time.perf_counter() - t0
            count += 1
    return total / count * 1e6


def clone_microseconds(samples: int, rng: random.Random) -> float:
    rnd = Round.deal(RULES, rng)
    for _ in range(8):
        rnd.apply(rnd.turn, rng.choice(rnd.legal_actions()))
    t0 = time.perf_counter()
    for _ in range(samples):
        rnd.clone()
    return (time.perf_counter() - t0) / samples * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=6.0, help="time per engine (total)")
    parser.add_argument("--slices", type=int, default=6, help="alternating slices per engine")
    args = parser.parse_args()

    rng = random.Random(2026)
    ours: list[float] = []
    theirs: list[float] = []
    totals = {"ours": [0, 0.0], "theirs": [0, 0.0]}
    for _ in range(args.slices):
        for name, play, rates in (("ours", our_round, ours), ("theirs", their_round, theirs)):
            n, elapsed = rounds_per_second(play, args.seconds / args.slices, rng)
            rates.append(n / elapsed)
            totals[name][0] += n
            totals[name][1] += elapsed

    our_rate = totals["ours"][0] / totals["ours"][1]
    their_rate = totals["theirs"][0] / totals["theirs"][1]
    print("Random full parceria rounds (4 seats in pairs, 7 tiles, no boneyard)")
    print(
        f"  this engine      : {our_rate:10.0f} rounds/s  (slices: median {statistics.median(ours):.0f})"
    )
    print(
        f"  dominoes {dominoes.__version__ if hasattr(dominoes, '__version__') else '6.x':7s}: "
        f"{their_rate:10.0f} rounds/s  (slices: median {statistics.median(theirs):.0f})"
    )
    print(f"  ratio            : {our_rate / their_rate:10.2f}x  (target >= 3x)")
    print(f"  legal_actions + apply: {per_action_microseconds(300, rng):6.2f} µs per action")
    print(f"  clone()              : {clone_microseconds(20000, rng):6.2f} µs")


if __name__ == "__main__":
    main()
