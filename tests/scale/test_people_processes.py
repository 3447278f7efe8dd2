"""Who is online and challenges across two Daphne processes sharing the Redis
channel layer (docs/site.md, "Friends, blocking and who is online",
"Challenges"): a friend's page on one server hears, live, the pages the other
opens and closes on the other server, and a stranger's page hears nothing of
it; a challenge accepted on one server seats both within 2 s."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from django.db import connection

from people import challenges, services
from rooms import services as rooms
from tests.scale.players import Client, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


async def _next(page: Client, kind: str) -> dict[str, Any]:
    while True:
        frame = await page.receive()
        if frame["type"] == kind:
            return frame


async def _presence(page: Client, name: str) -> dict[str, Any]:
    while True:
        frame = await _next(page, "presence")
        if frame["name"] == name:
            return frame


def _people(django_user_model):
    ana, bruno, caio = (
        django_user_model.objects.create_user(n, password="x") for n in ("ana", "bruno", "caio")
    )
    services.friend_request_send(sender=ana, recipient=bruno)
    services.friend_request_accept(user=bruno, sender=ana)
    room = rooms.room_create(user=ana, name="Mesa", preset="duelo")
    cookies = session_cookie(ana), session_cookie(bruno), session_cookie(caio)
    connection.close()  # this worker thread's own
    return room, *cookies


@pytest.mark.postgres
@pytest.mark.redis
async def test_presence_crosses_server_processes(
    servers, transactional_db, django_user_model, settings
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    room, ana, bruno, caio = await asyncio.to_thread(_people, django_user_model)
    one, two = await asyncio.gather(
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
    )
    friend = await Client.open(two, "/ws/people/", bruno)
    assert (await _next(friend, "friends"))["friends"] == [
        {"name": "ana", "state": "offline", "url": None}
    ]
    stranger = await Client.open(two, "/ws/people/", caio)
    await _next(stranger, "friends")
    lobby = await Client.open(one, "/ws/people/", ana)
    assert (await _presence(friend, "ana"))["state"] == "online"
    table = await Client.open(one, f"/ws/people/?room={room.code}", ana)
    at_table = await _presence(friend, "ana")
    assert (at_table["state"], at_table["url"]) == ("table", f"/r/{room.code}/")
    await table.close()
    assert (await _presence(friend, "ana"))["state"] == "online"
    await lobby.close()
    assert (await _presence(friend, "ana"))["state"] == "offline"
    with pytest.raises(TimeoutError):
        await stranger.receive(timeout=0.5)
    for page in (friend, stranger):
        await page.close()


def _strangers(django_user_model):
    ana = django_user_model.objects.create_user("ana", password="x")
    bruno = django_user_model.objects.create_user("bruno", password="x")
    cookies = session_cookie(ana), session_cookie(bruno)
    connection.close()  # this worker thread's own
    return ana, bruno, *cookies


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_challenge_accepted_on_one_server_seats_both_within_2_s(
    servers, transactional_db, django_user_model, settings
):
    """ana's page is on one server, bruno's on the other: bruno sees the
    challenge live, accepts it, and both pages are sent to the same table,
    dealt, within 2 s."""
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    ana, bruno, ana_cookie, bruno_cookie = await asyncio.to_thread(_strangers, django_user_model)
    one, two = await asyncio.gather(
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
    )
    challenger = await Client.open(one, "/ws/people/", ana_cookie, address="127.0.0.2")
    challenged = await Client.open(two, "/ws/people/", bruno_cookie, address="127.0.0.3")
    for page in (challenger, challenged):
        await _next(page, "friends")

    def send() -> None:
        challenges.challenge_send(challenger=ana, challenged=bruno, preset="duelo", move_seconds=20)
        connection.close()

    await asyncio.to_thread(send)
    shown = await _next(challenged, "challenge")
    started = time.monotonic()
    await challenged.send({"type": "challenge_accept", "id": shown["id"]})
    for_bruno = await _next(challenged, "challenge_started")
    for_ana = await _next(challenger, "challenge_started")
    assert time.monotonic() - started < 2.0
    assert for_ana["room"] == for_bruno["room"]
    table = await Client.open(one, f"/ws/rooms/{for_ana['room']}/", ana_cookie, address="127.0.0.2")
    state = await table.until(lambda s: s["round"] is not None)
    assert [s["name"] for s in state["seats"]] == ["ana", "bruno"]
    for page in (challenger, challenged, table):
        await page.close()
