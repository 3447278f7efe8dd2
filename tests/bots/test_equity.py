"""The chance of winning a points match from given scores (`bots.equity`)."""

import pytest

from bots.equity import MatchEquity


def test_equal_scores_are_an_even_match_and_a_lead_is_worth_what_it_saves_of_the_way():
    equity = MatchEquity(50, {5: 1.0, 15: 2.0, 30: 1.0})
    assert equity.win(0, 0) == pytest.approx(0.5)
    assert equity.win(30, 30) == pytest.approx(0.5)
    assert equity.win(45, 35) > equity.win(40, 35) > equity.win(35, 35)
    # Every round scores at least 5: from 45 or from 49, any round won wins the match.
    assert equity.win(49, 35) == pytest.approx(equity.win(45, 35))


def test_the_two_sides_chances_add_up_to_one():
    equity = MatchEquity(100, {7: 3.0, 12: 5.0, 40: 1.0})
    for ours, theirs in ((0, 0), (13, 70), (99, 1), (55, 56)):
        assert equity.win(ours, theirs) + equity.win(theirs, ours) == pytest.approx(1.0)


def test_one_step_from_the_target_with_rounds_that_always_reach_it():
    # Whoever wins the next round wins the match: an even chance whatever the lead.
    equity = MatchEquity(50, {60: 1.0})
    assert equity.win(10, 49) == pytest.approx(0.5)
    # Two rounds needed against one: only winning both wins.
    equity = MatchEquity(50, {25: 1.0})
    assert equity.win(0, 25) == pytest.approx(0.25)


def test_a_finished_match_is_won_or_lost():
    equity = MatchEquity(50, {10: 1.0})
    assert equity.win(52, 40) == 1.0
    assert equity.win(40, 50) == 0.0


def test_a_round_model_that_scores_nothing_is_refused():
    with pytest.raises(ValueError, match="at least one round"):
        MatchEquity(50, {0: 3.0})
    with pytest.raises(ValueError, match="positive"):
        MatchEquity(0, {10: 1.0})
