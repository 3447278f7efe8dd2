"""`Round.apply` and `Round.legal_actions` against a plain reference of the rules.

The engine decides legality in one path ordered for speed (the inner loop of the
bots and of bench/engine.py). This file states the same rules the slow, obvious
way, from the round's JSON state (`to_dict`), and checks over random games of
every preset (and their tie-break and lock variants) that the engine agrees on:

* the legal actions of every seat, in the engine's order;
* for every candidate action of every seat, plausible or not, whether it is
  accepted and, if not, the error code (the order of the checks included);
* the state after each accepted play, draw or pass.
"""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    ALL_TILES,
    PRESETS,
    Draw,
    IllegalAction,
    Pass,
    Pick,
    Play,
    Round,
    RuleSet,
    Tile,
)


def variants() -> dict[str, RuleSet]:
    """Every preset and its tie-break and lock changes, the spinner's played
    with two ends: this reference lays a line with two ends only; the
    spinner's four are held to the move log's own count instead
    (tests/engine/test_partida.py, `test_random_spinner_rounds_score_as_the_move_log_counts`,
    and tests/engine/test_fives_count.py)."""
    rules = {}
    for key, preset in sorted(PRESETS.items()):
        preset = preset.replace(spinner=False) if preset.spinner else preset
        rules[key] = preset
        for name, change in (("tiebreak", {"blocked_tie": "tiebreak"}), ("lock", {})):
            if name == "lock":
                change = {"lock_closure": not preset.lock_closure}
            try:
                rules[f"{key}+{name}"] = preset.replace(**change)
            except ValueError:
                pass
    return rules


VARIANTS = variants()


# -- the reference ------------------------------------------------------------------
def side_of(rules: RuleSet, seat: int) -> int:
    return seat % 2 if rules.partnership else seat


def reference_legal(rules: RuleSet, state: dict, seat: int | None) -> list:
    """docs/rules.md, rules 3 to 6, and the pick-off, read straight from the JSON state."""
    if state["result"] is not None:
        return []
    pick = state["pick"]
    if pick is not None:
        chosen = {s for s, _ in pick["current"]}
        if seat is None or seat not in pick["pickers"] or seat in chosen:
            return []
        return [Pick(i) for i in range(28) if i not in pick["taken"]]
    if seat is None:
        seat = state["turn"]
    if seat != state["turn"]:
        return []
    hand = [Tile.parse(t) for t in state["hands"][seat]]
    plays = []
    if state["ends"] is None:
        mandatory = state["mandatory_tile"]
        if mandatory is not None:
            plays = [Play(Tile.parse(mandatory))] if Tile.parse(mandatory) in hand else []
        else:
            plays = [Play(t) for t in hand]
    else:
        x, y = state["ends"]
        for t in hand:
            if t.has(x):
                plays.append(Play(t, "A"))
            if t.has(y):
                plays.append(Play(t, "B"))
    if plays:
        return plays
    if rules.draw and state["boneyard"]:
        return [Draw()]
    return [Pass()]


def reference_refusal(rules: RuleSet, state: dict, seat, action) -> str | None:
    """The error code `apply` must raise for ``action`` by ``seat`` (None: accepted)."""
    if type(seat) is not int or not 0 <= seat < rules.seats:
        return "malformed"
    if state["result"] is not None:
        return "round_over"
    pick = state["pick"]
    if pick is not None:
        if type(action) is not Pick:
            return "not_your_turn"
        if seat not in pick["pickers"] or seat in {s for s, _ in pick["current"]}:
            return "not_your_turn"
        if type(action.index) is not int or not 0 <= action.index < 28:
            return "bad_pick"
        return "bad_pick" if action.index in pick["taken"] else None
    if type(action) is Pick:
        return "bad_pick"
    if seat != state["turn"]:
        return "not_your_turn"
    hand = [Tile.parse(t) for t in state["hands"][seat]]
    ends = state["ends"]
    fitting = [t for t in hand if ends is None or t.has(ends[0]) or t.has(ends[1])]
    if type(action) is Play:
        tile, end = action.tile, action.end
        if type(tile) is not Tile or end not in (None, "A", "B"):
            return "malformed"
        if tile not in hand:
            return "not_in_hand"
        if ends is None:
            if end is not None:
                return "malformed"
            mandatory = state["mandatory_tile"]
            if mandatory is not None and tile != Tile.parse(mandatory):
                return "opening_tile_required"
            return None
        fits = {"A": tile.has(ends[0]), "B": tile.has(ends[1])}
        if end is None:
            if fits["A"] and fits["B"]:
                return "end_required"
            return None if fits["A"] or fits["B"] else "does_not_fit"
        return None if fits[end] else "does_not_fit"
    if type(action) is Draw:
        if not rules.draw:
            return "not_a_draw_game"
        if fitting:
            return "must_play"
        return None if state["boneyard"] else "boneyard_empty"
    if type(action) is Pass:
        if fitting:
            return "must_play"
        return "must_draw" if rules.draw and state["boneyard"] else None
    return "malformed"


