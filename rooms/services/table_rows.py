"""The rows every room command reads under its lock, compiled once
(`domino_site.infra.django`): the room (locked first), its current round (locked
next, with its match) and its seats."""

from __future__ import annotations

from typing import Any

from domino_site.infra.django import PreparedSelect
from games.models import Round
from games.services import LOCK_LATEST_ROUND
from rooms.models import Room, Seat

LOCK_ROOM = PreparedSelect(lambda pk: Room.objects.select_for_update().filter(pk=pk))
SEATS = PreparedSelect(lambda room_id: Seat.objects.filter(room_id=room_id).order_by("index"))


def locked_table_queries(pk: int) -> tuple[tuple[PreparedSelect[Any], Any], ...]:
    """The three statements of a locked table, in the order they lock."""
    return (LOCK_ROOM, pk), (LOCK_LATEST_ROUND, pk), (SEATS, pk)


def linked(room: Room, rnd: Round | None, seats: list[Seat]) -> None:
    """Point the round and the seats at this room object (no query for ``.room``)."""
    if rnd is not None:
        rnd.room = room
    for seat in seats:
        seat.room = room
