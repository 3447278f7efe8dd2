"""Fair play against quitters (docs/rated-play.md, "Abandonment cool-down"), on
the real sockets: leaving a rated match and three timeouts in a row start a
cool-down that blocks the quick-match queue and rated tables, says why and
until when, and expires; the others see who abandoned; friendly tables and
bots never count."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.realtime.asyncdb import db_async
from games.world import world
from records import selectors
from records.models import Cooldown
from rooms import services
from tests.realtime.conftest import (
    Player,
    advance,
    play_against_the_clock,
    session_cookie,
)
from tests.realtime.test_quick_match import Quick

pytestmark = pytest.mark.django_db(transaction=True)

ANA_IP, BRUNO_IP, CARLA_IP = "203.0.113.10", "198.51.100.20", "192.0.2.30"


async def _pair(django_user_model, competitive: bool = True, **kw):
    """ana (host, seat 0) and bruno (seat 1), each from their own address."""
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    room = await sync_to_async(services.room_create)(
        user=ana, name="Mesa", preset="com_monte", competitive=competitive, **kw
    )
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    guest = await Player.table(room.code, await sync_to_async(session_cookie)(bruno), BRUNO_IP)
    await guest.send({"type": "sit", "seat": 1})
    await guest.until(lambda s: s["you"]["seat"] == 1)
    await host.until(lambda s: s["seats"][1]["kind"] == "human")
    return room, ana, bruno, host, guest


async def test_leaving_a_rated_match_blocks_the_queue_and_rated_tables_until_it_expires(
    live, django_user_model
):
    room, ana, bruno, host, guest = await _pair(django_user_model)
    await host.send({"type": "start"})
    await guest.until(lambda s: s["round"] is not None)
    await guest.send({"type": "leave"})
    over = await host.until(lambda s: bool(s["match"] and s["match"]["over"]))
    assert over["match"]["ended_by"] == "abandono"
    assert over["match"]["abandoned"] == [1]  # the table says who abandoned
    cooldown = await db_async(selectors.cooldown_for)(user=bruno)
    assert cooldown is not None and cooldown.reason == "left"
    assert abs(cooldown.until - world().now() - timedelta(minutes=10)) < timedelta(seconds=5)
    assert await db_async(selectors.cooldown_for)(user=ana) is None

    # the queue refuses, saying until when
    queue = await Quick.open(bruno, BRUNO_IP)
    await queue.join("duelo", 20)
    refused = await queue.next("error")
    assert refused["code"] == "cooldown"
    assert refused["until"] == cooldown.until.isoformat()
    assert refused["message"]

    # so does a seat at a competitive (rated) table, and opening one
    make = sync_to_async(django_user_model.objects.create_user)
    carla = await make("carla", password="x")
    other = await sync_to_async(services.room_create)(user=carla, name="Outra", preset="duelo")
    watcher = await Player.table(other.code, await sync_to_async(session_cookie)(bruno), BRUNO_IP)
    await watcher.send({"type": "sit", "seat": 1})
    assert (await watcher.error())["code"] == "cooldown"
    # ... but not a friendly one
    friendly = await sync_to_async(services.room_create)(
        user=carla, name="Amigos", preset="duelo", competitive=False
    )
    await sync_to_async(services.seat_take)(room=friendly, index=1, user=bruno)

    # the pages say why and until when
    for path in ("/", f"/r/{other.code}/"):
        page = await sync_to_async(_page)(bruno, path)
        assert "data-cooldown" in page and cooldown.message in page, path

    # and it expires
    advance(10 * 60 + 1)
    assert await db_async(selectors.cooldown_for)(user=bruno) is None
    await queue.join("duelo", 20, people_only=True)
    assert (await queue.next("queue"))["waiting"] == 1


async def test_the_table_names_who_abandoned_not_their_empty_seat(live, django_user_model):
    """docs/protocol.md, "Server to client": ``match.abandoned_names`` holds the name the
    seat showed when its person abandoned, kept with the abandonment: the seat is
    empty by then, and a page opened later reads the same name."""
    room, ana, bruno, host, guest = await _pair(django_user_model)
    await host.send({"type": "start"})
    await guest.until(lambda s: s["round"] is not None)
    await guest.send({"type": "leave"})
    over = await host.until(lambda s: bool(s["match"] and s["match"]["over"]))
    assert over["match"]["ended_by"] == "abandono"
    assert over["seats"][1]["kind"] == "empty"  # "Cadeira 2" would name nobody
    assert over["match"]["abandoned"] == [1]
    assert over["match"]["abandoned_names"] == ["bruno"]

    reloaded = await Player.table(room.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    again = await reloaded.until(lambda s: bool(s["match"] and s["match"]["over"]))
    assert again["match"]["abandoned_names"] == ["bruno"]


def _page(user, path: str) -> str:
    client = Client()
    client.force_login(user)
    return client.get(path).content.decode()


async def test_three_timeouts_in_a_row_are_an_abandonment(live, django_user_model):
    room, ana, bruno, host, guest = await _pair(django_user_model, move_seconds=10)
    await host.send({"type": "start"})
    await host.until(lambda s: s["round"] is not None)
    over = await play_against_the_clock(host, move_seconds=10, others=(guest,))
    assert over["match"]["over"] and over["match"]["ended_by"] == "abandono"
    assert over["match"]["winner"] == 0 and over["match"]["abandoned"] == [1]
    rows = await db_async(list)(Cooldown.objects.values_list("user__username", "reason"))
    assert rows == [("bruno", "timeouts")]


async def test_a_friendly_table_never_counts(live, django_user_model):
    room, ana, bruno, host, guest = await _pair(django_user_model, competitive=False)
    await host.send({"type": "start"})
    await guest.until(lambda s: s["round"] is not None)
    await guest.send({"type": "leave"})
    await host.until(lambda s: s["seats"][1]["substitute"] or s["seats"][1]["kind"] != "human")
    assert not await db_async(Cooldown.objects.exists)()
