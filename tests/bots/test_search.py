"""The hard player's pieces: outcome values, mirror-image moves, looking ahead."""

import random

import pytest

from bots.equity import MatchEquity
from bots.policies import choose_action
from bots.search import distinct_actions, match_equity, utility
from games.engine import PRESETS, Play, Round, RoundResult, Tile
from tests.bots.positions import only_five_five_left

T = Tile.parse


def result(points, winner):
    return RoundResult(
        reason="domino", winner=winner, opener=0, points=tuple(points), pips=(0, 0, 0, 0),
        hands=((), (), (), ()), last_player=0,
    )  # fmt: skip


def test_points_games_value_the_difference_and_the_match():
    rules = PRESETS["parceria"]
    assert utility(result((20, 0), 0), 0, rules, None) == 20
    assert utility(result((20, 0), 0), 1, rules, None) == -20
    # 35 + 20 reaches 50: the match is won, worth half the target on top.
    assert utility(result((20, 0), 0), 0, rules, (35, 0)) == 20 + 25
    assert utility(result((20, 0), 0), 1, rules, (35, 0)) == -20 - 25


def test_with_the_match_equity_a_round_is_worth_the_chance_it_leaves_of_winning_the_match():
    rules = PRESETS["parceria"]
    equity = MatchEquity(50, {10: 1.0, 20: 1.0})
    # 35 + 20 reaches 50: the match is won (a whole target), the points only break ties.
    assert utility(result((20, 0), 0), 0, rules, (35, 0), equity) == pytest.approx(50 + 0.01 * 20)
    assert utility(result((20, 0), 0), 1, rules, (35, 0), equity) == pytest.approx(0 - 0.01 * 20)
    # Early on the same 20 points are worth less than a whole match.
    early = utility(result((20, 0), 0), 0, rules, (0, 0), equity)
    assert 25 < early < 50
    # Ten points that keep a lost-looking match alive beat ten that change little.
    behind = utility(result((10, 0), 0), 0, rules, (0, 45), equity)
    assert behind > utility(result((0, 0), 0), 0, rules, (0, 45), equity)


def test_the_match_equity_is_measured_for_two_side_points_games_only():
    equity = match_equity(PRESETS["parceria"])
    assert equity is not None and equity.target == 50
    assert equity.win(0, 0) == pytest.approx(0.5)
    assert match_equity(PRESETS["parceria"]) is equity  # measured once a rule set
    assert match_equity(PRESETS["duelo"]) is None  # a single round
    assert match_equity(PRESETS["goat"]) is None  # penalties, not a race to the target


def test_goat_points_are_penalties():
    rules = PRESETS["goat"]
    assert utility(result((0, 30), 0), 0, rules, None) == 30
    assert utility(result((0, 30), 0), 1, rules, None) == -30


def test_single_round_games_value_the_win():
    rules = PRESETS["duelo"]
    won = result((3, 0), 0)
    assert utility(won, 0, rules, None) == pytest.approx(1.003)
    assert utility(won, 1, rules, None) < -0.99


def test_mirror_images_are_searched_once():
    legal = [Play(T("3-4"), "A"), Play(T("3-4"), "B"), Play(T("1-3"), "A"), Play(T("1-3"), "B")]
    assert distinct_actions(legal, (3, 3)) == [Play(T("3-4"), "A"), Play(T("1-3"), "A")]
    assert distinct_actions(legal, (3, 1)) == legal


def test_hard_reads_the_passes_and_keeps_the_tile_that_wins():
    """Seat 1 has passed against 0/1, 3/1, 3/2, 4/2 and 4/6 with one tile left: it can
    only be 5-5. Seat 0 holds 4-5 and 0-6: 4-5 (the heavier) opens a 5 and seat 1
    dominoes; 0-6 leaves 4/0, seat 1 passes and seat 0 dominoes with 4-5."""
    rnd = only_five_five_left()
    view = rnd.view(0)
    assert choose_action(view, "easy", random.Random(1)) == Play(T("4-5"), "A")
    for seed in range(3):
        assert choose_action(view, "hard", random.Random(seed), budget_ms=5) == Play(T("0-6"), "B")


def test_the_cap_reads_the_clock_it_is_given_and_values_one_deal_at_least(monkeypatch):
    """A clock past the cap from its second reading on: the search values one
    deal (the clock is read once for the deadline, once after that deal) and
    still decides among the legal actions."""
    from bots import search

    monkeypatch.setattr(search, "WALL_SHARE", 0.85)  # (the conftest lifts it)
    readings = []

    def late_clock() -> float:
        readings.append(None)
        return 0.0 if len(readings) == 1 else 1e9

    rnd = Round.deal(PRESETS["parceria"], rng=random.Random(3))
    while len(distinct_actions(rnd.legal_actions(), rnd.ends)) < 2:
        rnd.apply(rnd.turn, rnd.legal_actions()[0])
    view = rnd.view(rnd.turn)
    action = choose_action(view, "hard", random.Random(1), budget_ms=10_000, clock=late_clock)
    assert action.to_dict() in view["legal"]
    assert len(readings) == 2
