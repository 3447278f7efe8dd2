"""The replay page's what-if island (templates/replays/_replay_whatif.html,
static/js/replay_whatif.js): every move's choices, where to ask, the strings."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from analysis.whatif_answers import whatif_choices, whatif_inputs
from rooms.page_strings import translated

from . import page_strings


def whatif_boot(rnd: Any) -> dict[str, Any]:
    """At every move but a tie-break's pick, its mover, its distinct legal
    actions and which was played (no value: the page asks for one)."""
    url = reverse("replays:api_round_whatif", args=[rnd.room.code, rnd.number])
    return {
        "url": f"{url}?match={rnd.match.number}",
        "moves": whatif_choices(inputs=whatif_inputs(rnd=rnd)),
        "strings": translated(page_strings.WHATIF),
    }
