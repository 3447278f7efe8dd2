"""The exact end of a round: alpha-beta agrees with plain minimax, and the hard
player's endgame plays the exact best when the deal is known."""

import random

import pytest

from bots import search
from bots.endgame import Budget, OutOfNodes, best_action, solve
from bots.policies import choose_action
from bots.search import utility
from games.engine import PASS, PRESETS, Play, Round, Tile
from tests.bots.positions import only_five_five_left

T = Tile.parse


def minimax(rnd, side, value):
    if rnd.is_over:
        return value(rnd.result)
    turn = rnd.turn
    results = []
    for action in rnd.legal_actions():
        child = rnd.clone()
        child.apply(turn, action)
        results.append(minimax(child, side, value))
    return max(results) if rnd.rules.side_of(turn) == side else min(results)


def late_parceria(seed, tiles_left):
    rng = random.Random(seed)
    rnd = Round.deal(PRESETS["parceria"], rng)
    while not rnd.is_over and sum(len(rnd.hand(s)) for s in range(4)) > tiles_left:
        rnd.apply(rnd.turn, choose_action(rnd.view(rnd.turn), "medium", rng))
    return rnd


#: The first twelve deals whose round still runs with ten tiles in hand (some end sooner).
LATE_SEEDS = [s for s in range(40) if not late_parceria(s, 10).is_over][:12]


@pytest.mark.parametrize("seed", LATE_SEEDS)
def test_alpha_beta_gives_the_minimax_value(seed):
    rnd = late_parceria(seed, 10)
    rules = PRESETS["parceria"]
    for side in (0, 1):

        def value(result, side=side):
            return utility(result, side, rules, (30, 40))

        assert solve(rnd, side, value, Budget(10**6)) == minimax(rnd, side, value)


def test_the_node_budget_is_enforced():
    rnd = late_parceria(1, 12)
    with pytest.raises(OutOfNodes):
        solve(rnd, 0, lambda r: float(r.points[0]), Budget(1))


def test_the_heavier_tile_that_loses_is_refused():
    rnd = Round.from_hands(PRESETS["sem_monte"], hands=[["1-2", "5-6"], ["2-5", "1-1"]], opener=0)
    rnd.apply(0, Play(T("1-2")))
    assert best_action(rnd, 1, lambda r: r.points[1] - r.points[0]) == Play(T("1-1"), "A")


def test_hard_solves_the_end_exactly_when_the_passes_pin_the_hidden_tile(monkeypatch):
    """Seat 1's passes leave it only 5-5 (tests/bots/test_search.py): the exact
    solve of every drawn deal is the solve of the real deal."""
    rnd = only_five_five_left()
    solves = []
    real_solve = search.solve

    def counting_solve(*args, **kwargs):
        solves.append(1)
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(search, "solve", counting_solve)
    rules = PRESETS["sem_monte"]
    exact = best_action(rnd, 0, lambda r: utility(r, 0, rules, None))
    for seed in range(3):
        assert choose_action(rnd.view(0), "hard", random.Random(seed), budget_ms=5) == exact
    assert solves


def test_an_end_where_every_candidate_ends_the_round_still_stops():
    """1-3 fits both ends and is the last tile: the solve visits no node, yet the work
    is counted (the wall-clock cap is lifted in these tests, so only that stops it)."""
    rnd = Round.from_hands(
        PRESETS["sem_monte"], hands=[["1-1", "2-3", "1-3"], ["1-2", "4-5", "6-6"]], opener=0
    )
    rnd.apply(0, Play(T("1-1")))
    rnd.apply(1, Play(T("1-2"), "A"))
    rnd.apply(0, Play(T("2-3"), "A"))
    rnd.apply(1, PASS)
    view = rnd.view(0)
    assert len(view["legal"]) == 2
    assert choose_action(view, "hard", random.Random(1), budget_ms=5).tile == T("1-3")
