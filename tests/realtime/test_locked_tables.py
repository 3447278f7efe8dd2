"""A locked table on the real ASGI app (docs/site.md, "Locked tables";
docs/protocol.md, "Error codes" and "Close codes"): the table socket's ``sit``
asks the password (``password_required``, ``wrong_password``, counted like the
join page's), a socket without a seat at a table that takes no watchers is
told ``no_watchers`` and closed with 4003 while its players come in, and no
frame ever carries the password or its hash."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.utils import translation

from domino_site.realtime.asyncdb import db_async
from rooms import services as rooms
from rooms.models import PasswordMiss, Room, Seat
from tests.realtime.conftest import Player, session_cookie

ANA_IP, BRUNO_IP, CAIO_IP = "203.0.113.10", "198.51.100.20", "192.0.2.30"
SECRET = "mesa-da-ana-42"

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def in_english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def _people_at(room: Room) -> list[str]:
    seats = Seat.objects.filter(room=room, user__isnull=False).select_related("user")
    return sorted(seat.user.username for seat in seats)


async def _close_code(player: Player) -> int:
    while True:
        out = await player.comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            return out["code"]
        player.frames.append(json.loads(out["text"]))


async def test_sitting_by_the_socket_asks_the_password_and_counts_a_wrong_one(
    live, django_user_model
):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    room = await sync_to_async(rooms.room_create)(
        user=ana, name="Trancada", preset="duelo", password=SECRET
    )
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    watcher = await Player.table(room.code, await sync_to_async(session_cookie)(bruno), BRUNO_IP)
    assert watcher.state["room"]["locked"] is True and watcher.state["you"]["seat"] is None
    await watcher.send({"type": "sit", "seat": 1})
    refused = await watcher.error()
    assert refused["code"] == "password_required"
    assert refused["message"] == "This table asks for a password to sit."
    await watcher.send({"type": "sit", "seat": 1, "password": "guess"})
    refused = await watcher.error()
    assert refused["code"] == "wrong_password"
    assert refused["message"] == "Wrong password for this table."
    assert await db_async(PasswordMiss.objects.filter(user=bruno).count)() == 1
    assert await db_async(_people_at)(room) == ["ana"]
    await watcher.send({"type": "sit", "seat": 1, "password": SECRET})
    seated = await watcher.until(lambda s: s["you"]["seat"] == 1)
    assert seated["room"]["locked"] is True
    await host.until(lambda s: s["seats"][1]["name"] == "bruno")
    hash_ = (await db_async(Room.objects.get)(pk=room.pk)).password_hash
    for frame in host.frames + watcher.frames:
        text = json.dumps(frame)
        assert SECRET not in text and hash_ not in text


async def test_a_table_without_watchers_refuses_a_watcher_and_lets_its_players_in(
    live, django_user_model
):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    caio = await make("caio", password="x")
    room = await sync_to_async(rooms.room_create)(
        user=ana, name="Sem espectadores", preset="duelo", no_watchers=True
    )
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    assert host.state["room"]["no_watchers"] is True and host.state["you"]["seat"] == 0
    await db_async(rooms.seat_take)(room=room.pk, index=1, user=bruno, password=None)
    player = await Player.table(room.code, await sync_to_async(session_cookie)(bruno), BRUNO_IP)
    assert player.state["you"]["seat"] == 1
    stranger = Player(f"/ws/rooms/{room.code}/", await sync_to_async(session_cookie)(caio), CAIO_IP)
    connected, _ = await stranger.comm.connect(timeout=5)
    assert connected  # accepted, told why, then closed for good
    assert await _close_code(stranger) == 4003
    told = [f for f in stranger.frames if f["type"] == "error"]
    assert [(f["code"], f["message"]) for f in told] == [
        ("no_watchers", "This table does not accept watchers: only its players see it.")
    ]
    assert not any(f["type"] == "room" for f in stranger.frames)  # saw nothing of the table
    assert (await db_async(Room.objects.get)(pk=room.pk)).watchers == 0
