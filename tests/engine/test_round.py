"""Round: legality and its error codes, openings, blocks, scoring, pick-off, views."""

import json
import random

import pytest

from games.engine import (
    PRESETS,
    Draw,
    IllegalAction,
    Pass,
    Pick,
    Play,
    Round,
    RoundResult,
    RuleSet,
    Tile,
    action_from_dict,
)


def T(text):
    return Tile.parse(text)


def refused(rnd, seat, action, code):
    before = rnd.to_dict()
    with pytest.raises(IllegalAction) as err:
        rnd.apply(seat, action)
    assert err.value.code == code, err.value.message
    assert rnd.to_dict() == before
    return err.value


# -- turn, hand and fit --------------------------------------------------------
@pytest.fixture
def parceria():
    rnd = Round.from_hands(
        PRESETS["parceria"],
        hands=[["6-6", "3-4"], ["6-2", "6-3"], ["4-4", "5-5"], ["1-1", "2-2"]],
    )
    rnd.apply(0, Play(T("6-6")))
    return rnd


def test_only_the_seat_to_act_may_act(parceria):
    refused(parceria, 2, Play(T("4-4"), "A"), "not_your_turn")
    assert parceria.legal_actions(2) == []


def test_a_tile_must_be_in_hand_and_fit(parceria):
    refused(parceria, 1, Play(T("0-6"), "A"), "not_in_hand")
    parceria.apply(1, Play(T("2-6"), "A"))
    refused(parceria, 2, Play(T("5-5"), "A"), "does_not_fit")
    refused(parceria, 2, Play(T("5-5")), "does_not_fit")


def test_a_tile_that_fits_both_ends_needs_its_end(parceria):
    assert parceria.ends == (6, 6)
    assert parceria.legal_actions() == [
        Play(T("2-6"), "A"), Play(T("2-6"), "B"), Play(T("3-6"), "A"), Play(T("3-6"), "B")
    ]  # fmt: skip
    refused(parceria, 1, Play(T("2-6")), "end_required")
    parceria.apply(1, Play(T("2-6"), "B"))
    assert parceria.ends == (6, 2)
    assert parceria.chain[-1].exposed == 2 and parceria.chain[-1].end == "B"


def test_a_play_without_end_goes_to_the_only_end_that_fits(parceria):
    parceria.apply(1, Play(T("2-6"), "A"))
    parceria.apply(2, Pass())
    parceria.apply(3, Play(T("2-2")))
    assert parceria.ends == (2, 6)
    assert parceria.history[-1] == (3, Play(T("2-2"), "A"))


def test_draws_and_passes_are_refused_when_a_tile_fits(parceria):
    refused(parceria, 1, Pass(), "must_play")
    refused(parceria, 1, Draw(), "not_a_draw_game")


def test_over_rounds_refuse_everything():
    rnd = Round.from_hands(PRESETS["parceria"], hands=[["6-6"], ["1-2"], ["1-3"], ["1-4"]])
    rnd.apply(0, Play(T("6-6")))
    assert rnd.is_over and rnd.turn is None and rnd.legal_actions() == []
    refused(rnd, 1, Pass(), "round_over")


@pytest.mark.parametrize(
    "bad", [None, {"type": "fly"}, {"type": "play"}, {"type": "play", "tile": "7-7"},
            {"type": "play", "tile": "1-2", "end": "C"}, {"type": "pick", "index": "3"}, []],
)  # fmt: skip
def test_malformed_actions_are_refused(bad):
    with pytest.raises(IllegalAction) as err:
        action_from_dict(bad)
    assert err.value.code == "malformed"


def test_actions_round_trip_through_dicts():
    for action in (Play(T("3-5"), "A"), Play(T("1-1")), Draw(), Pass(), Pick(4)):
        assert action_from_dict(json.loads(json.dumps(action.to_dict()))) == action
    assert Play(T("3-5"), "A").to_dict() == {"type": "play", "tile": "3-5", "end": "A"}


def test_bad_seats_are_malformed(parceria):
    refused(parceria, 7, Pass(), "malformed")
    refused(parceria, "1", Pass(), "malformed")


# -- the boneyard ----------------------------------------------------------------
def test_draw_until_playable_then_pass_only_when_the_boneyard_is_empty():
    rnd = Round.from_hands(
        PRESETS["duelo"], hands=[["6-6", "0-1", "5-5"], ["2-3", "4-5"]], boneyard=["0-2", "1-6"]
    )
    rnd.apply(0, Play(T("6-6")))
    refused(rnd, 1, Pass(), "must_draw")
    assert rnd.legal_actions() == [Draw()]
    rnd.apply(1, Draw())
    assert rnd.turn == 1 and T("0-2") in rnd.hand(1) and rnd.boneyard_count == 1
    rnd.apply(1, Draw())
    assert rnd.legal_actions() == [Play(T("1-6"), "A"), Play(T("1-6"), "B")]
    rnd.apply(1, Play(T("1-6"), "A"))
    assert rnd.turn == 0 and rnd.boneyard_count == 0
    rnd.apply(0, Play(T("0-1"), "A"))
    rnd.apply(1, Play(T("0-2"), "A"))
    assert rnd.legal_actions() == [Pass()]
    refused(rnd, 0, Draw(), "boneyard_empty")
    rnd.apply(0, Pass())


