"""Small frozen values a round produces: chain links and the round's result."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .tiles import Tile


@dataclass(frozen=True, slots=True)
class Link:
    """One tile on the chain: who played it, on which end (None for the first tile),
    and the number it now shows outward (``exposed``)."""

    tile: Tile
    seat: int
    end: str | None
    exposed: int

    def to_dict(self) -> dict[str, Any]:
        return {"tile": str(self.tile), "seat": self.seat, "end": self.end, "exposed": self.exposed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Link:
        return cls(Tile.parse(data["tile"]), data["seat"], data["end"], data["exposed"])


@dataclass(frozen=True)
class RoundResult:
    """How a round ended and what it adds to the match.

    ``points`` is per side; ``pips`` and ``hands`` are per seat (plain pip counts and
    the tiles revealed); ``counted`` is per side, the totals compared on a block
    (with the goat's lone 0-0 = 25 and lone 6-6 = 50); ``tiebreak`` holds the
    revealed picks of a pick-off, one list per pick round.

    Under ``how_won`` scoring (docs/rules.md, "How a round is won") ``how`` says
    how: ``"simples"``, ``"carroca"``, ``"la_e_lo"``, ``"cruzada"``, ``"fechado"``
    (blocked), or ``"doubles"`` (a hand of six doubles won the match at the deal,
    ``wins_match``); ``carry`` is what a blocked round passes on to the next one,
    and ``carried`` the part of the winner's ``points`` that blocked rounds before
    carried to this one (doubled with the round, ``redeal_worth_double``): a
    lá-e-lô worth 3 after one blocked round scores 4, ``carried`` 1.
    Under ``fives`` scoring ``made`` is per side, the points made by plays during
    the round (already in ``points``); a round whose play took a side to the
    match's target ends there, with ``reason`` ``"target"`` (no count of the hands). These four are None, 0, False and () in
    every other table (``carried`` 0), and written by `to_dict` only when set::

        >>> result = RoundResult("domino", 0, 0, (3, 0), (0, 5), ((), ()), 0, how="la_e_lo")
        >>> data = result.to_dict()
        >>> data["how"], "carry" in data, RoundResult.from_dict(data) == result
        ('la_e_lo', False, True)
    """

    reason: str
    winner: int | None
    opener: int
    points: tuple[int, ...]
    pips: tuple[int, ...]
    hands: tuple[tuple[Tile, ...], ...]
    last_player: int | None
    tiebreak: tuple[tuple[dict[str, Any], ...], ...] | None = None
    counted: tuple[int, ...] = ()
    how: str | None = None
    carry: int = 0
    wins_match: bool = False
    made: tuple[int, ...] = ()
    carried: int = 0

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "reason": self.reason,
            "winner": self.winner,
            "opener": self.opener,
            "points": list(self.points),
            "pips": list(self.pips),
            "hands": [[str(t) for t in hand] for hand in self.hands],
            "last_player": self.last_player,
            "tiebreak": None
            if self.tiebreak is None
            else [[dict(p) for p in picks] for picks in self.tiebreak],
            "counted": list(self.counted),
        }
        if self.how is not None:
            data["how"] = self.how
        if self.carry:
            data["carry"] = self.carry
        if self.wins_match:
            data["wins_match"] = True
        if self.made:
            data["made"] = list(self.made)
        if self.carried:
            data["carried"] = self.carried
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RoundResult:
        tiebreak = data.get("tiebreak")
        return cls(
            reason=data["reason"],
            winner=data["winner"],
            opener=data["opener"],
            points=tuple(data["points"]),
            pips=tuple(data["pips"]),
            hands=tuple(tuple(Tile.parse(t) for t in hand) for hand in data["hands"]),
            last_player=data["last_player"],
            tiebreak=None
            if tiebreak is None
            else tuple(tuple(dict(p) for p in picks) for picks in tiebreak),
            counted=tuple(data.get("counted") or ()),
            how=data.get("how"),
            carry=data.get("carry", 0),
            wins_match=data.get("wins_match", False),
            made=tuple(data.get("made") or ()),
            carried=data.get("carried", 0),
        )
