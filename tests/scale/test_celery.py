"""A real Celery worker (in a thread, on the Redis broker) wakes the round up:
the bots' turns and a move clock running out, through ``schedule_due``."""

import time
from datetime import timedelta

import pytest
from celery.contrib.testing.worker import start_worker
from django.utils import timezone

from domino_site.celery import app
from games.models import Move, Round
from games.scheduling import schedule_due
from rooms import services
from rooms.models import Seat

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _wait_for(predicate, timeout: float = 10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def _current(room) -> Round:
    return Round.objects.filter(room=room).order_by("-id").first()


def test_a_celery_worker_plays_the_bots_and_fires_the_clock(django_user_model, settings):
    settings.DOMINO_SCHEDULER = "celery"
    app.control.purge()  # wake-ups other tests left without a worker
    ana = django_user_model.objects.create_user("ana", password="x")
    room = services.room_create(user=ana, name="Mesa", preset="parceria", move_seconds=10)
    host = Seat.objects.get(room=room, index=0)
    for index in (1, 2, 3):
        services.bot_add(room=room, actor=host, index=index, level="easy")
    with start_worker(app, pool="solo", perform_ping_check=False, loglevel="WARNING"):
        services.match_start(room=room, actor=host)
        # the worker plays the bots until it is our turn, under the clock
        rnd = _wait_for(
            lambda: (
                (r := _current(room)).due_kind == Round.DueKind.CLOCK and r.engine().turn == 0 and r
            )
        )
        # Ten seconds is long for a test: start the turn 9.7 s ago (the deadline
        # is then 0.3 s away) and wake the round through the seam.
        started = timezone.now() - timedelta(seconds=9.7)
        due = started + timedelta(seconds=10)
        Round.objects.filter(pk=rnd.pk).update(turn_started_at=started, due_at=due)
        schedule_due(round_id=rnd.pk, version=rnd.version, due_at=due, kind="clock")
        move = _wait_for(lambda: Move.objects.filter(round=rnd, seat=0, by="timeout").first())
    assert move.created_at >= due
    assert Move.objects.filter(round=rnd, by="bot").exists()
