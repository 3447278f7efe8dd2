"""The log's words for a draw or a pass (static/js/table/moves.js), run in node:
a number both ends show is said once."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

MOVES = Path(__file__).resolve().parents[2] / "static" / "js" / "table" / "moves.js"


def _text(entry: dict) -> str:
    script = (
        f"import {{ moveText }} from {json.dumps(MOVES.as_uri())};\n"
        "const t = (s, p = {}) => s.replace(/%\\((\\w+)\\)s/g, (_, k) => String(p[k]));\n"
        f"process.stdout.write(moveText({json.dumps(entry)}, 'Ana', t));\n"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return done.stdout


pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")


@pytest.mark.parametrize("kind, words", [("draw", "Ana drew a tile"), ("pass", "Ana passed")])
def test_a_number_both_ends_show_is_said_once(kind, words):
    assert _text({"type": kind, "ends": {"A": 6, "B": 6}}) == f"{words} (no 6)"


@pytest.mark.parametrize("kind, words", [("draw", "Ana drew a tile"), ("pass", "Ana passed")])
def test_two_different_ends_are_both_said(kind, words):
    assert _text({"type": kind, "ends": {"A": 6, "B": 2}}) == f"{words} (no 6, no 2)"
