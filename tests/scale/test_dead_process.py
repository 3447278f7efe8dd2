"""A Daphne process killed with SIGKILL never closes its sockets: with the Redis
channel layer its heartbeat key expires, and the sweeper (another live process's
ticker, or any process running ``rooms_sweep``) treats its seats as disconnected,
with what follows (docs/site.md, "Seats": the automatic move of a room without a
clock; a room with no connected human pauses). The servers run with a 2 s TTL."""

import asyncio
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from domino_site.realtime.asyncdb import db_async
from games.models import Round
from rooms import services
from rooms.models import Room, Seat
from tests.scale.drills import replays_match
from tests.scale.players import Client, first_legal, my_turn, solo
from tests.waiting import async_wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]

TTL = 2.0
SHORT_TTL = {"DOMINO_ALIVE_TTL_SECONDS": str(TTL)}


def _seat(code: str, index: int) -> Seat:
    return Seat.objects.get(room__code=code, index=index)


def _bound_a_ttl_ago(code: str, index: int) -> bool:
    """The sweeper's condition (`rooms.services.sweep`): a seat bound less than
    a TTL ago is left alone, its process may not have beaten yet."""
    seat = _seat(code, index)
    return seat.last_seen is not None and seat.last_seen <= timezone.now() - timedelta(seconds=TTL)


async def _until_bound_a_ttl_ago(code: str, index: int) -> None:
    await async_wait_for(
        lambda: db_async(_bound_a_ttl_ago)(code, index),
        timeout=TTL + 5,
        message=f"seat {index} bound longer than a TTL ago",
    )


def _room_and_round(code: str) -> tuple[Room, Round]:
    room = Room.objects.get(code=code)
    return room, Round.objects.filter(room=room).order_by("-id").first()


async def test_a_killed_servers_seat_is_released_and_the_auto_move_is_due(
    servers, duelo_for_servers, redis_up_for_a_while
):
    room, ana, bruno = duelo_for_servers
    code = room.code
    # Both scheduler modes beat: the doomed one schedules through Celery, the
    # keeper runs the in-process ticker (and so the sweeper, every 5 s).
    doomed, keeper = await asyncio.gather(
        asyncio.to_thread(servers, redis=True, scheduler="celery", env=SHORT_TTL),
        asyncio.to_thread(servers, redis=True, scheduler="inprocess", env=SHORT_TTL),
    )
    host = await Client.open(doomed, f"/ws/rooms/{code}/", ana)
    guest = await Client.open(keeper, f"/ws/rooms/{code}/", bruno)
    for client in (host, guest):
        client.ping_like_the_page()
    await host.until(lambda s: s["seats"][1]["connected"])
    await host.send({"type": "start"})
    players = {0: host, 1: guest}
    state = await guest.until(lambda s: s["round"] is not None and s["round"]["turn"] is not None)
    for _ in range(30):  # play (a draw keeps the turn) until ana, on the doomed server, is to move
        if state["round"]["turn"] == 0:
            break
        mover = players[state["round"]["turn"]]
        mine = await mover.until(my_turn)
        await mover.send({**first_legal(mine), "version": mine["version"]})
        state = await guest.until(lambda s, v=mine["version"]: s["version"] > v)
    assert state["round"]["turn"] == 0 and state["round"]["due_kind"] is None
    await _until_bound_a_ttl_ago(code, 0)  # ana's seat, as the sweeper needs it

    doomed.kill()  # no goodbye to its sockets: the database still says "connected"
    killed_at = time.monotonic()
    assert (await db_async(_seat)(code, 0)).connected
    # Its key expires within a TTL, the keeper's ticker sweeps every 5 s.
    state = await guest.until(lambda s: not s["seats"][0]["connected"], timeout=TTL + 15)
    released_after = time.monotonic() - killed_at
    assert state["seats"][1]["connected"]  # the keeper's socket (pinging) stays
    assert state["round"]["due_kind"] == "auto" and state["round"]["deadline"]
    seat = await db_async(_seat)(code, 0)
    assert not seat.connected and seat.channel_name == "" and seat.disconnected_at
    _, rnd = await db_async(_room_and_round)(code)
    assert rnd.due_kind == "auto"
    assert (rnd.due_at - seat.disconnected_at).total_seconds() == 30
    assert released_after < TTL + 10, released_after
    assert (await db_async(_seat)(code, 1)).connected
    await guest.close()
    await host.close()
    assert await db_async(replays_match)() == {"rounds": 1, "differ": []}


async def test_the_room_pauses_when_its_only_human_was_on_the_killed_server(
    servers, django_user_model, settings, redis_up_for_a_while
):
    settings.DOMINO_SCHEDULER = "inprocess"
    settings.DOMINO_ALIVE_TTL_SECONDS = TTL  # the sweeper run here, below
    code, cookie = await db_async(solo)(django_user_model)
    server = await asyncio.to_thread(servers, redis=True, scheduler="inprocess", env=SHORT_TTL)
    player = await Client.open(server, f"/ws/rooms/{code}/", cookie)
    player.ping_like_the_page()
    await player.send({"type": "start"})
    await player.until(my_turn)
    await _until_bound_a_ttl_ago(code, 0)

    server.kill()
    room, _ = await db_async(_room_and_round)(code)
    assert not room.paused and (await db_async(_seat)(code, 0)).connected

    async def swept() -> dict | None:  # the sweeper of a Celery beat, run here
        counts = await db_async(services.rooms_sweep)()
        return counts if counts["dead_sockets"] else None

    counts = await async_wait_for(
        swept, timeout=TTL + 10, message="the sweeper finding the dead socket", every=0.5
    )
    assert counts["dead_sockets"] == 1, counts
    seat = await db_async(_seat)(code, 0)
    room, rnd = await db_async(_room_and_round)(code)
    assert not seat.connected and seat.disconnected_at
    assert room.paused and room.paused_by == "empty" and room.no_humans_since
    assert rnd.due_at is None and rnd.due_kind is None  # frozen until a human is back
    assert (await db_async(services.rooms_sweep)())["dead_sockets"] == 0
    assert await db_async(replays_match)() == {"rounds": 1, "differ": []}
