"""Issue 29's server parts (docs/table-rules.md): the rules texts to the letter and
the bugs found at the table, each through the real services."""

from __future__ import annotations

import pytest

from records import selectors as records
from rooms import services
from rooms.errors import ServiceError
from rooms.selectors import room_state
from tests.site.helpers import current, fresh, play_round, seat, set_deal, two_humans

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
