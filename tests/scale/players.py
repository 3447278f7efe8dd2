"""People at the tables of the real-process tests (tests/scale): users logged in
by a session cookie, the rooms they sit at, and what a socket's state says about
whose turn it is."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from django.test import Client as HttpClient

from rooms import services
from rooms.models import Room, Seat
from tests.pacing import Pacer


def session_cookie(user) -> str:
    """The ``Cookie`` header of a logged-in session of ``user``."""
    http = HttpClient()
    http.force_login(user)
    return f"sessionid={http.cookies['sessionid'].value}"


def my_turn(state) -> bool:
    """This socket's seat has a legal action in a round not over."""
    rnd = state.get("round")
    return bool(rnd and rnd.get("legal") and not rnd.get("result"))


def first_legal(state) -> dict:
    """The first legal action of the ``room`` message, as a message to send."""
    return {k: v for k, v in state["round"]["legal"][0].items() if v is not None}


def duelo(user_model, name: str = "Duelo", **room_kw) -> tuple[Room, str, str]:
    """A duelo of ana (seat 0, host) and bruno (seat 1): the room and their cookies."""
    ana = user_model.objects.create_user("ana", password="x")
    bruno = user_model.objects.create_user("bruno", password="x")
    room = services.room_create(user=ana, name=name, preset="duelo", **room_kw)
    services.seat_take(room=room, index=1, user=bruno)
    return room, session_cookie(ana), session_cookie(bruno)


async def seated(room: Room, ana: str, bruno: str, host_server, guest_server=None):
    """The duelo's two sockets: ana's on ``host_server``, bruno's on ``guest_server``
    (or the same); returned once ana's page shows bruno connected."""
    path = f"/ws/rooms/{room.code}/"
    host = await Client.open(host_server, path, ana)
    guest = await Client.open(guest_server or host_server, path, bruno)
    await host.until(lambda s: s["seats"][1]["connected"])
    return host, guest


def solo(user_model) -> tuple[str, str]:
    """A parceria of ana and three easy bots: the room's code and her cookie."""
    ana = user_model.objects.create_user("ana", password="x")
    room = services.room_create(user=ana, name="Mesa", preset="parceria")
    host = Seat.objects.get(room=room, index=0)
    for index in (1, 2, 3):
        services.bot_add(room=room, actor=host, index=index, level="easy")
    return room.code, session_cookie(ana)


# The table page pings its socket this often (static/js/table.js).
PAGE_PING_SECONDS = 25.0


class Client:
    """A WebSocket client of a real server, keeping the last ``room`` snapshot."""

    def __init__(self, ws) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self._pinger: asyncio.Task | None = None
        # As the page sends: against a fast server a test could pass the
        # socket's 20 frames a second and have its move refused (rate_limited).
        self.pacer = Pacer()

    def ping_like_the_page(self, every: float = PAGE_PING_SECONDS) -> None:
        """Send ``{"type": "ping"}`` now and every ``every`` seconds, as the page
        does (the ``pong`` answers are read and ignored by ``until``)."""

        async def ping() -> None:
            try:
                while True:
                    await self.send({"type": "ping"})
                    await asyncio.sleep(every)
            except Exception:  # noqa: BLE001 - the socket closed (or its server died)
                return

        self._pinger = asyncio.get_running_loop().create_task(ping())

    @classmethod
    async def open(
        cls, server: Any, path: str, cookie: str | None = None, address: str | None = None
    ) -> Client:
        """``address``: a loopback address of its own (127.0.0.x) to connect
        from, as a person at another home would (every 127/8 address is this
        machine's): two accounts of one address are never at stake together."""
        from websockets.asyncio.client import connect

        headers = {"Cookie": cookie} if cookie else None
        extra: dict[str, Any] = {"local_addr": (address, 0)} if address else {}
        ws = await connect(
            server.url(path),
            origin=f"http://127.0.0.1:{server.port}",
            additional_headers=headers,
            open_timeout=10,
            **extra,
        )
        return cls(ws)

    async def receive(self, timeout: float = 10) -> dict[str, Any]:
        msg = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
        if msg["type"] == "room":
            self.state = msg
        return msg

    async def until(self, predicate, timeout: float = 10) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.state is None or not predicate(self.state):
            await self.receive(max(0.01, end - loop.time()))
        # decide on the newest state: read what is already there
        while True:
            try:
                await self.receive(0.01)
            except TimeoutError:
                break
        if not predicate(self.state):
            return await self.until(predicate, max(0.01, end - loop.time()))
        return self.state

    async def send(self, msg: dict[str, Any]) -> None:
        await self.pacer.wait()
        await self.ws.send(json.dumps(msg))

    async def close(self) -> None:
        if self._pinger is not None:
            self._pinger.cancel()
        await self.ws.close()
