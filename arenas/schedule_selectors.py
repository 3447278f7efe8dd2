"""Reads of the tournaments' calendar (docs/site.md, "Tournaments on a
calendar"): the schedules, the next scheduled arenas, the lobby's next one, a
season's standings per preset and a person's season badges.

A season is a calendar month of the site's time zone (`arenas.slots`); its
standings add up, per preset, the points each account earned in the public,
rated arenas that started in it (cancelled ones count nothing).
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db.models import Count, QuerySet, Sum

from arenas.models import Arena, ArenaPlayer, Schedule, SeasonBadge
from arenas.slots import season_bounds, season_of, starts
from domino_site.removed import is_tombstone, shown_name


def site_zone() -> ZoneInfo:
    """The time zone of the schedules' clocks and of the seasons' months."""
    return ZoneInfo(settings.TIME_ZONE)


def schedule_ahead() -> timedelta:
    """How far ahead a schedule's arenas are created (the next one always)."""
    return timedelta(hours=float(getattr(settings, "ARENA_SCHEDULE_AHEAD_HOURS", 6)))


def active_schedules() -> QuerySet[Schedule]:
    return Schedule.objects.filter(active=True)


def schedules_missing_next(now: datetime) -> bool:
    """Whether an active schedule has no arena to come yet (the pages then have
    the calendar filled at once rather than wait for the sweeper)."""
    return active_schedules().exclude(arenas__starts_at__gt=now).exists()


def schedule_rows(now: datetime) -> list[dict[str, Any]]:
    """Each active schedule with its next start, for the calendar's page."""
    zone = site_zone()
    rows = []
    for schedule in active_schedules():
        following = starts(schedule.every, schedule.at, schedule.weekday, now, zone, 1)
        rows.append({"schedule": schedule, "next": following[0] if following else None})
    return sorted(rows, key=lambda row: row["next"] or now)


def next_tournament(now: datetime) -> Arena | None:
    """The lobby's strip: the public arena running now (the one ending last
    would be chosen by nobody: the soonest started), else the next to start."""
    public = Arena.objects.filter(visibility=Arena.Visibility.PUBLIC)
    running = public.filter(status=Arena.Status.RUNNING).order_by("starts_at").first()
    if running is not None and running.ends_at > now:
        return running
    return (
        public.filter(status=Arena.Status.UPCOMING, starts_at__gt=now).order_by("starts_at").first()
    )


def joined_ids(user: Any, arenas: list[Arena]) -> set[int]:
    """Which of ``arenas`` ``user`` has joined (and not left)."""
    if not getattr(user, "is_authenticated", False) or not arenas:
        return set()
    return set(
        ArenaPlayer.objects.filter(
            user=user, active=True, arena__in=[a.pk for a in arenas]
        ).values_list("arena_id", flat=True)
    )


# ---------------------------------------------------------------------- seasons


def current_season(now: datetime) -> date:
    return season_of(now, site_zone())


def season_range(first_day: date) -> tuple[datetime, datetime]:
    return season_bounds(first_day, site_zone())


def season_arenas(first_day: date) -> QuerySet[Arena]:
    """The arenas a season counts: public, rated, not cancelled, started in it."""
    start, end = season_range(first_day)
    return Arena.objects.filter(
        visibility=Arena.Visibility.PUBLIC,
        rated=True,
        starts_at__gte=start,
        starts_at__lt=end,
    ).exclude(status=Arena.Status.CANCELLED)


def season_standings(
    *, preset: str, first_day: date, limit: int | None = None
) -> list[dict[str, Any]]:
    """A season's standings in ``preset``: points (the sum of the arena scores),
    then wins, then fewer matches, then the name; only accounts that played."""
    rows = (
        ArenaPlayer.objects.filter(
            arena__in=season_arenas(first_day).filter(preset=preset), matches__gt=0
        )
        .values("user_id", "user__username")
        .annotate(
            points=Sum("score"), wins=Sum("wins"), matches=Sum("matches"), arenas=Count("arena")
        )
        .order_by("-points", "-wins", "matches", "user__username")
    )
    picked = rows[:limit] if limit is not None else rows
    return [
        {
            "place": place,
            "user_id": row["user_id"],
            "username": row["user__username"],
            "name": shown_name(row["user__username"]),
            "removed": is_tombstone(row["user__username"]),
            "points": row["points"] or 0,
            "wins": row["wins"] or 0,
            "matches": row["matches"] or 0,
            "arenas": row["arenas"],
        }
        for place, row in enumerate(picked, start=1)
    ]


def season_place(*, user: Any, preset: str, first_day: date) -> dict[str, Any] | None:
    """``user``'s row of the season's standings in ``preset`` (None: not played)."""
    for row in season_standings(preset=preset, first_day=first_day):
        if row["user_id"] == user.pk:
            return row
    return None


def badges_of(user: Any) -> list[SeasonBadge]:
    """The top places of the closed seasons ``user`` earned, newest first."""
    return list(SeasonBadge.objects.filter(user=user).select_related("season"))
