"""Who plays whom in an arena (docs/site.md, "Arenas"): pure functions over
the free players, no Django.

Free players are ordered by arena score, then rating; each takes the nearest
one below it that it did not just play, and two who just met meet again only
when neither has anyone else to play. In parceria four neighbours make a
table and the partners are drawn at random, avoiding last match's partners.
Two players the rulebook keeps ``apart`` (one address: records.rulebook) are
never seated together, however long they wait.

>>> a, b, c = Free(1, 4, 1500), Free(2, 2, 1600), Free(3, 2, 1400)
>>> duel_pairs([c, b, a])
[(1, 2)]
>>> duel_pairs([Free(1, 0, 1500, last=(2,)), Free(2, 0, 1500, last=(1,))])
[]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Free:
    """A player waiting for a table: account, arena score, rating, the people of
    their last match, their last partner, how long they have waited (s), and
    the accounts they may never be seated with (``apart``)."""

    user: int
    score: int
    rating: float
    last: tuple[int, ...] = ()
    partner: int | None = None
    waited: float = 0.0
    apart: tuple[int, ...] = ()


def _apart(a: Free, b: Free) -> bool:
    return b.user in a.apart or a.user in b.apart


def order(free: Sequence[Free]) -> list[Free]:
    """Best arena score first, then the higher rating (the account breaks ties)."""
    return sorted(free, key=lambda p: (-p.score, -p.rating, p.user))


def _met(a: Free, b: Free) -> bool:
    return b.user in a.last or a.user in b.last


def duel_pairs(
    free: Sequence[Free], *, rematch_after: float = float("inf")
) -> list[tuple[int, int]]:
    """Pairs of accounts to seat at two-player tables, closest first.

    Each takes the nearest below it that it did not just meet. Two who just met
    are paired again only when neither has anyone else left to play (everyone
    else free just met them, is kept ``apart`` from them, or was seated), and
    both have waited ``rematch_after`` seconds.

    >>> a, b = Free(1, 0, 1500, last=(2,), waited=30), Free(2, 0, 1500, last=(1,), waited=30)
    >>> duel_pairs([a, b], rematch_after=20)
    [(1, 2)]
    >>> duel_pairs([a, b, Free(3, 0, 1400, last=(1,))], rematch_after=20)  # 3 is new to 2
    [(2, 3)]
    >>> duel_pairs([a, b, Free(3, 0, 1400, apart=(1,))], rematch_after=20)
    [(2, 3)]
    >>> duel_pairs([Free(1, 0, 1500, apart=(2,)), Free(2, 0, 1500), Free(3, 0, 1400)])
    [(1, 3)]
    """
    left = order(free)
    pairs: list[tuple[int, int]] = []
    unpaired: list[Free] = []
    while left:
        a = left.pop(0)
        j = next((i for i, b in enumerate(left) if not _met(a, b) and not _apart(a, b)), None)
        if j is None:
            unpaired.append(a)
        else:
            pairs.append((a.user, left.pop(j).user))
    return pairs + _rematches(unpaired, rematch_after)


def _rematches(unpaired: Sequence[Free], rematch_after: float) -> list[tuple[int, int]]:
    """Among those nobody new was found for, two who just met and have both
    waited ``rematch_after`` seconds. (Any two of them just met or are kept
    apart: had they not, the first would have taken the other.)

    >>> _rematches([Free(1, 0, 0, last=(2,), waited=5), Free(2, 0, 0, last=(1,), waited=9)], 5)
    [(1, 2)]
    >>> _rematches([Free(1, 0, 0, last=(2,), waited=4), Free(2, 0, 0, last=(1,), waited=9)], 5)
    []
    """
    left = [p for p in unpaired if p.waited >= rematch_after]
    pairs: list[tuple[int, int]] = []
    while left:
        a = left.pop(0)
        j = next((i for i, b in enumerate(left) if not _apart(a, b)), None)
        if j is not None:
            pairs.append((a.user, left.pop(j).user))
    return pairs


# The three ways four people make two partnerships, as positions in the group:
# seats 0 and 2 are partners, and 1 and 3 (docs/rules.md: partners sit facing).
_SPLITS = ((0, 1, 2, 3), (0, 2, 1, 3), (0, 1, 3, 2))


def four_tables(free: Sequence[Free], rng: random.Random) -> list[tuple[int, int, int, int]]:
    """Tables of four accounts in seat order (seats 0 and 2 partners, 1 and 3),
    neighbours in the order making a table; partners drawn at random among the
    splits that keep nobody with last match's partner (any split when none does).

    >>> tables = four_tables([Free(i, 0, 1500, partner=i ^ 1) for i in range(4)], random.Random(1))
    >>> [sorted((t[0], t[2])) for t in tables] in ([[0, 2]], [[0, 3]], [[1, 2]], [[1, 3]])
    True
    """
    tables = []
    for group in _groups_of_four(order(free)):
        fresh = [split for split in _SPLITS if not _repeats(group, split)]
        split = rng.choice(fresh or list(_SPLITS))
        seats = [group[i] for i in split]
        tables.append((seats[0].user, seats[1].user, seats[2].user, seats[3].user))
    return tables


def _groups_of_four(ordered: Sequence[Free]) -> list[list[Free]]:
    """Neighbours in ``ordered``, four by four, none kept ``apart`` from
    another of their four (who fits no group waits for the next pairing).

    >>> [[p.user for p in g] for g in _groups_of_four([Free(i, 0, 0) for i in range(9)])]
    [[0, 1, 2, 3], [4, 5, 6, 7]]
    >>> people = [Free(0, 0, 0, apart=(1,)), *[Free(i, 0, 0) for i in range(1, 5)]]
    >>> [[p.user for p in g] for g in _groups_of_four(people)]
    [[0, 2, 3, 4]]
    >>> people = [Free(0, 0, 0, apart=(1, 2, 3)), *[Free(i, 0, 0) for i in range(1, 5)]]
    >>> [[p.user for p in g] for g in _groups_of_four(people)]
    [[1, 2, 3, 4]]
    """
    left = list(ordered)
    groups = []
    while len(left) >= 4:
        group = [left[0]]
        for other in left[1:]:
            if len(group) < 4 and not any(_apart(other, member) for member in group):
                group.append(other)
        if len(group) == 4:
            groups.append(group)
            left = [p for p in left if p not in group]
        else:  # the first fits no four: they wait, the others are tried without them
            left.pop(0)
    return groups


def _repeats(group: Sequence[Free], split: tuple[int, int, int, int]) -> bool:
    """Whether this split puts someone with the partner of their last match."""
    a, b, c, d = (group[i] for i in split)
    return a.partner == c.user or c.partner == a.user or b.partner == d.user or d.partner == b.user


def win_points(streak: int) -> int:
    """A win's points after ``streak`` wins in a row: 2, doubled from the third.

    >>> [win_points(s) for s in range(4)]
    [2, 2, 4, 4]
    """
    return 4 if streak >= 2 else 2


def draw_points(streak: int) -> int:
    """A draw's point: 1, doubled on a streak (it ends the streak).

    >>> draw_points(0), draw_points(2)
    (1, 2)
    """
    return 2 if streak >= 2 else 1


def performance_of(opponents: float, result: float) -> float:
    """One match's performance: the opponents' average rating, 400 up for a win
    and 400 down for a loss (``result``: 1, 1/2, 0).

    >>> performance_of(1500, 1), performance_of(1500, 0.5), performance_of(1500, 0)
    (1900.0, 1500.0, 1100.0)
    """
    return float(opponents) + 800.0 * (result - 0.5)
