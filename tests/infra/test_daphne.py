"""domino_site/infra/daphne.py: the web process's graceful stop, through the real
runner (``python -m domino_site.serve``, the Procfile's web line) on the
embedded set-up (SQLite, the in-memory channel layer, the in-process scheduler).

On SIGTERM every socket is closed with 4013, a new connection is refused, the
process exits by itself, and a move the player sent just before the signal is
applied (the frames a client sent before it got the close still reach its
consumer: autobahn reads data frames while closing) or refused with an error,
never lost. Every socket's first frame carries the build. These fail when
Daphne's or autobahn's internals that the module leans on change (its
docstring lists them). tests/scale/test_graceful_stop.py does it with two
servers on PostgreSQL and Redis, the socket coming back on the other."""

from __future__ import annotations

import asyncio

import pytest
from websockets.exceptions import ConnectionClosed

from tests.scale.conftest import Server
from tests.scale.players import Client, first_legal, my_turn, solo

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

DRAIN_SECONDS = 30  # the deadline: a server that waits for it has failed to drain


@pytest.fixture
def solo_table(transactional_db, django_user_model, settings):
    """A parceria of ana and three bots that only the servers run."""
    settings.DOMINO_SCHEDULER = "inprocess"
    return solo(django_user_model)


def _server(build: str, *, graceful: bool = True) -> Server:
    return Server(
        redis=False,
        scheduler="inprocess",
        graceful=graceful,
        env={"DRAIN_SECONDS": str(DRAIN_SECONDS), "BUILD_VERSION": build},
    ).start()


async def _frames_until_closed(client: Client, timeout: float = 10) -> list[dict]:
    """Every frame the client gets until its socket closes (then ``close_code``)."""
    frames = []
    try:
        while True:
            frames.append(await client.receive(timeout))
    except ConnectionClosed:
        return frames


async def test_sigterm_tells_every_socket_4013_refuses_new_ones_exits_and_loses_no_move(
    solo_table,
):
    code, cookie = solo_table
    doomed = await asyncio.to_thread(_server, "build-a")
    later = None
    try:
        lobby = await Client.open(doomed, "/ws/lobby/")
        first = await lobby.receive()
        assert first["build"] == "build-a" and first["type"] == "rooms"
        table = await Client.open(doomed, f"/ws/rooms/{code}/", cookie)
        opened = await table.receive()
        assert opened["build"] == "build-a" and opened["type"] == "room"
        await table.send({"type": "start", "version": opened["version"]})
        state = await table.until(my_turn, timeout=30)
        move = {**first_legal(state), "version": state["version"], "ref": "the-move"}
        await table.send(move)
        doomed.terminate()  # the move is on its way, unanswered

        frames = await _frames_until_closed(table)
        await _frames_until_closed(lobby)
        assert (table.ws.close_code, lobby.ws.close_code) == (4013, 4013)
        with pytest.raises(OSError):
            await Client.open(doomed, "/ws/lobby/")
        assert await asyncio.to_thread(doomed.proc.wait, DRAIN_SECONDS + 10) == 0
        assert "applications still running at the deadline" not in doomed.output()

        # The move: refused with an error, or applied (on the new server's
        # snapshot, made by the person in seat 0, once).
        refused = [f for f in frames if f["type"] == "error" and f.get("ref") == "the-move"]
        later = await asyncio.to_thread(_server, "build-b", graceful=False)
        back = await Client.open(later, f"/ws/rooms/{code}/", cookie)
        snapshot = await back.receive()
        assert snapshot["build"] == "build-b"
        assert snapshot["you"]["seat"] == 0
        mine = [e for e in snapshot["log"] if e["seat"] == 0 and e["by"] == "person"]
        if refused:
            assert mine == [], refused
        else:
            assert len(mine) == 1, (move, snapshot["log"])
            assert (mine[0]["type"], mine[0].get("tile")) == (move["type"], move.get("tile"))
        await back.close()
    finally:
        doomed.kill()
        if later is not None:
            later.stop()
