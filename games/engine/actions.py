"""What a seat can do on its turn, and the error raised when it may not.

>>> Play(Tile(3, 5), "A").to_dict()
{'type': 'play', 'tile': '3-5', 'end': 'A'}
>>> action_from_dict({"type": "pick", "index": 4})
Pick(index=4)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from .tiles import Tile

End = Literal["A", "B", "C", "D"]

ERROR_CODES = frozenset(
    {
        "not_your_turn",
        "round_over",
        "not_in_hand",
        "does_not_fit",
        "end_required",
        "opening_tile_required",
        "must_play",
        "must_draw",
        "boneyard_empty",
        "not_a_draw_game",
        "bad_pick",
        "malformed",
    }
)


class IllegalAction(Exception):
    """An action the rules refuse. ``code`` is stable (docs/protocol.md), ``message`` is for people.

    Raising it always leaves the round exactly as it was.
    """

    def __init__(self, code: str, message: str) -> None:
        assert code in ERROR_CODES, code
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"


@dataclass(frozen=True, slots=True)
class Play:
    """Put ``tile`` on end ``"A"`` or ``"B"`` (or, once a spinner has opened them,
    ``"C"`` or ``"D"``); ``end`` may be None for the first tile or when only one end
    fits."""

    tile: Tile
    end: End | None = None

    type = "play"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "play", "tile": str(self.tile), "end": self.end}


@dataclass(frozen=True, slots=True)
class Draw:
    """Take the boneyard's next tile (draw games, only when nothing fits)."""

    type = "draw"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "draw"}


@dataclass(frozen=True, slots=True)
class Pass:
    """Let the turn go (only when nothing fits and nothing can be drawn)."""

    type = "pass"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pass"}


@dataclass(frozen=True, slots=True)
class Pick:
    """Choose face-down position ``index`` (0..27) in a tie-break pick-off."""

    index: int

    type = "pick"

    def to_dict(self) -> dict[str, Any]:
        return {"type": "pick", "index": self.index}


Action = Play | Draw | Pass | Pick

DRAW = Draw()
PASS = Pass()


def action_from_dict(data: Any, *, spinner: bool = False) -> Action:
    """Parse a client's action; anything malformed raises ``IllegalAction("malformed", …)``.

    Ends ``"C"`` and ``"D"`` are taken only with ``spinner`` (a table whose first
    double opens four ends, docs/rules.md, "The game of points")::

        >>> action_from_dict({"type": "play", "tile": "1-5", "end": "C"}, spinner=True)
        Play(tile=Tile(1, 5), end='C')
    """
    if not isinstance(data, dict):
        raise IllegalAction("malformed", "an action is a JSON object with a 'type'")
    kind = data.get("type")
    if kind == "play":
        try:
            tile = Tile.parse(data.get("tile"))
        except ValueError as exc:
            raise IllegalAction("malformed", str(exc)) from None
        end = data.get("end")
        if end not in (None, "A", "B") and not (spinner and end in ("C", "D")):
            raise IllegalAction("malformed", f"the end is 'A' or 'B', got {end!r}")
        return Play(tile, end)
    if kind == "draw":
        return DRAW
    if kind == "pass":
        return PASS
    if kind == "pick":
        index = data.get("index")
        if type(index) is not int:
            raise IllegalAction("malformed", f"a pick needs a whole-number 'index', got {index!r}")
        return Pick(index)
    raise IllegalAction("malformed", f"unknown action type {kind!r}")
