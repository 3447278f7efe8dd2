"""rooms.selectors: the per-viewer ``room`` message and the public list."""

from __future__ import annotations

import json

import pytest

from rooms import selectors, services
from tests.site.helpers import (
    current,
    fire_due,
    fresh,
    human_move,
    play_round,
    room_with_bots,
    seat,
    set_deal,
    two_humans,
)

pytestmark = pytest.mark.django_db

TOP_KEYS = {"type", "version", "room", "you", "seats", "match", "round", "log"}
ROUND_KEYS = {
    "number", "opener", "turn", "deadline", "chain", "ends", "boneyard_count",
    "passes_in_row", "hand", "legal", "mandatory_tile", "pick_off", "result",
}  # fmt: skip
SEAT_KEYS = {
    "index", "side", "kind", "name", "connected", "bot_level", "tile_count",
    "reserved_for", "leaving", "ready",
}  # fmt: skip


def started(make_user, clock, **kw):
    room, ana, bruno = two_humans(make_user, clock(), **kw)
    services.match_start(room=room, actor=ana, now=clock())
    set_deal(
        room,
        hands=[["6-6", "1-2", "0-4"], ["6-5", "3-3", "2-4"]],
        boneyard=["0-0", "1-1", "5-5"],
        opener=0,
        mandatory_tile="6-6",
    )
    return fresh(room), ana, bruno


def test_room_for_code_ignores_case(make_user, clock):
    room, *_ = two_humans(make_user, clock())
    assert selectors.room_for_code(room.code.lower()) == room
    assert selectors.room_for_code("NOPE2345") is None


def test_waiting_room_state(make_user, clock):
    room, ana, _ = two_humans(make_user, clock())
    state = selectors.room_state(room=room, viewer=ana)
    assert set(state) == TOP_KEYS and state["type"] == "room"
    assert state["version"] == room.version
    assert state["match"] is None and state["round"] is None and state["log"] == []
    assert state["you"] == {"seat": 0, "is_host": True, "side": 0}
    assert SEAT_KEYS <= set(state["seats"][0])
    assert [s["name"] for s in state["seats"]] == ["ana", "bruno"]
    # A public room has no invite link: its seats are for accounts (docs/site.md).
    assert state["room"]["invite_url"] is None and state["room"]["rated"] is False
    json.dumps(state)


def test_a_seated_viewer_sees_only_their_own_tiles(make_user, clock):
    room, ana, bruno = started(make_user, clock, move_seconds=30)
    state = selectors.room_state(room=room, viewer=ana)
    rnd = state["round"]
    assert ROUND_KEYS <= set(rnd)
    assert rnd["hand"] == ["6-6", "1-2", "0-4"]
    assert rnd["legal"] == [{"type": "play", "tile": "6-6", "end": None}]
    assert [s["tile_count"] for s in state["seats"]] == [3, 3]
    assert rnd["boneyard_count"] == 3 and rnd["deadline"].endswith("Z")
    text = json.dumps(state)
    for hidden in ("5-6", "3-3", "2-4", "0-0", "1-1", "5-5"):  # bruno's and the boneyard
        assert f'"{hidden}"' not in text
    other = selectors.room_state(room=room, viewer=bruno)
    assert other["round"]["hand"] == ["5-6", "3-3", "2-4"]
    assert other["round"]["legal"] == [] and other["you"]["is_host"] is False


def test_a_spectator_sees_no_hand_and_no_legal_moves(make_user, clock):
    room, *_ = started(make_user, clock)
    state = selectors.room_state(room=room, viewer=None)
    assert state["you"] == {"seat": None, "is_host": False, "side": None}
    assert state["round"]["hand"] == [] and state["round"]["legal"] == []
    assert state["round"]["mandatory_tile"] is None
    assert state["room"]["invite_url"] is None
    text = json.dumps(state)
    for tile in ("6-6", "1-2", "0-4", "5-6", "3-3", "2-4", "0-0", "1-1", "5-5"):
        assert f'"{tile}"' not in text


