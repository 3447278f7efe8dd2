"""A blocked player's quick-chat phrases are hidden from whoever blocked them
(docs/site.md, "Friends, blocking and who is online"), at the table over the
real table socket; everyone else, watchers included, still gets them."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from people import services
from rooms import services as rooms
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _table(django_user_model):
    make = django_user_model.objects.create_user
    ana, bruno, carla = (make(n, password="x") for n in ("ana", "bruno", "carla"))
    room = rooms.room_create(user=ana, name="Mesa", preset="duelo")
    rooms.seat_take(room=room, index=1, user=bruno)
    services.block(blocker=ana, blocked=bruno)
    return room, session_cookie(ana), session_cookie(bruno), session_cookie(carla)


async def _chat(player: Player) -> dict:
    while True:
        msg = await player.receive()
        if msg["type"] == "chat":
            return msg


async def test_the_blocked_player_s_phrases_are_hidden_from_the_blocker(live, django_user_model):
    room, ana_cookie, bruno_cookie, carla_cookie = await sync_to_async(_table)(django_user_model)
    ana = await Player.table(room.code, ana_cookie)
    bruno = await Player.table(room.code, bruno_cookie)
    watcher = await Player.table(room.code, carla_cookie)
    await bruno.send({"type": "chat", "phrase": "boa"})
    assert await _chat(watcher) == {"type": "chat", "seat": 1, "phrase": "boa"}
    assert await _chat(bruno) == {"type": "chat", "seat": 1, "phrase": "boa"}  # their own
    await ana.send({"type": "chat", "phrase": "valeu"})  # the blocker's still reach everyone
    assert await _chat(bruno) == {"type": "chat", "seat": 0, "phrase": "valeu"}
    assert await _chat(watcher) == {"type": "chat", "seat": 0, "phrase": "valeu"}
    assert await _chat(ana) == {"type": "chat", "seat": 0, "phrase": "valeu"}
    await ana.nothing(0.3)
    await ana.drain()
    assert [f["seat"] for f in ana.frames if f["type"] == "chat"] == [0]
