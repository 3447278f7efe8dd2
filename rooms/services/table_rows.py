"""The rows every room command reads under its lock, compiled once
(`domino_site.infra.django`): the room (locked first), its current round (locked
next, with its match) and its seats; and, for a command that may store a move,
the move's key, so that the row has it when it is made."""

from __future__ import annotations

from typing import Any

from domino_site.infra.django import NextKeys, PreparedSelect
from games.models import Move, Round
from games.services import LOCK_LATEST_ROUND
from rooms.models import Room, Seat

LOCK_ROOM = PreparedSelect(lambda pk: Room.objects.select_for_update().filter(pk=pk))
SEATS = PreparedSelect(lambda room_id: Seat.objects.filter(room_id=room_id).order_by("index"))
#: A move's key, drawn in the same trip by the commands that may store one.
MOVE_KEYS = NextKeys(Move)


def locked_table_queries(
    pk: int, *, move_keys: int = 0
) -> tuple[tuple[PreparedSelect[Any] | NextKeys, Any], ...]:
    """The three statements of a locked table, in the order they lock, and the
    keys of ``move_keys`` moves drawn ahead with them (none on SQLite)."""
    queries: tuple[tuple[PreparedSelect[Any] | NextKeys, Any], ...] = (
        (LOCK_ROOM, pk),
        (LOCK_LATEST_ROUND, pk),
        (SEATS, pk),
    )
    return (*queries, (MOVE_KEYS, move_keys)) if move_keys else queries


def linked(room: Room, rnd: Round | None, seats: list[Seat]) -> None:
    """Point the round and the seats at this room object (no query for ``.room``)."""
    if rnd is not None:
        rnd.room = room
    for seat in seats:
        seat.room = room
