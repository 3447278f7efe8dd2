"""The log's words for a draw or a pass (static/js/table/moves.js), run in node:
a number both ends show is said once, and so at a spinner's four ends."""

from __future__ import annotations

import json

import pytest

from tests.node import module, needs_node, run


def _text(entry: dict) -> str:
    script = (
        f"import {{ moveText }} from {module('table', 'moves.js')};\n"
        "const t = (s, p = {}) => s.replace(/%\\((\\w+)\\)s/g, (_, k) => String(p[k]));\n"
        f"process.stdout.write(moveText({json.dumps(entry)}, 'Ana', t));\n"
    )
    return run(script, parsed=False)


pytestmark = needs_node


@pytest.mark.parametrize("kind, words", [("draw", "Ana drew a tile"), ("pass", "Ana passed")])
def test_a_number_both_ends_show_is_said_once(kind, words):
    assert _text({"type": kind, "ends": {"A": 6, "B": 6}}) == f"{words} (no 6)"


@pytest.mark.parametrize("kind, words", [("draw", "Ana drew a tile"), ("pass", "Ana passed")])
def test_two_different_ends_are_both_said(kind, words):
    assert _text({"type": kind, "ends": {"A": 6, "B": 2}}) == f"{words} (no 6, no 2)"


@pytest.mark.parametrize("kind, words", [("draw", "Ana drew a tile"), ("pass", "Ana passed")])
def test_a_spinners_four_ends_say_each_number_once(kind, words):
    four = {"A": 0, "B": 3, "C": 5, "D": 5}
    assert _text({"type": kind, "ends": four}) == f"{words} (none of 0, 3, 5)"
    # Four ends showing two numbers read as two ends do.
    assert _text({"type": kind, "ends": {"A": 5, "B": 3, "C": 5, "D": 3}}) == (
        f"{words} (no 5, no 3)"
    )


def test_a_play_on_a_spinners_side_names_it():
    entry = {"type": "play", "tile": "3-5", "end": "C", "scored": 5}
    assert _text(entry) == "Ana played 3-5 on end C — the ends add up to 5: +5"
