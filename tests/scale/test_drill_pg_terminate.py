"""Fault drill: the PostgreSQL connection of a move in flight is terminated
(``pg_terminate_backend``), on the production set-up (PostgreSQL, the Redis
layer on the drill's own ``redis-server``, one Daphne).

"In flight" is hit deterministically with table locks held by the test on its
own connections, which stop the server's move at a known point:

* ``before-commit``: ``LOCK games_round IN SHARE MODE`` lets the move lock its
  room and round rows and insert its ``Move`` but stops it at the round's
  ``UPDATE``: the backend is killed with the move half written (uncommitted);
* ``after-commit``: that, plus an ``ACCESS EXCLUSIVE`` lock on ``games_move``
  queued behind the move; the move commits. What it tells the sockets is built
  from the rows it held (``Round.movers`` included), so nothing it could read
  after the commit stops it: both sockets see the move while the moves table
  is still locked; then its connection is killed;
* ``idle``: the server's pooled connections are killed between two moves.

Either way the move is stored and every socket sees it, or it is refused (the
mover gets an error), absent, and the same move sent again is stored once;
never stored and untold, never half stored. Replays match."""

from __future__ import annotations

import asyncio
import time

import psycopg
import pytest

from domino_site.realtime.asyncdb import db_async
from games.models import Move, Round
from rooms.models import Room
from tests.scale.conftest import SERVER_APPLICATION_NAME, servers_database_url
from tests.scale.drills import replays_match
from tests.scale.players import Client, duelo, first_legal, my_turn

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]


def _facts(room) -> tuple[int, int, int]:
    """(room version, round version, moves) as stored."""
    rnd = Round.objects.filter(room=room).order_by("-id").first()
    return (
        Room.objects.get(pk=room.pk).version,
        rnd.version,
        Move.objects.filter(round=rnd).count(),
    )


class Locks:
    """The test's own PostgreSQL sessions, to hold locks and watch the server's."""

    def __init__(self) -> None:
        self.url = servers_database_url()
        self.watch = psycopg.connect(self.url, autocommit=True)
        self.sessions: list[psycopg.Connection] = []

    def hold(self, sql: str, wait: bool = True) -> psycopg.Connection:
        """Run ``sql`` (a LOCK) in a transaction of a new session, left open; with
        ``wait=False`` the LOCK is sent and may still be waiting in the queue."""
        session = psycopg.connect(self.url)
        self.sessions.append(session)
        if wait:
            session.execute(sql)
        else:  # psycopg's BEGIN is not sent for a raw query: send it along
            session.pgconn.send_query(f"BEGIN; {sql}".encode())
        return session

    def ours(self) -> list[int]:
        pids = [self.watch.info.backend_pid]
        return pids + [s.info.backend_pid for s in self.sessions]

    def waiting(self, statement: str, timeout: float = 20) -> int:
        """The pid of the server's backend waiting on a lock in a message that
        holds ``statement`` (a move's writes go as one message of several
        statements: domino_site.infra.django.writes_together)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            row = self.watch.execute(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND wait_event_type = 'Lock' AND query LIKE %s AND NOT pid = ANY(%s)",
                ("%" + statement + "%", self.ours()),
            ).fetchone()
            if row:
                return row[0]
            time.sleep(0.02)
        rows = self.watch.execute(
            "SELECT pid, state, wait_event_type, wait_event, left(query, 80) FROM pg_stat_activity"
            " WHERE datname = current_database()"
        ).fetchall()
        raise AssertionError(f"no server backend waited on a lock in {statement!r}: {rows}")

    def holds(self, pid: int, table: str) -> list[str]:
        """The lock modes ``pid`` holds on ``table``."""
        rows = self.watch.execute(
            "SELECT mode FROM pg_locks WHERE pid = %s AND granted AND relation = %s::regclass",
            (pid, table),
        ).fetchall()
        return sorted(mode for (mode,) in rows)

    def terminate(self, pid: int) -> None:
        """End backend ``pid`` and wait until it has gone: without the wait the
        server's last words may reach its client after the next query on a busy
        machine, which no pool check could see coming."""
        ended = self.watch.execute("SELECT pg_terminate_backend(%s, 20000)", (pid,))
        assert ended.fetchone()[0], f"backend {pid} still running 20 s after its termination"

    def server_pids(self) -> list[int]:
        """The backends of the servers' connections (never the test process's own:
        killing those would break the test's set-up and teardown, not a move)."""
        rows = self.watch.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND backend_type = 'client backend' AND application_name LIKE %s"
            " AND NOT pid = ANY(%s)",
            (f"{SERVER_APPLICATION_NAME}%", self.ours()),
        ).fetchall()
        return [pid for (pid,) in rows]

    def release(self) -> None:
        for session in self.sessions:
            try:
                if session.pgconn.transaction_status == psycopg.pq.TransactionStatus.ACTIVE:
                    while session.pgconn.get_result() is not None:  # the queued LOCK
                        pass
                    session.pgconn.exec_(b"ROLLBACK")
                else:
                    session.rollback()
            except psycopg.Error:
                pass
            session.close()
        self.sessions = []

    def close(self) -> None:
        self.release()
        self.watch.close()


