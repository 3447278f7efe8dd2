"""The one way a move reaches the database, and the round-level lifecycle.

`action_apply` locks the room row, then the round row (``select_for_update``),
refuses a stale version, applies the action through the engine, appends the
`Move`, saves the snapshot with ``version + 1``, computes the next due time and
registers the broadcast for after commit. `round_due_fire` is what the timers
(Celery or the in-process ticker) and the sweeper call: the bot's move, the
clock's timeout move, a disconnected player's auto move, the automatic pass of a
player with nothing but pass, an arena walkover.

Time is injectable (``now``) and so is randomness (`rng_factory`), so tests
control both. Every refusal is a `rooms.errors.ServiceError` and changes nothing.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import engine
from games.models import Match, Move, Round
from records import selectors as records_read
from records import services as records
from rooms.errors import ServiceError
from rooms.events import room_changed
from rooms.models import Room, Seat

log = logging.getLogger(__name__)

#: Randomness for deals, bots and random timeout picks. Tests monkeypatch it
#: (e.g. ``lambda: random.Random(7)``) to get known deals.
rng_factory: Callable[[], random.Random] = secrets.SystemRandom

AUTO_MOVE_AFTER = timedelta(seconds=30)  # a disconnected human's turn, no clock
AUTO_PASS_AFTER = timedelta(seconds=1)  # site.md: nothing but pass: the server passes
WALKOVER_AFTER = timedelta(seconds=60)  # arena: confirm the next round within this
SUBSTITUTE_LEVEL = "medium"
TIMEOUT_LEVEL = "medium"
WALKOVER_PRESETS = frozenset({"arena"})


# ---------------------------------------------------------------------- locking


def now_or(now: datetime | None) -> datetime:
    return now if now is not None else timezone.now()


def lock_room(room: Room | int) -> Room:
    """The room row, locked for this transaction (always the first lock taken)."""
    pk = room.pk if isinstance(room, Room) else room
    return Room.objects.select_for_update().get(pk=pk)


def lock_current_round(room: Room) -> Round | None:
    """The room's latest round (and its match), locked; None before the first deal."""
    rnd = (
        Round.objects.select_for_update()
        .select_related("match")
        .filter(room_id=room.pk)
        .order_by("-id")
        .first()
    )
    if rnd is not None:
        rnd.room = room
    return rnd


def seats_of(room: Room) -> list[Seat]:
    """The room's seats in index order (the room lock already serialises writers)."""
    seats = list(Seat.objects.filter(room_id=room.pk).order_by("index"))
    for seat in seats:
        seat.room = room
    return seats


def touch(
    room: Room,
    now: datetime,
    *,
    lobby: bool = False,
    rnd: Round | None = None,
    seats: Sequence[Seat] | None = None,
) -> None:
    """Record a change of the room: version + 1, activity time, broadcast after
    commit. ``seats``: the room's seats as saved, when the caller holds them."""
    room.version += 1
    room.last_activity_at = now
    if lobby:  # every change of the seats tells the lobby: the rated marker follows them
        match = rnd.match if rnd is not None else None
        seats = seats_of(room) if seats is None else seats
        room.rated = records_read.table_marker(seats=seats, match=match)
    room.save()
    room_changed(room, lobby=lobby, round=rnd, seats=seats)


# ---------------------------------------------------------------------- due times


def acting_seats(rnd: engine.Round) -> list[int]:
    """Seats the round waits for: the seat to act, or every pending tie-break picker."""
    if rnd.is_over:
        return []
    pending = rnd.pending_picks
    if pending:
        return sorted(pending)
    return [rnd.turn] if rnd.turn is not None else []


def seat_due(room: Room, seat: Seat, start: datetime) -> tuple[datetime, str] | None:
    """When the server acts for ``seat`` on a turn that started at ``start``."""
    if seat.bot_plays:
        return start + timedelta(seconds=float(settings.BOT_DELAY_SECONDS)), Round.DueKind.BOT
    if not seat.is_human:
        return None
    if room.move_seconds:
        return start + timedelta(seconds=room.move_seconds), Round.DueKind.CLOCK
    if not seat.connected:
        since = max(seat.disconnected_at or start, start)
        return since + AUTO_MOVE_AFTER, Round.DueKind.AUTO
    return None


def only_pass(eng: engine.Round, index: int) -> bool:
    """Whether ``index``'s only legal action is to pass (nothing fits, nothing to draw)."""
    return not eng.pending_picks and eng.turn == index and eng.legal_actions(index) == [engine.PASS]


