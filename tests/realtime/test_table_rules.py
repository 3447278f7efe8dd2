"""Issue 29 on the table socket (docs/table-rules.md): automatic mode switched on
over the socket is seen by the other player, and the server plays at once."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from rooms import services
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _two(django_user_model):
    ana = django_user_model.objects.create_user("ana", password="x")
    bruno = django_user_model.objects.create_user("bruno", password="x")
    room = services.room_create(user=ana, name="Mesa", preset="com_monte", move_seconds=60)
    services.seat_take(room=room, index=1, user=bruno)
    return room, session_cookie(ana), session_cookie(bruno)


async def test_automatic_mode_over_the_socket(live, django_user_model):
    room, ana_cookie, bruno_cookie = await sync_to_async(_two)(django_user_model)
    ana = await Player.table(room.code, ana_cookie)
    bruno = await Player.table(room.code, bruno_cookie)
    await ana.send({"type": "start"})
    state = await bruno.until(lambda s: s["room"]["status"] == "playing")
    turn = state["round"]["turn"]
    mover, other = (ana, bruno) if turn == 0 else (bruno, ana)
    await mover.send({"type": "auto", "on": True})
    seen = await other.until(lambda s: s["seats"][turn]["auto"] and s["log"], timeout=10)
    assert seen["log"][0]["seat"] == turn and seen["log"][0]["by"] == "auto"
    await mover.send({"type": "auto", "on": "yes"})
    assert (await mover.error())["code"] == "bad_message"
