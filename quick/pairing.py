"""Who sits with whom in the quick-match queue (docs/site.md, "Quick match"):
pure, no Django, so that the rule can be read and tested alone.

The oldest waiting person is served first. Others are close enough when their
shown ratings differ by at most the wider of the two windows, and a window
widens with the wait. A full table of close people is made at once; after
``bots_after`` seconds the person is given bots for the seats still empty
(with whoever close does not mind bots), unless they chose "people only". A
partnership table puts the four so that the two sides' total strengths are as
close as can be. Two people kept ``apart`` (one blocks the other:
people.selectors.kept_apart) never sit at one table, however long they wait.

>>> from datetime import UTC, datetime, timedelta
>>> t0 = datetime(2026, 1, 1, tzinfo=UTC)
>>> ana, bia = Waiting("ana", 0, t0), Waiting("bia", 80, t0)
>>> [[w.key for w in table] for table in plan([ana, bia], seats=2, now=t0, bots_after=20)]
[['ana', 'bia']]
>>> far = Waiting("caio", 2000, t0)
>>> plan([ana, far], seats=2, now=t0, bots_after=20)
[]
>>> [[w and w.key for w in table] for table in plan([ana], 2, t0 + timedelta(seconds=20), 20)]
[['ana', None]]
>>> plan([Waiting("ana", 0, t0, apart=("bia",)), bia], seats=2, now=t0 + timedelta(hours=1), bots_after=20 * 3600)
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

WINDOW_BASE = 100  # shown-rating points apart that pair at once
WINDOW_PER_SECOND = 20  # how much wider the window gets each second of waiting
# The shown rating each bot level plays about as well as (the newcomer's is 0):
# bots of the level nearest the people's mean fill the empty seats.
BOT_RATINGS = {"easy": 0, "medium": 400, "hard": 800}


@dataclass(frozen=True)
class Waiting:
    """A person in one queue: ``key`` (anything hashable: the entry's id),
    ``rating`` (shown), since when, whether bots are refused, and the keys of
    those they may never sit with (``apart``: a block, either way)."""

    key: Any
    rating: int
    joined_at: datetime
    people_only: bool = False
    apart: tuple[Any, ...] = ()

    def window(self, now: datetime) -> float:
        """How far apart a partner's rating may be after waiting until ``now``."""
        waited = max(0.0, (now - self.joined_at).total_seconds())
        return WINDOW_BASE + WINDOW_PER_SECOND * waited


Slot = Waiting | None  # None: a bot's seat


def _apart(a: Waiting, b: Waiting) -> bool:
    return b.key in a.apart or a.key in b.apart


def _pick(first: Waiting, candidates: Sequence[Waiting], others: int) -> list[Waiting]:
    """``first`` and up to ``others`` of ``candidates``, in their order, none
    kept apart from another of the group."""
    group = [first]
    for w in candidates:
        if len(group) > others:
            break
        if not any(_apart(w, member) for member in group):
            group.append(w)
    return group


def plan(
    waiting: Sequence[Waiting], seats: int, now: datetime, bots_after: float
) -> list[list[Slot]]:
    """The tables to open now for one queue (one preset and clock), each as its
    seats in order (index 0 always a person: the host)."""
    pool = sorted(waiting, key=lambda w: w.joined_at)
    tables: list[list[Slot]] = []
    while pool:
        first = pool.pop(0)
        close = sorted(
            (
                w
                for w in pool
                if not _apart(first, w)
                and abs(w.rating - first.rating) <= max(first.window(now), w.window(now))
            ),
            key=lambda w: (abs(w.rating - first.rating), w.joined_at),
        )
        group = _pick(first, close, seats - 1)
        if len(group) == seats:
            pass
        elif (now - first.joined_at).total_seconds() >= bots_after and not first.people_only:
            group = _pick(first, [w for w in close if not w.people_only], seats - 1)
        else:
            continue  # stays in the queue; the next oldest is tried
        for person in group[1:]:
            pool.remove(person)
        tables.append(arrange(group, seats))
    return tables


def bot_level(people: Sequence[Waiting]) -> str:
    """The bot level whose strength is nearest the people's mean rating.

    >>> from datetime import UTC, datetime
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> bot_level([Waiting(1, 0, t)]), bot_level([Waiting(1, 700, t), Waiting(2, 1100, t)])
    ('easy', 'hard')
    """
    mean = sum(p.rating for p in people) / len(people)
    return min(BOT_RATINGS, key=lambda level: abs(BOT_RATINGS[level] - mean))


def arrange(group: Sequence[Waiting], seats: int) -> list[Slot]:
    """``group`` (people; the empty places are bots) in seat order. With four
    seats, partners sit at 0 and 2, 1 and 3: of the three ways to pair the
    four, the one whose sides' totals are closest (a bot counts as its level's
    strength).

    >>> from datetime import UTC, datetime
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> four = [Waiting(r, r, t) for r in (900, 100, 500, 400)]
    >>> [w.key for w in arrange(four, 4)]
    [900, 500, 100, 400]
    """
    slots: list[Slot] = [*group, *([None] * (seats - len(group)))]
    if seats != 4:
        return slots
    bot = BOT_RATINGS[bot_level(group)]

    def strength(slot: Slot) -> int:
        return slot.rating if slot is not None else bot

    best: tuple[float, list[Slot]] | None = None
    for partner in (1, 2, 3):  # seat 0's partner among the other three
        side_a = [0, partner]
        side_b = [i for i in range(4) if i not in side_a]
        gap = abs(sum(strength(slots[i]) for i in side_a) - sum(strength(slots[i]) for i in side_b))
        order = [slots[side_a[0]], slots[side_b[0]], slots[side_a[1]], slots[side_b[1]]]
        if order[1] is None and order[3] is not None:  # a person before a bot on side B
            order[1], order[3] = order[3], order[1]
        if best is None or gap < best[0]:
            best = (gap, order)
    assert best is not None
    return best[1]
