"""RuleSet: validation, presets with their derivations, JSON."""

import json

import pytest

from games.engine import PRESET_OPTIONS, PRESETS, InvalidRules, RuleSet

TABLE = {
    # key: seats, partnership, hand, draw, first, next, lock, scoring, blocked, tie, goal, target/rounds, next_round
    "parceria": (4, True, 7, False, "double_six", "rotate", False, "opponents", "as_domino", "last_player_loses", "points", 50, "host"),
    "duelo": (2, False, 7, True, "highest_double", "same", False, "opponents", "difference", "draw", "single", None, "all_ready"),
    "arena": (2, False, 7, True, "highest_double", "same", True, "series", "as_domino", "tiebreak", "best_of", 5, "all_ready"),
    "classico": (4, True, 7, False, "highest_double", "rotate", False, "all_hands", "as_domino", "opener_wins", "points", 100, "host"),
    "com_monte": (2, False, 7, True, "lowest_double", "same", False, "opponents", "as_domino", "draw", "points", 100, "all_ready"),
    "sem_monte": (2, False, 7, False, "lowest_double", "same", False, "opponents", "as_domino", "draw", "points", 100, "all_ready"),
    "goat": (4, True, 7, False, "one_one", "winner", False, "goat", "as_domino", "draw", "points", 101, "all_ready"),
    "internacional": (4, True, 7, False, "highest_tile", "winner", False, "opponents", "as_domino", "draw", "points", 100, "all_ready"),
    "internacional_dois": (2, False, 7, True, "highest_tile", "winner", False, "opponents", "as_domino", "draw", "points", 100, "all_ready"),
    "partida": (4, True, 7, False, "double_six", "rotate", False, "how_won", "as_domino", "last_player_loses", "points", 6, "all_ready"),
    "partida_dois": (2, False, 7, True, "highest_double", "rotate", False, "how_won", "as_domino", "draw", "points", 6, "all_ready"),
    "pontos": (4, True, 5, True, "highest_double", "winner", False, "fives", "as_domino", "draw", "points", 150, "all_ready"),
}  # fmt: skip


@pytest.mark.parametrize("key", sorted(TABLE))
def test_presets_match_the_table_of_rules_md(key):
    r = PRESETS[key]
    goal_value = r.rounds if r.goal == "best_of" else r.target
    actual = (
        r.seats, r.partnership, r.hand_size, r.draw, r.first_opening, r.next_opening,
        r.lock_closure, r.scoring, r.blocked_points, r.blocked_tie, r.goal, goal_value,
        r.next_round,
    )  # fmt: skip
    assert actual == TABLE[key]
    assert RuleSet.preset(key) == r


@pytest.mark.parametrize("key", sorted(TABLE))
def test_rules_round_trip_through_json(key):
    rules = PRESETS[key]
    assert RuleSet.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules


def test_only_the_arena_table_is_a_walkover_table():
    assert {key for key, rules in PRESETS.items() if rules.walkover} == {"arena"}
    assert RuleSet.from_dict({"seats": 2, "partnership": False}).walkover is False
    with pytest.raises(InvalidRules):
        PRESETS["duelo"].replace(walkover="yes")


def test_derived_knobs_follow_the_options():
    assert (
        RuleSet.preset("classico", seats=3).draw,
        RuleSet.preset("classico", seats=3).partnership,
    ) == (True, False)
    assert RuleSet.preset("classico", seats=4, partnership=False).draw is False
    assert RuleSet.preset("com_monte", seats=3).hand_size == 5
    assert RuleSet.preset("com_monte", seats=4).hand_size == 5
    assert RuleSet.preset("com_monte", seats=4).partnership is True
    assert RuleSet.preset("com_monte", seats=2).hand_size == 7
    assert RuleSet.preset("com_monte", seats=3, hand_size=4).hand_size == 4
    assert RuleSet.preset("goat", seats=3).draw is True
    assert RuleSet.preset("goat", seats=2, draw=False).draw is False
    assert RuleSet.preset("sem_monte", seats=4, scoring="goat").scoring == "goat"
    assert RuleSet.preset("parceria", target=150).target == 150


def test_replace_sets_knobs_literally_and_validates():
    rules = PRESETS["classico"].replace(seats=3, partnership=False)
    assert rules.draw is False  # no derivation with replace
    with pytest.raises(ValueError):
        PRESETS["parceria"].replace(seats=2)  # partnership needs four seats


@pytest.mark.parametrize(
    ("knobs", "field"),
    [
        ({"seats": 2}, "partnership"),
        ({"seats": 5, "partnership": False}, "seats"),
        ({"hand_size": 1}, "hand_size"),
        ({"hand_size": 8}, "hand_size"),
        ({"draw": True}, "draw"),  # 4 x 7 = 28 leaves nothing to draw
        ({"target": 40}, "target"),
        ({"target": 301}, "target"),
        ({"scoring": "bogus"}, "scoring"),
        ({"partnership": False, "blocked_points": "difference"}, "blocked_points"),
        ({"goal": "best_of", "rounds": 4, "scoring": "series"}, "rounds"),
        ({"goal": "best_of", "rounds": 5}, "goal"),
    ],
)
def test_impossible_combinations_raise_a_clear_value_error(knobs, field):
    with pytest.raises(ValueError) as err:
        PRESETS["parceria"].replace(**knobs)
    assert isinstance(err.value, InvalidRules)
    assert err.value.field == field
    assert str(err.value)[0].isupper() and len(str(err.value)) > 15


def test_presets_refuse_knobs_that_are_not_their_options():
    with pytest.raises(ValueError) as err:
        RuleSet.preset("parceria", scoring="goat")
    assert err.value.field == "scoring"
    with pytest.raises(ValueError):
        RuleSet.preset("goat", target=110)
    with pytest.raises(ValueError):
        RuleSet.preset("nope")
    assert PRESET_OPTIONS["parceria"] == {"target"}
