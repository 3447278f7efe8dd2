"""Moves at a table: a person's, and the ones the server makes when they are due.

`action_apply` is a person's move (or a test's); `round_due_fire` is what the
timers (Celery or the in-process ticker) and the sweeper call: the bot's move,
the clock's timeout move, a disconnected player's automatic move, the automatic
pass of a player with nothing but pass, an arena walkover. Both end in
`play_locked`, which hands the action to `games.services.apply_action` (the one
way a move reaches the database) and then settles the table around it.
"""

from __future__ import annotations

import logging
import random
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from bots.policies import choose_action
from domino_site import metrics
from domino_site.infra.django import save_fields
from games import engine
from games import services as games
from games.models import Move, Round
from games.world import now_or, world
from rooms.errors import ServiceError, not_seated
from rooms.models import Room, Seat
from rooms.services.base import seats_of, update_humans_since
from rooms.services.command import MOVE, SEATS, RoomRef, Table, room_command
from rooms.services.due import compute_due, due_now, not_ready
from rooms.services.rounds import (
    SUBSTITUTE_LEVEL,
    TIMEOUTS,
    at_stake_locked,
    forfeit_locked,
    resume_locked,
    round_ended_locked,
    walkover_locked,
)
from rooms.services.seating import leave_locked

log = logging.getLogger(__name__)

TIMEOUT_LEVEL = "medium"  # the bot that plays an expired turn


# ---------------------------------------------------------------------- a person's move


@room_command(moves=True)
def action_apply(
    table: Table,
    *,
    room: RoomRef,
    seat_index: int,
    action: dict,
    version: int | None,
    by: str = "person",
    player: tuple[Any, str | None] | None = None,
    now: datetime | None = None,
) -> Move:
    """Apply ``seat_index``'s ``action`` (an action dict) to the room's round.

    ``version`` is the room version the client decided on; any other current
    version is ``stale``. ``by="person"`` needs a human playing the seat;
    ``player`` (a user, a guest token), when given, must be that human: a socket
    names the seat it last saw as its own, and the seat's row decides here,
    under the lock.
    """
    room, rnd, seats = table.room, table.rnd, table.seats
    if version is not None and version != room.version:
        raise ServiceError("stale", _("The table changed: look again and repeat your move."))
    if room.paused:
        raise ServiceError("paused", _("The game is paused."))
    if rnd is None or room.status != Room.Status.PLAYING or rnd.finished_at is not None:
        raise ServiceError("round_over")
    if type(seat_index) is not int or not 0 <= seat_index < len(seats):
        raise not_seated()
    if by == Move.By.PERSON and not seats[seat_index].active_human:
        raise not_seated()
    if player is not None and not seats[seat_index].belongs_to(*player):
        raise not_seated()
    try:
        # C and D: a spinner's sides; the engine refuses them ("malformed") elsewhere.
        parsed = engine.action_from_dict(action, spinner=True)
    except engine.IllegalAction as exc:
        raise ServiceError(exc.code) from None
    move = play_locked(table, seat_index, parsed, by)
    if by == Move.By.PERSON and seats[seat_index].auto:
        _auto_off_locked(table, seats[seat_index])
    if by == Move.By.PERSON and seats[seat_index].idle_since is not None:
        seats[seat_index].idle_since = None  # they act again: no longer idle
        seats[seat_index].save(update_fields=["idle_since"])
    return move


def _auto_off_locked(table: Table, seat: Seat) -> None:
    """Automatic mode turns itself off when its person acts (docs/table-rules.md)."""
    seat.auto = False
    seat.save(update_fields=["auto"])
    table.tell(SEATS)  # the seat changed: told with the seats re-read
    rnd = table.rnd
    if rnd is not None:
        rnd.due_at, rnd.due_kind = compute_due(table.room, rnd, table.seats)
        rnd.save(update_fields=["due_at", "due_kind"])


def play_locked(table: Table, seat_index: int, action: engine.Action, by: str) -> Move:
    """Apply an action at the locked table (people, bots and timeouts alike): the
    engine decides, the rows remember, then the seats and the next due time follow."""
    room, rnd, seats = table.room, table.rnd, table.seats
    assert rnd is not None
    turn_began = rnd.turn_started_at
    idle = by == Move.By.TIMEOUT and seats[seat_index].connected and at_stake_locked(table)
    move = games.apply_action(
        rnd=rnd, seat_index=seat_index, action=action, by=by, now=table.now, key=table.move_key()
    )
    transaction.on_commit(partial(metrics.move_applied, by, room.preset))  # domino_moves_applied
    if idle:
        _mark_idle(seats[seat_index], turn_began)
    if rnd.finished_at is not None:
        round_ended_locked(table)
        table.tell(SEATS)
    else:  # nothing but the version changed on the room, nothing on the seats
        table.tell(MOVE)
    rnd.due_at, rnd.due_kind = compute_due(room, rnd, seats)
    save_fields(rnd, [*Round.MOVE_FIELDS, "due_at", "due_kind"])  # compiled once
    if by == Move.By.TIMEOUT and _timed_out_in_a_row(table, seat_index):
        _forfeit_for_timeouts(table, seat_index)
    return move


