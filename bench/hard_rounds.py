"""What the hard player's search knobs are worth in one preset: duplicate
rounds of hard (one side) against medium (the other).

Each deal is played twice, the sides swapped; printed is the mean of hard's
side's points minus medium's, per round, with its standard error over the
pairs, and hard's CPU time per decision with more than one legal action
(median and p95; its wall-clock cap reads the thread's CPU time, so the
machine's other load does not cut its searches short). Cheaper than whole
matches (bench/bots.py), and in the preset's points. ``--set`` changes
`bots.search` module constants (``FIVES_*`` and the others); ``--cheat`` lets
hard see every hand and the boneyard's order (an upper bound on what better
guesses of the hidden tiles could give).

Usage::

    python bench/hard_rounds.py --preset pontos --pairs 100
    python bench/hard_rounds.py --set FIVES_CANDIDATES=4,FIVES_MARGIN=1
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots import sampling, search  # noqa: E402
from bots.policies import choose_action  # noqa: E402
from games.engine import PRESETS, Round  # noqa: E402


def play(rnd: Round, hard_side: int, budget: float, rng: random.Random, times: list[float],
         seen: list[Round | None]) -> tuple[int, ...]:  # fmt: skip
    """The round to its end, ``hard_side`` played by hard, the other by medium."""
    while not rnd.is_over:
        turn = rnd.turn
        if turn is None:  # a pick-off: blind picks
            for picker in sorted(rnd.pending_picks):
                rnd.apply(picker, rnd.legal_actions(picker)[0])
            continue
        view = rnd.view(turn)
        hard = rnd.rules.side_of(turn) == hard_side
        seen[0] = rnd
        start = time.thread_time()
        action = choose_action(
            view, "hard" if hard else "medium", rng, budget_ms=budget, clock=time.thread_time
        )
        if hard and len(view["legal"]) > 1:
            times.append((time.thread_time() - start) * 1000)
        rnd.apply(turn, action)
    assert rnd.result is not None
    return rnd.result.points


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="pontos")
    parser.add_argument("--pairs", type=int, default=100, help="duplicate pairs of rounds")
    parser.add_argument("--budget", type=float, default=150, help="hard's ms per decision")
    parser.add_argument("--seed", default="x")
    parser.add_argument("--set", default="", help="NAME=value,... constants of bots/search.py")
    parser.add_argument("--cheat", action="store_true", help="hard sees every hidden tile")
    args = parser.parse_args(argv)
    for item in filter(None, args.set.split(",")):
        name, value = item.split("=")
        if not hasattr(search, name):
            raise SystemExit(f"no constant {name} in bots/search.py")
        old = getattr(search, name)
        setattr(search, name, type(old)(float(value)) if type(old) is not bool else value == "1")
    seen: list[Round | None] = [None]
    if args.cheat:

        def everything(sampler: Any, model: Any, rng: random.Random) -> sampling.Deal:
            rnd = seen[0]
            assert rnd is not None
            return sampling.Deal([list(h) for h in rnd._hands], list(rnd._boneyard))

        search.sample_weighted = everything  # type: ignore[assignment]
    rules = PRESETS[args.preset]
    gaps, times = [], []
    for i in range(args.pairs):
        deal = Round.deal(rules, random.Random(f"{args.seed}-{i}"))
        first = play(deal.clone(), 0, args.budget, random.Random(i), times, seen)
        second = play(deal.clone(), 1, args.budget, random.Random(i + 10**6), times, seen)
        gaps.append(((first[0] - first[1]) + (second[1] - second[0])) / 2)
    mean = sum(gaps) / len(gaps)
    error = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (len(gaps) - 1) / len(gaps))
    times.sort()
    print(
        f"{args.preset} {args.set or 'defaults'}{' cheat' if args.cheat else ''}: hard - medium "
        f"{mean:+.2f} ± {error:.2f} points a round over {len(gaps)} pairs; hard CPU ms a "
        f"decision p50 {times[len(times) // 2]:.1f} p95 {times[int(len(times) * 0.95)]:.1f}",
        flush=True,
    )


if __name__ == "__main__":
    main()