def test_draws_neither_count_nor_reset_passes():
    rules = RuleSet.preset("com_monte", seats=3, hand_size=2)
    rnd = Round.from_hands(
        rules, hands=[["6-6", "0-0"], ["1-1", "1-2"], ["2-2", "2-3"]], boneyard=["3-3"], opener=0
    )
    rnd.apply(0, Play(T("6-6")))
    rnd.apply(1, Draw())
    assert rnd.passes_in_row == 0
    rnd.apply(1, Pass())
    rnd.apply(2, Pass())
    assert rnd.passes_in_row == 2
    rnd.apply(0, Pass())
    assert rnd.result.reason == "blocked"


# -- openings --------------------------------------------------------------------
def test_double_six_missing_falls_back_to_the_highest_double():
    rules = RuleSet.preset("classico", seats=2)
    rnd = Round.from_hands(rules, hands=[["5-5", "1-2"], ["4-4", "0-6"]], boneyard=["6-6"])
    assert (rnd.opener, rnd.mandatory_tile) == (0, T("5-5"))


def test_one_one_then_lowest_double_then_zero_zero_then_highest_tile():
    goat = PRESETS["goat"].replace(seats=2, partnership=False, draw=True)
    cases = [
        ([["6-6", "2-3"], ["1-1", "0-4"]], 1, "1-1"),
        ([["6-6", "2-2"], ["3-3", "0-4"]], 0, "2-2"),
        ([["0-0", "2-3"], ["1-4", "0-6"]], 0, "0-0"),
        ([["1-5", "2-3"], ["1-4", "0-6"]], 1, "0-6"),  # 6 pips each: the larger half wins
    ]
    for hands, opener, tile in cases:
        rnd = Round.from_hands(goat, hands=hands, boneyard=["3-4"])
        assert (rnd.opener, rnd.mandatory_tile) == (opener, T(tile))


def test_lowest_double_without_doubles_the_lowest_tile_opens_freely():
    rnd = Round.from_hands(
        PRESETS["com_monte"], hands=[["1-2", "5-6"], ["0-3", "4-6"]], boneyard=["2-4"]
    )
    assert (rnd.opener, rnd.mandatory_tile) == (1, None)  # 0-3 < 1-2


def test_highest_tile_opens_freely():
    rnd = Round.from_hands(
        PRESETS["internacional_dois"], hands=[["2-5", "0-0"], ["1-6", "0-1"]], boneyard=["3-3"]
    )
    assert (rnd.opener, rnd.mandatory_tile) == (1, None)
    assert len(rnd.legal_actions()) == 2


def test_winner_opens_next_round():
    rules = PRESETS["internacional"]
    domino = RoundResult("domino", 1, 0, (0, 9), (3, 0, 6, 0), ((), (), (), ()), 3)
    assert Round.deal(rules, random.Random(1), previous=domino).opener == 3
    blocked = RoundResult("blocked", 0, 1, (9, 0), (5, 4, 2, 4), ((), (), (), ()), 3)
    assert Round.deal(rules, random.Random(1), previous=blocked).opener == 2
    tie = RoundResult("blocked", 0, 1, (9, 0), (3, 4, 3, 4), ((), (), (), ()), 3)
    assert Round.deal(rules, random.Random(1), previous=tie).opener == 2  # first after opener 1
    drawn = RoundResult("blocked", None, 1, (0, 0), (3, 4, 3, 4), ((), (), (), ()), 3)
    assert Round.deal(rules, random.Random(1), previous=drawn).opener == 1


def test_same_opening_every_round():
    previous = RoundResult("domino", 1, 0, (0, 9), (3, 0), ((), ()), 1)
    rnd = Round.deal(PRESETS["duelo"], random.Random(4), previous=previous)
    assert rnd.mandatory_tile is not None


# -- blocked rounds and scoring ------------------------------------------------------
def blocked_parceria(rules, hands, opener=3, opening="6-6"):
    rnd = Round.from_hands(rules, hands=hands, opener=opener, first_of_match=False)
    rnd.apply(opener, Play(T(opening)))
    for k in range(1, 5):
        rnd.apply((opener + k) % 4, Pass())
    return rnd.result


