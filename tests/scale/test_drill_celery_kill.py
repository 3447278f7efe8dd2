"""Fault drill: the Celery worker is killed with SIGKILL while a move clock runs.

Production set-up on the drill's own Redis (broker and channel layer): one
Daphne (``DOMINO_SCHEDULER=celery``), one worker, one beat (the sweeper, every
second here), PostgreSQL. The worker has received the clock's wake-up (an ETA
task it holds unacknowledged) when it is killed; the clock runs out with no
worker; the worker is started again and the sweeper fires the timeout: exactly
one timeout move for that turn, seen by both sockets, and a late copy of the
lost wake-up does nothing."""

from __future__ import annotations

import asyncio

import pytest
from django.utils import timezone

from domino_site.celery import app
from domino_site.realtime.asyncdb import db_async
from games.models import Move, Round
from tests.scale.drills import CeleryProcess, process_env, replays_match
from tests.scale.players import duelo, seated
from tests.waiting import async_wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]

CLOCK = 10  # seconds, the shortest move clock


def _duelo_with_a_clock(django_user_model):
    return duelo(django_user_model, name="Relógio", move_seconds=CLOCK)


def _round(room) -> Round | None:
    return Round.objects.filter(room=room).order_by("-id").first()


def _timeouts(rnd: Round, seq: int) -> list[tuple[int, int, str]]:
    """Moves recorded as turn ``seq`` of the round (a turn has exactly one)."""
    return list(Move.objects.filter(round=rnd, seq=seq).values_list("seq", "seat", "by"))


def _send_late_copy(broker_url: str, round_id: int, version: int) -> str:
    """The lost wake-up delivered late (as Redis' visibility timeout would);
    returns the task's id."""
    from kombu import Connection

    with Connection(broker_url) as connection:
        result = app.send_task(
            "games.round_due", kwargs={"round_id": round_id, "version": version},
            connection=connection,
        )  # fmt: skip
    return result.id


async def _wait_for(predicate, what: str, timeout: float = 60):
    return await async_wait_for(db_async(predicate), timeout=timeout, message=what, every=0.1)


async def test_a_worker_killed_while_the_clock_runs_the_sweeper_fires_the_timeout_once(
    servers, django_user_model, settings, own_redis
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    env = process_env(REDIS_URL=own_redis.url(), DOMINO_SWEEP_SECONDS="1")
    room, ana, bruno = await db_async(_duelo_with_a_clock)(django_user_model)
    worker = CeleryProcess("worker", env).start()
    beat = CeleryProcess("beat", env).start()
    try:
        server = await asyncio.to_thread(
            servers, redis=True, scheduler="celery", env={"REDIS_URL": own_redis.url()}
        )
        host, guest = await seated(room, ana, bruno, server)
        await asyncio.to_thread(worker.wait_for_output, "ready")
        await asyncio.to_thread(beat.wait_for_output, "beat: Starting")
        mark = len(worker.output())
        await host.send({"type": "start"})
        dealt = await guest.until(lambda s: s["round"] is not None)
        rnd = await db_async(_round)(room)
        turn, version, due = rnd.engine().turn, rnd.version, rnd.due_at
        assert rnd.due_kind == "clock" and dealt["round"]["deadline"]
        # The worker holds the clock's wake-up (an ETA task, not yet acknowledged).
        held = await asyncio.to_thread(
            lambda: worker.wait_for_output("games.round_due[", "received", timeout=20, after=mark)
        )
        lost_task = held.split("[")[-1].split("]")[0]
        assert timezone.now() < due, "the clock ran out before the drill could kill the worker"

        worker.kill()
        killed_at = timezone.now()
        # The clock runs out with no worker: nothing happens (beat's sweeps
        # wait in the queue, and expire). Seen once beat has sent a sweep after
        # the clock ran out (one that a worker would have run).
        await async_wait_for(
            lambda: timezone.now() > due, timeout=CLOCK + 5, message="the clock running out"
        )
        ran_out = len(beat.output())
        await asyncio.to_thread(
            lambda: beat.wait_for_output("Sending due task", "rooms.sweep", after=ran_out)
        )
        assert await db_async(_timeouts)(rnd, 1) == []
        assert (await db_async(_round)(room)).version == version

        restart = len(worker.output())
        restarted_at = timezone.now()
        worker.start()  # a new worker: the sweeper's next tick fires the timeout
        fired = await _wait_for(lambda: _timeouts(rnd, 1), "the timeout move after the restart")
        assert fired == [(1, turn, "timeout")]
        move = await db_async(lambda: Move.objects.get(round=rnd, seq=1))()
        assert move.created_at >= restarted_at
        # Fired by the sweeper: the lost wake-up is not delivered again (it waits
        # for Redis' visibility timeout, an hour). (Which of the worker's log lines
        # comes first is not asserted: the next turn's wake-up, sent on the sweep's
        # commit, may be logged as received before the sweep is logged as done.)
        await asyncio.to_thread(
            lambda: worker.wait_for_output("rooms.sweep[", "succeeded", timeout=20, after=restart)
        )
        since = worker.output()[restart:].splitlines()
        assert not [line for line in since if lost_task in line], "the lost task came back"
        seen = await host.until(lambda s: len(s["log"]) >= 1, timeout=20)
        assert (seen["log"][0]["seat"], seen["log"][0]["by"]) == (turn, "timeout")
        await guest.until(lambda s: len(s["log"]) >= 1, timeout=20)
        # Late and duplicate deliveries change nothing: the lost wake-up itself
        # arrives now, and the sweeper keeps ticking.
        copy = await asyncio.to_thread(_send_late_copy, own_redis.url(), rnd.pk, version)
        late = await asyncio.to_thread(
            lambda: worker.wait_for_output(f"games.round_due[{copy}]", "succeeded", timeout=20)
        )
        assert late.endswith("False"), late  # did nothing: the round moved on
        sweeps = len(worker.output())
        for _ in range(3):  # three more sweeps
            await asyncio.to_thread(
                worker.wait_for_output, "rooms.sweep[", "succeeded", timeout=20, after=sweeps
            )
            sweeps = len(worker.output())
        assert await db_async(_timeouts)(rnd, 1) == [(1, turn, "timeout")]
        timeout_moves = await db_async(
            lambda: Move.objects.filter(round=rnd, by="timeout", created_at__lt=due).count()
        )()
        assert timeout_moves == 0, "no move before the clock ran out"
        print(
            f"\ncelery kill drill: worker killed {(due - killed_at).total_seconds():.1f} s before"
            f" the clock ran out; 1 timeout move for turn 1 after the restart"
        )
        await host.close()
        await guest.close()
    finally:
        worker.stop()
        beat.stop()
    assert await db_async(replays_match)() == {"rounds": 1, "differ": []}
