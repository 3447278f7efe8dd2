"""Two Daphne processes share one quick-match queue (docs/site.md, "Quick
match"): the queue is rows in PostgreSQL, the sockets hear of a match through
the Redis channel layer, whichever process pairs it. A person queued on both
processes is matched once."""

from __future__ import annotations

import asyncio

import pytest

from domino_site.realtime.asyncdb import db_async
from rooms.models import QuickEntry, Room, Seat
from tests.scale.players import Client, session_cookie

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


async def _next(client: Client, kind: str, timeout: float = 15) -> dict:
    while True:
        msg = await client.receive(timeout)
        if msg["type"] == kind:
            return msg


def _people(user_model) -> tuple[str, str]:
    ana = user_model.objects.create_user("ana", password="x")
    bruno = user_model.objects.create_user("bruno", password="x")
    return session_cookie(ana), session_cookie(bruno)


async def test_two_servers_share_one_queue_and_match_a_person_once(
    servers, django_user_model, settings
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing itself
    ana, bruno = await db_async(_people)(django_user_model)
    one, two = await asyncio.gather(
        asyncio.to_thread(servers, redis=True, scheduler="inprocess"),
        asyncio.to_thread(servers, redis=True, scheduler="inprocess"),
    )
    ana_one = await Client.open(one, "/ws/quick/", ana)
    ana_two = await Client.open(two, "/ws/quick/", ana)  # the same person on the other process
    await ana_one.send({"type": "join", "preset": "duelo", "move_seconds": 20})
    assert (await _next(ana_one, "queue"))["waiting"] == 1
    await ana_two.send({"type": "join", "preset": "duelo", "move_seconds": 20})
    assert (await _next(ana_two, "queue"))["waiting"] == 1  # still one person waiting
    assert await db_async(QuickEntry.objects.count)() == 1

    bruno_two = await Client.open(two, "/ws/quick/", bruno)
    await bruno_two.send({"type": "join", "preset": "duelo", "move_seconds": 20})
    matched = [await _next(c, "matched") for c in (ana_one, ana_two, bruno_two)]
    assert len({m["room"] for m in matched}) == 1
    assert matched[0]["seat"] == matched[1]["seat"] != matched[2]["seat"]
    assert await db_async(Room.objects.count)() == 1
    seats = await db_async(list)(
        Seat.objects.filter(room__code=matched[0]["room"]).values_list("user__username", flat=True)
    )
    assert sorted(seats) == ["ana", "bruno"]
    for client in (ana_one, ana_two, bruno_two):
        await client.close()


async def test_with_celery_a_worker_pairs_the_queue_of_both_servers(
    servers, django_user_model, settings
):
    """Production's set-up: the servers send the pass to Celery, a worker (here
    in this process, on the Redis broker) pairs, and the servers' sockets hear
    of it through the Redis channel layer."""
    from celery.contrib.testing.worker import start_worker

    from domino_site.celery import app

    settings.DOMINO_SCHEDULER = "celery"
    app.control.purge()  # passes other tests left without a worker
    ana, bruno = await db_async(_people)(django_user_model)
    one, two = await asyncio.gather(
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
    )
    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        first = await Client.open(one, "/ws/quick/", ana)
        second = await Client.open(two, "/ws/quick/", bruno)
        for client in (first, second):
            await client.send({"type": "join", "preset": "duelo", "move_seconds": 30})
        matched = [await _next(c, "matched", timeout=30) for c in (first, second)]
    assert matched[0]["room"] == matched[1]["room"]
    assert sorted(m["seat"] for m in matched) == [0, 1]
    for client in (first, second):
        await client.close()
