"""Retention is real (docs/site.md, "Your data (LGPD)", "How long"): what the
privacy notice says is deleted after so many days is deleted by the sweeper
(the ``sweep`` job of `timers.jobs`, which the ticker and Celery beat run):
the hashed client addresses of the seats and tables of rooms closed, of the
challenges, of the puzzle tries and the sign-ups older than
``PRIVACY_ADDRESS_DAYS``; the names held past their 90 days; the expired
sessions; the done data requests older than ``PRIVACY_REQUEST_DAYS``. Newer
rows are kept."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session

from domino_site.client_ip import ip_hash
from games.world import world
from privacy.models import DataRequest, HeldName
from puzzles.models import PuzzleTry
from records.models import Signup
from rooms import services
from rooms.models import Room, Seat
from tests.analysis.planted import BLUNDER
from tests.site.test_puzzle_answers import _answer, _client
from tests.site.test_puzzles import _published
from timers import jobs

pytestmark = pytest.mark.django_db


def _closed_room(user, now, days_ago: int) -> Room:
    room = services.room_create(
        user=user, name="Mesa", preset="duelo", ip_hash=ip_hash("203.0.113.9"), now=now
    )
    Room.objects.filter(pk=room.pk).update(
        status=Room.Status.CLOSED, closed_at=now - timedelta(days=days_ago)
    )
    return room


def test_the_sweeper_deletes_what_the_notice_says_after_its_days(make_user, clock, settings):
    settings.PRIVACY_ADDRESS_DAYS, settings.PRIVACY_REQUEST_DAYS = 90, 365
    _room, puzzle, ana, _bruno = _published(make_user, clock)
    assert _answer(_client(ana), puzzle, BLUNDER).status_code == 200
    now = world().now() + timedelta(days=400)  # a sweep far ahead: every "old" row is old
    old, new = now - timedelta(days=91), now - timedelta(days=89)
    PuzzleTry.objects.update(created_at=old)
    assert PuzzleTry.objects.exclude(ip_hash="").count() == 1

    carla = make_user("carla")
    stale_room, fresh_room = _closed_room(carla, now, 91), _closed_room(carla, now, 89)
    Signup.objects.create(ip_hash="a" * 64, created_at=old)
    Signup.objects.create(ip_hash="b" * 64, created_at=new)
    HeldName.objects.create(name="velho", until=now - timedelta(seconds=1))
    HeldName.objects.create(name="novo", until=now + timedelta(days=1))
    DataRequest.objects.create(user=carla, kind="export", done_at=now - timedelta(days=366))
    DataRequest.objects.create(user=carla, kind="export", done_at=now - timedelta(days=364))
    DataRequest.objects.create(user=carla, kind="deletion", requested_at=old)  # open: kept
    expired = SessionStore()
    expired["x"] = 1
    expired.create()
    Session.objects.filter(pk=expired.session_key).update(expire_date=now - timedelta(days=1))

    jobs.run("sweep", now=now)

    assert not PuzzleTry.objects.exclude(ip_hash="").exists()
    assert PuzzleTry.objects.count() == 1  # the try stays; its address hash is gone
    assert Seat.objects.get(room=stale_room, index=0).ip_hash == ""
    assert Room.objects.get(pk=stale_room.pk).created_ip_hash == ""
    assert Seat.objects.get(room=fresh_room, index=0).ip_hash != ""
    assert Room.objects.get(pk=fresh_room.pk).created_ip_hash != ""
    assert list(Signup.objects.values_list("ip_hash", flat=True)) == ["b" * 64]
    assert list(HeldName.objects.values_list("name", flat=True)) == ["novo"]
    assert DataRequest.objects.count() == 2
    assert not DataRequest.objects.filter(done_at__lt=now - timedelta(days=365)).exists()
    assert not Session.objects.filter(pk=expired.session_key).exists()
