"""Who is online across two Daphne processes sharing the Redis channel layer
(docs/site.md, "Friends, blocking and who is online"): a friend's page on one
server hears, live, the pages the other opens and closes on the other server;
a stranger's page hears nothing of it."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from django.db import connection

from people import services
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
