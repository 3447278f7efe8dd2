"""A channel layer that fails or loses its groups (domino_site.realtime.socket_guard): every
socket of the process is closed with 4012 so that the page reconnects (and joins
its groups again), instead of crashing with a traceback (1011) or living on deaf.
The real thing, a Redis restarted or flushed under two Daphnes, is the fault
drill in tests/scale/test_drill_redis_restart.py."""

from __future__ import annotations

import asyncio
import logging

import pytest
import redis
from asgiref.sync import sync_to_async
from autobahn.exception import Disconnected
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from domino_site.asgi import application
from domino_site.realtime import liveness
from domino_site.realtime.socket_guard import CLOSE_RECONNECT, live_sockets
from rooms import services
from rooms.models import Seat
from tests.realtime.conftest import ORIGIN, Player, session_cookie
from tests.waiting import async_wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _duelo(django_user_model):
    ana = django_user_model.objects.create_user("ana", password="x")
    bruno = django_user_model.objects.create_user("bruno", password="x")
    carla = django_user_model.objects.create_user("carla", password="x")
    room = services.room_create(user=ana, name="Duelo", preset="duelo")
    services.seat_take(room=room, index=1, user=bruno)
    return room, [session_cookie(u) for u in (ana, bruno, carla)]


async def _closed_with(player: Player, timeout: float = 5) -> int | None:
    """Read frames until the server closes the socket; its close code."""
    while True:
        out = await player.comm.receive_output(timeout=timeout)
        if out["type"] == "websocket.close":
            Player.open.remove(player)
            await player.comm.disconnect()  # as Daphne tells the consumer
            return out.get("code")


async def test_a_failing_layer_closes_every_socket_for_a_reconnect(
    live, django_user_model, monkeypatch, caplog
):
    caplog.set_level(logging.WARNING)
    layer = get_channel_layer()  # this test's layer: its sockets will use it
    real, failing = layer.receive, set()

    async def receive(channel):
        if channel in failing:  # the layer call of one socket fails, as with Redis gone
            raise redis.exceptions.ConnectionError("Connection closed by server.")
        return await real(channel)

    monkeypatch.setattr(layer, "receive", receive)
    room, cookies = await sync_to_async(_duelo)(django_user_model)
    ana, bruno, carla = [await Player.table(room.code, c) for c in cookies]
    assert live_sockets() == 3
    failing.add(await _channel_of(room, 0))
    # Ana's receive loop asks the layer again after its next message: it fails.
    await layer.send(next(iter(failing)), {"type": "room.changed", "version": 0})
    codes = [await _closed_with(p) for p in (ana, bruno, carla)]
    assert codes == [CLOSE_RECONNECT] * 3
    assert live_sockets() == 0
    # No traceback: a warning says what happened; ana's seat was let go.
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert any("channel layer failed" in r.getMessage() for r in caplog.records)
    seats = await sync_to_async(lambda: list(Seat.objects.filter(room=room).order_by("index")))()
    assert not seats[0].connected
    # The page comes back: a new socket, the same seat.
    failing.clear()
    again = await Player.table(room.code, cookies[0])
    assert again.state["you"]["seat"] == 0 and again.state["seats"][0]["connected"]
    await again.close()


async def test_a_frame_while_the_client_closes_is_dropped_and_the_seat_let_go(
    live, django_user_model
):
    """Between the client's close frame and the connection's end, Daphne still
    passes sends on and autobahn raises ``Disconnected``: the frame is dropped,
    and the socket's disconnect frees its seat as usual (it used to end the
    consumer with that error first, leaving the seat "connected")."""
    room, cookies = await sync_to_async(_duelo)(django_user_model)
    closing = asyncio.Event()
    dropped: list[dict] = []

    async def server_like_daphne(scope, receive, send):
        async def send_unless_closed(message):
            if closing.is_set() and message["type"] == "websocket.send":
                dropped.append(message)
                raise Disconnected("Attempt to send on a closed protocol")
            await send(message)

        await application(scope, receive, send_unless_closed)

    ana = Player(f"/ws/rooms/{room.code}/")
    headers = [(b"origin", ORIGIN), (b"host", b"localhost"), (b"cookie", cookies[0].encode())]
    ana.comm = WebsocketCommunicator(server_like_daphne, f"/ws/rooms/{room.code}/", headers=headers)
    assert (await ana.comm.connect(timeout=5))[0]
    await ana.room()
    bruno = await Player.table(room.code, cookies[1])
    closing.set()
    await bruno.send({"type": "chat", "phrase": "boa"})  # reaches ana's closing socket
    assert (await bruno.receive())["type"] == "chat"
    await async_wait_for(
        lambda: dropped, timeout=5, message="the chat frame sent to ana's closing socket"
    )
    Player.open.remove(ana)
    await ana.comm.disconnect()  # the consumer is still there to handle it
    seats = await sync_to_async(lambda: list(Seat.objects.filter(room=room).order_by("index")))()
    assert not seats[0].connected and seats[1].connected


