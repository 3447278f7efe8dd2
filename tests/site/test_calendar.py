"""Tournaments on a calendar (docs/site.md, "Tournaments on a calendar"): the
schedules an admin sets once, their arenas created ahead by the sweeper (and
by the pages at once on a fresh site), never twice for one start; the default
schedule a fresh site starts with; the calendar's page, the lobby's strip and
joining ahead; the seasons' standings, and their badges stored once."""

from __future__ import annotations

import json
from datetime import UTC, datetime, time, timedelta

import pytest
from django.test import Client
from django.utils import timezone, translation

from arenas import schedule_selectors as calendar
from arenas import schedules, services
from arenas.models import Arena, ArenaMatch, ArenaPlayer, Schedule, Season, SeasonBadge
from games.models import Match
from games.world import world
from records.models import MatchLineup
from timers import jobs

pytestmark = pytest.mark.django_db

# 21:00 in São Paulo on a Monday (UTC-3: 00:00 UTC on Tuesday).
MONDAY_NIGHT = datetime(2026, 12, 8, 0, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def in_english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def _member(user, address: str = "203.0.113.7") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _only(every: str, **kw) -> Schedule:
    """The calendar emptied, then one schedule set (as an admin would)."""
    Schedule.objects.all().delete()
    fields = {
        "name": "Noite",
        "preset": "duelo",
        "move_seconds": 30,
        "minutes": 30,
        "at": time(21, 0),
    }
    return Schedule.objects.create(every=every, **{**fields, **kw})


def test_a_fresh_site_starts_with_an_hourly_a_daily_and_a_weekly_tournament():
    kinds = sorted(Schedule.objects.filter(active=True).values_list("every", "preset"))
    assert kinds == [("day", "parceria"), ("hour", "duelo"), ("week", "duelo")]


def test_the_sweep_creates_the_next_arenas_and_running_it_twice_creates_none_more(settings):
    settings.ARENA_SCHEDULE_AHEAD_HOURS = 3
    jobs.run("sweep", now=MONDAY_NIGHT)
    first = sorted(Arena.objects.values_list("schedule__every", "starts_at"))
    jobs.run("sweep", now=MONDAY_NIGHT)
    jobs.run("sweep", now=MONDAY_NIGHT + timedelta(minutes=1))
    assert sorted(Arena.objects.values_list("schedule__every", "starts_at")) == first
    hourly = [at for every, at in first if every == "hour"]
    assert hourly == [MONDAY_NIGHT + timedelta(hours=h) for h in (1, 2, 3)]
    daily = [at for every, at in first if every == "day"]
    assert daily == [datetime(2026, 12, 9, 0, 0, tzinfo=UTC)]  # tomorrow 21:00 there
    weekly = [at for every, at in first if every == "week"]
    assert weekly == [datetime(2026, 12, 13, 23, 0, tzinfo=UTC)]  # Sunday 20:00 there
    arena = Arena.objects.get(starts_at=daily[0])
    assert (arena.preset, arena.visibility, arena.status, arena.rated) == (
        "parceria",
        "public",
        "upcoming",
        True,
    )


def test_one_arena_per_schedule_and_start_even_when_two_processes_create_it():
    schedule = _only("day")
    start = MONDAY_NIGHT + timedelta(days=1)
    assert schedules._slot(schedule, start, MONDAY_NIGHT) == 1
    assert schedules._slot(schedule, start, MONDAY_NIGHT) == 0  # the constraint refuses it
    assert Arena.objects.filter(schedule=schedule, starts_at=start).count() == 1


def test_a_schedule_turned_off_or_deleted_creates_nothing_more():
    schedule = _only("hour", at=time(0, 15))
    schedule.active = False
    schedule.save()
    assert schedules.schedules_materialize(now=MONDAY_NIGHT) == 0
    Schedule.objects.all().delete()
    jobs.run("sweep", now=MONDAY_NIGHT)
    assert not Arena.objects.exists()


def test_a_friendly_schedule_makes_unrated_arenas_with_its_clock_and_length():
    _only("week", weekday=6, rated=False, minutes=45, move_seconds=15, preset="parceria")
    schedules.schedules_materialize(now=MONDAY_NIGHT)
    arena = Arena.objects.get()
    assert (arena.rated, arena.minutes, arena.move_seconds, arena.preset) == (
        False,
        45,
        15,
        "parceria",
    )


def test_the_lobby_strip_shows_the_next_tournament_on_a_fresh_site_with_nothing_swept():
    assert not Arena.objects.exists()
    page = Client().get("/").content.decode()
    assert "data-next-tournament=" in page
    arena = Arena.objects.filter(status="upcoming").order_by("starts_at").first()
    assert arena is not None and arena.starts_at > world().now()
    assert f'data-next-tournament="{arena.pk}"' in page and "Next tournament:" in page


def test_joining_ahead_from_the_lobby_strip_and_the_calendar(django_user_model):
    ana = django_user_model.objects.create_user("ana", password="x")
    page = _member(ana).get("/").content.decode()
    arena = Arena.objects.filter(status="upcoming").order_by("starts_at").first()
    assert f'action="/torneios/{arena.pk}/join/"' in page
    answer = _member(ana).post(f"/torneios/{arena.pk}/join/")
    assert answer.status_code == 302
    assert ArenaPlayer.objects.filter(arena=arena, user=ana, active=True).exists()
    assert "data-joined" in _member(ana).get("/").content.decode()
    listing = _member(ana).get("/torneios/").content.decode()
    assert f'data-arena="{arena.pk}"' in listing and "You are in" in listing
    assert "data-calendar" in listing and "every hour at :00" in listing


def test_a_guest_sees_the_calendar_but_joins_nothing():
    listing = Client().get("/torneios/").content.decode()
    assert "data-calendar" in listing and 'data-action="join-arena"' not in listing
    arena = Arena.objects.filter(status="upcoming").first()
    answer = Client().post(f"/torneios/{arena.pk}/join/")
    assert answer.status_code == 302 and "/login/" in answer["Location"]
    assert not ArenaPlayer.objects.exists()


def test_the_strip_never_shows_a_private_arena(django_user_model):
    Schedule.objects.all().delete()
    ana = django_user_model.objects.create_user("ana", password="x")
    services.arena_create(
        name="Só amigos",
        preset="duelo",
        starts_at=world().now() + timedelta(minutes=5),
        minutes=30,
        visibility="private",
        created_by=ana,
    )
    assert "Só amigos" not in Client().get("/").content.decode()
    assert "data-next-tournament" not in Client().get("/").content.decode()


def test_joining_ahead_keeps_the_arenas_limit_on_joins_and_leaves(django_user_model, settings):
    settings.ARENA_TOGGLES = 2
    ana = django_user_model.objects.create_user("ana", password="x")
    schedules.schedules_ensure()
    arena = Arena.objects.filter(status="upcoming").first()
    client = _member(ana)
    client.post(f"/torneios/{arena.pk}/join/")
    client.post(f"/torneios/{arena.pk}/leave/")
    assert client.post(f"/torneios/{arena.pk}/join/").status_code == 429


# ---------------------------------------------------------------------- seasons


def _scored_arena(winner, loser, start: datetime, preset_minutes: int = 30) -> Arena:
    """A public rated duelo arena of ``start`` where ``winner`` beat ``loser`` once."""
    arena = services.arena_create(
        name="Noite", preset="duelo", starts_at=start, minutes=preset_minutes, now=start
    )
    services.arena_join(arena=arena, user=winner, ip_hash="ip-w", now=start)
    services.arena_join(arena=arena, user=loser, ip_hash="ip-l", now=start)
    services.arena_tick(arena=arena, now=start)
    am = ArenaMatch.objects.get(arena=arena)
    Match.objects.filter(room_id=am.room_id).update(over=True, winner=am.users.index(winner.pk) % 2)
    match = Match.objects.get(room_id=am.room_id)
    MatchLineup.objects.update_or_create(match=match, defaults={"users": am.users, "rated": True})
    services.arena_tick(arena=arena, now=start + timedelta(minutes=5))
    services.arena_tick(arena=arena, now=start + timedelta(minutes=preset_minutes + 1))
    return arena


def test_a_seasons_standings_add_up_its_public_arenas_per_preset(django_user_model):
    ana, bia, caio = (
        django_user_model.objects.create_user(n, password="x") for n in ("ana", "bia", "caio")
    )
    november = datetime(2026, 11, 10, 23, 0, tzinfo=UTC)
    _scored_arena(ana, bia, november)
    _scored_arena(ana, caio, november + timedelta(days=1))
    _scored_arena(bia, caio, november + timedelta(days=2))
    rows = calendar.season_standings(preset="duelo", first_day=november.date().replace(day=1))
    assert [(r["username"], r["points"], r["matches"]) for r in rows] == [
        ("ana", 4, 2),
        ("bia", 2, 2),
        ("caio", 0, 2),
    ]
    assert (
        calendar.season_standings(preset="parceria", first_day=november.date().replace(day=1)) == []
    )


def test_a_season_closes_once_its_arenas_are_over_and_its_podium_keeps_badges(django_user_model):
    Schedule.objects.all().delete()
    ana, bia, caio = (
        django_user_model.objects.create_user(n, password="x") for n in ("ana", "bia", "caio")
    )
    november = datetime(2026, 11, 10, 23, 0, tzinfo=UTC)
    _scored_arena(ana, bia, november)
    _scored_arena(ana, caio, november + timedelta(days=1))
    _scored_arena(bia, caio, november + timedelta(days=2))
    still_november = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)
    assert schedules.seasons_close(now=still_november) == 0  # October's: nothing played
    december = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    jobs.run("sweep", now=december)
    jobs.run("sweep", now=december + timedelta(minutes=1))
    season = Season.objects.get(starts_on=datetime(2026, 11, 1).date())
    assert season.closed_at is not None
    badges = list(
        SeasonBadge.objects.filter(season=season).values_list("place", "user__username", "points")
    )
    assert badges == [(1, "ana", 4), (2, "bia", 2)]  # no badge for no point
    profile = Client().get("/players/ana/").content.decode()
    assert 'data-season-badge="1"' in profile and "#1 in" in profile
    assert "data-season-badge" not in Client().get("/players/caio/").content.decode()
    copy = json.loads(_member(ana).get("/accounts/export/").content)  # her data (LGPD)
    assert copy["season_badges"] == [
        {"season": "2026-11-01", "preset": "duelo", "place": 1, "points": 4}
    ]


