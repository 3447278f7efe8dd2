"""A table's life as a whole: creating it, its settings, closing it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from games.world import now_or
from records import rulebook
from rooms.errors import not_seated
from rooms.events import room_changed
from rooms.models import Room, Seat, new_room_code
from rooms.services.base import (
    bad,
    check_move_seconds,
    host_seat,
    is_user,
    match_over,
    person_name,
    rules_for,
    seat_person,
    wrong_phase,
)
from rooms.services.command import RoomRef, Table, room_command
from rooms.services.due import clear_due

_UNSET: Any = object()


@transaction.atomic
def room_create(
    *,
    user: Any,
    guest_token: str | None = None,
    name: str,
    preset: str,
    options: dict | None = None,
    visibility: str = Room.Visibility.PUBLIC,
    move_seconds: int | None = None,
    ip_hash: str = "",
    competitive: bool = True,
    seated_by_pairing: bool = False,
    now: datetime | None = None,
) -> Room:
    """A new room; its creator takes seat 0 and is the host. ``ip_hash``: the keyed
    hash of the creator's address (domino_site.client_ip), for the rated-table rule.
    ``competitive``: "Competitiva" (rated where the rule allows) or "Amistosa"
    (never rated). ``seated_by_pairing``: its people are paired, not invited, as at an
    arena's table (`Room.seated_by_pairing`)."""
    now = now_or(now)
    options = dict(options or {})
    rules = rules_for(preset, options)
    move_seconds = check_move_seconds(move_seconds)
    if visibility not in Room.Visibility.values:
        raise bad("bad_visibility", _("A room is public or private."))
    if competitive and visibility == Room.Visibility.PUBLIC:
        rulebook.check_no_cooldown(user, now)  # a public competitive table is a rated one
    if not is_user(user):
        if visibility == Room.Visibility.PUBLIC:
            raise bad("login_required", _("Log in to open a public room."))
        if not guest_token:
            raise not_seated()
    display = person_name(user, None)
    room_name = (name or "").strip()[:80] or _("%(name)s's table") % {"name": display}
    for _attempt in range(5):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=new_room_code(),
                    name=room_name,
                    preset=preset,
                    options=options,
                    rules=rules.to_dict(),
                    move_seconds=move_seconds,
                    visibility=visibility,
                    created_by=user if is_user(user) else None,
                    host_seat=0,
                    created_at=now,
                    created_ip_hash=ip_hash or "",
                    last_activity_at=now,
                    no_humans_since=now,
                    competitive=bool(competitive),
                    seated_by_pairing=bool(seated_by_pairing),
                )
            break
        except IntegrityError:  # a code collision: draw another
            continue
    else:  # pragma: no cover - 32**8 codes
        raise RuntimeError("could not find a free room code")
    seats = [Seat(room=room, index=i) for i in range(rules.seats)]
    seat_person(seats[0], user, guest_token, display, now, ip_hash)
    Seat.objects.bulk_create(seats)
    room_changed(room, lobby=True)  # version 0: the first the lobby hears of it
    return room


@room_command(lobby=True)
def room_settings(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    move_seconds: Any = _UNSET,
    options: Any = _UNSET,
    now: datetime | None = None,
) -> Room:
    """The host changes the move clock (between rounds) or the table's options
    (before a match or after it ended; the seat count may change with them)."""
    room = table.room
    host_seat(room, table.seats, actor)
    if room.status == Room.Status.PLAYING:
        raise wrong_phase()
    if move_seconds is not _UNSET:
        room.move_seconds = check_move_seconds(move_seconds)
    if options is not _UNSET:
        if not match_over(table.rnd):
            raise bad("match_in_progress", _("The rules change only between matches."))
        merged = {**room.options, **(options or {})}
        rules = rules_for(room.preset, merged)
        _resize(room, table.seats, rules.seats)
        room.options = merged
        room.rules = rules.to_dict()
    return room


def _resize(room: Room, seats: Sequence[Seat], count: int) -> None:
    if count < len(seats):
        extra = seats[count:]
        if any(s.is_human or s.is_reserved for s in extra):
            raise bad("seats_occupied", _("Someone sits in a seat that would disappear."))
        Seat.objects.filter(pk__in=[s.pk for s in extra]).delete()
    elif count > len(seats):
        Seat.objects.bulk_create([Seat(room=room, index=i) for i in range(len(seats), count)])


@room_command(lobby=True, open_only=False)
def room_close(
    table: Table,
    *,
    room: RoomRef,
    reason: str,
    now: datetime | None = None,
) -> None:
    """Close the room (admin, expiry): it keeps its history; timers stop."""
    room = table.room
    if room.is_closed:
        table.unchanged()
        return
    room.status = Room.Status.CLOSED
    room.closed_at = table.now
    room.close_reason = reason[:32]
    clear_due(table.rnd)
