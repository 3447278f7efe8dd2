"""The table's words for the partida and the game of points (static/js/table/moves.js),
run in node: how a round was won with what it scored, and a play that scored."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from rooms.page_strings import TABLE, translated
from tests.node import BROWSER, module, needs_node, run

pytestmark = needs_node

T = "const t = (s, p = {}) => s.replace(/%\\((\\w+)\\)s/g, (_, k) => String(p[k]));\n"


def _how(result: dict | None) -> str:
    script = (
        f"import {{ howText }} from {module('table', 'moves.js')};\n" + T
        + f"process.stdout.write(howText({json.dumps(result)}, t));\n"
    )  # fmt: skip
    return run(script, parsed=False)


@pytest.mark.parametrize(
    ("how", "points", "words"),
    [
        ("carroca", [0, 2], "Domino with a double (carroça)! +2"),
        ("la_e_lo", [3, 0], "Either end (lá-e-lô)! +3"),
        ("cruzada", [0, 4], "A double on both ends (cruzada)! +4"),
        ("simples", [0, 3], "Simple domino (batida simples)! +3"),
    ],
)
def test_how_a_round_was_won_and_what_it_scored(how, points, words):
    winner = 0 if points[0] else 1
    assert _how({"how": how, "winner": winner, "points": points}) == words


def test_a_closed_game_carried_scores_nothing_and_other_tables_say_nothing_here():
    assert _how({"how": "fechado", "winner": None, "points": [0, 0], "carry": 1}) == (
        "Closed game (jogo fechado)"
    )
    assert _how({"reason": "domino", "winner": 0, "points": [19, 0]}) == ""
    assert _how(None) == ""


def test_a_play_that_scored_in_the_game_of_points_says_so():
    script = (
        f"import {{ moveText }} from {module('table', 'moves.js')};\n" + T
        + "const entry = {type: 'play', tile: '5-5', end: null, scored: 10};\n"
        + "process.stdout.write(moveText(entry, 'Ana', t));\n"
    )  # fmt: skip
    assert run(script, parsed=False) == "Ana opened with 5-5 — the ends add up to 10: +10"


def _explain(result: dict, rules: dict, language: str = "en") -> list[str]:
    """The result panel's explanation lines (static/js/table/panels.js `explain`)."""
    with translation.override(language):
        strings = translated(TABLE)
    seats = [{"kind": "human", "name": name} for name in ("Ana", "Bia", "Caio", "Duda")]
    snapshot = {"room": {"rules": rules}, "seats": seats}
    script = (
        BROWSER
        + f"const state = await import({module('table', 'state.js')});\n"
        + f"const util = await import({module('util.js')});\n"
        + f"const m = await import({module('table', 'panels.js')});\n"
        + f"state.page.t = util.makeT({json.dumps(strings)});\n"
        + f"state.setState({{snap: {json.dumps(snapshot)}}});\n"
        + f"process.stdout.write(JSON.stringify(m.explain({json.dumps(result)}, "
        + f"{json.dumps(rules)})));\n"
    )
    return run(script)


def test_the_panel_explains_a_carroca_with_its_points():
    result = {"reason": "domino", "how": "carroca", "winner": 1, "points": [0, 2],
              "last_player": 3}  # fmt: skip
    rules = {"scoring": "how_won", "partnership": True}
    assert _explain(result, rules) == [
        "Duda played their last tile.",
        "The last tile was a double.",
        "Bia & Duda scores 2 points.",
    ]


def test_the_panel_explains_a_closed_game_carried_and_the_game_of_points():
    result = {"reason": "blocked", "how": "fechado", "winner": None, "points": [0, 0], "carry": 2}
    lines = _explain(result, {"scoring": "how_won", "partnership": True})
    assert lines == ["Nobody could play: nobody scores, and the next round is worth 2 points more."]
    result = {"reason": "domino", "winner": 0, "points": [30, 25], "made": [10, 25]}
    assert _explain(result, {"scoring": "fives", "partnership": True}) == [
        "Made by plays: Ana & Caio 10 · Bia & Duda 25",
        "Ana & Caio also scores the opponents' pips, rounded to the nearest 5: +20",
    ]
