"""The production layer keeps a quiet socket: a player may think longer than
channels-redis' 5 s blocking pop (redis-py 8's default read timeout is also 5 s,
which used to crash the consumer's receive and close the socket with 1011)."""

import asyncio

import pytest

from tests.scale.players import first_legal, my_turn, seated

pytestmark = pytest.mark.django_db(transaction=True)

IDLE_SECONDS = 30


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
async def test_a_seated_socket_idle_for_thirty_seconds_sees_the_next_change(
    servers, duelo_for_servers
):
    room, ana, bruno = duelo_for_servers
    server = await asyncio.to_thread(servers, redis=True, scheduler="celery")
    host, guest = await seated(room, ana, bruno, server)
    await host.send({"type": "start"})
    state = await host.until(lambda s: s["round"] is not None)
    await guest.until(lambda s: s["version"] >= state["version"])
    # Whoever does not move now sits quiet: nothing reaches its socket.
    players = {0: host, 1: guest}
    turn = state["round"]["turn"]
    mover, idle = players[turn], players[1 - turn]
    # It listens, and for IDLE_SECONDS nothing comes: no frame, and no close
    # (the 1011 of a crashed receive would end the wait at once, failing).
    with pytest.raises(TimeoutError):
        await idle.receive(timeout=IDLE_SECONDS)
    mine = await mover.until(my_turn)
    await mover.send({**first_legal(mine), "version": mine["version"]})
    seen = await idle.until(lambda s: s["version"] > mine["version"])
    assert seen["log"][-1]["seat"] == turn
    assert "TimeoutError" not in server.output(), server.output()
    await host.close()
    await guest.close()
