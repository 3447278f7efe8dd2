"""rooms.events: broadcasts and scheduling happen after commit, and only then."""

from __future__ import annotations

import asyncio

import pytest
from django.db import transaction

from rooms import events, services
from rooms.errors import ServiceError
from tests.site.helpers import current, fresh, two_humans

pytestmark = pytest.mark.django_db


class FakeLayer:
    def __init__(self) -> None:
        self.sent: list[tuple[str, dict]] = []

    async def group_send(self, group: str, message: dict) -> None:
        self.sent.append((group, message))


@pytest.fixture
def layer(monkeypatch):
    fake = FakeLayer()
    monkeypatch.setattr(events, "get_channel_layer", lambda: fake)
    return fake


@pytest.fixture
def scheduled(monkeypatch):
    calls = []
    import games.scheduling

    monkeypatch.setattr(
        games.scheduling, "schedule_due", lambda **kw: calls.append(kw), raising=True
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
    assert (f"room.{room.code}", {"type": "room.changed", "version": version}) in layer.sent
    assert ("lobby", {"type": "lobby.changed"}) in layer.sent
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
    assert layer.sent[-1][1]["type"] == "room.changed"


def test_send_works_from_sync_code_and_inside_a_running_loop():
    fake = FakeLayer()
    events.send(fake, "room.X", {"type": "room.changed", "version": 1})  # no loop here

    async def inside_a_loop():
        events.send(fake, "room.Y", {"type": "room.changed", "version": 2})
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