TIMEOUTS_IN_A_ROW = 3  # the clock ran out on this many of a person's turns: an abandonment


def _mark_idle(seat: Seat, turn_began: datetime) -> None:
    """A connected person whose turn the clock played, at a match at stake, is
    idle since that turn began: away, as if disconnected (`records.rulebook`)."""
    if seat.idle_since is None:
        seat.idle_since = turn_began
        seat.save(update_fields=["idle_since"])


def _timed_out_in_a_row(table: Table, index: int) -> bool:
    """The seat's last turns of this rated match were all played by the clock
    (automatic passes, which need no decision, are left out)."""
    rnd = table.rnd
    assert rnd is not None
    if not at_stake_locked(table):
        return False
    last = list(
        Move.objects.filter(round__match_id=rnd.match_id, seat=index)
        .exclude(by=Move.By.AUTO)
        .order_by("-round_id", "-seq")
        .values_list("by", flat=True)[:TIMEOUTS_IN_A_ROW]
    )
    return len(last) == TIMEOUTS_IN_A_ROW and all(by == Move.By.TIMEOUT for by in last)


def _forfeit_for_timeouts(table: Table, index: int) -> None:
    """Three timeouts in a row at a rated match: a forfeit, as leaving is
    (docs/rated-play.md, "Abandonment cool-down"); the seats are told again."""
    forfeit_locked(table, {index}, TIMEOUTS)
    table.tell(SEATS)


# ---------------------------------------------------------------------- the server's moves


def round_due_fire(*, round_id: int, version: int, now: datetime | None = None) -> bool:
    """Do the round's due action if it is still at ``version`` and due at ``now``.

    Idempotent: duplicates, retries and late deliveries return False and change
    nothing. One action per call; the next one is scheduled after commit.

    No search runs under a lock: the bot (or the timeout's medium bot) decides
    from an unlocked read of the round at its version, then the action is
    applied under the locks only if the round is still at that version and the
    same seat is still due; otherwise it decides again on the fresh state (a
    person's move that won the race stands, and nobody moves twice).
    """
    now = now_or(now)
    for _attempt in range(3):
        due = _read_due(round_id, now)
        if due is None or due.version != version:
            return False
        if due.kind == Round.DueKind.WALKOVER:
            return _fired(due, now, _fire_walkover(due, now))
        if due.kind == Round.DueKind.READY:
            return _fired(due, now, _stand_up_not_ready(room=due.rnd.room_id, now=now, due=due))
        if due.kind == Round.DueKind.RESUME:
            return _fired(due, now, _pause_lapses(room=due.rnd.room_id, now=now, due=due))
        action, by = _server_action(due.rnd, due.seat, due.kind)
        outcome = _apply_due(due, action, by, now)
        if outcome != "stale":
            return _fired(due, now, outcome == "applied")
        moved_on = _round_version(round_id)  # the round moved on: look again
        if moved_on is None:
            return False
        version = moved_on
    return False


def _fired(due: _Due, now: datetime, done: bool) -> bool:
    """``done``; a due action that fired counts in ``domino_clock_lateness_seconds``
    (how long after its due time it fired)."""
    if done and due.rnd.due_at is not None:
        metrics.clock_fired(due.kind, (now - due.rnd.due_at).total_seconds())
    return done


@dataclass
class _Due:
    """A round's due action as read without locks: who acts, how, at which version."""

    rnd: Round
    version: int
    kind: str
    seat: Seat | None


def _round_version(round_id: int) -> int | None:
    return Round.objects.filter(pk=round_id).values_list("version", flat=True).first()


def _read_due(round_id: int, now: datetime) -> _Due | None:
    """The due action of the room's current round ``round_id``, read without locks."""
    rnd = Round.objects.select_related("match", "room").filter(pk=round_id).first()
    if rnd is None:
        return None
    room = rnd.room
    latest = Round.objects.filter(room_id=room.pk).order_by("-id").values_list("id", flat=True)
    if latest.first() != rnd.pk:
        return None
    seats = seats_of(room)
    due = due_now(room, rnd, seats, now)
    if due is None:
        return None
    kind, index = due
    return _Due(rnd=rnd, version=rnd.version, kind=kind, seat=seats[index] if index >= 0 else None)


