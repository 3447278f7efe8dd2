"""Services of the table's extras: the duelo's both-accept (rooms.services.match_start /
match_new at a single-round table) and the watcher count (rooms.watchers)."""

from __future__ import annotations

import pytest

from rooms import services
from rooms.errors import ServiceError
from rooms.models import Room, Watcher
from rooms.watchers import forget_all, forget_channels, watcher_join, watcher_leave
from tests.site.helpers import current, fresh, play_round, seat, two_humans

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_duel(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    play_round(room, clock())
    room = fresh(room)
    assert current(room).match.over and room.status == Room.Status.BETWEEN_ROUNDS
    return room


def test_the_guest_accepts_first_and_it_stays_pending(finished_duel, clock):
    room = finished_duel
    match = current(room).match
    services.match_new(room=room, actor=seat(room, 1), now=clock())
    assert seat(room, 1).ready and not seat(room, 0).ready
    assert current(room).match == match  # nothing started yet
    services.match_new(room=fresh(room), actor=seat(room, 0), now=clock())
    assert current(room).match.number == match.number + 1
    assert fresh(room).status == Room.Status.PLAYING
    assert not seat(room, 0).ready and not seat(room, 1).ready


def test_accepting_twice_changes_nothing(finished_duel, clock):
    room = finished_duel
    services.match_new(room=room, actor=seat(room, 0), now=clock())
    services.match_new(room=fresh(room), actor=seat(room, 0), now=clock())
    assert current(room).match.number == 1


def test_restart_alone_needs_the_other_seat_free(finished_duel, clock):
    room = finished_duel
    with pytest.raises(ServiceError) as info:
        services.match_start(room=room, actor=seat(room, 0), alone=True, now=clock())
    assert info.value.reason == "not_alone"
    services.seat_leave(room=fresh(room), index=1, actor=seat(room, 1), now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), alone=True, now=clock())
    assert seat(room, 1).kind == "bot" and current(room).match.number == 2


def test_a_bot_always_accepts(make_user, clock):
    room, ana, _ = two_humans(make_user, clock())
    services.seat_leave(room=room, index=1, actor=seat(room, 1), now=clock())
    services.bot_add(room=fresh(room), actor=seat(room, 0), index=1, level="easy", now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    play_round(room, clock())
    services.match_new(room=fresh(room), actor=seat(room, 0), now=clock())
    assert current(room).match.number == 2


def test_watchers_are_counted_once_per_socket(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    assert watcher_join(code=room.code.lower(), channel_name="w1") == 1
    assert watcher_join(code=room.code, channel_name="w1") == 1  # the same socket again
    assert watcher_join(code=room.code, channel_name="w2") == 2
    assert fresh(room).watchers == 2
    version = fresh(room).version
    assert watcher_leave(code=room.code, channel_name="w1") == 1
    assert fresh(room).version == version  # not a change of the game
    assert forget_channels(["w2"]) == 1 and fresh(room).watchers == 0
    watcher_join(code=room.code, channel_name="w3")
    forget_all()
    assert fresh(room).watchers == 0 and not Watcher.objects.exists()


def test_a_closed_room_has_no_watchers(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    services.room_close(room=room, reason="test", now=clock())
    assert watcher_join(code=room.code, channel_name="w1") is None
