"""Properties that hold for every preset over random deals and random legal play."""

import json
import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_TILES,
    PRESETS,
    Draw,
    IllegalAction,
    Match,
    Pass,
    Pick,
    Play,
    Round,
    RoundResult,
    RuleSet,
    Tile,
    hand_value,
)
from tests.engine.scoring_oracle import first_to_reach, fives_made, nearest_five, way_of_winning

TILE_TEXT = re.compile(r"^[0-6]-[0-6]$")
PROPERTY = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
presets = pytest.mark.parametrize("key", sorted(PRESETS))


def acting_seat(rnd: Round, rng: random.Random) -> int:
    if rnd.turn is not None:
        return rnd.turn
    return rng.choice(sorted(rnd.pending_picks))


def tiles_in(value) -> set[str]:
    """Every tile-looking string anywhere inside a JSON value."""
    if isinstance(value, str):
        return {value} if TILE_TEXT.match(value) else set()
    if isinstance(value, dict):
        return set().union(*(tiles_in(v) for v in value.values())) if value else set()
    if isinstance(value, list):
        return set().union(*(tiles_in(v) for v in value)) if value else set()
    return set()


def hidden_from(rnd: Round, seat: int) -> set[str]:
    others = {str(t) for s in range(rnd.rules.seats) if s != seat for t in rnd.hand(s)}
    unseen = set(map(str, ALL_TILES)) - {str(link.tile) for link in rnd.chain}
    unseen -= {str(t) for t in rnd.hand(seat)}
    return others | unseen  # other hands, the boneyard and the sleeping tiles


def bad_actions(rnd: Round, seat: int) -> list:
    legal = set(rnd.legal_actions(seat))
    candidates = [Draw(), Pass(), Pick(0), Pick(99), Play(Tile(0, 0)), Play(Tile(6, 6), "A")]
    candidates += [Play(t, e) for t in rnd.hand(seat) for e in ("A", "B", None)]
    playable = {a.tile for a in legal if isinstance(a, Play)}
    # An end-less play of a tile that fits exactly one end is accepted (docs/engine.md).
    return [
        a
        for a in candidates
        if a not in legal and not (isinstance(a, Play) and a.end is None and a.tile in playable)
    ]


def check_conservation(rnd: Round) -> None:
    state = rnd.to_dict()
    counted = [t for hand in state["hands"] for t in hand] + state["boneyard"]
    counted += [link["tile"] for link in state["chain"]]
    sleeping = set(map(str, ALL_TILES)) - set(counted)
    assert len(counted) == len(set(counted))
    assert len(counted) + len(sleeping) == 28
    if rnd.rules.draw:
        assert not sleeping or rnd.rules.seats * rnd.rules.hand_size + len(state["boneyard"]) < 28


def expected_points(rnd: Round, result: RoundResult) -> tuple[int, ...]:
    rules = rnd.rules
    goat = rules.scoring == "goat"
    plain = [0] * rules.sides
    counted = [0] * rules.sides
    for seat, hand in enumerate(result.hands):
        plain[rules.side_of(seat)] += sum(t.pips for t in hand)
        counted[rules.side_of(seat)] += hand_value(hand, goat)
    points = [0] * rules.sides
    w = result.winner
    if rules.scoring in ("how_won", "fives"):
        return expected_newer_points(rnd, result, plain)
    if w is None:
        return tuple(points)
    if result.reason == "blocked" and rules.blocked_points == "difference":
        points[w] = sum(counted) - 2 * counted[w]
    elif rules.scoring == "opponents":
        points[w] = sum(plain) - plain[w]
    elif rules.scoring == "all_hands":
        points[w] = sum(plain)
    elif rules.scoring == "series":
        points[w] = 1
    else:
        points = [0 if s == w else counted[s] for s in range(rules.sides)]
    return tuple(points)


def expected_newer_points(rnd: Round, result: RoundResult, plain: list[int]) -> tuple[int, ...]:
    """The partida's and the game of points' scores, from the move log (a first
    round of its match: nothing carried to it)."""
    rules = rnd.rules
    history = rnd.public_view()["history"]
    points = [0] * rules.sides
    w = result.winner
    if rules.scoring == "fives":
        points = fives_made(history, rules.side_of, rules.sides, spinner=rules.spinner)
        if w is not None:
            points[w] += nearest_five(sum(plain) - plain[w])
        return tuple(points)
    if w is not None:
        if result.reason == "domino":
            value = getattr(rules, f"{way_of_winning(history)}_points")
        else:
            value = 1
        doubled = rules.redeal_worth_double and rnd.initial.get("redeals")
        points[w] = value * (2 if doubled else 1)
    return tuple(points)