def test_a_season_waits_for_an_arena_still_running_at_its_end(django_user_model):
    Schedule.objects.all().delete()
    late = datetime(2026, 12, 1, 2, 50, tzinfo=UTC)  # 23:50 on 30 November there
    arena = services.arena_create(
        name="Tarde", preset="duelo", starts_at=late, minutes=30, now=late
    )
    services.arena_tick(arena=arena, now=late)
    assert schedules.seasons_close(now=late + timedelta(minutes=15)) == 0
    assert not Season.objects.filter(closed_at__isnull=False).exists()
    services.arena_tick(arena=arena, now=late + timedelta(minutes=31))
    schedules.seasons_close(now=late + timedelta(minutes=32))
    assert Season.objects.get(starts_on=datetime(2026, 11, 1).date()).closed_at is not None


def test_the_ranking_page_and_the_profile_show_the_current_season(django_user_model, seeded_world):
    Schedule.objects.all().delete()
    ana, bia = (django_user_model.objects.create_user(n, password="x") for n in ("ana", "bia"))
    start = world().now() - timedelta(hours=2)
    _scored_arena(ana, bia, start)
    page = Client().get("/ranking/").content.decode()
    assert 'data-season-ranking="' in page and 'data-season-player="ana"' in page
    assert 'data-season-preset="parceria"' not in page  # nobody played one
    profile = Client().get("/players/ana/").content.decode()
    assert "data-profile-season" in profile and 'data-season-place="1"' in profile


