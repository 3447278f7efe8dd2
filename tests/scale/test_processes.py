"""Real server processes: two Daphne processes sharing the Redis channel layer
and PostgreSQL, and a Daphne killed in the middle of a round and started again."""

import asyncio

import pytest

from domino_site.realtime.asyncdb import db_async
from tests.scale.players import Client, first_legal, my_turn, seated, solo

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.postgres
@pytest.mark.redis
async def test_a_move_through_one_server_is_seen_on_a_socket_of_the_other(
    servers, duelo_for_servers
):
    room, ana, bruno = duelo_for_servers
    one, two = await asyncio.gather(
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
        asyncio.to_thread(servers, redis=True, scheduler="celery"),
    )
    host, guest = await seated(room, ana, bruno, one, two)  # bruno heard from the other server
    await host.send({"type": "start"})
    state = await guest.until(lambda s: s["round"] is not None)
    players = {0: host, 1: guest}
    for _ in range(3):  # a few moves, each made on one server and seen on the other
        turn = state["round"]["turn"]
        mover, watcher = players[turn], players[1 - turn]
        mine = await mover.until(my_turn)
        count = len(mine["log"])
        await mover.send({**first_legal(mine), "version": mine["version"]})
        state = await watcher.until(lambda s, c=count: len(s["log"]) > c)
        entry = state["log"][count]
        assert (entry["seat"], entry["by"]) == (turn, "person")
        if state["round"]["result"] is not None:
            break
    await host.close()
    await guest.close()


def _table(state) -> dict:
    """What must survive a restart: the match, the round as this seat sees it, the log."""
    rnd = dict(state["round"])
    rnd.pop("deadline", None)
    return {"match": state["match"], "round": rnd, "log": state["log"], "you": state["you"]}


async def test_killing_the_server_mid_round_loses_nothing(servers, django_user_model, settings):
    """On the test database (SQLite file or PostgreSQL), one process, in-memory
    channel layer, in-process ticker: the embedded set-up."""
    settings.DOMINO_SCHEDULER = "inprocess"
    code, cookie = await db_async(solo)(django_user_model)
    server = await asyncio.to_thread(servers, redis=False, scheduler="inprocess")
    player = await Client.open(server, f"/ws/rooms/{code}/", cookie)
    await player.send({"type": "start"})
    for _ in range(2):  # a few moves of ours, the bots answering
        state = await player.until(my_turn)
        await player.send({**first_legal(state), "version": state["version"]})
        await player.until(lambda s, v=state["version"]: s["version"] > v)
    # A turn with a choice: at a turn with nothing to play the server passes for
    # the seat a second later (docs/site.md), connected or not, so the table
    # would rightly have moved on by the time the restarted server is asked.
    before = await player.until(lambda s: my_turn(s) and s["round"]["due_kind"] != "pass")
    assert len(before["log"]) >= 3

    server.kill()  # in the middle of the round, without a goodbye
    await asyncio.to_thread(server.start)
    again = await Client.open(server, f"/ws/rooms/{code}/", cookie)
    after = await again.until(lambda s: my_turn(s) and s["seats"][0]["connected"])
    assert _table(after) == _table(before)
    # and the game goes on: our move, the bots' answers through the new process
    count = len(after["log"])
    await again.send({**first_legal(after), "version": after["version"]})
    later = await again.until(lambda s: len(s["log"]) > count + 1 or s["round"]["result"])
    assert later["log"][count]["by"] == "person"
    await again.close()


async def test_the_embedded_server_plays_a_whole_match_against_bots(
    servers, django_user_model, settings
):
    """`make run`'s set-up with nothing else running: one Daphne, the in-memory
    channel layer and the in-process ticker, bots with their human-like pause."""
    settings.DOMINO_SCHEDULER = "inprocess"
    code, cookie = await db_async(solo)(django_user_model)
    server = await asyncio.to_thread(servers, redis=False, scheduler="inprocess", bot_delay=0.01)
    player = await Client.open(server, f"/ws/rooms/{code}/", cookie)
    await player.send({"type": "start"})
    for _ in range(400):
        state = await player.until(
            lambda s: my_turn(s) or (s["round"] or {}).get("result") is not None
        )
        if state["match"]["over"]:
            break
        if my_turn(state):
            await player.send({**first_legal(state), "version": state["version"]})
        else:
            await player.send({"type": "next_round"})
        await player.until(lambda s, v=state["version"]: s["version"] > v)
    assert state["match"]["over"] and max(state["match"]["scores"]) >= 50
    await player.close()
