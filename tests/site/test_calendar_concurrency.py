"""Four sweepers at once create a schedule's arenas once and close a season
once (docs/site.md, "Tournaments on a calendar"): the unique (schedule, start)
and the season row's lock, on PostgreSQL's row locks and constraints (SQLite
serialises whole transactions instead)."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest

from arenas.models import Arena, Schedule, Season
from arenas.schedules import calendar_sweep
from tests.at_once import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

THREADS = 4
NOW = datetime(2026, 12, 8, 0, 0, tzinfo=UTC)


def test_four_sweeps_at_once_make_one_arena_per_start_and_close_the_season_once(settings):
    settings.ARENA_SCHEDULE_AHEAD_HOURS = 3
    Schedule.objects.all().delete()
    Schedule.objects.create(
        name="Toda hora", preset="duelo", move_seconds=15, minutes=30, every="hour", at=time(0, 0)
    )
    outcomes = at_once([lambda: calendar_sweep(now=NOW)] * THREADS)
    assert outcomes == ["ok"] * THREADS, outcomes
    starts = list(Arena.objects.order_by("starts_at").values_list("starts_at", flat=True))
    assert [s.hour for s in starts] == [1, 2, 3]  # once each
    assert Season.objects.filter(closed_at__isnull=False).count() == 1  # November, once
