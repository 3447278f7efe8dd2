"""The log's words for a draw or a pass (static/js/table/moves.js), run in node:
a number both ends show is said once."""

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