def test_opener_wins_a_tie_on_its_side():
    rules = PRESETS["classico"]
    result = blocked_parceria(rules, [["5-5"], ["2-2"], ["0-0"], ["6-6", "3-3"]])
    assert result.winner == 1  # seat 3 opened
    assert result.points == (0, 20)  # all_hands: every hand counts


def test_all_hands_domino_counts_the_partner_too():
    rnd = Round.from_hands(
        PRESETS["classico"], hands=[["4-4"], ["2-5"], ["3-3"], ["6-6", "0-0"]], opener=2
    )
    rnd.apply(2, Play(T("3-3")))
    assert rnd.result.points == (8 + 7 + 12, 0)


def test_goat_lone_doubles_count_25_and_50_as_penalties():
    rules = PRESETS["goat"]
    rnd = Round.from_hands(rules, hands=[["1-2"], ["6-6"], ["0-1"], ["0-0"]], opener=0)
    rnd.apply(0, Play(T("1-2")))
    result = rnd.result
    assert result.winner == 0
    assert result.points == (0, 50 + 25)
    assert result.pips == (0, 12, 1, 0)


def test_goat_special_values_decide_a_block():
    rules = PRESETS["goat"]
    # side 0: a lone 6-6 (50) + 1-1 and 0-0 (2); side 1: 3-3, 4-4, 2-2 (18) -> side 1 wins
    result = blocked_parceria(
        rules, [["5-5", "6-6"], ["3-3"], ["0-0", "1-1"], ["4-4", "2-2"]], opener=0, opening="5-5"
    )
    assert result.counted == (50 + 2, 6 + 8 + 4)
    assert result.winner == 1
    assert result.points == (52, 0)


def test_tiebreak_pick_off_decides_a_tied_arena_block():
    order = ["0-0"] + [
        t for t in map(str, sorted(Tile(a, b) for a in range(7) for b in range(a, 7))) if t != "0-0"
    ]
    rnd = Round.from_hands(
        PRESETS["arena"], hands=[["6-6", "2-3"], ["1-4"]], opener=0, tiebreak_order=order
    )
    rnd.apply(0, Play(T("6-6")))
    rnd.apply(1, Pass())
    rnd.apply(0, Pass())
    assert not rnd.is_over and rnd.turn is None
    assert rnd.pending_picks == {0, 1}
    assert len(rnd.legal_actions(0)) == 28
    refused(rnd, 0, Play(T("2-3"), "A"), "not_your_turn")
    refused(rnd, 0, Pick(28), "bad_pick")
    rnd.apply(1, Pick(0))  # 0-0: the lowest tile
    refused(rnd, 1, Pick(3), "not_your_turn")
    refused(rnd, 0, Pick(0), "bad_pick")
    view_0 = rnd.view(0)
    assert view_0["pick_off"]["pending"] == [0] and view_0["pick_off"]["mine"] is None
    rnd.apply(0, Pick(5))
    assert rnd.result.winner == 1 and rnd.result.points == (0, 1)
    assert rnd.result.tiebreak[0][0] == {"seat": 0, "index": 5, "tile": order[5]}
    again = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))
    assert again.to_dict() == rnd.to_dict()


# -- what a seat may know ------------------------------------------------------------
def test_a_view_holds_the_own_hand_and_public_facts_only(parceria):
    view = parceria.view(1)
    assert view["hand"] == ["2-6", "3-6"]
    assert view["tile_counts"] == [1, 2, 2, 2]
    assert view["legal"][0] == {"type": "play", "tile": "2-6", "end": "A"}
    assert view["chain"] == [{"tile": "6-6", "seat": 0, "end": None, "exposed": 6}]
    assert view["history"] == [
        {"seat": 0, "type": "play", "tile": "6-6", "end": None, "ends_before": None}
    ]
    other = parceria.view(2)
    assert other["legal"] == [] and other["hand"] == ["4-4", "5-5"]
    assert "3-4" not in json.dumps(other)


def test_a_pass_tells_everyone_which_numbers_are_missing(parceria):
    parceria.apply(1, Play(T("2-6"), "A"))
    parceria.apply(2, Pass())
    assert parceria.view(0)["history"][-1] == {
        "seat": 2,
        "type": "pass",
        "ends_before": {"A": 2, "B": 6},
    }


def test_the_result_reveals_hands_but_never_the_boneyard():
    rnd = Round.from_hands(PRESETS["duelo"], hands=[["6-6"], ["2-3"]], boneyard=["4-5"])
    rnd.apply(0, Play(T("6-6")))
    result = rnd.view(1)["result"]
    assert result["hands"] == [[], ["2-3"]]
    assert "4-5" not in json.dumps(rnd.view(1))


def test_replay_refuses_a_tampered_log(parceria):
    history = list(parceria.history) + [(1, Play(T("5-5"), "A"))]
    with pytest.raises(IllegalAction):
        Round.replay(parceria.rules, parceria.initial, history)
