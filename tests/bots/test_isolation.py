"""The structural guarantee: a bot sees a view, never a Round, and nothing hidden.

The bot modules import only the standard library and the pure engine (no
Django, no models, no services), ``choose_action`` takes a view dict, and two
rounds that differ only in tiles the seat cannot see lead to the same
decision at every level.
"""

import ast
import inspect
import random
from pathlib import Path

import pytest

import bots
from bots.policies import LEVELS, choose_action
from games.engine import PRESETS, Round, Tile

BOT_MODULES = [
    "policies", "knowledge", "sampling", "heuristics", "search", "belief", "endgame", "equity",
]  # fmt: skip
ALLOWED_ROOTS = {
    "__future__", "collections", "dataclasses", "functools", "math", "random", "time", "typing",
}  # fmt: skip


def imported_modules(name):
    path = Path(bots.__file__).parent / f"{name}.py"
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield "." * node.level + (node.module or "")


@pytest.mark.parametrize("name", BOT_MODULES)
def test_bot_modules_import_only_the_engine_and_the_standard_library(name):
    for module in imported_modules(name):
        if module.startswith("."):
            assert module.lstrip(".") in BOT_MODULES, module
        elif module.split(".")[0] == "games":
            assert module == "games.engine", module
        else:
            assert module.split(".")[0] in ALLOWED_ROOTS, module


def test_choose_action_takes_a_view_not_a_round():
    params = inspect.signature(choose_action).parameters
    assert list(params)[:3] == ["view", "level", "rng"]
    rnd = Round.deal(PRESETS["parceria"], random.Random(1))
    with pytest.raises((TypeError, AttributeError)):
        choose_action(rnd, "medium", random.Random(1))


def twin_rounds(key, seed, moves):
    """A round after ``moves`` actions, and a copy whose hidden tiles are dealt differently."""
    rng = random.Random(seed)
    rnd = Round.deal(PRESETS[key], rng)
    for _ in range(moves):
        rnd.apply(rnd.turn, choose_action(rnd.view(rnd.turn), "medium", rng))
    seat = rnd.turn
    view = rnd.view(seat)
    hidden = [t for s in range(rnd.rules.seats) if s != seat for t in rnd.hand(s)]
    hidden += list(rnd.to_dict()["boneyard"])
    shuffled = hidden[::-1]
    hands = []
    for s in range(rnd.rules.seats):
        if s == seat:
            hands.append(list(rnd.hand(s)))
        else:
            count = len(rnd.hand(s))
            hands.append(shuffled[:count])
            shuffled = shuffled[count:]
    twin = Round.from_view(view, hands, shuffled)
    return rnd, twin, seat


@pytest.mark.parametrize("key,moves", [("parceria", 5), ("duelo", 4), ("classico", 3)])
@pytest.mark.parametrize("level", LEVELS)
def test_rounds_differing_only_in_hidden_tiles_get_the_same_decision(key, moves, level):
    rnd, twin, seat = twin_rounds(key, seed=moves + 7, moves=moves)
    others = [s for s in range(rnd.rules.seats) if s != seat]
    assert any(rnd.hand(s) != twin.hand(s) for s in others)  # the hidden deals differ
    assert rnd.view(seat) == twin.view(seat)
    decisions = [
        choose_action(r.view(seat), level, random.Random(3), budget_ms=8) for r in (rnd, twin)
    ]
    assert decisions[0] == decisions[1]


def test_views_hold_no_hidden_tile():
    rnd, _, seat = twin_rounds("duelo", seed=2, moves=3)
    view = rnd.view(seat)
    text = repr({k: v for k, v in view.items() if k != "legal"})
    for s in range(rnd.rules.seats):
        if s != seat:
            for tile in rnd.hand(s):
                assert f"'{tile}'" not in text


def test_another_guess_of_the_hidden_tiles_keeps_the_position():
    """`Round.with_hands` (one `from_view`, many guesses) gives the round `from_view` builds."""
    rnd, twin, seat = twin_rounds("duelo", seed=5, moves=4)
    hands = [list(rnd.hand(s)) for s in range(rnd.rules.seats)]
    boneyard = [Tile.parse(t) for t in rnd.to_dict()["boneyard"]]
    again = twin.with_hands(hands, boneyard)
    assert again.to_dict() == Round.from_view(rnd.view(seat), hands, boneyard).to_dict()
    assert again.view(seat) == rnd.view(seat)
    assert twin.hand(0) != again.hand(0) or twin.hand(1) != again.hand(1)  # twin untouched


def test_a_guess_keeps_the_counts_and_places_each_tile_once():
    rnd, twin, seat = twin_rounds("duelo", seed=5, moves=4)
    hands = [list(rnd.hand(s)) for s in range(rnd.rules.seats)]
    boneyard = [Tile.parse(t) for t in rnd.to_dict()["boneyard"]]
    with pytest.raises(ValueError, match="counts"):
        twin.with_hands([hands[0], hands[1] + boneyard[:1]], boneyard[1:])
    on_chain = rnd.chain[0].tile
    with pytest.raises(ValueError, match="twice"):
        twin.with_hands(hands, [on_chain] + boneyard[1:])
    with pytest.raises(ValueError, match="twice"):
        twin.with_hands(hands, [hands[0][0]] + boneyard[1:])
