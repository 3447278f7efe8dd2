"""Connections (tab replacement, disconnect grace, empty rooms) and the sweeper."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Move
from rooms import services
from rooms.models import Room
from rooms.selectors import public_rooms, viewer_seat
from tests.site.helpers import (
    current,
    fresh,
    human_move,
    play_round,
    room_with_bots,
    seat,
    two_humans,
)

pytestmark = pytest.mark.django_db


def connect(room, *indexes, now):
    for index in indexes:
        services.seat_connected(room=room, index=index, channel_name=f"chan-{index}", now=now)


def test_a_second_tab_replaces_the_first(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    assert services.seat_connected(room=room, index=0, channel_name="tab-1", now=clock()) is None
    replaced = services.seat_connected(room=room, index=0, channel_name="tab-2", now=clock())
    assert replaced == "tab-1"
    assert seat(room, 0).channel_name == "tab-2"
    # The old tab closing afterwards does not disconnect the seat.
    services.seat_disconnected(room=room, index=0, channel_name="tab-1", now=clock())
    assert seat(room, 0).connected


def test_connect_and_disconnect_bump_the_version_and_track_presence(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    version = fresh(room).version
    connect(room, 0, now=clock())
    assert fresh(room).version == version + 1 and fresh(room).no_humans_since is None
    services.seat_disconnected(room=room, index=0, channel_name="chan-0", now=clock.tick(3))
    s = seat(room, 0)
    assert not s.connected and s.disconnected_at == clock.now and s.last_seen == clock.now
    assert fresh(room).no_humans_since == clock.now


def test_room_with_no_connected_human_pauses_and_leaves_the_list(make_user, clock):
    # A move clock: whoever opens (the person or the bot) has a due time once resumed.
    room = room_with_bots(make_user("ana"), clock(), preset="duelo", move_seconds=30)
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    connect(room, 0, now=clock())
    assert [r["code"] for r in public_rooms()] == [room.code]
    services.seat_disconnected(room=room, index=0, channel_name="chan-0", now=clock.tick(1))
    room = fresh(room)
    assert room.paused and room.paused_by == "empty"
    assert current(room).due_at is None
    assert public_rooms() == []
    connect(room, 0, now=clock.tick(30))  # coming back resumes
    room = fresh(room)
    assert not room.paused and current(room).due_at is not None
    assert [r["code"] for r in public_rooms()] == [room.code]


def test_after_two_minutes_away_a_bot_takes_the_seat_and_coming_back_returns_it(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    connect(room, 0, 1, now=clock())
    hand = current(room).engine().hand(1)
    services.seat_disconnected(room=room, index=1, channel_name="chan-1", now=clock())
    assert services.rooms_sweep(now=clock.tick(119))["takeovers"] == 0
    assert services.rooms_sweep(now=clock.tick(1))["takeovers"] == 1
    s = seat(room, 1)
    assert s.substitute and s.substitute_reason == "away" and s.leaving
    assert viewer_seat(room=room, user=bruno.user) == s  # still theirs
    connect(room, 1, now=clock.tick(5))
    s = seat(room, 1)
    assert s.active_human and not s.leaving and s.bot_level is None
    assert current(room).engine().hand(1) == hand or Move.objects.filter(seat=1).exists()


def test_the_sweeper_fires_a_missed_due_action(make_user, clock):
    room, *_ = two_humans(make_user, clock(), move_seconds=10)
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    connect(room, 0, 1, now=clock())
    assert services.rooms_sweep(now=clock.tick(9))["fired"] == 0
    assert services.rooms_sweep(now=clock.tick(1))["fired"] == 1
    assert Move.objects.get().by == "timeout"


def test_public_room_closes_two_minutes_after_the_last_human_left(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    connect(room, 0, now=clock())
    services.seat_disconnected(room=room, index=0, channel_name="chan-0", now=clock.tick(1))
    services.rooms_sweep(now=clock.tick(119))
    assert fresh(room).status != "closed"
    services.rooms_sweep(now=clock.tick(1))
    room = fresh(room)
    assert room.status == "closed" and room.close_reason == "empty"


def test_a_room_that_nobody_ever_connected_to_closes_too(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    services.rooms_sweep(now=clock.tick(121))
    assert fresh(room).status == "closed"


def test_private_room_expires_after_seven_days_without_activity(make_user, clock):
    room = services.room_create(
        user=make_user("ana"), name="x", preset="duelo", visibility="private", now=clock()
    )
    services.rooms_sweep(now=clock.tick(6 * 86400))
    assert fresh(room).status == "waiting"  # private rooms wait for their friends
    services.seat_take_by_invite(token=room.invite_token, guest_token="g", now=clock())
    services.rooms_sweep(now=clock.tick(86400 + 60))
    assert fresh(room).status == "waiting"  # the guest's arrival was activity
    services.rooms_sweep(now=clock.tick(6 * 86400))
    room = fresh(room)
    assert room.status == "closed" and room.close_reason == "expired"


def test_the_sweeper_pauses_rooms_whose_humans_vanished(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    # Nobody ever connected (the socket never opened): the sweep pauses it.
    assert services.rooms_sweep(now=clock.tick(1))["paused"] == 1
    assert fresh(room).paused and fresh(room).paused_by == "empty"
    assert services.rooms_sweep(now=clock.tick(1))["paused"] == 0


def test_sweeping_twice_changes_nothing_more(make_user, clock):
    room, *_ = two_humans(make_user, clock(), move_seconds=10)
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    connect(room, 0, 1, now=clock())
    now = clock.tick(11)
    services.rooms_sweep(now=now)
    version = fresh(room).version
    nothing = {"dead_sockets": 0, "fired": 0, "takeovers": 0, "paused": 0, "closed": 0}
    assert services.rooms_sweep(now=now) == nothing
    assert fresh(room).version == version


def test_closed_rooms_ignore_connections(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    services.room_close(room=room, reason="admin", now=clock())
    assert services.seat_connected(room=room, index=0, channel_name="c", now=clock()) is None
    assert not seat(room, 0).connected
    assert Room.objects.get(pk=room.pk).status == "closed"


def test_a_human_move_resets_the_disconnect_auto_move(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    connect(room, 0, 1, now=clock())
    turn = current(room).engine().turn
    other = 1 - turn
    services.seat_disconnected(room=room, index=other, channel_name=f"chan-{other}", now=clock())
    human_move(room, turn, clock.tick(20))
    rnd = current(room)
    if rnd.engine().turn == other:
        assert rnd.due_kind == "auto" and rnd.due_at == clock.now + timedelta(seconds=30)


def test_two_minutes_away_between_rounds_frees_the_seat(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="com_monte")
    services.match_start(room=room, actor=ana, now=clock())
    connect(room, 0, 1, now=clock())
    play_round(room, clock())
    services.seat_disconnected(room=room, index=1, channel_name="chan-1", now=clock())
    assert services.rooms_sweep(now=clock.tick(121))["takeovers"] == 1
    assert seat(room, 1).kind == "empty"
    assert current(room).match.scores  # the match goes on; the host may seat someone
    assert fresh(room).status == "between_rounds"
