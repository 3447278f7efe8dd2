"""Holes an attacker's probe found on the sockets (docs/rated-play.md, "Holes"):
a private room answers a stranger as an unknown code does, a deeply nested
frame on the lobby socket is a bad message, the quick chat's limit is per seat."""

from __future__ import annotations

import logging

import pytest
from asgiref.sync import sync_to_async

from rooms import services
from tests.realtime.conftest import Player, advance, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

NESTED = "[" * 5000 + "]" * 5000


async def _close_code(path: str, cookie: str | None) -> int:
    player = Player(path, cookie)
    connected, _ = await player.comm.connect(timeout=5)
    assert connected
    while True:
        out = await player.comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return out["code"]


async def test_a_private_room_and_an_unknown_code_close_alike_for_a_stranger(
    live, django_user_model
):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    eve = await sync_to_async(django_user_model.objects.create_user)("eve", password="x")
    room = await sync_to_async(services.room_create)(
        user=ana, name="Duelo", preset="duelo", visibility="private"
    )
    cookie = await sync_to_async(session_cookie)(eve)
    private = await _close_code(f"/ws/rooms/{room.code}/", cookie)
    unknown = await _close_code("/ws/rooms/NOPE2345/", cookie)
    assert private == unknown == 4004
    # A guest with no seat (no cookie at all) gets the same answer.
    assert await _close_code(f"/ws/rooms/{room.code}/", None) == 4004


async def test_a_deeply_nested_frame_on_the_lobby_socket_is_a_bad_message(live, caplog):
    caplog.set_level(logging.ERROR)
    lobby = Player("/ws/lobby/")
    connected, _ = await lobby.comm.connect(timeout=5)
    assert connected
    assert (await lobby.receive())["type"] == "rooms"
    await lobby.send_text(NESTED)
    answer = await lobby.receive()
    assert answer["type"] == "error" and answer["code"] == "bad_message"
    # Still open and answering.
    await lobby.send({"type": "ping", "ref": "p"})
    assert (await lobby.receive()) == {"type": "pong", "ref": "p"}
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_the_chat_limit_is_per_seat_and_survives_reopening_the_socket(
    live, django_user_model
):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    bruno = await sync_to_async(django_user_model.objects.create_user)("bruno", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset="duelo")
    await sync_to_async(services.seat_take)(room=room, index=1, user=bruno)
    cookie = await sync_to_async(session_cookie)(ana)
    other = await Player.table(room.code, await sync_to_async(session_cookie)(bruno))
    first = await Player.table(room.code, cookie)
    await first.send({"type": "chat", "phrase": "boa"})
    assert (await _frame(other, "chat"))["phrase"] == "boa"
    await first.comm.disconnect()
    again = await Player.table(room.code, cookie)  # reopened: the same seat
    await again.send({"type": "chat", "phrase": "valeu", "ref": "r"})
    error = await _frame(again, "error")
    assert (error["code"], error["ref"]) == ("rate_limited", "r")
    advance(3.1)  # the seat's 3 s are over
    await again.send({"type": "chat", "phrase": "ops"})
    assert (await _frame(other, "chat"))["phrase"] == "ops"
    assert [f["phrase"] for f in other.frames if f["type"] == "chat"] == ["boa", "ops"]


async def _frame(player: Player, kind: str) -> dict:
    while True:
        msg = await player.receive()
        if msg["type"] == kind:
            return msg


@pytest.mark.parametrize(
    "origin, host, allowed",
    [
        (b"http://localhost", b"localhost", True),
        (b"http://localhost:8000", b"localhost:8000", True),
        (b"http://localhost:9999", b"localhost:8000", False),  # another port
        (b"https://localhost", b"localhost", False),  # another scheme
        (b"http://localhost", b"localhost:8000", False),
        (b"null", b"localhost", False),
    ],
)
async def test_the_socket_origin_must_be_the_whole_origin_of_the_site(
    live, django_user_model, origin, host, allowed
):
    player = Player("/ws/lobby/")
    player.comm.scope["headers"] = [(b"origin", origin), (b"host", host)]
    connected, _ = await player.comm.connect(timeout=5)
    assert connected is allowed
    if allowed:  # its first page: the socket's queries are over before the test ends
        assert (await player.receive())["type"]


async def test_a_trusted_origin_is_accepted(live, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://127.0.0.1:8443"]  # (its host is allowed too)
    player = Player("/ws/lobby/")
    player.comm.scope["headers"] = [(b"origin", b"https://127.0.0.1:8443"), (b"host", b"localhost")]
    connected, _ = await player.comm.connect(timeout=5)
    assert connected
    assert (await player.receive())["type"]
