"""The panel of an abandoned match names the person who abandoned, not their
seat (docs/protocol.md, "Server to client": ``match.abandoned_names``): the
seat is empty by then, and "Cadeira 2 abandonou a partida" would name nobody.
The page script's words are run in node with the table page's own strings."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from django.utils import translation

from rooms.page_strings import TABLE, translated

JS = Path(__file__).resolve().parents[2] / "static" / "js"

# Just enough of a browser for the modules to load (they draw nothing here).
STUBS = """
globalThis.window = globalThis;
globalThis.localStorage = { getItem() { return null; }, setItem() {}, removeItem() {} };
globalThis.document = {
  readyState: "loading", addEventListener() {}, querySelector() { return null; },
  createTreeWalker() { return {}; }, createComment() { return {}; }, documentElement: { dataset: {} },
};
"""

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="needs node")


def _lines(language: str, match: dict) -> list[dict]:
    """What the abandoned match's panel says under its headline, in ``language``."""
    with translation.override(language):
        strings = translated(TABLE)
    script = (
        STUBS
        + f"const state = await import({json.dumps((JS / 'table' / 'state.js').as_uri())});\n"
        + f"const util = await import({json.dumps((JS / 'util.js').as_uri())});\n"
        + f"const m = await import({json.dumps((JS / 'table' / 'panels.js').as_uri())});\n"
        + f"state.page.t = util.makeT({json.dumps(strings)});\n"
        + f"process.stdout.write(JSON.stringify(m.abandonedLines({json.dumps(match)})));\n"
    )
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


@pytest.mark.parametrize(
    ("language", "text"),
    [("pt-br", "bruno abandonou a partida."), ("en", "bruno abandoned the match.")],
)
def test_the_panel_says_who_abandoned_by_the_name_their_seat_showed(language, text):
    match = {"ended_by": "abandono", "abandoned": [1], "abandoned_names": ["bruno"]}
    assert _lines(language, match) == [{"seat": 1, "text": text}]