def test_a_friendly_arenas_tables_are_not_rated_but_its_matches_score(django_user_model):
    ana, bia = (django_user_model.objects.create_user(n, password="x") for n in ("ana", "bia"))
    start = world().now()
    arena = services.arena_create(
        name="Amistoso", preset="duelo", starts_at=start, minutes=30, rated=False, now=start
    )
    services.arena_join(arena=arena, user=ana, ip_hash="ip-a", now=start)
    services.arena_join(arena=arena, user=bia, ip_hash="ip-b", now=start)
    services.arena_tick(arena=arena, now=start)
    am = ArenaMatch.objects.select_related("room").get(arena=arena)
    assert am.room.competitive is False
    match = Match.objects.get(room_id=am.room_id)
    assert MatchLineup.objects.get(match=match).rated is False
    Match.objects.filter(pk=match.pk).update(over=True, winner=am.users.index(ana.pk) % 2)
    services.arena_tick(arena=arena, now=start + timedelta(minutes=1))
    assert ArenaPlayer.objects.get(arena=arena, user=ana).score == 2


def test_a_friendly_arena_scores_nothing_for_two_accounts_of_one_address(django_user_model):
    ana, bia = (django_user_model.objects.create_user(n, password="x") for n in ("ana", "bia"))
    start = world().now()
    arena = services.arena_create(
        name="Amistoso", preset="duelo", starts_at=start, minutes=30, rated=False, now=start
    )
    for user in (ana, bia):
        services.arena_join(arena=arena, user=user, ip_hash="ip-same", now=start)
    services.arena_tick(arena=arena, now=start)
    assert not ArenaMatch.objects.filter(arena=arena).exists()  # never paired together