def _seat_dues(room: Room, rnd: Round, seats: Sequence[Seat]) -> list[tuple[datetime, str, int]]:
    dues = []
    eng = rnd.engine()
    for index in acting_seats(eng):
        if index < len(seats):
            seat = seats[index]
            due = seat_due(room, seat, rnd.turn_started_at)
            # Automatic pass (site.md, seed 004): a person whose only legal action
            # is to pass, connected or not, passes after about a second.
            if seat.is_human and not seat.bot_plays and only_pass(eng, index):
                auto = rnd.turn_started_at + AUTO_PASS_AFTER
                if due is None or auto <= due[0]:
                    due = (auto, Round.DueKind.PASS)
            if due is not None:
                dues.append((due[0], due[1], index))
    return sorted(dues)


def compute_due(
    room: Room, rnd: Round, seats: Sequence[Seat]
) -> tuple[datetime | None, str | None]:
    """The round's next due action from the stored state alone (so recomputing it
    after any change is consistent): paused rooms have none."""
    if room.paused or room.is_closed:
        return None, None
    if rnd.finished_at is not None or rnd.engine().is_over:
        if _walkover_pending(room, rnd, seats):
            return rnd.turn_started_at + WALKOVER_AFTER, Round.DueKind.WALKOVER
        return None, None
    if room.status != Room.Status.PLAYING:
        return None, None
    dues = _seat_dues(room, rnd, seats)
    if not dues:
        return None, None
    return dues[0][0], dues[0][1]


def refresh_due(room: Room, rnd: Round | None, seats: Sequence[Seat]) -> None:
    """Recompute and save ``rnd``'s due time after a change to the room or its seats."""
    if rnd is None:
        return
    due = compute_due(room, rnd, seats)
    if (rnd.due_at, rnd.due_kind) != due:
        rnd.due_at, rnd.due_kind = due
        rnd.save(update_fields=["due_at", "due_kind"])


def _walkover_pending(room: Room, rnd: Round, seats: Sequence[Seat]) -> bool:
    return (
        room.preset in WALKOVER_PRESETS
        and room.status == Room.Status.BETWEEN_ROUNDS
        and not rnd.match.over
        and any(s.active_human and not s.ready for s in seats)
    )


# ---------------------------------------------------------------------- dealing


def players_of(seats: Sequence[Seat]) -> list[dict[str, Any]]:
    return [
        {
            "index": s.index,
            "kind": s.kind,
            "user": s.user_id,
            "guest": bool(s.guest_token),
            "name": s.display_name,
            "bot_level": s.bot_level,
        }
        for s in seats
    ]


def match_begin(room: Room, seats: Sequence[Seat], now: datetime) -> Match:
    """A new match (scores at zero, first-round opening) and its first round."""
    last = (
        Match.objects.filter(room_id=room.pk).order_by("-number").values_list("number", flat=True)
    )
    number = (last.first() or 0) + 1
    match = Match(room=room, number=number, created_at=now)
    match.store(engine.Match(room.ruleset))
    match.save()
    records.match_started(match=match, seats=seats)
    deal_round(room, match, seats, now)
    return match


def deal_round(room: Room, match: Match, seats: Sequence[Seat], now: datetime) -> Round:
    """Deal the match's next round (`engine.Match.new_round`) and start playing it."""
    eng = match.engine().new_round(rng_factory())
    rnd = Round(
        match=match,
        room=room,
        number=len(match.state.get("results", [])) + 1,
        deal=eng.initial,
        players=players_of(seats),
        version=1,
        turn_started_at=now,
        started_at=now,
    )
    rnd.store(eng)
    room.status = Room.Status.PLAYING
    # The previous round's pending walkover (if any) is moot now.
    Round.objects.filter(room_id=room.pk, due_at__isnull=False).update(due_at=None, due_kind=None)
    for seat in seats:
        if seat.ready:
            seat.ready = False
            seat.save(update_fields=["ready"])
    rnd.due_at, rnd.due_kind = compute_due(room, rnd, seats)
    rnd.save()
    records.round_dealt(rnd=rnd, seats=seats)
    return rnd


# ---------------------------------------------------------------------- moves


