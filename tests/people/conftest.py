"""Fixtures of the people's tests: those of tests/site (a seeded world, the
rounds' replay check, a clock, ``make_user``) and tests/realtime's ``live``
(the sockets), with the sentences read in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from domino_site.client_ip import ip_hash
from rooms import services as rooms
from rooms.models import Room, Seat
from tests.realtime.conftest import live  # noqa: F401  (the sockets' fixture)
from tests.site.conftest import (  # noqa: F401  (the services' fixtures)
    clock,
    make_user,
    rounds_replay_to_snapshot,
    seeded_world,
)
from tests.site.helpers import play_round


@pytest.fixture(autouse=True)
def in_english(settings):
    """The tests read the sentences in English (the source strings): the pages'
    default language and the services' (pt-BR once the catalogs have them)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def played_together(ana, bruno, now) -> Room:
    """A duelo table of ``ana``'s where ``bruno`` sat and one round was played
    (two people who met: the report's rule, docs/site.md)."""
    room = rooms.room_create(
        user=ana, name="Mesa", preset="duelo", move_seconds=20, ip_hash=ip_hash("203.0.113.1")
    )
    rooms.seat_take(room=room, index=1, user=bruno, ip_hash=ip_hash("203.0.113.2"))
    rooms.match_start(room=room, actor=Seat.objects.get(room=room, index=0), now=now)
    play_round(Room.objects.get(pk=room.pk), now)
    return Room.objects.get(pk=room.pk)