async def _answer(client: Client, version: int, ref: str, timeout: float = 20) -> dict:
    """The mover's answer: the error for ``ref``, or a snapshot newer than ``version``."""
    deadline = time.monotonic() + timeout
    while True:
        msg = await client.receive(max(0.01, deadline - time.monotonic()))
        if msg["type"] == "error" and msg.get("ref") == ref:
            return msg
        if msg["type"] == "room" and msg["version"] > version:
            return msg


@pytest.mark.parametrize("when", ["before-commit", "after-commit", "idle"])
async def test_a_move_whose_database_connection_is_killed_is_all_or_nothing(
    servers, django_user_model, settings, own_redis, when
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    room, ana_cookie, bruno_cookie = await db_async(duelo)(django_user_model)
    server = await asyncio.to_thread(
        servers, redis=True, scheduler="inprocess", env={"REDIS_URL": own_redis.url()}
    )
    path = f"/ws/rooms/{room.code}/"
    ana = await Client.open(server, path, ana_cookie)
    bruno = await Client.open(server, path, bruno_cookie)
    await ana.receive()
    await bruno.receive()
    await ana.until(lambda s: s["seats"][1]["connected"])
    await ana.send({"type": "start"})
    players = {0: ana, 1: bruno}
    state = await bruno.until(lambda s: s["round"] is not None)
    await ana.until(lambda s, v=state["version"]: s["version"] >= v)
    locks = await asyncio.to_thread(Locks)
    outcomes = []
    try:
        for attempt in range(3):  # three moves, each one's connection killed
            before = await db_async(_facts)(room)
            mover = players[state["round"]["turn"]]
            other = players[1 - state["round"]["turn"]]
            mine = await mover.until(lambda s, v=before[0]: my_turn(s) and s["version"] >= v)
            await other.until(lambda s, v=before[0]: s["version"] >= v)
            move = {**first_legal(mine), "version": mine["version"], "ref": f"m{attempt}"}
            answer = None
            if when == "idle":
                for pid in await asyncio.to_thread(locks.server_pids):
                    await asyncio.to_thread(locks.terminate, pid)
                await mover.send(move)
            elif when == "before-commit":
                await asyncio.to_thread(locks.hold, "LOCK TABLE games_round IN SHARE MODE")
                await mover.send(move)
                pid = await asyncio.to_thread(locks.waiting, 'UPDATE "games_round"')
                # Half written: the move row is inserted, not committed.
                held = await asyncio.to_thread(locks.holds, pid, "games_move")
                assert "RowExclusiveLock" in held, held
                await asyncio.to_thread(locks.terminate, pid)
                await asyncio.to_thread(locks.release)
            else:  # after-commit
                await asyncio.to_thread(locks.hold, "LOCK TABLE games_round IN SHARE MODE")
                await mover.send(move)
                pid = await asyncio.to_thread(locks.waiting, 'UPDATE "games_round"')
                # Queue an exclusive lock on the moves behind the server's insert,
                # then let the server go on: it commits, and tells the sockets
                # without reading the moves again (they stay locked meanwhile).
                await asyncio.to_thread(
                    locks.hold, "LOCK TABLE games_move IN ACCESS EXCLUSIVE MODE", False
                )
                first = locks.sessions[0]
                await asyncio.to_thread(first.rollback)
                told = {}
                for seat, socket in ((0, mover), (1, other)):
                    told[seat] = await socket.until(
                        lambda s, v=mine["version"]: s["version"] > v, timeout=20
                    )
                answer = told[0]  # the mover's snapshot of its move
                stored = await asyncio.to_thread(
                    lambda: locks.watch.execute(
                        "SELECT version FROM rooms_room WHERE id = %s", (room.pk,)
                    ).fetchone()[0]
                )
                assert stored == before[0] + 1, "committed before it was stopped"
                await asyncio.to_thread(locks.terminate, pid)
                await asyncio.to_thread(locks.release)
            if answer is None:
                answer = await _answer(mover, mine["version"], move["ref"])
            after = await db_async(_facts)(room)
            if answer["type"] == "error":  # refused: absent, and the same move goes in once
                assert after == before, (answer, before, after)
                outcomes.append(f"refused ({answer['code']})")
                await mover.send({**move, "ref": f"again{attempt}"})
                answer = await _answer(mover, mine["version"], f"again{attempt}")
                assert answer["type"] == "room", answer
                after = await db_async(_facts)(room)
            else:
                outcomes.append("stored")
            # Stored: exactly one move more, one version more, and both sockets see it.
            assert after[2] == before[2] + 1 and after[1] == before[1] + 1, (before, after)
            seen = await other.until(lambda s, n=after[2]: len(s["log"]) >= n, timeout=20)
            assert seen["log"][before[2]]["seat"] == mine["you"]["seat"]
            state = await mover.until(lambda s, n=after[2]: len(s["log"]) >= n, timeout=20)
            if state["round"]["result"] is not None:
                break
    finally:
        await asyncio.to_thread(locks.close)
    print(f"\npg terminate drill ({when}): {outcomes}")
    await ana.close()
    await bruno.close()
    assert "Traceback" not in server.output() or when != "idle", server.output()
    assert await db_async(replays_match)() == {"rounds": 1, "differ": []}