def test_the_log_says_who_made_each_move(make_user, clock):
    room, ana, bruno = started(make_user, clock, move_seconds=10)
    human_move(room, 0, clock())  # 6-6
    services_fire(room, clock.tick(10))  # bruno times out: plays 6-5
    state = selectors.room_state(room=room, viewer=ana)
    log = state["log"]
    assert [entry["seq"] for entry in log] == [1, 2]
    assert log[0] == {
        "seq": 1, "seat": 0, "type": "play", "tile": "6-6", "end": None, "ends": None, "by": "person"
    }  # fmt: skip
    assert log[1]["by"] == "timeout" and log[1]["ends"] == {"A": 6, "B": 6}
    assert log[1]["tile"] == "5-6"


def services_fire(room, now):
    assert fire_due(room, now)


def test_the_result_reveals_every_remaining_hand(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="duelo")
    services.match_start(room=room, actor=ana, now=clock())
    set_deal(room, hands=[["6-6", "1-2"], ["0-0", "3-4"]], opener=0)
    human_move(room, 0, clock())  # 6-6; nobody else fits: bruno passes, ana passes
    human_move(room, 1, clock())
    human_move(room, 0, clock())
    assert current(room).result is not None
    state = selectors.room_state(room=fresh(room), viewer=bruno)
    result = state["round"]["result"]
    assert result["hands"] == [["1-2"], ["0-0", "3-4"]]
    assert state["match"]["over"] and state["room"]["status"] == "between_rounds"
    assert state["match"]["scores"] == [4, 0]  # difference: 7 - 3


def test_public_rooms_lists_open_public_rooms_with_a_connected_human(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="parceria")
    services.bot_add(room=room, actor=ana, index=2, level="easy")
    private = services.room_create(
        user=make_user(), name="p", preset="duelo", visibility="private", now=clock()
    )
    for r in (room, private):
        services.seat_connected(room=r, index=0, channel_name=f"c{r.pk}", now=clock())
    rows = selectors.public_rooms()
    assert rows == [
        {
            "code": room.code,
            "name": "Duelo",
            "preset": "parceria",
            "seats": 4,
            "seats_taken": 3,
            "humans": 2,
            "bots": 1,
            "status": "waiting",
            "paused": False,
            "move_seconds": None,
            "rated": False,
            "competitive": True,
            "url": f"/r/{room.code}/",
        }
    ]


def test_viewer_seat_finds_accounts_and_guests(make_user, clock):
    room = services.room_create(
        user=make_user("ana"), name="x", preset="duelo", visibility="private", now=clock()
    )
    guest = services.seat_take_by_invite(token=room.invite_token, guest_token="tok")
    assert selectors.viewer_seat(room=room, guest_token="tok") == guest
    assert selectors.viewer_seat(room=room, guest_token="other") is None
    assert selectors.viewer_seat(room=room, user=None, guest_token=None) is None
    assert selectors.viewer_seat(room=room, user=seat(room, 0).user) == seat(room, 0)


def test_a_seat_left_during_the_round_is_no_longer_the_viewers(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock())
    services.match_start(room=room, actor=ana, now=clock())
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    assert selectors.viewer_seat(room=room, user=bruno.user) is None
    state = selectors.room_state(room=room, viewer=None)
    assert state["seats"][1]["substitute"] and state["seats"][1]["leaving"]


def test_a_reservation_shows_on_the_seat(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    carla = make_user("carla")
    services.seat_take(room=room, index=1, user=carla, now=clock())
    assert seat(room, 1).reserved_user == carla
    state = selectors.room_state(room=room, viewer=None)
    assert state["seats"][1]["reserved_for"] == "carla"
    play_round(room, clock())
    assert selectors.viewer_seat(room=room, user=carla).index == 1