def _still_due(table: Table, due: _Due) -> bool:
    """Whether the locked table still waits for the same action at the same version."""
    rnd = table.rnd
    if rnd is None or rnd.pk != due.rnd.pk or rnd.version != due.version:
        return False
    index = due.seat.index if due.seat is not None else -1
    return due_now(table.room, rnd, table.seats, table.now) == (due.kind, index)


def _apply_due(due: _Due, action: engine.Action, by: str, now: datetime) -> str:
    """``"applied"``, or ``"stale"`` when the round changed since ``due`` was read."""
    return _play_due(room=due.rnd.room_id, now=now, due=due, action=action, by=by)


@room_command(open_only=False, moves=True)
def _play_due(
    table: Table,
    *,
    room: RoomRef,
    due: _Due,
    action: engine.Action,
    by: str,
    now: datetime | None = None,
) -> str:
    if not _still_due(table, due) or due.seat is None:
        table.unchanged()
        return "stale"
    play_locked(table, due.seat.index, action, by)
    return "applied"


def _fire_walkover(due: _Due, now: datetime) -> bool:
    return _walk_over(room=due.rnd.room_id, now=now, due=due)


@room_command(lobby=True, open_only=False)
def _walk_over(
    table: Table,
    *,
    room: RoomRef,
    due: _Due,
    now: datetime | None = None,
) -> bool:
    if not _still_due(table, due):
        table.unchanged()
        return False
    losers = {s.index for s in table.seats if s.active_human and not s.ready}
    walkover_locked(table, losers)
    return True


@room_command(lobby=True, open_only=False)
def _stand_up_not_ready(
    table: Table,
    *,
    room: RoomRef,
    due: _Due,
    now: datetime | None = None,
) -> bool:
    """The ready deadline at a public table: whoever is not ready is stood up
    (their seat freed; leaving a rated match is a forfeit)."""
    if not _still_due(table, due):
        table.unchanged()
        return False
    for seat in not_ready(table.seats):
        leave_locked(table, seat, "left", absent=True)
    update_humans_since(table.room, table.seats, table.now)
    return True


@room_command(open_only=False)
def _pause_lapses(
    table: Table,
    *,
    room: RoomRef,
    due: _Due,
    now: datetime | None = None,
) -> bool:
    """A person's pause at a match at stake reached its budget's end: the game
    goes on by itself (docs/rated-play.md, "The rulebook")."""
    if not _still_due(table, due):
        table.unchanged()
        return False
    resume_locked(table)
    return True


def _server_action(rnd: Round, seat: Seat | None, kind: str) -> tuple[engine.Action, str]:
    """What the server plays for ``seat``: its bot, or the timeout's medium bot.

    The policy is handed `Round.view(seat)` only (docs/site.md, "Bots").
    """
    assert seat is not None
    eng = rnd.engine()
    if kind == Round.DueKind.PASS:  # the only legal action: logged "passou (automático)"
        return engine.PASS, Move.By.AUTO
    rng = world().rng()
    legal = eng.legal_actions(seat.index)
    if kind == Round.DueKind.BOT:
        by = Move.By.SUBSTITUTE if seat.substitute else Move.By.BOT
        level = seat.bot_level or SUBSTITUTE_LEVEL
    else:  # the clock, an absent person's turn, or automatic mode: the timeout move
        by = Move.By.AUTO if seat.auto and kind == Round.DueKind.AUTO else Move.By.TIMEOUT
        level = TIMEOUT_LEVEL
        if eng.pending_picks:  # docs/rules.md: an expired pick is made at random
            return rng.choice(legal), by
    return bot_choice(rnd, seat.index, level, rng, legal), by


def bot_choice(
    rnd: Round, index: int, level: str, rng: random.Random, legal: list[engine.Action]
) -> engine.Action:
    """``bots.policies.choose_action`` on the seat's view; the first legal action when
    the policy fails or answers something illegal (a bot never stalls a table)."""
    view = rnd.view(index)
    scores = tuple(rnd.match.scores) or None
    try:
        action = choose_action(view, level, rng, scores=scores)
    except Exception:  # noqa: BLE001 - a failing bot must not block the round
        log.exception("bot policy %s failed on round %s", level, rnd.pk)
        return legal[0]
    if isinstance(action, dict):
        try:
            action = engine.action_from_dict(action, spinner=True)
        except engine.IllegalAction:
            return legal[0]
    probe = rnd.engine().clone()
    try:
        probe.apply(index, action)
    except engine.IllegalAction:
        log.error("bot policy %s chose illegal %r on round %s", level, action, rnd.pk)
        return legal[0]
    return action