async def _channel_of(room, index: int) -> str:
    return await sync_to_async(lambda: Seat.objects.get(room=room, index=index).channel_name)()


@pytest.mark.redis
async def test_a_heartbeat_that_finds_its_key_gone_asks_every_socket_to_reconnect(
    live, django_user_model, settings
):
    """Redis restarted or flushed between two beats (no call failed): the groups
    may be gone, so the sockets are closed for a reconnect."""
    assert liveness.enabled(), "REDIS_URL is set, so the channel layer is Redis"
    settings.DOMINO_ALIVE_BEAT_SECONDS = 0.1
    room, cookies = await sync_to_async(_duelo)(django_user_model)
    ana, carla = [await Player.table(room.code, c) for c in (cookies[0], cookies[2])]
    beats = liveness.heartbeat.beats
    await async_wait_for(
        lambda: liveness.heartbeat.beats >= beats + 2, timeout=5, message="two more heartbeats"
    )
    losses = liveness.heartbeat.losses
    prefix = get_channel_layer().client_prefix
    client = redis.Redis.from_url(liveness.heartbeat_host()["address"])
    client.delete(liveness.KEY.format(prefix))  # what a restart or a flush does to it
    client.close()
    assert [await _closed_with(p) for p in (ana, carla)] == [CLOSE_RECONNECT] * 2
    assert liveness.heartbeat.losses == losses + 1
    again = await Player.table(room.code, cookies[0])
    assert again.state["you"]["seat"] == 0
    await again.close()


# ---------------------------------------------------------------- a deploy (4013)

SOCKET_CONSUMERS = [
    "rooms.consumers.TableConsumer",
    "lobby.consumers.LobbyConsumer",
    "quick.consumers.QuickConsumer",
    "arenas.consumers.ArenaConsumer",
    "people.consumers.PeopleConsumer",
]


@pytest.mark.parametrize("path", SOCKET_CONSUMERS)
def test_every_socket_handles_its_messages_under_the_lock_a_deploy_waits_for(path):
    """`LayerGuard.dispatch` (the `in_hand` lock that `come_back_elsewhere` takes
    before a 4013) is the consumer's: it comes before `NoDatabaseInTheLoop`,
    whose dispatch calls no other."""
    import importlib

    from domino_site.realtime.socket_guard import LayerGuard

    module, name = path.rsplit(".", 1)
    consumer = getattr(importlib.import_module(module), name)
    assert consumer.dispatch is LayerGuard.dispatch


async def test_a_deploy_closes_the_sockets_with_4013_after_the_message_in_hand(live):
    from domino_site.realtime.socket_guard import _live, come_back_elsewhere

    lobby = Player("/ws/lobby/")
    connected, _ = await lobby.comm.connect(timeout=5)
    assert connected
    await lobby.receive()
    (consumer,) = [c for c in list(_live) if type(c).__name__ == "LobbyConsumer"]
    lock = consumer.in_hand()
    await lock.acquire()  # a message in hand
    told = asyncio.ensure_future(come_back_elsewhere())
    await asyncio.sleep(0.05)
    assert not told.done() and await lobby.comm.receive_nothing(timeout=0.1)
    lock.release()
    assert await told == 1
    assert await lobby.comm.receive_output(timeout=5) == {"type": "websocket.close", "code": 4013}
