"""The command wrapper every service that changes a room goes through.

A service that changes a room is a *command*::

    @room_command(lobby=True)
    def bot_add(
        table: Table, *, room: RoomRef, actor: Seat, index: int, level: str = "medium",
        now: datetime | None = None,
    ) -> Seat:
        ...

Its public signature is its own without ``table``: ``bot_add(*, room, actor,
index, level="medium", now=None)``, which mypy checks at every call. The
wrapper opens the transaction, takes the room's lock (always the first lock
taken; then the current round's), reads the seats, and hands all of it over
as a `Table` (``room`` and ``now`` come along too; the command reads them from
the table). When the command returns, the room's version goes up by one and
the change is told after commit (`rooms.events.room_changed`); when it
raises, nothing was written and nobody is told. A command that finds nothing
to change says so with `Table.unchanged`. Nobody has to remember to bump and
tell last.

What is told is a value: each helper says what it changed with
`Table.tell` (`MOVE`: the version only; `SEATS`: the seats and the lobby's
row; `ROOM`: any of the room's fields), and the wrapper merges what they said,
the wider of each, in whatever order they said it. When they said nothing,
the command's own ``lobby`` decides.

The wrapper also keeps one rule no command has to remember: a pending "yes"
to a duelo's next game stands only while the people at the table and its
settings stay as they were when it was given (`base.pending_yes_terms`;
docs/site.md, "Rounds and the clock").
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Concatenate, ParamSpec, TypeVar

from domino_site.infra.django import atomic_together, save_fields, select_together
from games.models import Round
from games.world import now_or
from records import selectors as records_read
from rooms.events import room_changed
from rooms.models import Room, Seat
from rooms.services.base import (
    closed,
    gone,
    pending_yes_terms,
    pending_yes_withdrawn_locked,
    seats_of,
)
from rooms.services.due import refresh_due
from rooms.services.table_rows import linked, locked_table_queries

P = ParamSpec("P")
R = TypeVar("R")

#: A room as services take it: the row, or its primary key.
RoomRef = Room | int


# ---------------------------------------------------------------------- the command


@dataclass(frozen=True)
class Told:
    """What a change tells, as a value: helpers say what they changed with
    `Table.tell`, and the command merges what they said (`merged`), in any
    order: no flag set deep down and undone later.

    ``lobby``: the lobby's row may change (seats, status, the rated marker).
    ``seats``: the seats changed (told re-read); False: told as held.
    ``room_fields``: the room's only changed fields; None: any of them.

    >>> MOVE.merged(SEATS) == SEATS == SEATS.merged(MOVE)
    True
    >>> MOVE.merged(Told(lobby=False, seats=False, room_fields=("paused",))).room_fields
    ('last_activity_at', 'paused', 'version')
    """

    lobby: bool = False
    seats: bool = True
    room_fields: tuple[str, ...] | None = None

    def merged(self, other: Told) -> Told:
        """Both changes told at once: the wider of each."""
        fields = (
            None
            if self.room_fields is None or other.room_fields is None
            else tuple(sorted({*self.room_fields, *other.room_fields}))
        )
        return Told(self.lobby or other.lobby, self.seats or other.seats, fields)


#: A move that neither ends its round nor touches a seat: the room's version only.
MOVE = Told(lobby=False, seats=False, room_fields=("last_activity_at", "version"))
#: The seats changed: re-read, the lobby told (its rated marker follows them).
SEATS = Told(lobby=True)
#: Nothing of the seats or the lobby's row, but any of the room's fields.
ROOM = Told(lobby=False)


@dataclass
class Table:
    """One room under its lock, for one command: what it reads and what it changes.

    ``rnd`` is the room's current round (set it when the command deals a new
    one), ``changed`` False when the command changed nothing, ``told`` what
    its helpers said they changed (`tell`); when they said nothing, the
    command's own default (`room_command`'s ``lobby``) is told.
    """

    room: Room
    now: datetime
    rnd: Round | None
    seats: list[Seat]
    changed: bool = True
    told: Told | None = None
    move_keys: list[int] = field(default_factory=list)

    @property
    def dealt(self) -> Round:
        """``rnd`` where the command has just dealt or found one."""
        assert self.rnd is not None, "no round at this table"
        return self.rnd

    def unchanged(self) -> None:
        """Nothing was written: no new version, nobody told."""
        self.changed = False

    def tell(self, change: Told) -> None:
        """Add ``change`` to what this command tells."""
        self.told = change if self.told is None else self.told.merged(change)

    def move_key(self) -> int | None:
        """A key drawn for the next move this command stores (`room_command`'s
        ``moves``); None where none was drawn (SQLite: the row is sent at once)."""
        return self.move_keys.pop(0) if self.move_keys else None


def room_command(
    *, lobby: bool = False, open_only: bool = True, moves: bool = False
) -> Callable[[Callable[Concatenate[Table, P], R]], Callable[P, R]]:
    """Make ``func(table, *, room, now=None, **kwargs)`` the atomic,
    keyword-only service ``func(*, room, now=None, **kwargs)`` (see the
    module's docstring).

    ``open_only``: a closed room refuses with ``room_closed`` before the command
    runs; otherwise the command sees it and decides. ``moves``: the command may
    store a move, whose key is drawn with the lock (`Table.move_key`).
    """

    def decorate(func: Callable[Concatenate[Table, P], R]) -> Callable[P, R]:
        @functools.wraps(func)
        def run(*args: P.args, **kwargs: P.kwargs) -> R:
            if args:
                raise TypeError(f"{func.__name__}() takes keyword arguments only")
            room: RoomRef = kwargs["room"]  # type: ignore[assignment]
            now: datetime | None = kwargs.get("now")  # type: ignore[assignment]
            with atomic_together():
                table = lock_table(room, now, open_only=open_only, move_keys=int(moves))
                # A "yes" is only ever pending between games: a move asks nothing.
                between = table.room.status == Room.Status.BETWEEN_ROUNDS
                terms = pending_yes_terms(table.room, table.rnd, table.seats) if between else None
                result = func(table, *args, **kwargs)
                if table.changed:
                    if terms is not None:
                        withdraw_stale_yes_locked(table, terms)
                    record_change_locked(table, table.told or Told(lobby=lobby))
            return result

        return run

    return decorate


def lock_table(
    room: Room | int,
    now: datetime | None,
    *,
    open_only: bool = True,
    move_keys: int = 0,
) -> Table:
    """The time, the room locked (refused when closed, if ``open_only``), its
    current round locked, and its seats: three statements in one round trip,
    run in that order (the room's lock is always the first taken), with the
    keys of ``move_keys`` moves drawn in the same trip."""
    pk = room.pk if isinstance(room, Room) else room
    rooms, rounds, seats, *keys = select_together(*locked_table_queries(pk, move_keys=move_keys))
    if not rooms:
        raise gone()
    locked = rooms[0]
    rnd = rounds[0] if rounds else None
    linked(locked, rnd, seats)
    if open_only and locked.is_closed:
        raise closed()
    return Table(locked, now_or(now), rnd, seats, move_keys=keys[0] if keys else [])


def withdraw_stale_yes_locked(table: Table, terms: object) -> None:
    """The command changed who sits at a duelo table between games, or its
    settings: the "yes" given before is withdrawn (the ready deadline with it)."""
    room, rnd, seats = table.room, table.rnd, table.seats
    if pending_yes_withdrawn_locked(room, rnd, seats, terms):
        refresh_due(room, rnd, seats)


def record_change_locked(table: Table, told: Told) -> None:
    """The change is recorded: version + 1, activity time, told after commit."""
    room = table.room
    room.version += 1
    room.last_activity_at = table.now
    seats: Sequence[Seat] | None = None if told.seats else table.seats
    if told.lobby:  # every change of the seats tells the lobby: the rated marker follows them
        match = table.rnd.match if table.rnd is not None else None
        seats = seats_of(room) if seats is None else seats
        room.rated = records_read.table_marker(
            seats=list(seats),
            match=match,
            side_of=room.ruleset.side_of,
            now=table.now,
            competitive=room.competitive,
        )
    fields = told.room_fields
    if fields:  # a move's: the statement is compiled once
        save_fields(room, [*fields, "rated"] if told.lobby else list(fields))
    else:
        room.save()
    room_changed(room, lobby=told.lobby, round=table.rnd, seats=seats)
