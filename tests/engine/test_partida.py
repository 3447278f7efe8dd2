"""The partida de 6 and the game of points: every knob (docs/rules.md, "How a round
is won", "Doubles in the deal", "The game of points"), and a differential count of
the ways of winning over 10,000 random rounds against the move log."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engine import (
    ALL_TILES,
    DOUBLES,
    PRESETS,
    IllegalAction,
    InvalidRules,
    Match,
    Pass,
    Play,
    Round,
    RuleSet,
    Tile,
)
from games.engine.fairness import FairDeal, check_round, too_many_doubles
from tests.engine.scoring_oracle import WAYS, fives_made, way_of_winning

PARTIDA = PRESETS["partida"]


def T(text: str) -> Tile:
    return Tile.parse(text)


def play_out(rnd: Round, rng: random.Random) -> Round:
    while not rnd.is_over:
        rnd.apply(rnd.turn, rng.choice(rnd.legal_actions()))
    return rnd


# -- knobs: validation and JSON


@pytest.mark.parametrize(
    ("knobs", "field", "words"),
    [
        ({"cruzada_points": 0}, "cruzada_points", "from 1 to 12"),
        ({"simples_points": "1"}, "simples_points", "from 1 to 12"),
        ({"closed_round": "later"}, "closed_round", "lower_hand, carry"),
        ({"redeal_doubles": 3}, "redeal_doubles", "4 to 7"),
        ({"redeal_worth_double": 1}, "redeal_worth_double", "true or false"),
        ({"target": 51}, "target", "between 1 and 50"),
        ({"doubles_prizes": True, "redeal_doubles": 6}, "doubles_prizes", "at most 5"),
    ],
)
def test_the_partida_knobs_refuse_what_cannot_be_played(knobs, field, words):
    with pytest.raises(InvalidRules) as caught:
        PARTIDA.replace(**knobs)
    assert caught.value.field == field and words in caught.value.message


@pytest.mark.parametrize(
    "knobs",
    [
        {"la_e_lo_points": 5},
        {"closed_round": "carry"},
        {"redeal_worth_double": True},
        {"doubles_prizes": True},
    ],
)
def test_the_partida_knobs_need_how_won_scoring(knobs):
    with pytest.raises(InvalidRules, match="how_won"):
        PRESETS["parceria"].replace(redeal_doubles=4, **knobs)


def test_a_redeal_needs_hands_that_can_hold_the_doubles():
    with pytest.raises(InvalidRules, match="never holds 5 doubles"):
        PRESETS["com_monte"].preset("com_monte", seats=4).replace(redeal_doubles=5, hand_size=4)
    assert PRESETS["parceria"].replace(redeal_doubles=5).redeal_doubles == 5  # any scoring


def test_new_knobs_are_written_only_away_from_their_default():
    assert PRESETS["parceria"].to_dict() == {
        "seats": 4, "partnership": True, "hand_size": 7, "draw": False,
        "first_opening": "double_six", "next_opening": "rotate", "lock_closure": False,
        "scoring": "opponents", "blocked_points": "as_domino",
        "blocked_tie": "last_player_loses", "goal": "points", "target": 50, "rounds": None,
        "next_round": "host", "preset": "parceria",
    }  # fmt: skip
    data = PARTIDA.replace(cruzada_points=6, closed_round="lower_hand").to_dict()
    assert data["cruzada_points"] == 6 and "closed_round" not in data
    for key in ("partida", "partida_dois", "pontos"):
        rules = PRESETS[key]
        assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_the_presets_and_their_options():
    assert (PARTIDA.scoring, PARTIDA.target, PARTIDA.closed_round, PARTIDA.redeal_doubles) == (
        "how_won", 6, "carry", 4,
    )  # fmt: skip
    assert RuleSet.preset("partida", target=7).target == 7
    two = PRESETS["partida_dois"]
    assert (two.seats, two.draw, two.scoring) == (2, True, "how_won")
    pontos = PRESETS["pontos"]
    assert (pontos.scoring, pontos.hand_size, pontos.draw, pontos.target) == ("fives", 5, True, 150)
    assert RuleSet.preset("pontos", seats=2).hand_size == 9
    assert RuleSet.preset("pontos", seats=3).hand_size == 7


# -- how a round is won


def test_a_simple_domino_and_a_carroca_against_one_end():
    rnd = Round.from_hands(PARTIDA, [["0-3", "1-1"], ["3-4"], ["0-0"], ["2-2"]], opener=0)
    rnd.apply(0, Play(T("0-3")))
    rnd.apply(1, Play(T("3-4"), "B"))
    assert (rnd.result.how, rnd.result.points) == ("simples", (0, 1))
    rnd = Round.from_hands(PARTIDA, [["0-3", "1-1"], ["3-3"], ["0-0"], ["2-2"]], opener=0)
    rnd.apply(0, Play(T("0-3")))
    rnd.apply(1, Play(T("3-3"), "B"))
    assert (rnd.result.how, rnd.result.points) == ("carroca", (0, 2))


def test_a_non_double_against_two_equal_ends_is_a_la_e_lo():
    rnd = Round.from_hands(
        PARTIDA, [["3-3", "1-1"], ["3-5"], ["0-0", "0-1"], ["2-2", "0-2"]], opener=0
    )
    rnd.apply(0, Play(T("3-3")))
    rnd.apply(1, Play(T("3-5"), "A"))
    assert rnd.result.how == "la_e_lo"


def test_the_values_are_knobs():
    rules = PARTIDA.replace(cruzada_points=6, simples_points=2)
    rnd = Round.from_hands(rules, [["0-3", "1-1"], ["3-4"], ["0-0"], ["2-2"]], opener=0)
    rnd.apply(0, Play(T("0-3")))
    rnd.apply(1, Play(T("3-4"), "B"))
    assert rnd.result.points == (0, 2)


def blocked(rules: RuleSet, hands, previous=None):
    """Seat 0 opens 6-6 and nobody else holds a 6: four passes block it."""
    rnd = Round.from_hands(rules, hands, opener=0, previous=previous)
    rnd.apply(0, Play(T("6-6")))
    for seat in (1, 2, 3, 0):
        rnd.apply(seat, Pass())
    return rnd.result


def test_a_blocked_round_scores_a_point_to_the_lower_hand():
    rules = PARTIDA.replace(closed_round="lower_hand")
    result = blocked(rules, [["6-6", "0-1"], ["1-1"], ["0-0"], ["3-3"]])
    assert (result.how, result.winner, result.points, result.carry) == ("fechado", 0, (1, 0), 0)


def test_a_drawn_blocked_round_passes_on_what_it_carried():
    rules = PARTIDA.replace(closed_round="lower_hand", blocked_tie="draw")
    earlier = blocked(PARTIDA, [["6-6", "0-0"], ["1-1"], ["2-2"], ["3-3"]])
    result = blocked(rules, [["6-6", "0-3"], ["1-1"], ["0-0"], ["0-1"]], previous=earlier)
    assert (result.winner, result.points, result.carry) == (None, (0, 0), 1)


def test_a_carried_bonus_is_worth_double_after_a_redeal_when_the_table_says_so():
    rules = PARTIDA.replace(redeal_worth_double=True)
    earlier = blocked(PARTIDA, [["6-6", "0-0"], ["1-1"], ["2-2"], ["3-3"]])
    rnd = Round.from_hands(
        rules, [["0-3", "1-1"], ["3-4"], ["0-0"], ["2-2"]], opener=0, previous=earlier,
        redeals=[[2, 4]],
    )  # fmt: skip
    rnd.apply(0, Play(T("0-3")))
    rnd.apply(1, Play(T("3-4"), "B"))
    assert rnd.result.points == (0, (1 + 1) * 2)
    assert rnd.result.carried == 1 * 2  # what the blocked round carried, doubled with the round


def test_a_match_of_the_partida_carries_blocked_rounds_from_round_to_round():
    match = Match(PARTIDA)
    first = blocked(PARTIDA, [["6-6", "0-0"], ["1-1"], ["2-2"], ["3-3"]])
    match.finish_round(first)
    rnd = match.new_round(random.Random(5))
    assert rnd.initial["bonus"] == 1
    play_out(rnd, random.Random(6))
    if rnd.result.winner is not None:
        assert sum(rnd.result.points) >= 2


# -- doubles in the deal


def order_with(seat_doubles: int, seat: int = 0, hand: int = 7) -> list[Tile]:
    """An order of the 28 tiles whose seat ``seat`` gets ``seat_doubles`` doubles."""
    doubles = list(DOUBLES[:seat_doubles])
    others = [t for t in ALL_TILES if t not in doubles]
    rest_doubles = [t for t in others if t.is_double]
    plain = [t for t in others if not t.is_double]
    mine = doubles + plain[: hand - seat_doubles]
    rest = rest_doubles + plain[hand - seat_doubles :]
    return rest[: seat * hand] + mine + rest[seat * hand :]


def test_a_redeal_with_rng_deals_until_no_hand_has_four_doubles():
    rng = random.Random(0)
    redealt = 0
    for _ in range(300):
        rnd = Round.deal(PARTIDA, rng)
        assert all(sum(t.is_double for t in rnd.hand(s)) < 4 for s in range(4))
        redealt += bool(rnd.initial.get("redeals"))
    assert redealt > 10  # about one deal in six has such a hand


def test_a_deal_that_must_be_made_again_without_a_source_is_refused():
    with pytest.raises(ValueError, match="holds 4 doubles"):
        Round.deal(PARTIDA, order=order_with(4, seat=1))
    assert too_many_doubles(order_with(4, seat=1), 4, 7, 4) == (1, 4)


def test_five_doubles_score_a_point_and_six_win_the_match():
    rules = PARTIDA.replace(doubles_prizes=True)
    clean = list(reversed(ALL_TILES))
    rnd = Round.deal(rules, order=order_with(5, seat=1), redeal_orders=[clean])
    assert rnd.initial["redeals"] == [[1, 5]]
    result = play_out(rnd, random.Random(1)).result
    won = getattr(rules, f"{result.how}_points") if result.winner is not None else 0
    stakes = [won if side == result.winner else 0 for side in (0, 1)]
    assert result.points == (stakes[0], stakes[1] + 1)  # side 1's prize whoever wins
    six = Round.deal(rules, order=order_with(6, seat=2), redeal_orders=[clean])
    result = six.result
    assert six.is_over and six.legal_actions() == []
    assert (result.reason, result.how, result.winner, result.wins_match) == (
        "doubles", "doubles", 0, True,
    )  # fmt: skip
    match = Match(rules)
    match.finish_round(result)
    assert match.is_over and match.winner == 0


def test_the_checker_follows_the_redeals_of_a_verifiable_deal():
    seed = next(
        s
        for s in (f"{i:064x}" for i in range(1, 300))
        if too_many_doubles(FairDeal.compute(s, "AB:1:1:").order, 4, 7, 4)
    )
    fair = FairDeal.compute(seed, "AB:1:1:")
    rnd = Round.deal(PARTIDA, order=fair.order, redeal_orders=fair.redeal_orders())
    play_out(rnd, random.Random(2))
    data = {
        "fair": {"version": "domino-fair-v1", "server_seed": seed, "client_seeds": [],
                 "commitment": fair.commitment, "material": "AB:1:1:"},
        "room": "AB", "match": 1, "number": 1, "rules": PARTIDA.to_dict(),
        "deal": rnd.initial, "moves": [],
    }  # fmt: skip
    assert check_round(data) == []
    without = {**data, "rules": PRESETS["parceria"].to_dict()}
    assert any("seat 0" in p or "seat 1" in p for p in check_round(without))


# -- the game of points


def test_a_blocked_round_of_points_goes_to_the_lighter_side_rounded():
    rules = PRESETS["pontos"]
    rnd = Round.from_hands(rules, [["6-6", "0-1"], ["1-2"], ["0-0"], ["3-4"]], opener=0)
    rnd.apply(0, Play(T("6-6")))  # 12: nothing
    for seat in (1, 2, 3, 0):
        rnd.apply(seat, Pass())
    result = rnd.result
    assert (result.winner, result.made, result.points) == (0, (0, 0), (10, 0))  # 3 + 7 -> 10


def test_the_views_of_the_newer_tables_carry_their_scores_and_no_other_view_changes():
    rnd = Round.from_hands(PRESETS["pontos"], [["5-5", "1-2"], ["0-5"], ["0-3"], ["3-5"]], opener=0)
    rnd.apply(0, Play(T("5-5")))
    view = rnd.view(1)
    assert (view["made"], view["count"]) == ([10, 0], 10)
    assert view["history"][0]["scored"] == 10  # each play that scored says so
    assert Round.from_view(view, [["1-2"], ["0-5"], ["0-3"], ["3-5"]]).to_dict()["made"] == [10, 0]
    rnd.apply(1, Play(T("0-5"), "A"))
    assert rnd.public_view()["history"][1]["scored"] == 10
    other = Round.deal(PARTIDA, random.Random(4))
    other.apply(other.turn, other.legal_actions()[0])
    assert "scored" not in other.public_view()["history"][0]
    partida = Round.deal(PARTIDA, random.Random(3)).public_view()
    assert partida["bonus"] == 0 and "made" not in partida
    for key in ("parceria", "duelo", "arena", "goat"):
        plain = Round.deal(PRESETS[key], random.Random(3))
        assert not {"made", "count", "bonus", "redeals"} & set(plain.public_view())
        assert not {"bonus", "redeals"} & set(plain.initial)
        assert "made" not in plain.to_dict()


def test_a_round_of_points_round_trips_and_replays():
    rnd = play_out(Round.deal(PRESETS["pontos"], random.Random(9)), random.Random(10))
    assert Round.from_dict(json.loads(json.dumps(rnd.to_dict()))).to_dict() == rnd.to_dict()
    assert Round.replay(rnd.rules, rnd.initial, rnd.history).result == rnd.result
    clone = rnd.clone()
    assert clone.result == rnd.result


# -- the differential count


def test_ten_thousand_random_rounds_count_each_way_of_winning_as_the_move_log_does():
    rng = random.Random(41)
    engine_count: Counter[str] = Counter()
    log_count: Counter[str] = Counter()
    for _ in range(10_000):
        rnd = play_out(Round.deal(PARTIDA, rng), rng)
        result = rnd.result
        engine_count[result.how] += 1
        history = rnd.public_view()["history"]
        if history[-1]["type"] == "play" and result.reason == "domino":
            way = way_of_winning(history)
            log_count[way] += 1
            assert result.points[result.winner] == getattr(PARTIDA, f"{way}_points")
        else:
            log_count["fechado"] += 1
            assert result.points == (0, 0)
    assert engine_count == log_count
    assert all(engine_count[way] > 0 for way in (*WAYS, "fechado")), engine_count


# -- the spinner


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_random_spinner_rounds_score_as_the_move_log_counts(seats):
    rules = RuleSet.preset("pontos", seats=seats).replace(spinner=True)
    rng = random.Random(seats)
    opened = 0
    for _ in range(150):
        rnd = Round.deal(rules, rng)
        while not rnd.is_over:
            seat = rnd.turn
            view = rnd.view(seat)
            assert json.loads(json.dumps(view)) == view
            guessed = Round.from_view(view, [list(rnd.hand(s)) for s in range(seats)],
                                      boneyard=list(rnd._boneyard))  # fmt: skip
            assert guessed.legal_actions() == rnd.legal_actions()
            rnd.apply(seat, rng.choice(rnd.legal_actions()))
        history = rnd.public_view()["history"]
        opened += any(e.get("end") in ("C", "D") for e in history)
        result = rnd.result
        assert list(result.made) == fives_made(history, rules.side_of, rules.sides, spinner=True)
        assert Round.replay(rules, rnd.initial, rnd.history).to_dict() == rnd.to_dict()
        assert Round.from_dict(json.loads(json.dumps(rnd.to_dict()))).to_dict() == rnd.to_dict()
    assert opened > 15


def test_a_spinner_side_is_refused_until_it_opens_and_needs_its_end_when_several_fit():
    rules = PRESETS["pontos"].replace(spinner=True)
    rnd = Round.from_hands(rules, [["5-5", "1-2"], ["0-5", "5-6"], ["4-5", "2-2"], ["1-5", "3-3"]],
                           opener=0)  # fmt: skip
    rnd.apply(0, Play(T("5-5")))
    with pytest.raises(IllegalAction) as refused:
        rnd.apply(1, Play(T("0-5"), "C"))
    assert refused.value.code == "does_not_fit"
    rnd.apply(1, Play(T("0-5"), "A"))
    rnd.apply(2, Play(T("4-5"), "B"))
    assert Play(T("1-5"), "C") in rnd.legal_actions() and Play(T("1-5"), "D") in rnd.legal_actions()
    with pytest.raises(IllegalAction) as refused:
        rnd.apply(3, Play(T("1-5")))
    assert refused.value.code == "end_required"
    with pytest.raises(InvalidRules, match="spinner"):
        PRESETS["pontos"].replace(spinner=True, scoring="opponents")
    with pytest.raises(InvalidRules, match="spinner"):
        PRESETS["parceria"].replace(spinner=True)


def test_a_spinner_played_later_opens_its_sides_after_one_more_tile_on_its_end():
    rules = PRESETS["pontos"].replace(spinner=True)
    rnd = Round.from_hands(rules, [["1-3", "0-0"], ["3-3", "0-1"], ["3-4", "0-2"], ["2-3", "0-3"]],
                           opener=0)  # fmt: skip
    rnd.apply(0, Play(T("1-3")))
    rnd.apply(1, Play(T("3-3"), "B"))  # the first double: the spinner, at end B
    assert set(rnd.public_view()["ends"]) == {"A", "B"}
    rnd.apply(2, Play(T("3-4"), "B"))
    assert rnd.public_view()["ends"] == {"A": 1, "B": 4, "C": 3, "D": 3}
    rnd.apply(3, Play(T("2-3"), "C"))
    assert rnd.fives_count() == 1 + 4 + 2
    assert rnd.chain[-1].end == "C" and rnd.chain[-1].exposed == 2
