"""A deploy restarts a web process (docs/scaling.md, "Deploying"): SIGTERM to the
Procfile's runner (``python -m domino_site.serve``) closes its sockets with 4013
("server restarting, reconnect now"), refuses new connections and exits within
its deadline; the player reconnecting to the other server (same database, the
Redis channel layer) gets their seat and hand back, and the move they sent just
before the signal was applied (its frames reach both players) or refused with an
error: never lost, never applied twice."""

import asyncio

import pytest
from websockets.exceptions import ConnectionClosed

from tests.scale.players import Client, first_legal, my_turn

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]

DRAIN_SECONDS = 30  # the deadline: a server that waits for it has failed to drain
GRACEFUL = {"DRAIN_SECONDS": str(DRAIN_SECONDS)}


async def _frames_until_closed(client: Client, timeout: float = 10) -> list[dict]:
    frames = []
    try:
        while True:
            frames.append(await client.receive(timeout))
    except ConnectionClosed:
        return frames


async def test_a_stopped_servers_player_comes_back_on_the_other_with_the_move_in_hand(
    servers, duelo_for_servers
):
    room, ana, bruno = duelo_for_servers
    path = f"/ws/rooms/{room.code}/"
    doomed, keeper = await asyncio.gather(
        asyncio.to_thread(servers, redis=True, scheduler="celery", graceful=True, env=GRACEFUL),
        asyncio.to_thread(servers, redis=True, scheduler="celery", graceful=True, env=GRACEFUL),
    )
    host = await Client.open(doomed, path, ana)
    guest = await Client.open(keeper, path, bruno)
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
        version = mine["version"]
        state = await guest.until(lambda s, v=version: s["version"] > v)
    state = await host.until(my_turn)
    assert state["round"]["turn"] == 0
    moves_before = len(state["log"])
    move = {**first_legal(state), "version": state["version"], "ref": "the-move"}
    await host.send(move)
    doomed.terminate()  # the move is on its way, unanswered

    frames = await _frames_until_closed(host)
    assert host.ws.close_code == 4013
    with pytest.raises(OSError):
        await Client.open(doomed, path, ana)
    assert await asyncio.to_thread(doomed.proc.wait, DRAIN_SECONDS + 10) == 0
    assert "applications still running at the deadline" not in doomed.output()

    back = await Client.open(keeper, path, ana)
    snapshot = await back.until(lambda s: s["seats"][0]["connected"])
    assert snapshot["you"]["seat"] == 0
    assert snapshot["round"]["number"] == state["round"]["number"]
    refused = [f for f in frames if f["type"] == "error" and f.get("ref") == "the-move"]
    made = snapshot["log"][moves_before:]
    if refused:
        assert made == [] and sorted(snapshot["round"]["hand"]) == sorted(state["round"]["hand"])
    else:
        # Applied once: the next entry of the log is ana's move, and bruno saw it.
        assert [(e["seat"], e["type"], e.get("tile"), e["by"]) for e in made[:1]] == [
            (0, move["type"], move.get("tile"), "person")
        ]
        assert not [e for e in made[1:] if e["seat"] == 0 and e["by"] == "person"]
        seen = await guest.until(lambda s: len(s["log"]) > moves_before)
        assert seen["log"][moves_before]["seat"] == 0
        if move["type"] == "play":
            assert move["tile"] not in snapshot["round"]["hand"]
    for client in (back, guest):
        await client.close()
