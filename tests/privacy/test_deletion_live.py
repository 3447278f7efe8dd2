"""A deletion during a rated match, on the real sockets (docs/site.md, "Your
data (LGPD)"; docs/rated-play.md, "A removed account"): the person's table is
left as a leave is, and the opponent's table socket hears the forfeit, with
"Removed player" where the table names who abandoned, and never the old name."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from rooms import services
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

LEAVER_IP, OPPONENT_IP = "203.0.113.10", "198.51.100.20"


def _delete(user) -> int:
    client = Client()
    client.force_login(user)
    response = client.post(
        "/accounts/delete/", {"password": "x", "confirm": "on"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    return response.status_code


async def test_the_opponent_hears_the_forfeit_of_a_deleted_account(live, django_user_model):
    make = sync_to_async(django_user_model.objects.create_user)
    leaver, opponent = await make("anastacia", password="x"), await make("bruno", password="x")
    room = await sync_to_async(services.room_create)(user=opponent, name="Mesa", preset="com_monte")
    host = await Player.table(room.code, await sync_to_async(session_cookie)(opponent), OPPONENT_IP)
    guest = await Player.table(room.code, await sync_to_async(session_cookie)(leaver), LEAVER_IP)
    await guest.send({"type": "sit", "seat": 1})
    await host.until(lambda s: s["seats"][1]["kind"] == "human")
    await host.send({"type": "start"})
    await host.until(lambda s: s["round"] is not None)
    await host.drain()

    assert await sync_to_async(_delete)(leaver) == 302

    over = await host.until(lambda s: bool(s["match"] and s["match"]["over"]))
    assert over["match"]["ended_by"] == "abandono" and over["match"]["abandoned"] == [1]
    # One frame for every socket: its words in the language it was built in.
    assert over["match"]["abandoned_names"] in (["Jogador removido"], ["Removed player"])
    assert over["seats"][1]["kind"] == "empty"
    assert "anastacia" not in json.dumps(over)
