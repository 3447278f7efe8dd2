"""Redis channel layer: the seats of a server process that died are released by
the sweeper, while the sockets of this (live) process stay connected however far
the tests move the service clock (the heartbeat is judged by Redis' clock)."""

from __future__ import annotations

import uuid

import pytest
from asgiref.sync import sync_to_async

from domino_site.realtime import liveness
from rooms import services
from tests.realtime.conftest import Player, first_legal, my_turn, session_cookie, sweep

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.redis]


def _duelo_with_bruno_on_a_dead_server(ana, bruno):
    room = services.room_create(user=ana, name="Duelo", preset="duelo")
    services.seat_take(room=room, index=1, user=bruno)
    dead = f"specific.{uuid.uuid4().hex}!{uuid.uuid4().hex}"  # a process that never beats
    services.seat_connected(room=room, index=1, channel_name=dead)
    return room


async def test_a_dead_servers_seat_is_released_and_ours_stays(
    live, django_user_model, redis_up_for_a_while, settings
):
    assert liveness.enabled(), "REDIS_URL is set, so the channel layer is Redis"
    settings.DOMINO_ALIVE_TTL_SECONDS = 5  # this process beats every 1.7 s
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    room = await sync_to_async(_duelo_with_bruno_on_a_dead_server)(ana, bruno)
    player = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    await player.send({"type": "start"})
    state = await player.until(lambda s: s["round"] is not None and s["round"]["turn"] is not None)
    for _ in range(30):  # ana plays (a draw keeps the turn) until bruno is to move
        if state["round"]["turn"] == 1:
            break
        state = await player.until(my_turn)
        await player.send({**first_legal(state), "version": state["version"]})
        state = await player.until(lambda s, v=state["version"]: s["version"] > v)
    assert state["round"]["turn"] == 1 and state["seats"][1]["connected"]
    assert state["round"]["due_kind"] is None  # connected: nobody moves for him yet

    await sweep(120)  # the service clock two minutes on (Redis' clock is not moved)
    state = await player.until(lambda s: not s["seats"][1]["connected"])
    assert state["seats"][0]["connected"]  # our process beats
    assert state["round"]["due_kind"] == "auto" and state["round"]["deadline"]
    await sweep(24 * 3600)
    await player.drain()
    assert player.state["seats"][0]["connected"]
    await player.close()
