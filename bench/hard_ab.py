"""Paired trials of the hard player's knobs over whole duplicate matches.

Each duplicate pair of matches (`bench/bots.py`: the same deals twice, the
sides swapped) is played once per setting, one setting after the other, on
the same deals and bot seeds; printed after every pair is each setting's
win rate so far, and each setting's mean difference from the first one
(pair by pair) with a 95 % interval. The pairs are shared by every setting,
so the difference is less noisy than two separate runs would be. A setting
is ``NAME=value,...`` of `bots.search` constants (``belief.NAME`` for
`bots.belief`'s; ``-`` for the code as it is); the hard player's cap counts its thread's CPU time (``--cpu-clock``
of bench/bots.py), so the machine's other load does not change a decision.

Usage::

    python bench/hard_ab.py --preset duelo --against medium --pairs 100 - MARGIN=1
    python bench/hard_ab.py --against dominoes@12x5 --seed 7 --pairs 40 - ENDGAME_TILES=8
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bots import Setup, play_pair  # noqa: E402
from bots import belief, search  # noqa: E402
from games.engine import ALL_TILES  # noqa: E402

MODULES = {"search": search, "belief": belief}


def _where(name: str) -> tuple[object, str]:
    """The module and constant of ``NAME`` (`bots.search`) or ``belief.NAME``."""
    module, _, constant = name.rpartition(".")
    owner = MODULES.get(module or "search")
    if owner is None or not hasattr(owner, constant):
        raise SystemExit(f"no constant {name} in bots/search.py or bots/belief.py")
    return owner, constant


def knobs(spec: str) -> dict[str, float]:
    """``NAME=value,...`` as a dict (``-``: nothing changed)."""
    result = {}
    for item in filter(None, spec.split(",")):
        if item == "-":
            continue
        name, value = item.split("=")
        _where(name)
        result[name] = float(value)
    return result


def apply(values: dict[str, float], defaults: dict[str, object]) -> None:
    """Set the constants to their defaults, then to ``values``."""
    for name, value in defaults.items():
        setattr(*_where(name), value)
    for name, value in values.items():
        old = defaults[name]
        setattr(*_where(name), type(old)(value) if type(old) is not bool else bool(value))
    # The belief's per-tile liking is worked out at import from its constants.
    belief._LIKING = {
        t: math.exp(belief.BETA * (t.pips + (belief.DOUBLE_BONUS if t.is_double else 0.0) - 16.0))
        for t in ALL_TILES
    }


def interval(xs: list[float]) -> str:
    mean = statistics.fmean(xs)
    half = 1.96 * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return f"{100 * mean:+.1f} [{100 * (mean - half):+.1f}, {100 * (mean + half):+.1f}]"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("settings", nargs="+", help="NAME=value,... of bots/search.py, or -")
    parser.add_argument("--preset", default="parceria")
    parser.add_argument("--against", default="medium", help="medium, dominoes@SxN, ...")
    parser.add_argument("--pairs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first pair's number")
    parser.add_argument("--budget", type=float, default=150)
    args = parser.parse_args(argv)
    settings = [knobs(s) for s in args.settings]
    names = {name for s in settings for name in s}
    defaults = {name: getattr(*_where(name)) for name in names}
    setup = Setup("hard", args.against, args.budget, 8, 8, True, args.preset)
    scores: list[list[float]] = [[] for _ in settings]
    cpu: list[list[float]] = [[] for _ in settings]
    for i in range(args.first, args.first + args.pairs):
        for k, values in enumerate(settings):
            apply(values, defaults)
            result = play_pair(setup, args.seed, i)
            scores[k].append(result.score)
            cpu[k] += result.stats[0][1]
        line = [f"pair {i}: " + " ".join(f"{s[-1]:g}" for s in scores), f"{len(scores[0])} pairs"]
        for k, spec in enumerate(args.settings):
            ts = sorted(cpu[k])
            p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))] if ts else 0.0
            rate = 100 * statistics.fmean(scores[k])
            diff = (
                ""
                if k == 0
                else " diff " + interval([a - b for a, b in zip(scores[k], scores[0], strict=True)])
            )
            line.append(f"[{spec}] {rate:.1f}%{diff} p95 {p95:.0f} ms")
        print("; ".join(line), flush=True)


if __name__ == "__main__":
    main()
