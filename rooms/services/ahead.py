"""A table read ahead of its next move: the move then reads nothing first.

A seated socket whose turn it is reads its table while the person thinks
(`table_read_ahead`, unlocked, off the move's path); the copy waits here,
one per room, in this process. The move (`rooms.services.action_apply`, the
version the person saw) takes it instead of reading the rows under the lock,
and the copy is proved exact before anything is written:

* PostgreSQL: the rows' ``xmin`` (the transaction that last wrote each row
  version) are read with the copy. The move's one message is then ``BEGIN``,
  a guard that locks the room and its round (in that order, as every command
  locks them) and fails the transaction unless every row (room, round,
  match, seats) is the row version copied, the move's writes and
  ``COMMIT``: one round trip for the whole move instead of two. A guard that
  fails (anything wrote a row since, even without a new room version) rolls
  back what was sent, and the move runs again the usual way.
* SQLite (one process, no round trips): under ``BEGIN IMMEDIATE`` the rows
  are fetched as always and compared with the copy's raw rows; only building
  the model instances and the engine is saved.

A copy is used once (a move consumes it), so the service may change its
objects as it changes rows it read itself.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.db.models.expressions import RawSQL

from domino_site.ablation import off
from domino_site.prepared import (
    PreparedSelect,
    build_together,
    fetch_together,
    hold_first,
    one_message,
    select_together,
)
from games.models import Match, Round
from rooms.models import Room, Seat
from rooms.services.table_rows import linked, locked_table_queries

#: Copies kept per process: one per room whose socket waits for a move here (the
#: oldest go first; a move without its copy only reads the table itself).
MAX_COPIES = 2000

#: The text of a failed guard's error (an integer cast that fails).
GUARD_FAILED = "stale table copy"


class CopyRefused(Exception):
    """The copy could not decide this command alone: run it the usual way."""


@dataclass
class TableCopy:
    """A room, its current round (with its match) and its seats as read at
    ``version``; ``raw`` (SQLite) or ``xmins`` (PostgreSQL) prove it exact."""

    room: Room
    rnd: Round | None
    seats: list[Seat]
    raw: list[list[Any]] | None = None
    xmins: tuple[str, str | None, str | None, list[str]] | None = None

    @property
    def version(self) -> int:
        return self.room.version


_copies: OrderedDict[int, TableCopy] = OrderedDict()
_copies_lock = threading.Lock()


def _xmin(table: str) -> RawSQL:
    return RawSQL(f'"{table}"."xmin"::text', ())


# Unlocked, with each row's xmin read in the same statement as the row (the
# copy and its proof come from one snapshot per row).
_room_ahead = PreparedSelect(
    lambda pk: Room.objects.filter(pk=pk).annotate(_xmin=_xmin(Room._meta.db_table))
)
_round_ahead = PreparedSelect(
    lambda room_id: (
        Round.objects.select_related("match")
        .filter(room_id=room_id)
        .annotate(_xmin=_xmin(Round._meta.db_table), _match_xmin=_xmin(Match._meta.db_table))
        .order_by("-id")[:1]
    )
)
_seats_ahead = PreparedSelect(
    lambda room_id: (
        Seat.objects.filter(room_id=room_id)
        .annotate(_xmin=_xmin(Seat._meta.db_table))
        .order_by("index")
    )
)


def table_read_ahead(*, room_id: int) -> int | None:
    """Read room ``room_id``'s table for its next move (no lock) and keep the copy
    in this process; returns the version read (None: no such room)."""
    if off("read_ahead") or off("prepared"):
        return None
    if one_message():  # proved by the rows' xmin in the move's one message
        rooms, rounds, seats = select_together(
            (_room_ahead, room_id), (_round_ahead, room_id), (_seats_ahead, room_id)
        )
        if not rooms:
            return None
        rnd = rounds[0] if rounds else None
        xmins = (
            rooms[0]._xmin,
            rnd._xmin if rnd is not None else None,
            rnd._match_xmin if rnd is not None else None,
            [seat._xmin for seat in seats],
        )
        copy = TableCopy(rooms[0], rnd, seats, xmins=xmins)
    else:  # proved by the raw rows fetched again under the lock
        queries = locked_table_queries(room_id)
        raw = fetch_together(*queries)
        rooms, rounds, seats = build_together(queries, raw)
        if not rooms:
            return None
        copy = TableCopy(rooms[0], rounds[0] if rounds else None, seats, raw=raw)
    linked(copy.room, copy.rnd, copy.seats)
    if copy.rnd is not None:
        copy.rnd.engine()  # parsed now, not on the move's path
    _keep(room_id, copy)
    return copy.version


def _keep(room_id: int, copy: TableCopy) -> None:
    with _copies_lock:
        kept = _copies.get(room_id)
        if kept is not None and kept.version > copy.version:
            return  # a newer read finished first
        _copies[room_id] = copy
        _copies.move_to_end(room_id)
        while len(_copies) > MAX_COPIES:
            _copies.popitem(last=False)


def take_copy(room_id: int, version: int) -> TableCopy | None:
    """This process' copy of the room at ``version`` (then gone), or None."""
    with _copies_lock:
        copy = _copies.get(room_id)
        if copy is None or copy.version > version:
            return None
        del _copies[room_id]
    return copy if copy.version == version else None


