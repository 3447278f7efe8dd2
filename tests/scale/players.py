"""People at the tables of the real-process tests (tests/scale): users logged in
by a session cookie, the rooms they sit at, and what a socket's state says about
whose turn it is."""

from __future__ import annotations

from django.test import Client as HttpClient

from rooms import services
from rooms.models import Room, Seat
from tests.scale.conftest import Client


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
