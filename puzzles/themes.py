"""A puzzle's themes, found from the position alone (pure: the engine and the
bots' reading of a view; no Django). Each theme is a function of the mover's
view (`Round.view(seat)`), the solution and the other candidate actions, so
the themes never use a fact the mover could not see (docs/decisions.md,
"Puzzles").

* ``endgame``: the mover holds `ENDGAME_TILES` tiles or fewer (the last few).
* ``blocking``: after the solution the next seat to move is an opponent that,
  from its own passes and draws, surely holds none of the open ends' numbers:
  it must pass (or draw).
* ``partner``: at a partnership table the solution keeps open a number the
  partner has signalled (played a tile of, and never passed on), where another
  candidate would have covered it.
* ``right_end``: the solution's tile also fits another end with another
  number: the puzzle is which end to leave.

>>> view = {"rules": {}, "hand": ["1-2"], "seat": 0}
>>> is_endgame(view)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.knowledge import read_view
from games.engine import Action, Play, Tile, action_from_dict

#: The mover holds this many tiles or fewer: the endgame.
ENDGAME_TILES = 3
THEMES = ("endgame", "blocking", "partner", "right_end")


def open_ends_after(ends: dict[str, int] | None, action: Action) -> set[int]:
    """The numbers showing at the open ends after ``action`` (a pass or a draw
    leaves them as they are).

    >>> sorted(open_ends_after({"A": 3, "B": 5}, action_from_dict({"type": "play", "tile": "3-6", "end": "A"})))
    [5, 6]
    >>> sorted(open_ends_after(None, action_from_dict({"type": "play", "tile": "4-4"})))
    [4]
    """
    if type(action) is not Play:
        return set((ends or {}).values())
    tile: Tile = action.tile
    if not ends:
        return {tile.a, tile.b}
    after = dict(ends)
    end = action.end or "A"
    showing = after[end]
    after[end] = tile.b if tile.a == showing else tile.a
    return set(after.values())


def is_endgame(view: dict[str, Any]) -> bool:
    return len(view["hand"]) <= ENDGAME_TILES


def is_blocking(view: dict[str, Any], solution: Action) -> bool:
    know = read_view(view)
    seats = know.rules.seats
    nxt = (know.seat + 1) % seats
    if know.rules.side_of(nxt) == know.rules.side_of(know.seat):
        return False
    numbers = open_ends_after(view["ends"], solution)
    void = know.voids()[nxt]
    return bool(numbers) and all(void & (1 << n) for n in numbers)


def partner_signals(view: dict[str, Any]) -> set[int]:
    """The numbers the partner has played tiles of and is not known to lack."""
    know = read_view(view)
    partner = know.partner
    if partner is None:
        return set()
    void = know.voids()[partner]
    return {n for n in range(7) if know.shown[partner][n] > 0 and not void & (1 << n)}


def is_following_partner(view: dict[str, Any], solution: Action, others: Sequence[Action]) -> bool:
    signals = partner_signals(view)
    if not signals:
        return False
    kept = len(open_ends_after(view["ends"], solution) & signals)
    return kept > 0 and any(
        len(open_ends_after(view["ends"], other) & signals) < kept for other in others
    )


def is_right_end(view: dict[str, Any], solution: Action, others: Sequence[Action]) -> bool:
    ends = view["ends"]
    if type(solution) is not Play or not ends:
        return False
    mine = ends.get(solution.end or "A")
    return any(
        type(o) is Play and o.tile == solution.tile and ends.get(o.end or "A") != mine
        for o in others
    )


def themes_of(
    view: dict[str, Any], solution: dict[str, Any], others: Sequence[dict[str, Any]]
) -> list[str]:
    """The themes of a puzzle (in `THEMES` order): ``solution`` and ``others``
    (the other candidates) as action dicts."""
    # (stored actions, once legal: a spinner's ends C and D are taken)
    best = action_from_dict(solution, spinner=True)
    rest = [action_from_dict(o, spinner=True) for o in others]
    found = {
        "endgame": is_endgame(view),
        "blocking": is_blocking(view, best),
        "partner": is_following_partner(view, best, rest),
        "right_end": is_right_end(view, best, rest),
    }
    return [name for name in THEMES if found[name]]
