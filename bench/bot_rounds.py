"""Rounds played by bots, deterministic from a seed: the material of the
analysis, what-if and puzzle benches (bench/analysis.py, bench/whatif.py,
bench/puzzles.py)."""

from __future__ import annotations

import random

from bots.policies import choose_action
from games.engine import Round, RuleSet

#: The seats' levels, turned by the seed so that every level sits everywhere.
LEVELS = ("hard", "medium", "easy", "medium")


def bot_round(rules: RuleSet, seed: int) -> tuple[dict, list[tuple[int, dict, str]], list[str]]:
    """One round: its deal, its moves (all marked as a person's), the seats' levels."""
    rng = random.Random(seed)
    levels = [LEVELS[(seat + seed) % len(LEVELS)] for seat in range(rules.seats)]
    rnd = Round.deal(rules, rng)
    moves = []
    while not rnd.is_over:
        seat = rnd.turn
        rnd.apply(seat, choose_action(rnd.view(seat), levels[seat], rng))
        moves.append((seat, rnd.history[-1][1].to_dict(), "person"))
    return rnd.initial, moves, levels