def play_round(rules, deal_seed: int, play_seed: int, previous=None):
    rng = random.Random(play_seed)
    rnd = Round.deal(rules, random.Random(deal_seed), previous=previous)
    steps = 0
    while not rnd.is_over:
        steps += 1
        assert steps < 200, "a round must end"
        seat = acting_seat(rnd, rng)
        check_conservation(rnd)
        for s in range(rules.seats):
            view = rnd.view(s)
            assert json.loads(json.dumps(view)) == view
            leaked = tiles_in({k: v for k, v in view.items() if k not in ("pick_off",)})
            assert not leaked & hidden_from(rnd, s), f"seat {s} sees hidden tiles"
        before = rnd.to_dict()
        for action in bad_actions(rnd, seat):
            with pytest.raises(IllegalAction):
                rnd.apply(seat, action)
        assert rnd.to_dict() == before
        rnd.apply(seat, rng.choice(rnd.legal_actions(seat)))
    return rnd


@presets
@PROPERTY
@given(deal_seed=st.integers(0, 2**32), play_seed=st.integers(0, 2**32))
def test_random_rounds_keep_every_invariant(key, deal_seed, play_seed):
    rules = PRESETS[key]
    rnd = play_round(rules, deal_seed, play_seed)
    result = rnd.result
    assert result.points == expected_points(rnd, result)
    assert result.pips == tuple(sum(t.pips for t in h) for h in result.hands)
    revealed = {str(t) for h in result.hands for t in h}
    boneyard = set(rnd.to_dict()["boneyard"])
    assert not revealed & boneyard
    assert rnd.legal_actions() == []
    assert Round.replay(rules, rnd.initial, rnd.history).to_dict() == rnd.to_dict()
    assert RoundResult.from_dict(json.loads(json.dumps(result.to_dict()))) == result


@presets
@PROPERTY
@given(seed=st.integers(0, 2**32), cut=st.integers(0, 60))
def test_a_round_restored_from_json_continues_identically(key, seed, cut):
    rules = PRESETS[key]
    rnd = Round.deal(rules, random.Random(seed))
    rng = random.Random(seed + 1)
    for _ in range(cut):
        if rnd.is_over:
            break
        seat = acting_seat(rnd, rng)
        rnd.apply(seat, rng.choice(rnd.legal_actions(seat)))
    copy = Round.from_dict(json.loads(json.dumps(rnd.to_dict())))
    clone = rnd.clone()
    assert copy.to_dict() == rnd.to_dict() == clone.to_dict()
    rng_a, rng_b, rng_c = (random.Random(seed + 2) for _ in range(3))
    for game, r in ((rnd, rng_a), (copy, rng_b), (clone, rng_c)):
        while not game.is_over:
            seat = acting_seat(game, r)
            game.apply(seat, r.choice(game.legal_actions(seat)))
    assert copy.to_dict() == rnd.to_dict() == clone.to_dict()


@presets
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_whole_matches_end_and_round_trip(key, seed):
    rules = PRESETS[key]
    rng = random.Random(seed)
    match = Match(rules)
    for _ in range(100):
        if match.is_over:
            break
        before = match.scores
        rnd = match.new_round(rng)
        while not rnd.is_over:
            seat = acting_seat(rnd, rng)
            rnd.apply(seat, rng.choice(rnd.legal_actions(seat)))
        if rules.scoring == "fives":
            check_first_to_reach(rnd, before)
        match.finish_round(rnd.result)
        assert Match.from_dict(json.loads(json.dumps(match.to_dict()))).to_dict() == match.to_dict()
    assert match.is_over
    assert sum(r.points[s] for r in match.results for s in range(rules.sides)) == sum(match.scores)
    if rules.goal == "points" and rules.scoring != "goat":  # one side scores a round
        assert match.winner is not None, "a match to a target never ends level"
        assert match.scores[match.winner] == max(match.scores)
        assert sum(score >= rules.target for score in match.scores) == 1


def check_first_to_reach(rnd: Round, before: tuple[int, ...]) -> None:
    """The game of points (docs/rules.md): the round stops at the first play that
    takes a side to the target, won by that side, with no count of the hands."""
    rules, result = rnd.rules, rnd.result
    history = rnd.public_view()["history"]
    reached = first_to_reach(history, rules.side_of, before, rules.target, rules.spinner)
    if reached is None:
        assert result.reason != "target"
        return
    number, side = reached
    assert result.reason == "target" and result.winner == side
    assert number == sum(1 for entry in history if entry["type"] == "play") - 1
    made = fives_made(history, rules.side_of, rules.sides, spinner=rules.spinner)
    assert list(result.points) == made == list(result.made)
    assert Round.replay(rules, rnd.initial, rnd.history).to_dict() == rnd.to_dict()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), spinner=st.booleans(), seats=st.sampled_from([2, 3, 4]))
def test_a_pontos_match_is_won_by_the_first_side_to_reach_the_target(seed, spinner, seats):
    rules = RuleSet.preset("pontos", seats=seats, target=50).replace(spinner=spinner)
    rng = random.Random(seed)
    match = Match(rules)
    while not match.is_over:
        before = match.scores
        rnd = match.new_round(rng)
        while not rnd.is_over:
            rnd.apply(rnd.turn, rng.choice(rnd.legal_actions()))
        check_first_to_reach(rnd, before)
        match.finish_round(rnd.result)
    assert match.winner is not None and match.scores[match.winner] >= 50
    assert [s for s in match.scores if s >= 50] == [match.scores[match.winner]]
