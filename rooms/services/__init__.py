"""Every write to rooms and seats, and the play flow around the games' rows.

By use case: `tables` (create, settings, close), `seating` (sit, reserve,
leave, stand-ins), `bots` (the host's bots), `flow` (start, next round, ready,
pause, annul, the drawn line), `play` (moves: a person's and the server's),
`presence` (sockets), `seeds` (client seeds of verifiable deals), `sweep` (the
safety net); the quick-match queue's are `quick.services`. `command` holds the command
wrapper they all stand on, `base` the locks, checks and helpers under it,
`rounds` the steps of dealing and ending, `due` the due times.

Every entry point is keyword-only and atomic: it locks the room row first (then
the round row), raises `ServiceError` before writing anything when it refuses,
and on success bumps ``room.version`` and tells the change after commit
(`rooms.services.command.room_command`). ``actor`` is the `Seat` of the person
acting; ``now`` is injectable.
"""

from rooms.services.autoplay import duel_bot_stand_in, seat_auto
from rooms.services.bots import bot_add, bot_remove, bot_set_level
from rooms.services.due import compute_due
from rooms.services.flow import (
    annul_vote,
    layout_adjust,
    match_new,
    match_start,
    match_start_on_seeds,
    player_ready,
    room_pause,
    room_resume,
    round_next,
)
from rooms.services.play import action_apply, round_due_fire
from rooms.services.presence import chat_turn_take, seat_connected, seat_disconnected
from rooms.services.seating import seat_leave, seat_stand_up, seat_take, seat_take_by_invite
from rooms.services.seeds import seat_seed
from rooms.services.sweep import rooms_sweep
from rooms.services.tables import room_close, room_create, room_settings

__all__ = [
    "action_apply",
    "annul_vote",
    "bot_add",
    "bot_remove",
    "bot_set_level",
    "compute_due",
    "duel_bot_stand_in",
    "layout_adjust",
    "match_new",
    "match_start",
    "match_start_on_seeds",
    "player_ready",
    "room_close",
    "room_create",
    "room_pause",
    "room_resume",
    "room_settings",
    "round_due_fire",
    "round_next",
    "rooms_sweep",
    "seat_auto",
    "seat_connected",
    "seat_disconnected",
    "seat_leave",
    "seat_seed",
    "seat_stand_up",
    "chat_turn_take",
    "seat_take",
    "seat_take_by_invite",
]