def forget_copies() -> None:
    """Drop every copy (tests)."""
    with _copies_lock:
        _copies.clear()


# ---------------------------------------------------------------------- proving a copy


def locked_from_copy(copy: TableCopy) -> tuple[Room, Round | None, list[Seat], bool]:
    """The locked table from ``copy``: ``(room, round, seats, proved)``.

    PostgreSQL: the guard is held first among the command's writes, so it runs
    (and locks) before any of them; ``proved`` is False until it has run.
    SQLite: the rows are fetched under the write lock and compared now; a copy
    that differs gives way to the rows just fetched (``proved`` True either way).
    """
    if one_message():
        _hold_guard(copy)
        return copy.room, copy.rnd, copy.seats, False
    queries = locked_table_queries(copy.room.pk)
    raw = fetch_together(*queries)
    if raw == copy.raw:
        return copy.room, copy.rnd, copy.seats, True
    rooms, rounds, seats = build_together(queries, raw)
    if not rooms:
        raise CopyRefused("the room is gone")
    rnd = rounds[0] if rounds else None
    linked(rooms[0], rnd, seats)
    return rooms[0], rnd, seats, True


def _guard(table: str, proof: str) -> str:
    """Lock ``table``'s row ``%s`` and fail the transaction unless ``proof`` holds.
    (The failing branch reads the row, so the planner cannot evaluate it early.)"""
    return (
        f"SELECT CAST(CASE WHEN {proof} THEN '1' "
        f'ELSE \'{GUARD_FAILED} \' || "{table}"."version"::text END AS integer) '
        f'FROM "{table}" WHERE "{table}"."id" = %s FOR UPDATE'
    )


_ROOM, _ROUND = Room._meta.db_table, Round._meta.db_table
_SEAT, _MATCH = Seat._meta.db_table, Match._meta.db_table
_ROOM_GUARD = _guard(
    _ROOM,
    f'"{_ROOM}"."xmin"::text = %s AND (SELECT array_agg(s."xmin"::text ORDER BY s."index") '
    f'FROM "{_SEAT}" s WHERE s."room_id" = "{_ROOM}"."id") = %s::text[]',
)
_ROUND_GUARD = _guard(
    _ROUND,
    f'"{_ROUND}"."xmin"::text = %s AND (SELECT m."xmin"::text FROM "{_MATCH}" m '
    f'WHERE m."id" = "{_ROUND}"."match_id") = %s AND NOT EXISTS (SELECT 1 FROM "{_ROUND}" n '
    f'WHERE n."room_id" = "{_ROUND}"."room_id" AND n."id" > "{_ROUND}"."id")',
)


def _hold_guard(copy: TableCopy) -> None:
    """The guards go first among the held writes: the room's, then the round's
    (the locks every command takes, in that order). The round must also still
    be the room's latest."""
    assert copy.xmins is not None
    room_xmin, round_xmin, match_xmin, seat_xmins = copy.xmins
    if copy.rnd is not None:
        hold_first(_ROUND_GUARD, [round_xmin, match_xmin, copy.rnd.pk])
    hold_first(_ROOM_GUARD, [room_xmin, seat_xmins, copy.room.pk])
