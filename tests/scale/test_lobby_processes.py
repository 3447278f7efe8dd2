"""The lobby over two Daphne processes sharing the Redis channel layer: a change
made on one server reaches a lobby socket of the other as the changed row alone
(docs/protocol.md "The lobby socket")."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.scale.players import Client

pytestmark = pytest.mark.django_db(transaction=True)


async def _next(lobby: Client, kind: str) -> dict[str, Any]:
    """The next lobby frame that is not a pong; it must be of ``kind``."""
    while True:
        frame = await lobby.receive()
        if frame["type"] != "pong":
            assert frame["type"] == kind, frame
            return frame


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_change_on_one_server_reaches_the_lobby_of_the_other(servers, duelo_for_servers):
    room, ana, bruno = duelo_for_servers
    one, two = await asyncio.gather(
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
    )
    lobby = await Client.open(two, "/ws/lobby/")
    assert room.code not in str(await _next(lobby, "rooms"))  # nobody connected yet
    await lobby.send({"type": "view", "preset": "duelo"})
    assert (await _next(lobby, "rooms"))["view"]["preset"] == "duelo"
    host = await Client.open(one, f"/ws/rooms/{room.code}/", ana)  # on the other server
    change = await _next(lobby, "rooms_changed")
    assert [r["code"] for r in change["added"]] == [room.code] and change["added_at"] == [0]
    guest = await Client.open(one, f"/ws/rooms/{room.code}/", bruno)
    await host.until(lambda s: s["seats"][1]["connected"])
    await host.send({"type": "start"})
    while True:  # bruno's connection tells the lobby nothing new; the start does
        change = await _next(lobby, "rooms_changed")
        if change["changed"] and change["changed"][0]["status"] == "playing":
            break
    assert [r["code"] for r in change["changed"]] == [room.code] and change["added"] == []
    for client in (host, guest, lobby):
        await client.close()
