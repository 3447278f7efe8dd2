"""Shared helpers for tests/site (imported as ``tests.site.helpers``)."""

from __future__ import annotations

from datetime import datetime

from games import engine
from games import services as games
from games.models import Round
from rooms import services
from rooms import services as room_services
from rooms.models import Room, Seat
from rooms.services.base import seats_of


def fresh(room: Room) -> Room:
    return Room.objects.get(pk=room.pk)


def seat(room: Room, index: int) -> Seat:
    return Seat.objects.get(room=room, index=index)


def current(room: Room) -> Round:
    return Round.objects.filter(room=room).select_related("match").order_by("-id").first()


def room_with_bots(
    user, now: datetime, preset: str = "parceria", level: str = "easy", **kw
) -> Room:
    """A room of ``preset`` whose creator (seat 0) is ``user`` and every other seat a bot."""
    room = services.room_create(
        user=user, name="Mesa", preset=preset, options=kw.pop("options", {}), now=now, **kw
    )
    host = seat(room, 0)
    for index in range(1, room.seat_count):
        services.bot_add(room=room, actor=host, index=index, level=level, now=now)
    return fresh(room)


def human_move(room: Room, index: int, now: datetime, version: int | None = None):
    """Seat ``index`` plays its first legal action (with the current version)."""
    rnd = current(room)
    action = rnd.engine().legal_actions(index)[0].to_dict()
    room = fresh(room)
    return room_services.action_apply(
        room=room,
        seat_index=index,
        action=action,
        version=room.version if version is None else version,
        now=now,
    )


def fire_due(room: Room, now: datetime) -> bool:
    rnd = current(room)
    if rnd is None or rnd.due_at is None:
        return False
    return room_services.round_due_fire(round_id=rnd.pk, version=rnd.version, now=now)


def play_round(room: Room, now: datetime, limit: int = 200) -> Round:
    """Play the current round to its end: humans play their first legal action,
    bots move through `round_due_fire` (BOT_DELAY_SECONDS is 0 in tests)."""
    for _ in range(limit):
        rnd = current(room)
        if rnd.finished_at is not None:
            return rnd
        eng = rnd.engine()
        seats = list(Seat.objects.filter(room=room).order_by("index"))
        acting = games.acting_seats(eng)
        human = next((i for i in acting if seats[i].active_human), None)
        if human is not None and rnd.due_kind != Round.DueKind.BOT:
            human_move(room, human, now)
        else:
            assert fire_due(room, now), f"nothing due in {rnd} ({rnd.due_kind}, {rnd.due_at})"
    raise AssertionError("the round did not end")


def set_deal(room: Room, hands, boneyard=(), opener: int | None = 0, **kw) -> Round:
    """Replace the current round's deal (before any move) with known hands."""
    rnd = current(room)
    assert not rnd.moves.exists()
    eng = engine.Round.from_hands(room.ruleset, hands=hands, boneyard=boneyard, opener=opener, **kw)
    rnd.deal = eng.initial
    rnd.store(eng)
    seats = seats_of(fresh(room))
    rnd.due_at, rnd.due_kind = room_services.compute_due(fresh(room), rnd, seats)
    rnd.save()
    return rnd


def two_humans(make_user, now: datetime, preset: str = "duelo", **kw) -> tuple[Room, Seat, Seat]:
    """A two-seat public room with two account holders at seats 0 and 1."""
    ana, bruno = make_user("ana"), make_user("bruno")
    room = services.room_create(user=ana, name="Duelo", preset=preset, now=now, **kw)
    services.seat_take(room=room, index=1, user=bruno, now=now)
    return fresh(room), seat(room, 0), seat(room, 1)