def reference_after(rules: RuleSet, state: dict, seat: int, action) -> dict:
    """The state after an accepted play, draw or pass (rules 2 to 9). ``over``: the
    ordinary play has ended (domino, block, or a tie-break pick-off begins); who
    wins is checked in test_properties.py and test_round.py."""
    hands = [list(h) for h in state["hands"]]
    boneyard = list(state["boneyard"])
    ends = state["ends"]
    passes = state["passes_in_row"]
    chain = list(state["chain"])
    turn = (seat + 1) % rules.seats
    over = False
    if type(action) is Draw:
        hands[seat].append(boneyard.pop(0))
        turn = seat
        entry = {"type": "draw"}
    elif type(action) is Pass:
        passes += 1
        over = passes == rules.seats
        entry = {"type": "pass"}
    else:
        tile, end = action.tile, action.end
        hands[seat].remove(str(tile))
        passes = 0
        if ends is None:
            new_ends = [tile.a, tile.b]
            chain.append({"tile": str(tile), "seat": seat, "end": None, "exposed": tile.b})
        else:
            if end is None:
                end = "A" if tile.has(ends[0]) else "B"
            touching = ends[0] if end == "A" else ends[1]
            exposed = tile.other(touching)
            new_ends = [exposed, ends[1]] if end == "A" else [ends[0], exposed]
            chain.append({"tile": str(tile), "seat": seat, "end": end, "exposed": exposed})
        entry = {"type": "play", "tile": str(tile), "end": end}
        n = new_ends[0]
        on_table = sum(1 for link in chain if Tile.parse(link["tile"]).has(n))
        locked = rules.lock_closure and new_ends[0] == new_ends[1] and on_table == 7
        over = not hands[seat] or locked
        ends = new_ends
    after = {
        "hands": hands,
        "boneyard": boneyard,
        "ends": ends,
        "chain": chain,
        "passes_in_row": passes,
        "history": [*state["history"], [seat, entry, state["ends"]]],
        "over": over,
    }
    if not over:
        after["turn"] = turn
    return after


# -- the comparison -----------------------------------------------------------------
def candidates(rnd: Round) -> list:
    """Every play of every tile on every end, the other actions, and malformed ones."""
    actions = [Play(t, end) for t in ALL_TILES for end in (None, "A", "B")]
    actions += [Draw(), Pass(), Pick(0), Pick(27), Pick(28), Pick(-1), Play(Tile(1, 2), "C")]
    actions += [Play(5, "A"), Pick("3"), "pass"]  # not a tile, not an index, not an action
    pick = rnd.to_dict()["pick"]
    if pick is not None and pick["taken"]:
        actions.append(Pick(pick["taken"][0]))
    return actions


def refusal(rnd: Round, seat, action) -> str | None:
    """The code `apply` refuses with (None: it accepted, and ``rnd`` has changed)."""
    try:
        rnd.apply(seat, action)
    except IllegalAction as refused:
        return refused.code
    return None


def check_position(rnd: Round) -> None:
    rules = rnd.rules
    state = rnd.to_dict()
    assert rnd.legal_actions() == reference_legal(rules, state, None)
    for seat in range(rules.seats):
        legal = rnd.legal_actions(seat)
        assert legal == reference_legal(rules, state, seat), f"legal actions of seat {seat}"
        for action in candidates(rnd):
            expected = reference_refusal(rules, state, seat, action)
            # A refusal must change nothing, so only an accepted action needs a copy.
            target = rnd if expected is not None else rnd.clone()
            code = refusal(target, seat, action)
            assert code == expected, f"seat {seat} {action!r}: {code} != {expected}"
            if code is not None:
                continue
            assert action in legal or (type(action) is Play and action.end is None)
            if type(action) is not Pick:
                got = target.to_dict()
                got["over"] = target.turn is None  # domino, block, or a pick-off begins
                want = reference_after(rules, state, seat, action)
                assert {k: got[k] for k in want} == want, f"after seat {seat} {action!r}"
    for seat in (-1, rules.seats, True, "0", None, 1.0):
        assert refusal(rnd, seat, Pass()) == "malformed"
    assert rnd.to_dict() == state, "a refused action changed the round"


@pytest.mark.parametrize("key", sorted(VARIANTS))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_apply_and_legal_actions_follow_the_reference_rules(key, seed):
    rules = VARIANTS[key]
    rng = random.Random(seed)
    rnd = Round.deal(rules, rng)
    while True:
        check_position(rnd)
        if rnd.is_over:
            break
        seat = rnd.turn if rnd.turn is not None else rng.choice(sorted(rnd.pending_picks))
        rnd.apply(seat, rng.choice(rnd.legal_actions(seat)))


def test_pick_offs_follow_the_reference_rules():
    """Tie-break pick-offs are rare in random play: play on from many deals."""
    rules = VARIANTS["arena"]
    seen = 0
    for seed in range(400):
        rng = random.Random(seed)
        rnd = Round.deal(rules, rng)
        while not rnd.is_over:
            if rnd.turn is None:
                seen += 1
                check_position(rnd)
            seat = rnd.turn if rnd.turn is not None else rng.choice(sorted(rnd.pending_picks))
            rnd.apply(seat, rng.choice(rnd.legal_actions(seat)))
    assert seen > 0
