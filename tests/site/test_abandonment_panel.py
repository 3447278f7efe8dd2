"""The panel of an abandoned match names the person who abandoned, not their
seat (docs/protocol.md, "Server to client": ``match.abandoned_names``): the
seat is empty by then, and "Cadeira 2 abandonou a partida" would name nobody.
The page script's words are run in node with the table page's own strings."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from rooms.page_strings import TABLE, translated
from tests.node import BROWSER, module, needs_node, run

pytestmark = needs_node


def _lines(language: str, match: dict) -> list[dict]:
    """What the abandoned match's panel says under its headline, in ``language``."""
    with translation.override(language):
        strings = translated(TABLE)
    script = (
        BROWSER
        + f"const state = await import({module('table', 'state.js')});\n"
        + f"const util = await import({module('util.js')});\n"
        + f"const m = await import({module('table', 'panels.js')});\n"
        + f"state.page.t = util.makeT({json.dumps(strings)});\n"
        + f"process.stdout.write(JSON.stringify(m.abandonedLines({json.dumps(match)})));\n"
    )
    return run(script)


@pytest.mark.parametrize(
    ("language", "text"),
    [("pt-br", "bruno abandonou a partida."), ("en", "bruno abandoned the match.")],
)
def test_the_panel_says_who_abandoned_by_the_name_their_seat_showed(language, text):
    match = {"ended_by": "abandono", "abandoned": [1], "abandoned_names": ["bruno"]}
    assert _lines(language, match) == [{"seat": 1, "text": text}]
