"""The pure scoring (analysis.scoring) on a planted position (tests/analysis/planted.py)."""

from __future__ import annotations

import random

import pytest

from analysis import scoring
from games.engine import PRESETS, Round, action_from_dict
from tests.analysis.planted import BEST, BLUNDER, DECISION_SEQ, HANDS, RULES, position

WORST = scoring.THRESHOLDS[-1][0]


def _scored(choice, hands=HANDS, seed=7, work=2000):
    rnd, moves = position(hands)
    rnd.apply(0, choice)
    moves.append((0, rnd.history[-1][1].to_dict(), "person"))
    return scoring.score_round(RULES, rnd.initial, moves, seed=seed, work=work)


def _at(decisions, seq):
    return next(d for d in decisions if d.seq == seq)


def test_the_planted_blunder_gets_the_worst_label():
    decision = _at(_scored(BLUNDER), DECISION_SEQ)
    assert decision.options[decision.chosen].action == BLUNDER
    assert decision.loss >= scoring.THRESHOLDS[-1][1]
    assert decision.label == WORST
    assert decision.options[decision.best].action != BLUNDER


def test_the_best_move_loses_nothing_and_has_no_label():
    decision = _at(_scored(BEST), DECISION_SEQ)
    assert decision.options[decision.chosen].action == BEST
    assert decision.chosen == decision.best
    assert decision.loss == 0
    assert decision.label is None
    assert decision.accuracy == 100


def test_forced_moves_are_not_scored():
    rnd, moves = position()
    replay = Round.from_hands(RULES, hands=HANDS, opener=0)
    forced = []
    for seq, (seat, data, _) in enumerate(moves, start=1):
        legal = replay.legal_actions(seat)
        if len({getattr(a, "tile", a) for a in legal}) == 1 and len(legal) == 1:
            forced.append(seq)
        replay.apply(seat, action_from_dict(data))
    assert DECISION_SEQ - 1 in forced  # seat 1's pass
    scored = {d.seq for d in _scored(BEST)}
    assert forced and not scored & set(forced)
    assert DECISION_SEQ in scored


def test_only_the_movers_view_counts():
    """Seat 1's hidden tile differs (0-1 or 3-3), seat 0's view does not: the same analysis."""
    other = [HANDS[0], [*HANDS[1][:-1], "3-3"]]
    first = _at(_scored(BLUNDER), DECISION_SEQ).to_dict()
    second = _at(_scored(BLUNDER, hands=other), DECISION_SEQ).to_dict()
    assert first == second


def test_the_same_seed_gives_the_same_analysis():
    one = [d.to_dict() for d in _scored(BLUNDER, seed=1)]
    assert one == [d.to_dict() for d in _scored(BLUNDER, seed=1)]


def test_people_only_and_seats_asked_for():
    rnd, moves = position()
    rnd.apply(0, BEST)
    moves.append((0, rnd.history[-1][1].to_dict(), "person"))
    bot_moves = [(seat, data, "bot") for seat, data, _ in moves]
    assert scoring.score_round(RULES, rnd.initial, bot_moves, seed=1, work=300) == []
    only_one = scoring.score_round(RULES, rnd.initial, moves, seed=1, work=300, scored_seats=[1])
    assert only_one and {d.seat for d in only_one} == {1}


@pytest.mark.parametrize(
    ("loss", "label"),
    [(0.0, None), *[(t, name) for name, t in scoring.THRESHOLDS]],
)
def test_labels_follow_the_thresholds(loss, label):
    assert scoring.label_for(loss) == label
    assert scoring.label_for(loss - 0.01) != label or loss == 0


def test_accuracy_falls_with_the_loss():
    values = [scoring.move_accuracy(x) for x in (0, 1, 5, 10, 30)]
    assert values[0] == 100 and values == sorted(values, reverse=True) and values[-1] > 0


def test_a_whole_parceria_round_is_scored_with_choices_only():
    rnd = Round.deal(PRESETS["parceria"], random.Random(11))
    moves = []
    while not rnd.is_over:
        seat = rnd.turn
        rnd.apply(seat, rnd.legal_actions()[0])
        moves.append((seat, rnd.history[-1][1].to_dict(), "person"))
    decisions = scoring.score_round(PRESETS["parceria"], rnd.initial, moves, seed=3, work=300)
    assert decisions
    for d in decisions:
        assert len(d.options) > 1 and d.loss >= 0
        assert d.options[d.best].value == max(o.value for o in d.options)
