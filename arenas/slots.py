"""When a schedule's arenas start, and which season a time falls in: plain
values only (no Django, no rows), so the calendar's arithmetic is tested on its
own (docs/site.md, "Tournaments on a calendar").

The times are the wall clock of the site's time zone: "every day at 21:00" is
21:00 in São Paulo whatever UTC says, and a season is a calendar month there.

>>> from zoneinfo import ZoneInfo
>>> sp = ZoneInfo("America/Sao_Paulo")
>>> now = datetime(2026, 12, 7, 4, 10, tzinfo=UTC)  # 01:10 in São Paulo
>>> [t.astimezone(sp).strftime("%d %H:%M") for t in starts("hour", time(0, 30), None, now, sp, 3)]
['07 01:30', '07 02:30', '07 03:30']
>>> [t.astimezone(sp).strftime("%d %H:%M") for t in starts("day", time(21, 0), None, now, sp, 2)]
['07 21:00', '08 21:00']
>>> [t.astimezone(sp).strftime("%a %d %H:%M") for t in starts("week", time(20, 0), 6, now, sp, 2)]
['Sun 13 20:00', 'Sun 20 20:00']
>>> season_of(now, sp)
datetime.date(2026, 12, 1)
>>> season_bounds(date(2026, 12, 1), sp)[1].astimezone(sp).isoformat()
'2027-01-01T00:00:00-03:00'
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, date, datetime, time, timedelta, tzinfo
from itertools import islice


def _candidates(
    every: str, at: time, weekday: int | None, now: datetime, zone: tzinfo
) -> Iterator[datetime]:
    """Every start of the schedule from the last period's on, in order (aware)."""
    local = now.astimezone(zone)
    if every == "hour":
        # Whole hours of UTC: the same minute every hour, through a clock change too.
        hour = now.astimezone(UTC).replace(minute=0, second=0, microsecond=0)
        first = hour + timedelta(minutes=at.minute) - timedelta(hours=1)
        while True:
            yield first
            first += timedelta(hours=1)
    step = 7 if every == "week" else 1
    day = local.date()
    if every == "week":
        day -= timedelta(days=(day.weekday() - (weekday or 0)) % 7)
    day -= timedelta(days=step)
    while True:
        yield datetime.combine(day, at.replace(second=0, microsecond=0), tzinfo=zone)
        day += timedelta(days=step)


def starts(
    every: str, at: time, weekday: int | None, now: datetime, zone: tzinfo, count: int
) -> list[datetime]:
    """The next ``count`` starts of a schedule after ``now`` (``every``: hour,
    day or week; ``at``: the wall-clock time, of which an hourly one uses the
    minutes; ``weekday``: 0 Monday to 6 Sunday, weekly ones only)."""
    later = (t for t in _candidates(every, at, weekday, now, zone) if t > now)
    return list(islice(later, max(0, count)))


def starts_within(
    every: str, at: time, weekday: int | None, now: datetime, zone: tzinfo, ahead: timedelta
) -> list[datetime]:
    """The starts after ``now`` and up to ``now + ahead``, and always the next one
    (a weekly arena is on the calendar all week)."""
    found: list[datetime] = []
    for t in _candidates(every, at, weekday, now, zone):
        if t <= now:
            continue
        if found and t > now + ahead:
            break
        found.append(t)
    return found


def season_of(moment: datetime, zone: tzinfo) -> date:
    """The season ``moment`` falls in: the first day of its month, there."""
    return moment.astimezone(zone).date().replace(day=1)


def season_bounds(first_day: date, zone: tzinfo) -> tuple[datetime, datetime]:
    """The season starting on ``first_day``: its first and its after-last moment."""
    start = datetime.combine(first_day, time(0), tzinfo=zone)
    following = (first_day.replace(day=28) + timedelta(days=4)).replace(day=1)
    return start, datetime.combine(following, time(0), tzinfo=zone)


def previous_season(first_day: date) -> date:
    """The season before the one starting on ``first_day``."""
    return (first_day - timedelta(days=1)).replace(day=1)
