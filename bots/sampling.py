"""Guessing the hidden tiles: deals consistent with every public fact.

A sample gives each other seat a hand of its public size in which every group
of `Knowledge.groups` avoids its forbidden numbers, keeps the tiles an opening
rule excluded out of the hands, and spreads the rest over the boneyard (in a
random draw order) and the sleeping tiles.

The most constrained groups are filled first, each with tiles drawn uniformly
among those it may hold; a dead end retries with fresh draws. This is not
exactly uniform over all consistent deals (that would need counting them), but
it never produces an impossible one, which is what the search needs.

A decision draws hundreds of deals from one view, so `Sampler` works out once
which tiles each group may hold and in which order the groups are filled;
each `Sampler.draw` then only draws.

>>> import random
>>> from games.engine import PRESETS, Round
>>> from bots.knowledge import read_view
>>> know = read_view(Round.deal(PRESETS["parceria"], rng=random.Random(0)).view(0))
>>> deal = Sampler(know).draw(random.Random(1))
>>> [len(hand) for hand in deal.hands], deal.hands[0] == know.hand
([7, 7, 7, 7], True)
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Round, Tile

from .knowledge import Knowledge, tile_mask

_ATTEMPTS = 40


class Deal:
    """One guess of the hidden tiles: every hand (the viewer's real one) and the boneyard."""

    __slots__ = ("hands", "boneyard")

    def __init__(self, hands: list[list[Tile]], boneyard: list[Tile]) -> None:
        self.hands = hands
        self.boneyard = boneyard


class Sampler:
    """Deals consistent with ``know``, drawn as often as wanted."""

    __slots__ = ("_know", "_unseen", "_strict", "_loose")

    def __init__(self, know: Knowledge) -> None:
        self._know = know
        self._unseen = know.unseen()
        slots = [
            (seat, count, forbidden)
            for seat, groups in enumerate(know.groups)
            if seat != know.seat
            for count, forbidden in groups
        ]
        banned = know.not_in_hands
        masks = {t: tile_mask(t) for t in self._unseen}
        strict = [
            (seat, count, [t for t in self._unseen if not masks[t] & forbidden and t not in banned])
            for seat, count, forbidden in slots
        ]
        # Tightest first: the fewest candidate tiles per tile needed.
        strict.sort(key=lambda s: len(s[2]) / s[1] if s[1] else 99.0)
        self._strict = strict
        #: the fallback when no deal keeps every constraint (a view built by hand)
        self._loose = [(seat, count, self._unseen) for seat, count, _ in slots]

    def draw(self, rng: random.Random) -> Deal:
        """A random deal consistent with the view (relaxing constraints only if none is found)."""
        for _ in range(_ATTEMPTS):
            deal = self._fill(self._strict, rng)
            if deal is not None:
                return deal
        deal = self._fill(self._loose, rng)
        assert deal is not None
        return deal

    def _fill(self, slots: list[tuple[int, int, list[Tile]]], rng: random.Random) -> Deal | None:
        know = self._know
        hands: list[list[Tile]] = [[] for _ in range(know.seats)]
        taken: set[Tile] = set()
        for seat, count, eligible in slots:
            options = [t for t in eligible if t not in taken] if taken else eligible
            if len(options) < count:
                return None
            chosen = rng.sample(options, count)
            hands[seat].extend(chosen)
            taken.update(chosen)
        hands[know.seat] = list(know.hand)
        rest = [t for t in self._unseen if t not in taken]
        # The head of the shuffled rest is the boneyard's draw order.
        return Deal(hands, rng.sample(rest, know.boneyard_count) if know.boneyard_count else [])


class Positions:
    """The rounds of one view's guessed deals: ``Round.from_view`` for the
    first guess, then ``Round.with_hands`` (a copy with the hidden tiles
    rearranged), which skips rebuilding the chain and history every time."""

    __slots__ = ("_view", "_first")

    def __init__(self, view: dict[str, Any]) -> None:
        self._view = view
        self._first: Round | None = None

    def of(self, deal: Deal) -> Round:
        """A fresh round of the view with ``deal``'s hands and boneyard."""
        if self._first is None:
            self._first = Round.from_view(self._view, deal.hands, deal.boneyard)
        return self._first.with_hands(deal.hands, deal.boneyard)


def sample_deal(know: Knowledge, rng: random.Random) -> Deal:
    """One random deal consistent with ``know`` (`Sampler` draws many from one view)."""
    return Sampler(know).draw(rng)
