"""Bot tests: play whole rounds with bots on every table, fast.

``hard`` runs with a few milliseconds of budget, and its wall-clock cap is
lifted so that its decisions depend on the view, the rng and the budget only
(a busy CI machine must not change what it plays).
"""

import random

import pytest

from bots import search
from bots.policies import choose_action
from games.engine import Round


@pytest.fixture(autouse=True)
def no_wall_clock_cap(monkeypatch):
    monkeypatch.setattr(search, "WALL_SHARE", 1e6)


HARD_BUDGET_MS = 4


def play_round(rnd: Round, levels, rng: random.Random, check=None, scores=None):
    """Play ``rnd`` to its end with bots of ``levels`` (one per seat); ``check(view, action)``
    sees every decision."""
    while not rnd.is_over:
        seats = [rnd.turn] if rnd.turn is not None else sorted(rnd.pending_picks)
        for seat in seats:
            view = rnd.view(seat)
            action = choose_action(view, levels[seat], rng, scores=scores, budget_ms=HARD_BUDGET_MS)
            if check is not None:
                check(view, action)
            rnd.apply(seat, action)
    return rnd.result
