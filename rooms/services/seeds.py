"""A seated person's client seed for the next verifiable deal (docs/rules.md,
"Verifiable deals"; protocol ``seed``).

The seed waits on the person's seat until the deal, which uses the seeds of the
humans seated then, in seat order, and empties them as it publishes the next
commitment: a seed counts only when it was sent after the commitment of the deal
it goes into, so the server's seed was fixed before any client's was known.

A table that starts by itself (play alone) deals its first round on the seed
that completes it (`rooms.services.flow.match_start_on_seeds`).
"""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext as _

from games.engine.fairness import valid_client_seed
from rooms.models import Seat
from rooms.services.base import actor_seat, bad
from rooms.services.command import MOVE, SEATS, RoomRef, Table, room_command
from rooms.services.rounds import begin_if_seeded_locked


@room_command()
def seat_seed(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    value: str,
    now: datetime | None = None,
) -> None:
    """``actor`` sets their client seed for the room's next deal.

    Answered like every command, with the next version: the seed itself is in
    no snapshot until its deal (``round.fair``), only the version moves. The
    page sends one right after each deal, long before a person's first click;
    a bot's move decided on the older version is decided again (as after any
    change)."""
    seat = actor_seat(table.seats, actor)
    if not valid_client_seed(value):
        raise bad("bad_seed", _("A seed is 1 to 64 printable ASCII characters, without ':'."))
    if seat.client_seed != value:
        seat.client_seed = value
        seat.save(update_fields=["client_seed"])
    if begin_if_seeded_locked(table):  # the last seed a self-starting table waited for
        table.tell(SEATS)
        return
    table.tell(MOVE)  # nothing of the seats or the lobby's row changed for anyone to see
