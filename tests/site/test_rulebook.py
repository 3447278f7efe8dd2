"""The rulebook's rules that the pages reach (docs/rated-play.md, "The
rulebook"): an arena never pairs two accounts of one address, and "play alone"
tables that never got their seed stop holding their address back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from arenas import services as arenas
from arenas.models import ArenaMatch, ArenaPlayer
from games.world import world
from records import services as records
from rooms.limits import UNSEEDED_CLOSE_AFTER
from rooms.models import Room
from rooms.services import rooms_sweep

pytestmark = pytest.mark.django_db

HOME, ELSEWHERE = "203.0.113.7", "198.51.100.8"


def _joined(arena, user, address: str) -> None:
    """``user`` joins ``arena`` through its page, from ``address``."""
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    assert client.post(f"/torneios/{arena.pk}/join/").status_code == 302


def _tables(arena) -> list[set[str]]:
    rows = ArenaMatch.objects.filter(arena=arena)
    names = dict(ArenaPlayer.objects.filter(arena=arena).values_list("user_id", "user__username"))
    return [{names[u] for u in am.users} for am in rows]


def test_an_arena_never_pairs_two_accounts_of_one_address(make_user):
    ana, bia, caio = make_user("ana"), make_user("bia"), make_user("caio")
    arena = arenas.arena_create(name="Noite", preset="duelo", starts_at=world().now(), minutes=60)
    _joined(arena, ana, HOME)
    _joined(arena, bia, HOME)
    for minutes in (0, 5, 30):  # however long they wait
        arenas.arena_tick(arena=arena, now=world().now() + timedelta(minutes=minutes))
        assert _tables(arena) == []
    _joined(arena, caio, ELSEWHERE)
    arenas.arena_tick(arena=arena, now=world().now() + timedelta(minutes=31))
    (table,) = _tables(arena)
    assert "caio" in table and table != {"ana", "bia"}
    assert Room.objects.get(pk=ArenaMatch.objects.get(arena=arena).room_id).rated


def _solo(address: str) -> int:
    data = {"preset": "parceria", "play_alone": "1", "bot_level": "easy"}
    return Client(REMOTE_ADDR=address).post("/rooms/", data).status_code


def test_unseeded_play_alone_tables_stop_counting_and_close(settings, seeded_world):
    settings.SOLO_TABLES_PER_ADDRESS = 4
    assert [_solo(HOME) for _ in range(5)] == [302] * 4 + [429]
    seeded_world.advance(UNSEEDED_CLOSE_AFTER.total_seconds() - 5)
    assert _solo(HOME) == 429  # not yet: the page may still be opening
    seeded_world.advance(10)
    assert _solo(HOME) == 302  # the four never opened no longer count
    rooms_sweep(now=world().now())
    closed = Room.objects.filter(status=Room.Status.CLOSED)
    assert closed.count() == 4 and set(closed.values_list("close_reason", flat=True)) == {
        "unseeded"
    }
    assert Room.objects.exclude(status=Room.Status.CLOSED).count() == 1


def test_an_arena_does_not_pair_someone_cooling_down(make_user):
    ana, bia, caio = make_user("ana"), make_user("bia"), make_user("caio")
    records.abandonment_recorded(user=ana, reason="left")
    arena = arenas.arena_create(name="Noite", preset="duelo", starts_at=world().now(), minutes=60)
    for user, address in ((ana, HOME), (bia, ELSEWHERE), (caio, "192.0.2.9")):
        _joined(arena, user, address)
    arenas.arena_tick(arena=arena, now=world().now())
    assert _tables(arena) == [{"bia", "caio"}]
