"""The writes of the tournaments' calendar (docs/site.md, "Tournaments on a
calendar"): the schedules' arenas created ahead of time, and each season
closed once with its podiums kept as badges. Both run in the sweeper
(`timers.jobs.sweep`, every few seconds: beat's ``rooms.sweep`` in production,
the in-process ticker when embedded, which sweeps at its start), so a fresh
site has its next tournaments within seconds, with nobody touching the admin.

Idempotent, even run twice at once: an arena is unique per (schedule, start)
(the second insert fails on the constraint and is dropped, in its own
savepoint), and a season's row is locked while it closes (a closed one is
never closed again; a badge is unique per season, preset and place).
"""

from __future__ import annotations

import logging
from datetime import date, datetime

from django.conf import settings
from django.db import IntegrityError, transaction

from arenas import schedule_selectors as calendar
from arenas.models import Arena, ArenaMatch, Schedule, Season, SeasonBadge
from arenas.selectors import PODIUM
from arenas.services import arena_create
from arenas.slots import previous_season, starts_within
from games.world import now_or

log = logging.getLogger(__name__)


def schedules_materialize(*, now: datetime | None = None) -> int:
    """Create every active schedule's arenas starting within
    `ARENA_SCHEDULE_AHEAD_HOURS` (and always its next one). How many were made."""
    now = now_or(now)
    zone = calendar.site_zone()
    ahead = calendar.schedule_ahead()
    made = 0
    for schedule in calendar.active_schedules():
        wanted = starts_within(schedule.every, schedule.at, schedule.weekday, now, zone, ahead)
        have = set(
            Arena.objects.filter(schedule=schedule, starts_at__in=wanted).values_list(
                "starts_at", flat=True
            )
        )
        made += sum(_slot(schedule, start, now) for start in wanted if start not in have)
    return made


def schedules_ensure(*, now: datetime | None = None) -> int:
    """The pages' lazy check: create the schedules' arenas only when one of
    them has none to come (one query otherwise)."""
    now = now_or(now)
    if not calendar.schedules_missing_next(now):
        return 0
    return schedules_materialize(now=now)


def _slot(schedule: Schedule, start: datetime, now: datetime) -> int:
    """The arena of ``schedule`` at ``start`` (1), unless another process made it
    first (0: the unique constraint, in a savepoint of its own)."""
    try:
        with transaction.atomic():
            arena_create(
                name=schedule.name,
                preset=schedule.preset,
                starts_at=start,
                minutes=schedule.minutes,
                move_seconds=schedule.move_seconds,
                rated=schedule.rated,
                schedule=schedule,
                now=now,
            )
    except IntegrityError:
        return 0
    return 1


# ---------------------------------------------------------------------- seasons


def seasons_close(*, now: datetime | None = None) -> int:
    """Close the season before the current one once its arenas are over (every
    match scored): its top `PODIUM` places per preset become badges. How many
    badges were stored (0 when it was closed already, or is not over yet)."""
    now = now_or(now)
    first_day = previous_season(calendar.current_season(now))
    if Season.objects.filter(starts_on=first_day, closed_at__isnull=False).exists():
        return 0
    arenas = calendar.season_arenas(first_day)
    if arenas.filter(status__in=(Arena.Status.UPCOMING, Arena.Status.RUNNING)).exists():
        return 0
    if ArenaMatch.objects.filter(arena__in=arenas, ended_at=None).exists():
        return 0
    try:
        return _close(first_day=first_day, now=now)
    except IntegrityError:  # another process opened the season's row at once
        return 0


@transaction.atomic
def _close(*, first_day: date, now: datetime) -> int:
    Season.objects.get_or_create(starts_on=first_day)
    season = Season.objects.select_for_update().get(starts_on=first_day)
    if season.closed_at is not None:
        return 0
    stored = 0
    places = int(getattr(settings, "SEASON_BADGE_PLACES", PODIUM))
    for preset in Arena.Preset.values:
        for row in calendar.season_standings(
            preset=preset, first_day=season.starts_on, limit=places
        ):
            if row["points"] <= 0 or row["removed"]:
                continue
            _, created = SeasonBadge.objects.get_or_create(
                season=season,
                preset=preset,
                place=row["place"],
                defaults={"user_id": row["user_id"], "points": row["points"]},
            )
            stored += int(created)
    season.closed_at = now
    season.save(update_fields=["closed_at"])
    log.info("season %s closed: %s badges", season, stored)
    return stored


def calendar_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The sweeper's part: the schedules' arenas ahead, the last season closed."""
    now = now_or(now)
    return {"arenas": schedules_materialize(now=now), "badges": seasons_close(now=now)}