def test_an_admin_sets_a_schedule_once_and_a_weekly_one_needs_its_weekday(admin_client):
    Schedule.objects.all().delete()
    form = {
        "name": "Quarta à noite",
        "preset": "parceria",
        "every": "week",
        "at": "21:00",
        "move_seconds": "30",
        "minutes": "45",
        "rated": "on",
        "active": "on",
    }
    refused = admin_client.post("/admin/arenas/schedule/add/", form)
    assert refused.status_code == 200 and "A weekly tournament needs its weekday." in (
        refused.content.decode()
    )
    done = admin_client.post("/admin/arenas/schedule/add/", {**form, "weekday": "2"})
    assert done.status_code == 302
    jobs.run("sweep", now=MONDAY_NIGHT)
    arena = Arena.objects.get(schedule__name="Quarta à noite")
    assert arena.starts_at == datetime(2026, 12, 10, 0, 0, tzinfo=UTC)  # Wednesday 21:00 there
    assert (arena.preset, arena.minutes, arena.move_seconds) == ("parceria", 45, 30)


def test_the_calendar_reads_in_portuguese(settings, django_user_model, seeded_world):
    seeded_world.offset = MONDAY_NIGHT - timezone.now()  # 21:00 on 7 December there
    settings.LANGUAGE_CODE = "pt-br"
    ana = django_user_model.objects.create_user("ana", password="x")
    client = _member(ana)
    with translation.override("pt-br"):
        lobby = client.get("/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
        listing = client.get("/torneios/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
        ranking = client.get("/ranking/", HTTP_ACCEPT_LANGUAGE="pt-BR").content.decode()
    assert "Próximo torneio:" in lobby and ">Participar<" in lobby
    assert "15 s por jogada · 30 min" in lobby
    assert "a cada hora, às xx:00" in listing and "todo dia às 21:00" in listing
    assert "toda semana: domingo às 20:00" in listing
    assert "Temporada: Dezembro de 2026" in ranking and "Esta vai até 31/12/2026." in ranking
