"""Turning the line (docs/site.md, "The table page"; the variants site's "ajustar a fila"):
the seat to act bends the drawn chain at a link; never at the first tile, nor at
a double or right after one; everyone sees it and the log says so."""

from __future__ import annotations

import pytest

from games.models import Move
from rooms import services
from rooms import services as room_services
from rooms.errors import ServiceError
from rooms.selectors import room_state
from tests.site.helpers import current, fresh, seat, set_deal, two_humans

pytestmark = pytest.mark.django_db


def play(room, index, tile, end, clock):
    room_services.action_apply(
        room=fresh(room),
        seat_index=index,
        action={"type": "play", "tile": tile, "end": end},
        version=None,
        now=clock(),
    )


@pytest.fixture
def table(make_user, clock):
    """sem_monte at two seats: 1-2 opens, then 2-3 (B), 1-1 (A), 1-4 (A), 3-5 (B)."""
    room, ana, bruno = two_humans(make_user, clock(), preset="sem_monte")
    services.match_start(room=room, actor=ana, now=clock())
    set_deal(
        fresh(room), hands=[["1-2", "1-1", "3-5", "6-6"], ["2-3", "1-4", "0-0", "5-6"]], opener=0
    )
    play(room, 0, "1-2", None, clock)
    play(room, 1, "2-3", "B", clock)
    play(room, 0, "1-1", "A", clock)
    play(room, 1, "1-4", "A", clock)
    return fresh(room)


def adjust(room, index, at, bend):
    services.layout_adjust(room=fresh(room), actor=seat(room, index), at=at, bend=bend)


def refusal(room, index, at, bend="left"):
    with pytest.raises(ServiceError) as info:
        adjust(room, index, at, bend)
    return info.value.code, info.value.reason


def test_the_seat_to_act_bends_the_line_and_everyone_sees_it(table):
    assert current(table).engine().turn == 0
    version = fresh(table).version
    adjust(table, 0, 1, "right")  # 2-3 on end B, after the 1-2 opening
    assert current(table).layout == {"1": "right"}
    assert fresh(table).version == version + 1  # a change: broadcast to everyone
    for viewer in (None, seat(table, 1)):
        assert room_state(room=fresh(table), viewer=viewer)["round"]["layout"] == {"1": "right"}
    assert Move.objects.filter(round=current(table)).count() == 4  # not a move
    assert current(table).engine().turn == 0  # the same player plays next


def test_the_log_says_who_adjusted_the_line_after_the_move_it_followed(table, clock):
    adjust(table, 0, 1, "left")
    play(table, 0, "3-5", "B", clock)
    log = room_state(room=fresh(table), viewer=None)["log"]
    assert [e["type"] for e in log] == ["play", "play", "play", "play", "adjust", "play"]
    assert log[4] == {
        "after": 4,
        "seat": 0,
        "type": "adjust",
        "at": 1,
        "bend": "left",
        "by": "person",
    }


def test_never_at_the_first_tile(table):
    assert refusal(table, 0, 0) == ("bad_message", "bad_layout")
    adjust(table, 0, 0, "straight")  # straightening is always fine
    assert current(table).layout == {}


def test_never_at_a_double_nor_right_after_one(table):
    assert refusal(table, 0, 2) == ("bad_message", "bad_layout")  # 1-1 itself
    assert refusal(table, 0, 3) == ("bad_message", "bad_layout")  # 1-4 follows 1-1


def test_only_the_seat_to_act(table):
    assert refusal(table, 1, 1) == ("not_your_turn", None)


def test_no_such_link(table):
    assert refusal(table, 0, 9) == ("bad_message", "bad_layout")
