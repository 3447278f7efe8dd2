"""The lobby's "N jogando agora" (docs/site.md, "Quick match"): the people
actually playing, a person's seat with its socket open, played by them, at a
table in play that is not paused, whichever way they sat down (here a table
opened from the lobby, not the quick match); the line the lobby renders says
the same number as ``GET /api/now/``."""

from __future__ import annotations

import re

import pytest
from asgiref.sync import sync_to_async

from games.world import world
from rooms import services
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _lobby_line(client, language: str) -> str:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    line = re.search(r"<span class=\"quick-now\"[^>]*>(.*?)</span>", html, re.S).group(1)
    return " ".join(line.split())


def _table_of_two(django_user_model, visibility: str):
    ana = django_user_model.objects.create_user("ana", password="x")
    bruno = django_user_model.objects.create_user("bruno", password="x")
    now = world().now()
    room = services.room_create(
        user=ana, name="Mesa", preset="duelo", visibility=visibility, now=now
    )
    services.seat_take(room=room, index=1, user=bruno, now=now)
    return room, [session_cookie(ana), session_cookie(bruno)]


@pytest.mark.parametrize("visibility", ["public", "private"])
async def test_two_people_seated_and_playing_are_two_playing_now(
    live, django_user_model, client, visibility
):
    room, cookies = await sync_to_async(_table_of_two)(django_user_model, visibility)
    tables = [await Player.table(room.code, c, f"203.0.113.{i}") for i, c in enumerate(cookies)]
    assert await sync_to_async(_lobby_line)(client, "pt-br") == "0 jogando agora · 0 na fila"
    await tables[0].send({"type": "start"})
    await tables[1].until(lambda s: s["room"]["status"] == "playing")
    assert (await sync_to_async(client.get)("/api/now/")).json()["playing"] == 2
    assert await sync_to_async(_lobby_line)(client, "pt-br") == "2 jogando agora · 0 na fila"
    assert await sync_to_async(_lobby_line)(client, "en") == "2 playing now · 0 in the queue"