@transaction.atomic
def action_apply(
    *,
    room: Room,
    seat_index: int,
    action: dict,
    version: int | None,
    by: str = "person",
    now: datetime | None = None,
) -> Move:
    """Apply ``seat_index``'s ``action`` (an action dict) to the room's round.

    ``version`` is the room version the client decided on; any other current
    version is ``stale``. ``by="person"`` needs a human playing the seat.
    """
    now = now_or(now)
    room = lock_room(room)
    if room.is_closed:
        raise ServiceError("room_closed", _("This room is closed."))
    if version is not None and version != room.version:
        raise ServiceError("stale", _("The table changed: look again and repeat your move."))
    if room.paused:
        raise ServiceError("paused", _("The game is paused."))
    rnd = lock_current_round(room)
    if rnd is None or room.status != Room.Status.PLAYING or rnd.finished_at is not None:
        raise ServiceError("round_over")
    seats = seats_of(room)
    if type(seat_index) is not int or not 0 <= seat_index < len(seats):
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if by == Move.By.PERSON and not seats[seat_index].active_human:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    try:
        parsed = engine.action_from_dict(action)
    except engine.IllegalAction as exc:
        raise ServiceError(exc.code) from None
    return apply_locked(room, rnd, seats, seat_index, parsed, by, now)


def apply_locked(
    room: Room,
    rnd: Round,
    seats: Sequence[Seat],
    seat_index: int,
    action: engine.Action,
    by: str,
    now: datetime,
) -> Move:
    """Apply an action with the room and round already locked (shared by people,
    bots and timeouts): the engine decides, then the row remembers."""
    eng = rnd.engine()
    picking = eng.pending_picks
    try:
        eng.apply(seat_index, action)
    except engine.IllegalAction as exc:
        raise ServiceError(exc.code) from None
    # Tie-break picks are made "at the same time, under the move timer": one
    # clock for the pick round, restarted only when a new pick round begins.
    same_pick_round = bool(picking) and 0 < len(eng.pending_picks) < len(picking)
    recorded = eng.history[-1][1]  # with the end the engine resolved
    move = Move.objects.create(
        round=rnd,
        seq=len(eng.history),
        seat=seat_index,
        action=recorded.to_dict(),
        by=by,
        created_at=now,
    )
    rnd.store(eng)
    rnd.version += 1
    if not same_pick_round:
        rnd.turn_started_at = now
    over = eng.is_over
    if over:
        round_finished(room, rnd, seats, now)
    rnd.due_at, rnd.due_kind = compute_due(room, rnd, seats)
    rnd.save()
    touch(room, now, lobby=over, rnd=rnd, seats=None if over else seats)
    return move


def round_finished(room: Room, rnd: Round, seats: Sequence[Seat], now: datetime) -> None:
    """A round reached its result: score it, then the seats change as site.md says
    (reservations honoured, leaving seats freed, substitutes gone)."""
    from rooms.services import seats_after_round

    rnd.finished_at = now
    rnd.turn_started_at = now
    match = rnd.match
    match.finish_round(rnd.engine().result, now)
    match.save()
    if match.over:  # experience and rating, with the seats as they were dealt
        records.match_finished(match=match, preset=room.preset, seats=seats, now=now)
    room.status = Room.Status.BETWEEN_ROUNDS
    seats_after_round(room, seats, now)


def round_stop(room: Room, rnd: Round | None, seats: Sequence[Seat], now: datetime) -> None:
    """End a round without a result (walkover, annulment): the match is already over."""
    from rooms.services import seats_after_round

    if rnd is not None and rnd.finished_at is None:
        rnd.finished_at = now
        rnd.turn_started_at = now
        rnd.version += 1
    room.status = Room.Status.BETWEEN_ROUNDS
    seats_after_round(room, seats, now)
    if rnd is not None:
        rnd.due_at, rnd.due_kind = compute_due(room, rnd, seats)
        rnd.save()


def match_award(match: Match, winner: int | None, reason: str, now: datetime) -> None:
    """End the match now: ``winner`` side (None: nobody) by ``reason``."""
    eng = match.engine()
    if eng.is_over:
        return
    if winner is not None:
        eng.award(winner, reason)
    else:
        eng.is_over, eng.winner, eng.ended_by = True, None, reason
    match.store(eng)
    match.finished_at = now
    match.save()


def walkover(
    room: Room, rnd: Round, seats: Sequence[Seat], losers: set[int], now: datetime
) -> None:
    """The arena's W.O.: the seats in ``losers`` lose the series."""
    match = rnd.match
    rules = room.ruleset
    losing_sides = {rules.side_of(i) for i in losers}
    others = [side for side in range(rules.sides) if side not in losing_sides]
    match_award(match, others[0] if len(others) == 1 else None, "walkover", now)
    records.match_finished(match=match, preset=room.preset, seats=seats, now=now)
    round_stop(room, rnd, seats, now)


# ---------------------------------------------------------------------- timers


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
            return _fire_walkover(due, now)
        action, by = _server_action(due.rnd, due.seat, due.kind)
        outcome = _apply_due(due, action, by, now)
        if outcome != "stale":
            return outcome == "applied"
        version = _round_version(round_id)  # the round moved on: look again
    return False


