"""rooms.events: broadcasts and scheduling happen after commit, and only then."""

from __future__ import annotations

import asyncio
import json

import pytest
from django.db import transaction

import timers.scheduling
from domino_site.realtime import fanout
from rooms import events, selectors, services
from rooms.errors import ServiceError
from tests.site.helpers import current, fresh, seat, two_humans

pytestmark = pytest.mark.django_db


class FakeLayer:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        self.sent.append((group, message))

    async def send(self, channel: str, message: dict) -> None:
        self.sent.append((channel, message))


@pytest.fixture
def layer(monkeypatch):
    fake = FakeLayer()
    monkeypatch.setattr(events, "get_channel_layer", lambda: fake)
    return fake


@pytest.fixture
def scheduled(monkeypatch):
    calls = []
    monkeypatch.setattr(
        timers.scheduling, "schedule_due", lambda **kw: calls.append(kw), raising=True
    )
    return calls


def test_a_change_is_told_to_the_room_group_after_commit(
    make_user, clock, layer, scheduled, django_capture_on_commit_callbacks
):
    room, ana, _ = two_humans(make_user, clock(), move_seconds=30)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.match_start(room=room, actor=ana, now=clock())
    assert layer.sent == [] and scheduled == []  # nothing before the commit
    for callback in callbacks:
        callback()
    version = fresh(room).version
    told = {group: message for group, message in layer.sent}
    assert told[f"room.{room.code}"]["type"] == "room.state"
    assert told[f"room.{room.code}"]["version"] == version
    lobby = told["lobby"]  # the changed row alone, not the whole public list
    assert lobby["type"] == "lobby.changed"
    # nobody is connected: the room is not on the public list, and says so
    assert lobby["rows"] == [] and lobby["gone"] == [[room.code, version]]
    rnd = current(room)
    assert scheduled == [
        {"round_id": rnd.pk, "version": rnd.version, "due_at": rnd.due_at, "kind": "clock"}
    ]


def test_a_refused_change_tells_nobody(
    make_user, clock, layer, scheduled, django_capture_on_commit_callbacks
):
    room, _, bruno = two_humans(make_user, clock())
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        with pytest.raises(ServiceError):
            services.match_start(room=room, actor=bruno, now=clock())
    assert callbacks == [] and layer.sent == []


def test_a_rolled_back_transaction_tells_nobody(make_user, clock, layer, scheduled):
    room, *_ = two_humans(make_user, clock())
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            events.room_changed(room)
            raise RuntimeError("boom")
    assert layer.sent == []


def test_room_changed_without_a_round_looks_it_up_after_commit(
    make_user, clock, layer, scheduled, django_capture_on_commit_callbacks
):
    room, ana, _ = two_humans(make_user, clock(), move_seconds=15)
    services.match_start(room=room, actor=ana, now=clock())
    with django_capture_on_commit_callbacks(execute=True):
        events.room_changed(fresh(room))
    rnd = current(room)
    assert scheduled[-1]["round_id"] == rnd.pk and scheduled[-1]["due_at"] == rnd.due_at
    assert layer.sent[-1][1]["type"] == "room.state"


