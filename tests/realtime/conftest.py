"""Fixtures and helpers for the live-play tests: sockets on the real ASGI app.

* ``live`` -- use it in every test that opens sockets: the in-process scheduler
  (the ticker), stopped at the end on the test's own event loop (which empties
  its heap), in a world whose clock the test moves (`advance`, `sweep`);
  every database thread's call ended and connections closed afterwards
  (Postgres). It yields that world.
* ``Player`` -- a ``WebsocketCommunicator`` on ``domino_site.asgi.application``
  that keeps every frame it received (for the hidden-information checks).
"""

from __future__ import annotations

import asyncio
import json
import zlib
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.db import connections
from django.http import HttpResponse
from django.test import Client

from domino_site.asgi import application
from domino_site.guests import GUEST_COOKIE, GUEST_SALT
from domino_site.realtime.asyncdb import db_async, drain_db_executor
from domino_site.realtime.liveness import heartbeat
from games.world import use_world, world
from rooms import services
from rooms.consumers import connects
from rooms.models import Seat
from rooms.services import rooms_sweep
from tests.pacing import Pacer
from tests.worlds import TestWorld
from timers.ticker import ticker

ORIGIN = b"http://localhost"
TIMEOUT = 5


@pytest.fixture
async def live(settings, request):
    """The embedded scheduler for this test, in a world of its own; yields the world.

    Its deals are seeded by the test's name: a test sees the same deals every run
    (an unlucky deal, such as a first turn with nothing but pass, fails every
    time or never, not one run in ten)."""
    settings.DOMINO_SCHEDULER = "inprocess"
    settings.BOT_DELAY_SECONDS = 0
    world = TestWorld(seed=zlib.crc32(request.node.nodeid.encode()))
    previous = use_world(world)
    connects.clear()  # the per-process connect limit counts this test's sockets only
    channel_layers.backends.clear()  # a layer made on another test's loop is bound to it
    yield world
    # A failed test may leave sockets open: close them, never wait forever.
    for player in list(Player.open):
        try:
            await asyncio.wait_for(player.comm.disconnect(), 2)
        except (TimeoutError, Exception):  # noqa: BLE001 - cleaning up after a failure
            pass
    Player.open.clear()
    await ticker.stop()
    # A consumer's last query (its disconnect, a cancelled call) may still run on
    # a database thread: it must end before the next test's flush truncates.
    await asyncio.wait_for(asyncio.to_thread(drain_db_executor), 30)
    use_world(previous)
    await heartbeat.stop()  # Redis layer: this loop's heartbeat (domino_site.realtime.liveness)
    await asyncio.wait_for(_close_channel_layers(), 5)
    await sync_to_async(connections.close_all)()


async def _close_channel_layers() -> None:
    """Each test runs on its own event loop; the Redis layer's pools and locks
    belong to the loop that made them, so every test gets a fresh layer."""
    for layer in list(channel_layers.backends.values()):
        close = getattr(layer, "close_pools", None)
        if close is not None:
            await close()
    channel_layers.backends.clear()


def advance(seconds: float) -> None:
    """Move the world's clock (the ticker's and the services') and wake the ticker."""
    _world().advance(seconds)
    ticker.poke()


async def sweep(seconds: float = 0) -> None:
    """Move the clock, then run the sweeper once, as the ticker does every 5 s."""
    _world().advance(seconds)
    await asyncio.wait_for(db_async(rooms_sweep)(now=world().now()), TIMEOUT)


def _world() -> TestWorld:
    current = world()
    assert isinstance(current, TestWorld), "use the live fixture"
    return current


def session_cookie(user) -> str:
    client = Client()
    client.force_login(user)
    return f"sessionid={client.cookies['sessionid'].value}"


def guest_cookie(token: str) -> str:
    response = HttpResponse()
    response.set_signed_cookie(GUEST_COOKIE, token, salt=GUEST_SALT)  # as the views do
    return f"{GUEST_COOKIE}={response.cookies[GUEST_COOKIE].value}"