@dataclass
class _Due:
    """A round's due action as read without locks: who acts, how, at which version."""

    rnd: Round
    version: int
    kind: str
    seat: Seat | None


def _round_version(round_id: int) -> int | None:
    return Round.objects.filter(pk=round_id).values_list("version", flat=True).first()


def _due_now(
    room: Room, rnd: Round, seats: Sequence[Seat], now: datetime
) -> tuple[str, int] | None:
    """``(kind, seat index)`` of what is due at ``now`` from these rows, or None."""
    if room.is_closed or room.paused or rnd.due_at is None or rnd.due_at > now:
        return None
    if rnd.due_kind == Round.DueKind.WALKOVER:
        return (Round.DueKind.WALKOVER, -1) if _walkover_pending(room, rnd, seats) else None
    if room.status != Room.Status.PLAYING:
        return None
    dues = [d for d in _seat_dues(room, rnd, seats) if d[0] <= now]
    return (dues[0][1], dues[0][2]) if dues else None


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
    due = _due_now(room, rnd, seats, now)
    if due is None:
        return None
    kind, index = due
    return _Due(rnd=rnd, version=rnd.version, kind=kind, seat=seats[index] if index >= 0 else None)


def _lock_due(due: _Due, now: datetime) -> tuple[Room, Round, list[Seat]] | None:
    """Lock the room and round; None unless the same action is still due."""
    room = lock_room(due.rnd.room_id)
    rnd = lock_current_round(room)
    if rnd is None or rnd.pk != due.rnd.pk or rnd.version != due.version:
        return None
    seats = seats_of(room)
    index = due.seat.index if due.seat is not None else -1
    if _due_now(room, rnd, seats, now) != (due.kind, index):
        return None
    return room, rnd, seats


@transaction.atomic
def _apply_due(due: _Due, action: engine.Action, by: str, now: datetime) -> str:
    """``"applied"``, or ``"stale"`` when the round changed since ``due`` was read."""
    locked = _lock_due(due, now)
    if locked is None:
        return "stale"
    room, rnd, seats = locked
    apply_locked(room, rnd, seats, due.seat.index, action, by, now)
    return "applied"


@transaction.atomic
def _fire_walkover(due: _Due, now: datetime) -> bool:
    locked = _lock_due(due, now)
    if locked is None:
        return False
    room, rnd, seats = locked
    losers = {s.index for s in seats if s.active_human and not s.ready}
    walkover(room, rnd, seats, losers, now)
    touch(room, now, lobby=True, rnd=rnd)
    return True


def _server_action(rnd: Round, seat: Seat, kind: str) -> tuple[engine.Action, str]:
    """What the server plays for ``seat``: its bot, or the timeout's medium bot.

    The policy is handed `Round.view(seat)` only (site.md, "Bots").
    """
    eng = rnd.engine()
    if kind == Round.DueKind.PASS:  # the only legal action: logged "passou (automático)"
        return engine.PASS, Move.By.AUTO
    rng = rng_factory()
    legal = eng.legal_actions(seat.index)
    if kind == Round.DueKind.BOT:
        by = Move.By.SUBSTITUTE if seat.substitute else Move.By.BOT
        level = seat.bot_level or SUBSTITUTE_LEVEL
    else:
        by = Move.By.TIMEOUT
        level = TIMEOUT_LEVEL
        if eng.pending_picks:  # rules.md: an expired pick is made at random
            return rng.choice(legal), by
    return bot_choice(rnd, seat.index, level, rng, legal), by


def bot_choice(
    rnd: Round, index: int, level: str, rng: random.Random, legal: list[engine.Action]
) -> engine.Action:
    """``bots.policies.choose_action`` on the seat's view; the first legal action when
    the policy is missing or answers something illegal (a bot never stalls a table)."""
    try:
        from bots.policies import choose_action
    except ImportError:
        return legal[0]
    view = rnd.view(index)
    scores = tuple(rnd.match.scores) or None
    try:
        action = choose_action(view, level, rng, scores=scores)
    except Exception:  # noqa: BLE001 - a failing bot must not block the round
        log.exception("bot policy %s failed on round %s", level, rnd.pk)
        return legal[0]
    if isinstance(action, dict):
        try:
            action = engine.action_from_dict(action)
        except engine.IllegalAction:
            return legal[0]
    probe = rnd.engine().clone()
    try:
        probe.apply(index, action)
    except engine.IllegalAction:
        log.error("bot policy %s chose illegal %r on round %s", level, action, rnd.pk)
        return legal[0]
    return action
