"""The analysis scores decisions in the preset's points (issue 41): a lá-e-lô
missed in the partida de 6, the end that scores in the game of points."""

from __future__ import annotations

import pytest

from analysis import scoring
from games.engine import PRESETS, Play, Tile
from tests.bots.positions import fives_double_at_end_a, partida_la_e_lo_to_set_up

T = Tile.parse


def test_keeping_the_simples_instead_of_the_la_e_lo_is_labelled():
    """5-6 on end B keeps 3-5 for a batida simples (1 point) where 3-5 on end A
    kept 5-6 for a lá-e-lô (3): from seat 0's view (the others might still hold
    a 5) close to a point of the partida's, worth 6 to 12 of parceria's in a match
    to 6. Read as pips' points it was under 3: no label."""
    rnd = partida_la_e_lo_to_set_up()
    decision = scoring.score_decision(rnd, 0, Play(T("5-6"), "B"), 5, seed=3, work=2000)
    assert decision is not None
    assert decision.options[decision.best].action == Play(T("3-5"), "A")
    assert 0.72 <= decision.loss <= 2.0
    assert scoring.label_for(decision.loss) is None
    assert decision.scale == pytest.approx(0.12)
    assert decision.label in ("erro", "capivarada")
    assert decision.accuracy < 60
    assert decision.to_dict()["loss"] == round(decision.loss, 2)  # stored in the partida's points


def test_in_the_game_of_points_both_ends_of_one_number_are_choices():
    """0-5 on end A makes 5, on end B 10: two options, the 5 a loss of the points."""
    rnd = fives_double_at_end_a()
    decision = scoring.score_decision(rnd, 0, Play(T("0-5"), "A"), 5, seed=3, work=2000)
    assert decision is not None
    assert [o.action for o in decision.options] == [Play(T("0-5"), "A"), Play(T("0-5"), "B")]
    assert decision.best == 1
    assert decision.loss > 0
    assert decision.scale == 3.0


def test_pips_scorings_keep_their_thresholds():
    for key in ("parceria", "classico", "goat", "duelo"):
        assert scoring.point_scale(PRESETS[key]) == 1.0
