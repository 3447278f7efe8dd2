"""The server playing a seat because its people asked: automatic mode, and the
bot a private duel's present player calls in for the absent one.

docs/table-rules.md, "Automatic mode" (the portal rules' "Jogo em modo automático"): a
seated human may switch automatic play on; the server then plays their turns at
once with the timeout move's choice, until they switch it off or act themselves.

docs/table-rules.md, "A private duel waits for both": with two people seated in a private
room, an absent person's turn waits (no clock, no automatic move, no stand-in);
after 2 minutes the one present may choose to play on against a bot, which
stands in until the absent person comes back (as after 2 minutes away at a
public table).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils.translation import gettext as _

from rooms.models import Seat
from rooms.services.base import bad, player_seat, round_in_play
from rooms.services.command import RoomRef, Table, room_command
from rooms.services.due import refresh_due, waiting_for

DUEL_BOT_AFTER = timedelta(minutes=2)  # waiting this long, the present one may call a bot


@room_command(lobby=True)
def seat_auto(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    on: bool,
    now: datetime | None = None,
) -> None:
    """``actor`` switches automatic play on or off for their own seat."""
    seat = player_seat(table.seats, actor)
    if type(on) is not bool:
        raise bad("bad_auto", _("Automatic play is on or off."))
    if seat.auto == on:
        table.unchanged()
        return
    seat.auto = on
    seat.save(update_fields=["auto"])
    refresh_due(table.room, table.rnd, table.seats)


def away_long_enough(seat: Seat, now: datetime) -> bool:
    """Away for 2 minutes: since the socket closed, or since sitting down for a
    person who never opened the table."""
    since = seat.disconnected_at or seat.seated_at
    return since is not None and since <= now - DUEL_BOT_AFTER


@room_command(lobby=True)
def duel_bot_stand_in(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    now: datetime | None = None,
) -> None:
    """The present player of a waiting private duel lets a bot play the absent
    seat until its person returns ("jogar contra o computador")."""
    from rooms.services.seating import leave_locked  # seating imports the flow around it

    room, seats = table.room, table.seats
    seat = player_seat(seats, actor)
    other = seats[1 - seat.index] if len(seats) == 2 else None
    if other is None or not waiting_for(room, other, seats) or not round_in_play(room):
        raise bad("not_waiting", _("Nobody is being waited for."))
    if not away_long_enough(other, table.now):
        raise bad("too_soon", _("Wait two minutes before playing against the computer."))
    leave_locked(table, other, "away")
