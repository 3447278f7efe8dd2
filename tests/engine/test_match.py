"""Match: points, goat (reaching the target loses), best-of series, single round."""

import json

import pytest

from games.engine import PRESETS, Match, RoundResult


def result(points, winner=0, seats=2):
    empty = ((),) * seats
    return RoundResult("domino", winner, 0, tuple(points), (0,) * seats, empty, 0)


def test_points_accumulate_until_a_side_reaches_the_target():
    match = Match(PRESETS["parceria"])
    match.finish_round(result((30, 0), seats=4))
    assert not match.is_over
    match.finish_round(result((0, 49), 1, seats=4))
    assert match.scores == (30, 49) and not match.is_over
    match.finish_round(result((0, 1), 1, seats=4))
    assert match.is_over and match.winner == 1 and match.ended_by == "goal"


def test_goat_reaching_the_target_loses():
    match = Match(PRESETS["goat"])
    match.finish_round(result((0, 60), 0, seats=4))
    match.finish_round(result((30, 45), None, seats=4))
    assert match.scores == (30, 105)
    assert match.is_over and match.winner == 0


def test_best_of_five_ends_at_three_wins():
    match = Match(PRESETS["arena"])
    for winner in (0, 1, 0, 0):
        match.finish_round(result((1, 0) if winner == 0 else (0, 1), winner))
    assert match.is_over and match.winner == 0 and match.rounds_played == 4


def test_single_round_match():
    match = Match(PRESETS["duelo"])
    match.finish_round(result((0, 0), None))
    assert match.is_over and match.winner is None


def test_walkover_and_json():
    match = Match(PRESETS["arena"])
    match.finish_round(result((0, 1), 1))
    match.end("walkover", winner=0)
    assert match.is_over and match.winner == 0 and match.ended_by == "walkover"
    copy = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert copy.to_dict() == match.to_dict()
    with pytest.raises(ValueError):
        copy.finish_round(result((1, 0)))


def test_end_without_a_winner():
    match = Match(PRESETS["parceria"])
    match.finish_round(result((30, 0), seats=4))
    match.end("annulled")
    assert match.is_over and match.winner is None and match.ended_by == "annulled"
    assert match.scores == (30, 0)
    copy = Match.from_dict(json.loads(json.dumps(match.to_dict())))
    assert copy.to_dict() == match.to_dict()
    with pytest.raises(ValueError, match="over"):
        copy.new_round(None)


def test_end_with_a_winner():
    match = Match(PRESETS["arena"])
    match.end("walkover", winner=1)
    assert match.is_over and match.winner == 1 and match.ended_by == "walkover"


def test_end_refuses_a_side_the_rules_do_not_have():
    for side in (-1, 2):
        match = Match(PRESETS["parceria"])
        with pytest.raises(ValueError, match=f"no side {side}"):
            match.end("walkover", winner=side)
        assert not match.is_over


def test_end_refuses_an_empty_reason():
    match = Match(PRESETS["duelo"])
    with pytest.raises(ValueError, match="reason"):
        match.end("")
    assert not match.is_over


def test_end_refuses_a_match_already_over():
    match = Match(PRESETS["duelo"])
    match.finish_round(result((0, 10), 1))
    with pytest.raises(ValueError, match="over"):
        match.end("restart")
    assert match.winner == 1 and match.ended_by == "goal"
