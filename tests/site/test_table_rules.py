"""Issue 29's server parts (docs/table-rules.md): the rules texts to the letter and
the bugs found at the table, each through the real services."""

from __future__ import annotations

import pytest

from games.models import Move
from records import selectors as records
from rooms import services
from rooms.errors import ServiceError
from rooms.selectors import room_state
from tests.site.helpers import (
    current,
    fire_due,
    fresh,
    human_move,
    play_round,
    seat,
    set_deal,
    two_humans,
)

pytestmark = pytest.mark.django_db


def connect(room, *indexes, now):
    for index in indexes:
        services.seat_connected(room=room, index=index, channel_name=f"chan-{index}", now=now)


def play(room, index, tile, end, now):
    services.action_apply(
        room=fresh(room),
        seat_index=index,
        action={"type": "play", "tile": tile, "end": end},
        version=None,
        now=now,
    )


# ---------------------------------------------------------------------- bug 1


def test_an_annulled_match_counts_in_no_profile_statistic(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="com_monte")
    services.match_start(room=room, actor=ana, now=clock())
    play_round(room, clock())
    assert not current(room).match.over
    before = records.player_stats(ana.user, may_see_rounds=lambda room: True)
    assert before["rounds"] == 1  # counted while the match stands
    services.annul_vote(room=room, actor=ana, now=clock())
    services.annul_vote(room=room, actor=bruno, now=clock())
    assert current(room).match.annulled
    for person in (ana.user, bruno.user):
        stats = records.player_stats(person, may_see_rounds=lambda room: True)
        assert (stats["rounds"], stats["dominoes"], stats["average_points"]) == (0, 0, 0)
        assert stats["matches"] == 0


# ---------------------------------------------------------------------- bug 2


def test_the_line_cannot_be_adjusted_while_the_game_is_paused(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="sem_monte")
    services.match_start(room=room, actor=ana, now=clock())
    set_deal(fresh(room), hands=[["1-2", "1-1", "3-5", "6-6"], ["2-3", "1-4", "0-0", "5-6"]])
    play(room, 0, "1-2", None, clock())
    play(room, 1, "2-3", "B", clock())
    services.room_pause(room=fresh(room), actor=seat(room, 0), now=clock())
    version = fresh(room).version
    with pytest.raises(ServiceError) as info:
        services.layout_adjust(room=fresh(room), actor=seat(room, 0), at=1, bend="left")
    assert info.value.code == "paused"
    assert current(room).layout == {} and fresh(room).version == version


# ---------------------------------------------------------------------- bug 3


def test_a_pause_freezes_the_two_minute_absence(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="com_monte")
    services.match_start(room=room, actor=ana, now=clock())
    connect(room, 0, 1, now=clock())
    services.seat_disconnected(room=room, index=1, channel_name="chan-1", now=clock.tick(1))
    clock.tick(60)  # a minute away, then the host pauses for ten
    services.room_pause(room=fresh(room), actor=seat(room, 0), now=clock())
    services.room_resume(room=fresh(room), actor=seat(room, 0), now=clock.tick(600))
    assert services.rooms_sweep(now=clock.tick(1))["takeovers"] == 0
    assert seat(room, 1).active_human  # one more minute of grace after the pause
    assert services.rooms_sweep(now=clock.tick(59))["takeovers"] == 1
    assert seat(room, 1).substitute


# ---------------------------------------------------------------------- bug 5


def test_an_adjustment_has_its_own_number_in_the_log(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="sem_monte")
    services.match_start(room=room, actor=ana, now=clock())
    set_deal(fresh(room), hands=[["1-2", "1-1", "3-5", "6-6"], ["2-3", "1-4", "0-0", "5-6"]])
    play(room, 0, "1-2", None, clock())
    play(room, 1, "2-3", "B", clock())
    services.layout_adjust(room=fresh(room), actor=seat(room, 0), at=1, bend="left")
    play(room, 0, "1-1", "A", clock())
    log = room_state(room=fresh(room), viewer=None)["log"]
    assert [e["type"] for e in log] == ["play", "play", "adjust", "play"]
    assert [e.get("seq") for e in log] == [1, 2, None, 3]  # not the previous move's number
    assert log[2]["after"] == 2


# ---------------------------------------------------------------------- point 8


def test_the_arena_walkover_for_prolonged_absence(make_user, clock):
    """DomiArena: a player away for 2 minutes during a series loses it by W.O."""
    room, ana, bruno = two_humans(make_user, clock(), preset="arena")
    services.match_start(room=room, actor=ana, now=clock())
    connect(room, 0, 1, now=clock())
    services.seat_disconnected(room=room, index=1, channel_name="chan-1", now=clock())
    assert services.rooms_sweep(now=clock.tick(119))["takeovers"] == 0
    assert not current(room).match.over
    assert services.rooms_sweep(now=clock.tick(1))["takeovers"] == 1
    match = current(room).match
    assert match.over and match.ended_by == "walkover" and match.winner == 0
    assert fresh(room).status == "between_rounds"


