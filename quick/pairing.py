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
Two friends who queue together for parceria (``partner``: people.selectors
.queue_partners) are served as one team, by their mean rating, and sit as
partners, against another pair or two singles.

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
    partner: Any = None  # the key of the one they queue with (parceria), if both chose it

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


Unit = tuple[Waiting, ...]  # one person, or two who queue together (partners)


def units_of(pool: Sequence[Waiting], seats: int) -> list[Unit]:
    """``pool`` (oldest first) as units: two who chose each other as partners are
    one unit at a four-seat table; everyone else alone. A person whose partner
    is not in the queue yet waits for them (no unit).

    >>> from datetime import UTC, datetime
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> units_of([Waiting("ana", 0, t, partner="bia"), Waiting("caio", 0, t)], 4)[0][0].key
    'caio'
    """
    by_key = {w.key: w for w in pool}
    seen: set[Any] = set()
    units: list[Unit] = []
    for w in pool:
        if w.key in seen:
            continue
        if seats == 4 and w.partner is not None and w.partner not in by_key:
            continue  # waits for the partner to join
        mate = by_key.get(w.partner) if seats == 4 and w.partner is not None else None
        if mate is not None and mate.partner == w.key and mate.key not in seen:
            units.append((w, mate))
        else:
            units.append((w,))
        seen.update(m.key for m in units[-1])
    return units


def _rating(unit: Unit) -> float:
    """A unit's strength: its people's mean shown rating (a pair is a team)."""
    return sum(w.rating for w in unit) / len(unit)


def _window(unit: Unit, now: datetime) -> float:
    return max(w.window(now) for w in unit)


def _units_apart(a: Unit, b: Unit) -> bool:
    return any(_apart(x, y) for x in a for y in b)


def _pick_units(first: Unit, candidates: Sequence[Unit], seats: int) -> list[Unit]:
    """``first`` and the ``candidates``, in their order, that fit the table's seats,
    none kept apart from another of the group."""
    group = [first]
    size = len(first)
    for unit in candidates:
        if size >= seats:
            break
        if size + len(unit) <= seats and not any(_units_apart(unit, g) for g in group):
            group.append(unit)
            size += len(unit)
    return group


def plan(
    waiting: Sequence[Waiting], seats: int, now: datetime, bots_after: float
) -> list[list[Slot]]:
    """The tables to open now for one queue (one preset and clock), each as its
    seats in order (index 0 always a person: the host). Two who queue together
    (``partner``, both ways) are served as one, by their team's mean rating,
    and sit as partners."""
    units = units_of(sorted(waiting, key=lambda w: w.joined_at), seats)
    tables: list[list[Slot]] = []
    while units:
        first = units.pop(0)
        close = sorted(
            (
                u
                for u in units
                if not _units_apart(first, u)
                and abs(_rating(u) - _rating(first)) <= max(_window(first, now), _window(u, now))
            ),
            key=lambda u: (abs(_rating(u) - _rating(first)), u[0].joined_at),
        )
        group = _pick_units(first, close, seats)
        waited = (now - first[0].joined_at).total_seconds()
        if sum(map(len, group)) == seats:
            pass
        elif waited >= bots_after and not any(w.people_only for w in first):
            people = [u for u in close if not any(w.people_only for w in u)]
            group = _pick_units(first, people, seats)
        else:
            continue  # stays in the queue; the next oldest is tried
        for unit in group[1:]:
            units.remove(unit)
        pairs = [u for u in group if len(u) == 2]
        tables.append(arrange([w for u in group for w in u], seats, pairs=pairs))
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


def arrange(group: Sequence[Waiting], seats: int, pairs: Sequence[Unit] = ()) -> list[Slot]:
    """``group`` (people; the empty places are bots) in seat order. With four
    seats, partners sit at 0 and 2, 1 and 3: two who queued together
    (``pairs``) are partners; otherwise, of the three ways to pair the four,
    the one whose sides' totals are closest (a bot counts as its level's
    strength).

    >>> from datetime import UTC, datetime
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> ana, bia, caio = Waiting("ana", 0, t), Waiting("bia", 0, t), Waiting("caio", 900, t)
    >>> [w and w.key for w in arrange([caio, ana, bia], 4, pairs=[(ana, bia)])]
    ['ana', 'caio', 'bia', None]

    >>> from datetime import UTC, datetime
    >>> t = datetime(2026, 1, 1, tzinfo=UTC)
    >>> four = [Waiting(r, r, t) for r in (900, 100, 500, 400)]
    >>> [w.key for w in arrange(four, 4)]
    [900, 500, 100, 400]
    """
    slots: list[Slot] = [*group, *([None] * (seats - len(group)))]
    if seats != 4:
        return slots
    if pairs:  # the pair that queued together is side A; the others (or bots) side B
        team = pairs[0]
        others: list[Slot] = [w for w in group if w not in team]
        others += [None] * (2 - len(others))
        return [team[0], others[0], team[1], others[1]]
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
