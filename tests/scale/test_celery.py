"""A real Celery worker (in a thread, on the Redis broker) wakes the round up:
the bots' turns and a move clock running out, through ``schedule_due``."""

from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from domino_site.celery import app
from games.models import Move, Round
from rooms import services
from rooms.models import Seat
from tests.waiting import wait_for
from timers.scheduling import schedule_due

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _wait_for(predicate, what: str, timeout: float = 60):
    """Poll the database until ``predicate`` holds. The bound only ends a test
    that is failing: a passing run returns as soon as the worker has done it,
    however busy the machine is."""
    return wait_for(predicate, timeout=timeout, message=what, every=0.05)


def _current(room) -> Round:
    return Round.objects.filter(room=room).order_by("-id").first()


def _bot_moves(rnd: Round) -> int:
    return Move.objects.filter(round=rnd, by="bot").count()


def test_a_celery_worker_plays_the_bots_and_fires_the_clock(django_user_model, settings):
    settings.DOMINO_SCHEDULER = "celery"
    app.control.purge()  # wake-ups other tests left without a worker
    ana = django_user_model.objects.create_user("ana", password="x")
    # A minute on the clock: it never runs out by itself during the test (on a
    # busy machine ten seconds could), only when the test moves it.
    room = services.room_create(user=ana, name="Mesa", preset="parceria", move_seconds=60)
    host = Seat.objects.get(room=room, index=0)
    for index in (1, 2, 3):
        services.bot_add(room=room, actor=host, index=index, level="easy")
    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        services.match_start(room=room, actor=host)
        # The worker plays the bots until it is our turn, under the clock. Who
        # opens depends on the deal (the 6-6): on one deal in four it is us, and
        # no bot has moved yet.
        rnd = _wait_for(
            lambda: (
                (r := _current(room)).due_kind == Round.DueKind.CLOCK and r.engine().turn == 0 and r
            ),
            "our turn under the clock",
        )
        bots_before = _bot_moves(rnd)
        # Start the turn 59.7 s ago (the deadline is then 0.3 s away) and wake
        # the round through the seam.
        started = timezone.now() - timedelta(seconds=59.7)
        due = started + timedelta(seconds=60)
        Round.objects.filter(pk=rnd.pk).update(turn_started_at=started, due_at=due)
        schedule_due(round_id=rnd.pk, version=rnd.version, due_at=due, kind="clock")
        move = _wait_for(
            lambda: Move.objects.filter(round=rnd, seat=0, by="timeout").first(),
            "the clock's timeout move",
        )
        # After our (timed-out) move the next seat is a bot's: wait for the
        # worker to play it, before the worker stops.
        _wait_for(lambda: _bot_moves(rnd) > bots_before, "a bot move after ours")
    assert move.created_at >= due
