"""What each weight of the medium player is worth: duplicate rounds of medium
against itself with some weights changed.

Each deal is played twice, the sides swapped (seats 0+2 against 1+3, then
the other way; in two-seat presets seat 0 against seat 1): printed per preset
is the mean of the changed player's points minus the unchanged one's, per
round, with its standard error (over the pairs). Under goat scoring points
are penalties, so there a better player shows a negative figure. The changed
player is a second copy of `bots.heuristics` whose module weights are set
from ``--set``; the rounds run on the engine alone, each seat keeping the
public `Table` up to date as the hard player's playouts do.

Usage::

    python bench/medium.py --set W_OWN_NUMBER=0,W_OWN_ALMOST=0
    python bench/medium.py --set W_PREV_VOID=2 --pairs 8000 --presets parceria
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import random
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots import heuristics  # noqa: E402
from bots.knowledge import read_view  # noqa: E402
from games.engine import PRESETS, Pass, Play, Round, RuleSet  # noqa: E402


def changed(weights: dict[str, float]) -> ModuleType:
    """A fresh copy of `bots.heuristics` with ``weights`` set."""
    spec = importlib.util.spec_from_file_location("bots.heuristics_changed", heuristics.__file__)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for name, value in weights.items():
        if not name.startswith("W_") or not hasattr(module, name):
            raise SystemExit(f"no weight {name} in bots/heuristics.py")
        setattr(module, name, value)
    return module


def play(rnd: Round, players: tuple[ModuleType, ModuleType]) -> tuple[int, ...]:
    """The round to its end, side ``s`` played by ``players[s]``; its points."""
    table = heuristics.Table.from_knowledge(read_view(rnd.view(0)))
    while not rnd.is_over:
        turn = rnd.turn
        assert turn is not None  # (no pick-off in these presets' rounds)
        legal = rnd.legal_actions()
        player = players[rnd.rules.side_of(turn)]
        action = player.medium_choice(legal, rnd.hand(turn), rnd.ends, turn, table)
        if type(action) is Play:
            table.played(turn, action.tile, action.end)
        elif type(action) is Pass:
            table.passed(turn, rnd.ends)
        else:
            table.drew(turn, rnd.ends)
        rnd.apply(turn, action)
    assert rnd.result is not None
    return rnd.result.points


def duel(rules: RuleSet, player: ModuleType, pairs: int, seed: int) -> tuple[float, float]:
    """Mean points a round of ``player`` minus `bots.heuristics`', and its standard error."""
    gaps = []
    for i in range(pairs):
        deal = Round.deal(rules, random.Random(f"{seed}-{i}"))
        first = play(deal.clone(), (player, heuristics))
        second = play(deal.clone(), (heuristics, player))
        gaps.append(((first[0] - first[1]) + (second[1] - second[0])) / 2)
    mean = sum(gaps) / pairs
    spread = math.sqrt(sum((g - mean) ** 2 for g in gaps) / (pairs - 1))
    return mean, spread / math.sqrt(pairs)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", default="", help="NAME=value,... weights of the changed player")
    parser.add_argument("--pairs", type=int, default=4000, help="duplicate pairs per preset")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--presets", default="parceria,classico,goat,sem_monte,com_monte,duelo")
    args = parser.parse_args(argv)
    weights = {k: float(v) for k, v in (item.split("=") for item in args.set.split(",") if item)}
    player = changed(weights)
    print(f"changed: {weights or 'nothing'}; {args.pairs} pairs a preset, seed {args.seed}")
    for key in args.presets.split(","):
        rules = PRESETS[key]
        if rules.seats == 3:
            raise SystemExit(f"{key}: three seats have no two sides to swap")
        mean, error = duel(rules, player, args.pairs, args.seed)
        print(f"{key}: changed - unchanged {mean:+.3f} ± {error:.3f} points a round", flush=True)


if __name__ == "__main__":
    main()
