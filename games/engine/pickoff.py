"""The tie-break pick-off: how a blocked round with tied lowest totals is decided
when ``blocked_tie`` is ``"tiebreak"`` (docs/rules.md).

Every seat of every tied side secretly chooses one of the 28 face-down positions
(a position chosen by one picker is no longer offered to the others); once all
have chosen, the tiles are turned up and the lowest wins for its side. If the
lowest is shared across sides, only those pickers pick again.

A `PickOff` is a frozen value: each step returns a new one, so a round can share
it with its clones. `Round` drives it; on its own it reads like this:

>>> from games.engine import ALL_TILES
>>> pick = PickOff.start([0, 1])
>>> pick = pick.choose(0, 5).choose(1, 0)
>>> pick.pending, pick.choice_of(1)
(frozenset(), 0)
>>> pick = pick.reveal(ALL_TILES)  # face-down order: position i holds ALL_TILES[i]
>>> [str(r.tile) for r in pick.rounds[-1]], pick.lowest
(['0-5', '0-0'], (1,))
>>> pick.choose(0, 5)
Traceback (most recent call last):
...
games.engine.actions.IllegalAction: position 5 is already taken
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from .actions import IllegalAction
from .tiles import Tile

#: Face-down positions: one per tile of the set.
POSITIONS = 28


@dataclass(frozen=True, slots=True)
class Reveal:
    """One pick turned face up: ``seat`` had chosen position ``index``, which held ``tile``."""

    seat: int
    index: int
    tile: Tile

    def to_dict(self) -> dict[str, Any]:
        """``{"seat": 0, "index": 5, "tile": "0-5"}`` (the format of views and snapshots)."""
        return {"seat": self.seat, "index": self.index, "tile": str(self.tile)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Reveal:
        return cls(data["seat"], data["index"], Tile.parse(data["tile"]))


@dataclass(frozen=True, slots=True)
class PickOff:
    """The state of a pick-off; every change returns a new value.

    * ``pickers``: the seats picking in this pick round, ascending.
    * ``current``: the secret choices made so far in this pick round, as
      ``(seat, position)`` pairs in seat order.
    * ``taken``: every position chosen so far, in any pick round.
    * ``rounds``: the revealed pick rounds, oldest first.
    """

    pickers: tuple[int, ...]
    current: tuple[tuple[int, int], ...] = ()
    taken: frozenset[int] = frozenset()
    rounds: tuple[tuple[Reveal, ...], ...] = ()

    @classmethod
    def start(cls, pickers: Iterable[int]) -> PickOff:
        """A pick-off in which ``pickers`` (seats) are about to pick."""
        return cls(tuple(sorted(pickers)))

    # -- reading -------------------------------------------------------
    @property
    def pending(self) -> frozenset[int]:
        """Pickers who have not chosen yet in this pick round."""
        chosen = {seat for seat, _ in self.current}
        return frozenset(s for s in self.pickers if s not in chosen)

    def choice_of(self, seat: int) -> int | None:
        """The position ``seat`` chose in this pick round (secret until revealed), or None."""
        for picker, index in self.current:
            if picker == seat:
                return index
        return None

    @property
    def free(self) -> tuple[int, ...]:
        """Positions nobody has chosen yet, ascending."""
        taken = self.taken
        return tuple(i for i in range(POSITIONS) if i not in taken)

    @property
    def lowest(self) -> tuple[int, ...]:
        """Seats whose revealed tile has the fewest pips in the last revealed pick round."""
        if not self.rounds:
            return ()
        last = self.rounds[-1]
        low = min(r.tile.pips for r in last)
        return tuple(r.seat for r in last if r.tile.pips == low)

    # -- changing ------------------------------------------------------
    def choose(self, seat: int, index: int) -> PickOff:
        """This pick-off with ``seat``'s secret choice of position ``index``.

        Raises `IllegalAction` (``not_your_turn`` or ``bad_pick``) when ``seat``
        has no pick to make or the position is out of range or taken.
        """
        if seat not in self.pickers or self.choice_of(seat) is not None:
            raise IllegalAction("not_your_turn", f"seat {seat + 1} has no pick to make now")
        if type(index) is not int or not 0 <= index < POSITIONS:
            raise IllegalAction(
                "bad_pick", f"positions go from 0 to {POSITIONS - 1}, got {index!r}"
            )
        if index in self.taken:
            raise IllegalAction("bad_pick", f"position {index} is already taken")
        return replace(
            self,
            current=tuple(sorted((*self.current, (seat, index)))),
            taken=self.taken | {index},
        )

    def reveal(self, order: Sequence[Tile]) -> PickOff:
        """Once every picker has chosen: their choices turned face up as a new pick
        round (``order[i]`` is the tile at position ``i``); the pickers stay as they
        were until `again` names the next ones."""
        if self.pending:
            raise ValueError(f"seats {sorted(self.pending)} have not picked yet")
        revealed = tuple(Reveal(seat, index, order[index]) for seat, index in self.current)
        return replace(self, current=(), rounds=(*self.rounds, revealed))

    def again(self, seats: Iterable[int]) -> PickOff:
        """The next pick round, in which only ``seats`` pick."""
        return replace(self, pickers=tuple(sorted(seats)), current=())

    # -- JSON ----------------------------------------------------------
    def rounds_dicts(self) -> list[list[dict[str, Any]]]:
        """The revealed pick rounds as JSON: ``[[{"seat", "index", "tile"}, ...], ...]``."""
        return [[r.to_dict() for r in revealed] for revealed in self.rounds]

    def public_dict(self, *, over: bool) -> dict[str, Any]:
        """What everyone may know (the ``pick_off`` of a view, ``mine`` left None):
        who picks, who still has to (nobody once the round is ``over``), the
        positions taken and the revealed rounds, but not the secret choices."""
        return {
            "pickers": list(self.pickers),
            "pending": [] if over else sorted(self.pending),
            "taken": sorted(self.taken),
            "rounds": self.rounds_dicts(),
            "mine": None,
        }

    def to_dict(self) -> dict[str, Any]:
        """The full state, secret choices included (server side: a round's snapshot)."""
        return {
            "pickers": list(self.pickers),
            "current": [[seat, index] for seat, index in self.current],
            "taken": sorted(self.taken),
            "rounds": self.rounds_dicts(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PickOff:
        return cls(
            pickers=tuple(data["pickers"]),
            current=tuple(sorted((seat, index) for seat, index in data["current"])),
            taken=frozenset(data["taken"]),
            rounds=tuple(
                tuple(Reveal.from_dict(r) for r in revealed) for revealed in data["rounds"]
            ),
        )
