"""The automatic pass (docs/site.md, "Rounds and the clock", from the
games-portal rules): a person whose only legal action is to pass passes after
about a second, connected or not,
logged as ``by="auto"`` ("passou (automático)")."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.models import Move, Round
from rooms import services
from rooms import services as room_services
from rooms.selectors import room_state
from tests.site.helpers import current, fire_due, fresh, seat, set_deal, two_humans

pytestmark = pytest.mark.django_db


def six_six_duel(make_user, clock, preset: str, boneyard=(), **kw):
    """Two seats of ``preset``: seat 0 opens 6-6 and then nobody has a 6."""
    room, ana, bruno = two_humans(make_user, clock(), preset=preset, **kw)
    services.match_start(room=room, actor=ana, now=clock())
    set_deal(fresh(room), hands=[["6-6", "1-2"], ["0-3", "4-5"]], boneyard=boneyard, opener=0)
    room_services.action_apply(
        room=fresh(room),
        seat_index=0,
        action={"type": "play", "tile": "6-6"},
        version=None,
        now=clock(),
    )
    return fresh(room), ana, bruno


def blocked_duel(make_user, clock, **kw):
    """sem_monte (no boneyard): nobody can play or draw after the 6-6."""
    return six_six_duel(make_user, clock, "sem_monte", **kw)


def test_nothing_but_pass_is_due_one_second_after_the_turn_started(make_user, clock):
    room, *_ = blocked_duel(make_user, clock)
    rnd = current(room)
    assert rnd.engine().legal_actions(1)[0].to_dict() == {"type": "pass"}
    assert rnd.due_kind == Round.DueKind.PASS
    assert rnd.due_at == rnd.turn_started_at + timedelta(seconds=1)
    # Not a clock: the page shows no deadline for it.
    assert room_state(room=room, viewer=None)["round"]["deadline"] is None


def test_the_server_passes_and_logs_it_as_automatic(make_user, clock):
    room, *_ = blocked_duel(make_user, clock)
    assert not fire_due(room, clock())  # not yet: the second has not passed
    assert fire_due(room, clock.tick(1))
    move = Move.objects.filter(round=current(room)).order_by("-seq").first()
    assert (move.seat, move.action, move.by) == (1, {"type": "pass"}, Move.By.AUTO)
    log = room_state(room=fresh(room), viewer=None)["log"]
    assert log[-1]["type"] == "pass" and log[-1]["by"] == "auto"
    # Seat 0 has nothing either (1-2 on a 6-6 chain): passed too, and the round blocks.
    assert current(room).due_kind == Round.DueKind.PASS
    assert fire_due(room, clock.tick(1))
    assert current(room).finished_at is not None


def test_a_disconnected_player_is_passed_for_after_a_second_too(make_user, clock):
    room, ana, bruno = blocked_duel(make_user, clock)
    services.seat_connected(room=room, index=0, channel_name="c0", now=clock())
    services.seat_connected(room=room, index=1, channel_name="c1", now=clock())
    services.seat_disconnected(room=fresh(room), index=1, channel_name="c1", now=clock())
    rnd = current(room)
    assert rnd.due_kind == Round.DueKind.PASS


def test_the_automatic_pass_beats_a_longer_move_clock(make_user, clock):
    room, *_ = blocked_duel(make_user, clock, move_seconds=30)
    assert current(room).due_kind == Round.DueKind.PASS


def test_a_player_who_can_play_or_draw_is_not_passed_for(make_user, clock):
    room, *_ = six_six_duel(make_user, clock, "duelo", boneyard=["2-2"])
    rnd = current(room)
    assert rnd.engine().legal_actions(1)[0].to_dict() == {"type": "draw"}
    assert rnd.due_kind != Round.DueKind.PASS  # the 30 s rule of an absent player applies


def test_a_paused_room_does_not_pass(make_user, clock):
    room, ana, _ = blocked_duel(make_user, clock)
    services.room_pause(room=room, actor=seat(room, 0), now=clock())
    assert current(room).due_at is None
    assert not fire_due(room, clock.tick(5))
