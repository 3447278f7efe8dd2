"""The hidden-information check for every frame a socket received.

A frame may show a tile only if it is (a) on the table or played in the match
so far, (b) one the viewer held in that round (dealt or drawn), or (c) in the
round's result once it is over (the reveal of the remaining hands). Never a
tile of another hand, of the boneyard or asleep before that.
"""

from __future__ import annotations

import re
from typing import Any

from games.engine import Round as EngineRound
from games.engine import RuleSet
from games.engine.actions import action_from_dict
from games.models import Round

TILE = re.compile(r"^[0-6]-[0-6]$")


def tiles_in(obj: Any) -> set[str]:
    """Every tile-looking string anywhere in a JSON value, normalised (a<=b)."""
    found: set[str] = set()
    if isinstance(obj, str):
        if TILE.match(obj):
            a, b = sorted(obj.split("-"))
            found.add(f"{a}-{b}")
    elif isinstance(obj, dict):
        for value in obj.values():
            found |= tiles_in(value)
    elif isinstance(obj, list | tuple):
        for value in obj:
            found |= tiles_in(value)
    return found


def round_facts(rnd: Round) -> tuple[list[set[str]], set[str]]:
    """Per seat the tiles it held at some time (dealt or drawn); tiles played."""
    deal = rnd.deal
    held = [tiles_in(hand) for hand in deal["hands"]]
    boneyard = [t for t in deal["boneyard"]]
    engine = EngineRound.replay(RuleSet.from_dict(rnd.room.rules), deal, _history(rnd))
    played: set[str] = set()
    drawn = 0
    for seat, action in engine.history:
        data = action.to_dict()
        if data["type"] == "draw":
            held[seat] |= tiles_in(boneyard[drawn])
            drawn += 1
        elif data["type"] == "play":
            played |= tiles_in(data["tile"])
    return held, played


def _history(rnd: Round) -> list:
    return [(m.seat, action_from_dict(m.action)) for m in rnd.moves.order_by("seq")]


def assert_frames_hide_tiles(room, frames: list[dict[str, Any]]) -> int:
    """Check every frame; returns how many were checked."""
    rounds = {
        (r.match.number, r.number): r
        for r in Round.objects.filter(room=room).select_related("match", "room")
    }
    facts = {key: round_facts(r) for key, r in rounds.items()}
    checked = 0
    for frame in frames:
        if frame.get("type") == "rooms":  # the lobby: no tile at all
            assert not tiles_in(frame), frame
            continue
        if frame.get("type") != "room":
            assert not tiles_in(frame), frame
            continue
        shown = frame.get("round")
        if shown is None:
            assert not tiles_in(frame), frame
            continue
        key = (frame["match"]["number"], shown["number"])
        held, played = facts[key]
        played_so_far = set().union(*(facts[k][1] for k in facts if k <= key)) | played
        seat = frame["you"]["seat"]
        allowed = set(played_so_far)
        if seat is not None:
            allowed |= held[seat]
        body = {k: v for k, v in frame.items() if k != "round"}
        visible = tiles_in(body) | tiles_in({k: v for k, v in shown.items() if k != "result"})
        leaked = visible - allowed
        assert not leaked, f"v{frame['version']} seat {seat} sees {sorted(leaked)}"
        if shown.get("result") is not None:
            revealed = tiles_in(shown["result"])
            remaining = set().union(*held) if held else set()
            assert revealed <= remaining | allowed, "the reveal shows only hands"
        assert "boneyard" not in shown, "the boneyard's tiles never leave the server"
        checked += 1
    return checked
