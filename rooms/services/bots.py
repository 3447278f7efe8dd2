"""The host's bots: add one to an empty seat, remove it, change its level."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from rooms.errors import ServiceError
from rooms.models import Seat
from rooms.services.apart import reservation_lapses
from rooms.services.base import (
    bad,
    bot_name,
    check_level,
    host_seat,
    round_in_play,
    seat_at,
    seat_person,
)
from rooms.services.command import RoomRef, Table, room_command
from rooms.services.rounds import deal_if_all_ready_locked


@room_command(lobby=True)
def bot_add(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    index: int,
    level: str = "medium",
    now: datetime | None = None,
) -> Seat:
    """The host puts a bot in an empty seat (at most ``seats - 1`` bots)."""
    seats = table.seats
    host_seat(table.room, seats, actor)
    seat = seat_at(seats, index)
    level = check_level(level)
    if not seat.is_empty:
        raise ServiceError("seat_taken", _("That seat is taken."))
    if sum(1 for s in seats if s.is_bot) >= len(seats) - 1:
        raise bad("too_many_bots", _("A room needs at least one human: no more bots."))
    seat.clear()
    seat.kind = Seat.Kind.BOT
    seat.bot_level = level
    seat.display_name = bot_name(level)
    seat.seated_at = table.now
    seat.save()
    deal_if_all_ready_locked(table)
    return seat


@room_command(lobby=True)
def bot_remove(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    index: int,
    now: datetime | None = None,
) -> None:
    """The host removes a bot: at once, or at the result during a round (a person
    who reserved its seat gets it then)."""
    host_seat(table.room, table.seats, actor)
    seat = seat_at(table.seats, index)
    if not seat.is_bot:
        raise bad("not_a_bot", _("There is no bot in that seat."))
    if round_in_play(table.room):
        seat.leaving = True
    else:
        if reservation_lapses(table.seats, seat):  # a block made since: it lapses
            seat.clear_reservation()
        reservation = (seat.reserved_user, seat.reserved_guest_token, seat.reserved_name)
        ip_hash = seat.reserved_ip_hash
        seat.clear()
        if reservation[0] is not None or reservation[1]:
            seat_person(seat, *reservation, table.now, ip_hash)
            seat.clear_reservation()
    seat.save()


@room_command()
def bot_set_level(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    index: int,
    level: str,
    now: datetime | None = None,
) -> Seat:
    """The host changes a bot's level; its hand and the chain stay as they are."""
    host_seat(table.room, table.seats, actor)
    seat = seat_at(table.seats, index)
    level = check_level(level)
    if not seat.is_bot:
        raise bad("not_a_bot", _("There is no bot in that seat."))
    seat.bot_level = level
    seat.display_name = bot_name(level)
    seat.save(update_fields=["bot_level", "display_name"])
    return seat