# ---------------------------------------------------------------------- point 3


def to_act(room):
    return current(room).engine().turn


def test_automatic_mode_plays_at_once_until_its_person_acts(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="com_monte", move_seconds=30)
    services.match_start(room=room, actor=ana, now=clock())
    connect(room, 0, 1, now=clock())
    mover = to_act(room)
    services.seat_auto(room=fresh(room), actor=seat(room, mover), on=True)
    state = room_state(room=fresh(room), viewer=None)
    assert state["seats"][mover]["auto"] is True  # the others see the badge
    rnd = current(room)
    assert rnd.due_kind == "auto" and rnd.due_at <= clock.now  # at once, not after 30 s
    assert fire_due(room, clock())
    assert Move.objects.get(round=current(room)).by == "auto"  # the log says so
    assert seat(room, mover).auto  # still on
    if to_act(room) != mover:  # the other one plays; then the server again at once
        human_move(room, to_act(room), clock())
    assert to_act(room) == mover and current(room).due_kind == "auto"
    human_move(room, mover, clock())  # acting switches it off
    assert not seat(room, mover).auto
    assert room_state(room=fresh(room), viewer=None)["seats"][mover]["auto"] is False


def test_automatic_mode_is_switched_off_by_its_person(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="com_monte", move_seconds=30)
    services.match_start(room=room, actor=ana, now=clock())
    other = 1 - to_act(room)
    services.seat_auto(room=fresh(room), actor=seat(room, other), on=True)
    services.seat_auto(room=fresh(room), actor=seat(room, other), on=False)
    assert not seat(room, other).auto
    with pytest.raises(ServiceError):  # only one's own seat, only a seated person
        services.seat_auto(room=fresh(room), actor=None, on=True)


# ---------------------------------------------------------------------- point 7


def private_duel(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = services.room_create(
        user=ana, name="Duelo", preset="duelo", visibility="private", now=clock()
    )
    services.seat_take(room=room, index=1, user=bruno, now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    connect(room, 0, 1, now=clock())
    return fresh(room)


def test_a_private_duel_waits_for_the_absent_player(make_user, clock):
    room = private_duel(make_user, clock)
    absent = to_act(room)
    services.seat_disconnected(
        room=room, index=absent, channel_name=f"chan-{absent}", now=clock.tick(1)
    )
    assert current(room).due_at is None  # no clock, no automatic move
    assert room_state(room=fresh(room), viewer=None)["room"]["waits_for_both"]
    assert services.rooms_sweep(now=clock.tick(300))["takeovers"] == 0  # no stand-in
    assert not Move.objects.filter(round=current(room)).exists()
    assert seat(room, absent).active_human
    assert room_state(room=fresh(room), viewer=None)["seats"][absent]["away_since"]


def test_after_two_minutes_the_present_player_may_play_against_the_computer(make_user, clock):
    room = private_duel(make_user, clock)
    absent = to_act(room)
    present = 1 - absent
    services.seat_disconnected(
        room=room, index=absent, channel_name=f"chan-{absent}", now=clock.tick(1)
    )
    with pytest.raises(ServiceError) as info:
        services.duel_bot_stand_in(room=fresh(room), actor=seat(room, present), now=clock.tick(60))
    assert info.value.reason == "too_soon"
    services.duel_bot_stand_in(room=fresh(room), actor=seat(room, present), now=clock.tick(60))
    stand_in = seat(room, absent)
    assert stand_in.substitute and stand_in.substitute_reason == "away"
    assert current(room).due_kind == "bot"
    assert fire_due(room, clock())  # the bot plays the absent seat
    connect(room, absent, now=clock.tick(5))  # coming back takes the seat back
    assert seat(room, absent).active_human and not seat(room, absent).leaving


def test_a_public_duel_keeps_the_grace_and_the_automatic_move(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    connect(room, 0, 1, now=clock())
    absent = to_act(room)
    services.seat_disconnected(room=room, index=absent, channel_name=f"chan-{absent}", now=clock())
    assert current(room).due_kind == "auto"
    assert not room_state(room=fresh(room), viewer=None)["room"]["waits_for_both"]


def test_the_auto_and_stand_in_messages_are_parsed_strictly():
    from rooms.messages import BadMessage, parse_message

    assert parse_message({"type": "auto", "on": True}).fields == {"on": True}
    assert parse_message({"type": "stand_in"}).fields == {}
    for bad in ({"type": "auto"}, {"type": "auto", "on": 1}, {"type": "auto", "on": "yes"}):
        with pytest.raises(BadMessage):
            parse_message(bad)
