"""Guessing the hidden tiles: deals consistent with every public fact.

A sample gives each other seat a hand of its public size in which every group
of `Knowledge.groups` avoids its forbidden numbers, keeps the tiles an opening
rule excluded out of the hands, and spreads the rest over the boneyard (in a
random draw order) and the sleeping tiles.

The most constrained groups are filled first, each with tiles drawn uniformly
among those it may hold; a dead end retries with a fresh shuffle. This is not
exactly uniform over all consistent deals (that would need counting them), but
it never produces an impossible one, which is what the search needs.
"""

from __future__ import annotations

import random

from games.engine import Tile

from .knowledge import Knowledge, tile_mask

_ATTEMPTS = 40


class Deal:
    """One guess of the hidden tiles: every hand (the viewer's real one) and the boneyard."""

    __slots__ = ("hands", "boneyard")

    def __init__(self, hands: list[list[Tile]], boneyard: list[Tile]) -> None:
        self.hands = hands
        self.boneyard = boneyard


def sample_deal(know: Knowledge, rng: random.Random) -> Deal:
    """A random deal consistent with ``know`` (relaxing constraints only if none is found)."""
    unseen = know.unseen()
    slots = [
        (seat, count, forbidden)
        for seat, groups in enumerate(know.groups)
        if seat != know.seat
        for count, forbidden in groups
    ]
    for _ in range(_ATTEMPTS):
        deal = _try_fill(know, unseen, slots, rng, strict=True)
        if deal is not None:
            return deal
    deal = _try_fill(know, unseen, slots, rng, strict=False)
    assert deal is not None
    return deal


def _try_fill(
    know: Knowledge,
    unseen: list[Tile],
    slots: list[tuple[int, int, int]],
    rng: random.Random,
    *,
    strict: bool,
) -> Deal | None:
    pool = unseen[:]
    rng.shuffle(pool)
    banned = know.not_in_hands if strict else frozenset()
    masks = {t: tile_mask(t) for t in pool}

    def eligible(forbidden: int) -> list[Tile]:
        if not strict:
            return [t for t in pool]
        return [t for t in pool if not masks[t] & forbidden and t not in banned]

    # Tightest first: the fewest candidate tiles per tile needed.
    order = sorted(slots, key=lambda s: len(eligible(s[2])) / s[1] if s[1] else 99.0)
    hands: list[list[Tile]] = [[] for _ in range(know.seats)]
    for seat, count, forbidden in order:
        options = eligible(forbidden)
        if len(options) < count:
            return None
        chosen = rng.sample(options, count)
        hands[seat].extend(chosen)
        taken = set(chosen)
        pool = [t for t in pool if t not in taken]
    hands[know.seat] = list(know.hand)
    # ``pool`` is already in random order: its head is the boneyard's draw order.
    return Deal(hands, pool[: know.boneyard_count])
