"""The what-if's pure part (analysis/whatif.py): the choices at a position, an
illegal action refused, every value from the mover's view alone (the hidden
hands and the boneyard change nothing), the stored analysis' values again, and
the words' facts."""

from __future__ import annotations

import random

import pytest

from analysis import scoring, whatif
from games.engine import DRAW, PASS, PRESETS, Play, Round, Tile
from tests.analysis.planted import BEST, BLUNDER, DECISION_SEQ, HANDS, RULES, position


def _answer(rnd: Round, seat: int, played, seq: int) -> tuple:
    values, best = whatif.score_position(rnd, seat, played, seq, seed=7, work=1500)
    per_choice = [
        (whatif.chain_after(rnd, seat, a), whatif.facts(rnd, seat, a))
        for a in whatif.choices(rnd, seat)
    ]
    return values, best, per_choice


def test_the_planted_decision_choices_and_values_match_the_analysis() -> None:
    rnd, moves = position()
    moves = [*moves, (0, BLUNDER.to_dict(), "person")]
    before, seat, played = whatif.position_before(RULES, rnd.initial, moves, DECISION_SEQ)
    assert seat == 0 and played == BLUNDER
    assert whatif.choice_index(before, 0, BEST) == 2
    scored = scoring.score_decision(before, 0, BLUNDER, DECISION_SEQ, seed=11, work=900)
    values, best = whatif.score_position(before, 0, BLUNDER, DECISION_SEQ, seed=11, work=900)
    assert values == [o.value for o in scored.options] and best == scored.best
    assert values[best] - values[1] >= scoring.THRESHOLDS[-1][1]


@pytest.mark.parametrize(
    "action",
    [
        Play(Tile.parse("6-6"), "A"),
        Play(Tile.parse("0-0"), "A"),
        PASS,
        DRAW,
        Play(Tile.parse("5-5"), "A"),
        Play(Tile.parse("6-5")),  # fits both ends: which one?
    ],
)
def test_an_illegal_action_is_refused(action) -> None:
    rnd, _moves = position()
    with pytest.raises(whatif.WhatIfError) as refused:
        whatif.choice_index(rnd, 0, action)
    assert refused.value.code == "illegal_action"


def test_a_move_number_out_of_range_is_refused() -> None:
    rnd, moves = position()
    for seq in (0, len(moves) + 1, -3):
        with pytest.raises(whatif.WhatIfError) as refused:
            whatif.position_before(RULES, rnd.initial, moves, seq)
        assert refused.value.code == "seq_out_of_range"


def test_the_answer_depends_on_the_movers_view_only() -> None:
    """Seat 1's hand swapped for another it could hold (no 5, no 6: it passed
    on them) and the sleeping tiles with it: the same values and words."""
    rnd, _ = position()
    other_hands = [HANDS[0], ["6-2", "2-0", "0-6", "6-4", "2-2"]]  # 0-1 became 2-2: unseen
    other, _ = position(other_hands)
    assert other.hand(1) != rnd.hand(1) and other.view(0)["hand"] == rnd.view(0)["hand"]
    assert _answer(rnd, 0, BLUNDER, DECISION_SEQ) == _answer(other, 0, BLUNDER, DECISION_SEQ)


def test_a_draw_tells_nothing_of_the_boneyard() -> None:
    """In a draw game, the position where someone must draw: its what-if is
    the same whichever tile lies on top of the boneyard."""
    rules = PRESETS["duelo"]
    found = 0
    for deal in range(40):
        rnd = Round.deal(rules, random.Random(deal))
        rng = random.Random(deal)
        while not rnd.is_over and found < 3:
            legal = rnd.legal_actions()
            if legal == [DRAW]:
                seat = rnd.turn
                shuffled = rnd.clone()
                bone = list(shuffled._boneyard)  # noqa: SLF001 - the test's own swap
                bone.reverse()
                shuffled._boneyard = bone  # noqa: SLF001
                assert _answer(rnd, seat, DRAW, 5) == _answer(shuffled, seat, DRAW, 5)
                assert whatif.facts(rnd, seat, DRAW) == [{"code": "draw"}]
                assert whatif.chain_after(rnd, seat, DRAW)["chain"] == rnd.public_view()["chain"]
                found += 1
            rnd.apply(rnd.turn, rng.choice(legal))
        if found >= 3:
            break
    assert found == 3


def test_facts_name_an_end_the_opponent_lacks_and_a_locked_game() -> None:
    rnd, _ = position()
    codes = {
        a: [(f["code"], f.get("number")) for f in whatif.facts(rnd, 0, a)]
        for a in whatif.choices(rnd, 0)
    }
    assert ("locks", 6) in codes[BLUNDER]
    assert ("opponent_void", 5) in codes[BEST] and ("double", 5) in codes[BEST]
    assert ("holds_all", 6) in codes[BEST]  # 6-5 in hand is the last 6 still out