def test_each_connected_seat_gets_only_its_own_hand_on_its_channel_before_the_public_state(
    make_user, clock, layer, scheduled, django_capture_on_commit_callbacks
):
    room, ana, bruno = two_humans(make_user, clock())
    services.seat_connected(room=room, index=0, channel_name="chan-ana", now=clock())
    services.seat_connected(room=room, index=1, channel_name="chan-bruno", now=clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    layer.sent.clear()
    with django_capture_on_commit_callbacks(execute=True):
        events.room_changed(fresh(room))
    eng = current(room).engine()
    hands = [eng.private_view(index)["hand"] for index in range(2)]
    assert [target for target, _ in layer.sent] == ["chan-ana", "chan-bruno", f"room.{room.code}"]
    for index, (_, message) in enumerate(layer.sent[:2]):
        assert message["type"] == "seat.state" and message["seat"] == index
        assert sorted(json.loads(message["frame"])["round"]["hand"]) == sorted(hands[index])
    public = layer.sent[2][1]
    for hand in hands:
        for tile in hand:
            assert tile not in str(json.loads(public["frame"]))
    assert public["owners"][0][0] == ana.user_id and public["owners"][1][0] == bruno.user_id


def test_each_frame_is_the_json_of_its_viewer_s_state_with_the_shared_parts_encoded_once(
    make_user, clock
):
    room, *_ = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    for _move in range(4):  # a log to share
        rnd = current(room)
        turn = rnd.engine().turn
        action = rnd.engine().legal_actions(turn)[0].to_dict()
        services.action_apply(
            room=room, seat_index=turn, action=action, version=fresh(room).version
        )
    room, rnd = fresh(room), current(room)
    seats = list(room.seats.order_by("index"))
    public = selectors.public_state(room=room, seats=seats, rnd=rnd)
    viewers = [
        (0, selectors.private_part(rnd, 0)),
        (1, selectors.private_part(rnd, 1)),
        (None, None),
    ]
    texts = events.frame_texts(public, viewers)
    assert len(public["log"]) == 4
    for (index, private), text in zip(viewers, texts, strict=True):
        assert text == json.dumps(selectors.compose_state(public, private, index))


def test_send_works_from_sync_code_and_inside_a_running_loop():
    fake = FakeLayer()
    fanout.send(fake, "room.X", {"type": "room.changed", "version": 1})  # no loop here

    async def inside_a_loop():
        fanout.send(fake, "room.Y", {"type": "room.changed", "version": 2})
        await asyncio.sleep(0)

    asyncio.run(inside_a_loop())
    assert [group for group, _ in fake.sent] == ["room.X", "room.Y"]


def test_a_failing_layer_never_breaks_the_commit(
    make_user, clock, monkeypatch, scheduled, django_capture_on_commit_callbacks
):
    class Broken:
        async def group_send(self, group, message):
            raise ConnectionError("redis is down")

    monkeypatch.setattr(events, "get_channel_layer", lambda: Broken())
    room, ana, _ = two_humans(make_user, clock())
    with django_capture_on_commit_callbacks(execute=True):
        services.room_settings(room=room, actor=ana, move_seconds=20)
    assert fresh(room).move_seconds == 20


@pytest.mark.parametrize("fails", [1, 5], ids=["once", "always"])
def test_a_database_failure_after_the_commit_still_tells_the_room(
    make_user, clock, layer, scheduled, django_capture_on_commit_callbacks, monkeypatch, fails
):
    """The change is committed; its connection is cut before the broadcast is
    built (the fault drill terminates it): the sockets must hear of it anyway.
    Built again on a new connection, or at worst a bare ``room.changed`` notice
    (each socket re-reads the room)."""
    from django.db import OperationalError

    room, ana, _ = two_humans(make_user, clock(), move_seconds=30)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        services.match_start(room=room, actor=ana, now=clock())
    real, calls = selectors.public_state, []

    def public_state(**kw):
        calls.append(1)
        if len(calls) <= fails:
            raise OperationalError("terminating connection due to administrator command")
        return real(**kw)

    monkeypatch.setattr(selectors, "public_state", public_state)

    def lobby_entries_of(room_ids):
        raise OperationalError("the connection is gone")

    monkeypatch.setattr(selectors, "lobby_entries_of", lobby_entries_of)
    for callback in callbacks:
        callback()
    version = fresh(room).version
    told = {group: message for group, message in layer.sent}
    message = told[f"room.{room.code}"]
    assert message["version"] == version
    assert message["type"] == ("room.state" if fails == 1 else "room.changed")
    assert told["lobby"]["type"] == "lobby.changed"
    assert "rows" not in told["lobby"]  # a bare notice: the lobby sockets read their pages
    assert scheduled  # and the due action is scheduled all the same


def test_the_rows_of_a_change_are_copied_as_they_were_its_match_included(make_user, clock):
    """What a change tells is the state of its version: the service may go on
    changing its own room, round and match objects in the same transaction."""
    room, ana, _ = two_humans(make_user, clock(), move_seconds=30)
    services.match_start(room=room, actor=ana, now=clock())
    rnd = selectors.current_round(fresh(room))
    match = rnd.match
    frozen = events.frozen_copy(rnd)
    state = dict(match.state)
    match.state = {**match.state, "scores": [99, 99]}
    rnd.version += 5
    assert frozen.match is not match and frozen.match.state == state
    assert frozen.version == rnd.version - 5