class Player:
    """One socket; ``frames`` holds every message received, in order."""

    open: list[Player] = []  # closed by the ``live`` fixture at the end of a test

    def __init__(self, path: str, cookie: str | None = None, client: str | None = None) -> None:
        headers = [(b"origin", ORIGIN), (b"host", b"localhost")]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        self.comm = WebsocketCommunicator(application, path, headers=headers)
        if client:  # the peer address (rated tables want one per person)
            self.comm.scope["client"] = [client, 50000]
        Player.open.append(self)
        self.frames: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None  # the last `room` snapshot
        # A well-behaved client stays under the server's 20 messages a second
        # (bots at zero delay give a test player its turns faster than that).
        self.pacer = Pacer()  # as the page sends (tests that flood set ``pace = 0``)

    @classmethod
    async def table(cls, code: str, cookie: str | None = None, client: str | None = None) -> Player:
        player = cls(f"/ws/rooms/{code}/", cookie, client)
        connected, _ = await player.comm.connect(timeout=TIMEOUT)
        assert connected
        await player.room()
        return player

    async def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        msg = await self.comm.receive_json_from(timeout=timeout)
        self.frames.append(msg)
        if msg["type"] == "room":
            self.state = msg
        return msg

    async def room(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        while True:
            msg = await self.receive(timeout)
            if msg["type"] == "room":
                return msg

    async def until(self, predicate, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The latest snapshot once one satisfies ``predicate`` (frames already
        received are read first, so a decision is made on the newest state)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            await self.drain()
            if self.state is not None and predicate(self.state):
                return self.state
            await self.room(timeout=max(0.01, end - loop.time()))

    async def drain(self) -> None:
        """Read every frame the server already sent."""
        while not self.comm.output_queue.empty():
            await self.receive()

    async def send(self, msg: dict[str, Any]) -> None:
        await self._wait_for_pace()
        await self.comm.send_json_to(msg)

    async def send_text(self, text: str) -> None:
        await self._wait_for_pace()
        await self.comm.send_to(text_data=text)

    @property
    def pace(self) -> int:
        return self.pacer.per_second

    @pace.setter
    def pace(self, per_second: int) -> None:
        self.pacer.per_second = per_second

    async def _wait_for_pace(self) -> None:
        await self.pacer.wait()

    async def error(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        while True:
            msg = await self.receive(timeout)
            if msg["type"] == "error":
                return msg

    async def nothing(self, timeout: float = 0.2) -> bool:
        """True when no frame but a watcher count (not part of the room's state:
        it comes whenever someone opens or closes a watching socket) arrives."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while (left := end - loop.time()) > 0:
            if await self.comm.receive_nothing(timeout=left):
                return True
            if (await self.receive())["type"] != "watchers":
                return False
        return True

    async def close(self) -> None:
        await self.comm.disconnect()
        if self in Player.open:
            Player.open.remove(self)


def my_turn(state: dict[str, Any]) -> bool:
    rnd = state.get("round")
    return bool(rnd and rnd.get("legal") and not rnd.get("result"))


def my_choice(state: dict[str, Any]) -> bool:
    """My turn with a choice in it. A turn with nothing but pass is passed by the
    server itself a moment later (docs/rules.md): a test that waits on the turn, or
    expects silence during it, waits for a turn with something to play."""
    return my_turn(state) and [a["type"] for a in state["round"]["legal"]] != ["pass"]


def first_legal(state: dict[str, Any]) -> dict[str, Any]:
    action = dict(state["round"]["legal"][0])
    return {k: v for k, v in action.items() if v is not None}


async def play_against_the_clock(
    host: Player, *, move_seconds: int, others: tuple[Player, ...] = (), moves: int = 400
) -> dict[str, Any]:
    """``host`` plays its first legal action on each of its turns; on every other
    turn (and between rounds) the clock is moved past ``move_seconds``, so the
    server plays the timeout move (or deals the next round). Until the match is
    over; returns its last state."""
    for _ in range(moves):
        for player in (host, *others):
            await player.drain()
        state = host.state
        assert state is not None
        if state["match"]["over"]:
            return state
        v = state["version"]
        if my_turn(state):
            await host.send({**first_legal(state), "version": v})
        else:
            advance(move_seconds + 1)
        await host.until(lambda s, v=v: s["version"] > v)
    raise AssertionError(f"the match did not end within {moves} moves")


def dumps(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True)


def solo_room(user, **kw):
    """A parceria room of ``user`` with three easy bots (sync: wrap in sync_to_async)."""
    room = services.room_create(user=user, name="Mesa", preset="parceria", **kw)
    host = Seat.objects.get(room=room, index=0)
    for index in (1, 2, 3):
        services.bot_add(room=room, actor=host, index=index, level="easy")
    return room
