"""Sockets coming and going: a seat connected, disconnected, taken back.

docs/site.md, "Seats": the last connected person leaving pauses the room;
coming back before the result takes the seat back from the bot that stood in.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db.models import Q

from games.world import now_or
from records import rulebook
from rooms.chat import CHAT_EVERY
from rooms.errors import not_seated
from rooms.models import Room, Seat
from rooms.services.base import bind_socket, seat_at, update_humans_since
from rooms.services.command import RoomRef, Table, room_command
from rooms.services.due import refresh_due
from rooms.services.rounds import at_stake_locked, pause_locked, resume_locked
from rooms.services.seating import give_back_locked


@room_command(lobby=True, open_only=False)
def seat_connected(
    table: Table,
    *,
    room: RoomRef,
    index: int,
    channel_name: str,
    ip_hash: str = "",
    now: datetime | None = None,
) -> str | None:
    """A seated human's socket opened. Returns the channel it replaces (the other
    tab to tell ``replaced``), if any. Coming back before the result takes the
    seat back from the bot that stood in while away; an empty room resumes."""
    room, seats = table.room, table.seats
    if room.is_closed:  # nothing to bind: the page shows the closed room
        table.unchanged()
        return None
    seat = seat_at(seats, index)
    if not seat.is_human or (seat.substitute and seat.substitute_reason != "away"):
        raise not_seated()
    old = bind_socket(seat, channel_name, table.now)
    if ip_hash:  # the address it plays from now (the rated-table rule follows it)
        seat.ip_hash = ip_hash
    if seat.substitute:
        give_back_locked(table, seat)
    seat.save()
    room.no_humans_since = None
    if room.paused and room.paused_by == "empty":
        resume_locked(table)
    else:
        refresh_due(room, table.rnd, seats)
    return old


@room_command(lobby=True, open_only=False)
def seat_disconnected(
    table: Table,
    *,
    room: RoomRef,
    index: int,
    channel_name: str,
    now: datetime | None = None,
) -> None:
    """A seated human's socket closed (ignored when that tab was already replaced).
    The last connected human leaving pauses the room."""
    room, seats, now = table.room, table.seats, table.now
    seat = seats[index] if not room.is_closed and 0 <= index < len(seats) else None
    if seat is None or not seat.connected or seat.channel_name != channel_name:
        table.unchanged()
        return
    seat.connected = False
    seat.channel_name = ""
    seat.disconnected_at = now
    seat.last_seen = now
    seat.save()
    update_humans_since(room, seats, now)
    if (
        room.no_humans_since is not None
        and not room.paused
        and room.status != Room.Status.WAITING
        and rulebook.pauses_when_empty(stake=at_stake_locked(table))
    ):
        pause_locked(table, "empty")
    else:
        refresh_due(room, table.rnd, seats)


def chat_turn_take(*, room_id: int, index: int, now: datetime | None = None) -> bool:
    """The seat may send a quick-chat message now (one every ``CHAT_EVERY``
    seconds per seat, whichever socket or process sends it): claims the turn in
    one conditional update, so two sockets of one seat cannot both pass."""
    now = now_or(now)
    since = now - timedelta(seconds=CHAT_EVERY)
    claimed = Seat.objects.filter(room_id=room_id, index=index, kind=Seat.Kind.HUMAN).filter(
        Q(last_chat_at__isnull=True) | Q(last_chat_at__lte=since)
    )
    return claimed.update(last_chat_at=now) == 1
