"""Weighing guessed deals by what each seat's plays revealed.

`bots.sampling` gives deals that respect the hard facts (passes, counts,
opening rules); it treats every such deal as equally likely. But plays say
more than passes: a seat that laid 1-2 while holding 6-5 on a fitting end
did something few players do. `PlayModel` scores a deal by how likely each
other seat's plays were under a simple model of play (a tile's chance grows
with ``exp(BETA * (pips + DOUBLE_BONUS if double))`` among the tiles that
seat then held and that fitted), and `sample_weighted` keeps one of a few
proposals in proportion to that score (sampling-importance-resampling).
The partner's plays count the same way: they are its signals.

A seat's hand at one of its plays is the tiles it holds in the deal plus
those it played since; only plays after its last draw are weighed (a drawn
tile's identity is not public), and the opening tile, which a rule may
impose, is not weighed.

>>> import random
>>> from games.engine import PRESETS, Round, Tile
>>> from bots.knowledge import read_view
>>> rnd = Round.deal(PRESETS["parceria"], rng=random.Random(0))
>>> history = [{"seat": 1, "type": "play", "tile": "1-6", "end": "A", "ends_before": {"A": 6, "B": 6}}]
>>> model = PlayModel(read_view(rnd.view(0)), history)
>>> kept_6_5 = [[], [Tile(5, 6), Tile(0, 1)], [], []]  # it played 1-6 and kept 6-5
>>> kept_0_2 = [[], [Tile(0, 2), Tile(0, 1)], [], []]
>>> model.weight(kept_6_5) < model.weight(kept_0_2)
True
"""

from __future__ import annotations

import math
import random
from typing import Any

from games.engine import ALL_TILES, Tile

from .knowledge import Knowledge, ends_mask, tile_mask
from .sampling import Deal, Sampler

#: How sharply the model prefers heavy tiles (per pip of difference).
BETA = 0.8
#: Extra "pips" a double is worth to the model: players like to shed doubles.
DOUBLE_BONUS = 4.0
#: Proposals drawn for each deal kept.
PROPOSALS = 6

_LIKING = {
    t: math.exp(BETA * (t.pips + (DOUBLE_BONUS if t.is_double else 0.0) - 16.0)) for t in ALL_TILES
}
_MASK = {t: tile_mask(t) for t in ALL_TILES}


class PlayModel:
    """The plays of the other seats, ready to weigh deals."""

    __slots__ = ("_checks",)

    def __init__(self, know: Knowledge, history: list[dict[str, Any]] | None = None) -> None:
        #: per seat, a list of (ends mask, liking of the fitting tiles played since)
        self._checks: list[tuple[int, list[tuple[int, float]]]] = []
        entries = know.history if history is None else history
        later: dict[int, list[Tile]] = {}
        closed: set[int] = set()
        per_seat: dict[int, list[tuple[int, float]]] = {}
        for entry in reversed(entries):
            seat = entry["seat"]
            if seat == know.seat or seat in closed:
                continue
            kind = entry["type"]
            if kind == "draw":
                closed.add(seat)  # what it held before the draw includes an unknown tile
                continue
            if kind != "play":
                continue
            tile = Tile.parse(entry["tile"])
            played = later.setdefault(seat, [])
            played.append(tile)
            before = entry.get("ends_before")
            if not before:
                continue
            mask = ends_mask(before)
            known = sum(_LIKING[t] for t in played if _MASK[t] & mask)
            per_seat.setdefault(seat, []).append((mask, known))
        self._checks = sorted(per_seat.items())

    def weight(self, hands: list[list[Tile]]) -> float:
        """How likely the recorded plays were, were ``hands`` the current hands
        (up to a factor common to every deal)."""
        w = 1.0
        for seat, checks in self._checks:
            hand = hands[seat]
            for mask, known in checks:
                total = known
                for t in hand:
                    if _MASK[t] & mask:
                        total += _LIKING[t]
                w /= total
        return w

    @property
    def informative(self) -> bool:
        return bool(self._checks)


def sample_weighted(sampler: Sampler, model: PlayModel, rng: random.Random) -> Deal:
    """One of `PROPOSALS` consistent deals, drawn in proportion to ``model.weight``."""
    if not model.informative:
        return sampler.draw(rng)
    deals = [sampler.draw(rng) for _ in range(PROPOSALS)]
    weights = [model.weight(d.hands) for d in deals]
    total = sum(weights)
    if total <= 0.0:
        return deals[0]
    pick = rng.random() * total
    for deal, w in zip(deals, weights, strict=True):
        pick -= w
        if pick < 0.0:
            return deal
    return deals[-1]
