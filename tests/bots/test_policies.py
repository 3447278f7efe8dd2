"""choose_action: every level, every table, only legal actions."""

import random
import time

import pytest

import bots.policies
from bots.policies import LEVELS, choose_action
from games.engine import PRESETS, Match, Pick, Play, Round, Tile

from .conftest import play_round


def assert_legal(view, action):
    assert action.to_dict() in view["legal"], (action, view["legal"])
    if type(action) is Play and view["chain"]:
        assert action.end in view["ends"]  # A or B, or an open side of a spinner (C, D)


@pytest.mark.parametrize("key", sorted(PRESETS))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_only_legal_actions_on_every_table(key, level):
    rules = PRESETS[key]
    rng = random.Random(f"{key}-{level}")
    match = Match(rules)
    for _ in range(4 if level == "hard" else 8):
        if match.is_over:
            match = Match(rules)
        rnd = match.new_round(rng)
        result = play_round(rnd, [level] * rules.seats, rng, assert_legal, scores=match.scores)
        match.finish_round(result)


@pytest.mark.parametrize("options", [{"seats": 3}, {"seats": 4, "partnership": False}])
@pytest.mark.parametrize("level", LEVELS)
def test_other_seat_counts(options, level):
    rules = PRESETS["com_monte"].preset("com_monte", **options)
    rng = random.Random(3)
    play_round(Round.deal(rules, rng), [level] * rules.seats, rng, assert_legal)


@pytest.mark.parametrize("level", LEVELS)
def test_goat_with_a_boneyard_at_three_seats(level):
    rules = PRESETS["goat"].preset("goat", seats=3)
    rng = random.Random(5)
    play_round(Round.deal(rules, rng), [level] * 3, rng, assert_legal)


def tied_arena_round():
    """Seat 0 opens 0-0; nobody has a 0 and the boneyard is empty: blocked, 5 pips each."""
    rnd = Round.from_hands(PRESETS["arena"], hands=[["0-0", "2-3"], ["1-4"]], boneyard=[], opener=0)
    rnd.apply(0, Play(Tile(0, 0)))
    while rnd.turn is not None:
        rnd.apply(rnd.turn, rnd.legal_actions()[0])
    assert rnd.pending_picks == {0, 1}
    return rnd


@pytest.mark.parametrize("level", LEVELS)
def test_pick_off_picks_a_free_position(level):
    rnd = tied_arena_round()
    rnd.apply(0, Pick(5))
    view = rnd.view(1)
    assert view["pick_off"] is not None
    action = choose_action(view, level, random.Random(2), budget_ms=4)
    assert type(action) is Pick and action.index != 5
    assert_legal(view, action)


@pytest.mark.parametrize("level", LEVELS)
def test_forced_moves_come_back_as_they_are(level):
    rnd = Round.from_hands(
        PRESETS["duelo"], hands=[["6-6", "1-2"], ["3-4"]], boneyard=["0-1", "5-5"]
    )
    view = rnd.view(0)
    assert choose_action(view, level, random.Random(1)) == Play(Tile(6, 6))
    rnd.apply(0, Play(Tile(6, 6)))
    view = rnd.view(1)
    assert view["legal"] == [{"type": "draw"}]
    assert choose_action(view, level, random.Random(1)).to_dict() == {"type": "draw"}


def test_unknown_level_and_nothing_to_decide_are_refused():
    rnd = Round.deal(PRESETS["parceria"], random.Random(1))
    with pytest.raises(ValueError, match="level"):
        choose_action(rnd.view(rnd.turn), "genius", random.Random(1))
    other = (rnd.turn + 1) % 4
    with pytest.raises(ValueError, match="no legal action"):
        choose_action(rnd.view(other), "medium", random.Random(1))


def test_easy_sheds_its_heaviest_fitting_tile():
    rnd = Round.from_hands(
        PRESETS["parceria"],
        hands=[["3-3", "2-2"], ["3-4", "1-3", "5-6", "0-3"], ["0-0"], ["1-1"]],
        opener=0,
    )
    rnd.apply(0, Play(Tile(3, 3)))
    action = choose_action(rnd.view(1), "easy", random.Random(1))
    assert action.tile == Tile(3, 4)


def test_medium_is_fast():
    """The server plays clock timeouts with medium: it must stay cheap."""
    rng = random.Random(9)
    times = []

    def timed(view, action):
        start = time.perf_counter()
        choose_action(view, "medium", rng)
        times.append(time.perf_counter() - start)

    for _ in range(5):
        play_round(Round.deal(PRESETS["parceria"], rng), ["medium"] * 4, rng, timed)
    times.sort()
    assert times[len(times) // 2] < 0.002


def test_hard_is_deterministic_for_a_given_rng_and_budget():
    rng = random.Random(4)
    rnd = Round.deal(PRESETS["parceria"], rng)
    for _ in range(6):
        rnd.apply(rnd.turn, choose_action(rnd.view(rnd.turn), "medium", rng))
    view = rnd.view(rnd.turn)
    first = choose_action(view, "hard", random.Random(11), budget_ms=10)
    second = choose_action(view, "hard", random.Random(11), budget_ms=10)
    assert first == second


def test_the_docstring_example_holds():
    import doctest

    failures, _ = doctest.testmod(bots.policies)
    assert failures == 0
