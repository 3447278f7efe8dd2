"""When the server acts at a table: the due time of a round, from the rows alone.

A round's ``due_at``/``due_kind`` is what the timers wake up for (docs/site.md,
"Clocks"): a bot's turn after its human-like pause, the move clock, a
disconnected person's automatic move, the automatic pass of a person who can
only pass, a walkover table's walkover (the arena's). It is computed from the
stored rows only, so recomputing it after any change is consistent; paused and
closed rooms have none.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings

from games import services as games
from games.models import Round
from records import rulebook
from rooms.models import Room, Seat, waits_for_both

AUTO_MOVE_AFTER = timedelta(seconds=30)  # a disconnected human's turn, no clock
AUTO_PASS_AFTER = timedelta(seconds=1)  # docs/site.md: nothing but pass: the server passes
WALKOVER_AFTER = timedelta(seconds=60)  # a walkover table: confirm the next round within this
# Every "all ready" table (docs/rated-play.md, "Ready deadline"): a public
# table stands up whoever is not ready this long after the result while
# someone else is; at a private one the host may.
READY_AFTER = timedelta(seconds=60)


def seat_due(room: Room, seat: Seat, start: datetime) -> tuple[datetime, str] | None:
    """When the server acts for ``seat`` on a turn that started at ``start``."""
    if seat.bot_plays:
        return start + timedelta(seconds=float(settings.BOT_DELAY_SECONDS)), Round.DueKind.BOT
    if not seat.is_human:
        return None
    if seat.auto:  # automatic mode: the timeout move, at once
        return start, Round.DueKind.AUTO
    limit = rulebook.turn_limit(
        move_seconds=room.move_seconds, stake=rulebook.marked_at_stake(room)
    )
    if limit is not None and (seat.connected or room.move_seconds):
        return start + limit, Round.DueKind.CLOCK
    if not seat.connected:
        since = max(seat.disconnected_at or start, start)
        return since + AUTO_MOVE_AFTER, Round.DueKind.AUTO
    return None


def seat_dues(room: Room, rnd: Round, seats: Sequence[Seat]) -> list[tuple[datetime, str, int]]:
    """``(when, kind, seat index)`` of every seat the round waits for, soonest first."""
    dues = []
    eng = rnd.engine()
    for index in games.acting_seats(eng):
        if index < len(seats):
            seat = seats[index]
            if waiting_for(room, seat, seats):  # a private duel waits for its absent player
                continue
            due = seat_due(room, seat, rnd.turn_started_at)
            # Automatic pass (docs/site.md, "Rounds and the clock", from the
            # games-portal rules): a person whose only legal action is to pass,
            # connected or not, passes after about a second.
            if seat.is_human and not seat.bot_plays and games.only_pass(eng, index):
                auto = rnd.turn_started_at + AUTO_PASS_AFTER
                if due is None or auto <= due[0]:
                    due = (auto, Round.DueKind.PASS)
            if due is not None:
                dues.append((due[0], due[1], index))
    return sorted(dues)


def waiting_for(room: Room, seat: Seat, seats: Sequence[Seat]) -> bool:
    """Whether the table waits for ``seat``'s person to come back: absent, and not
    (yet) replaced by the bot the present one may call in."""
    return waits_for_both(room, seats) and seat.active_human and not seat.connected


def compute_due(
    room: Room, rnd: Round, seats: Sequence[Seat]
) -> tuple[datetime | None, str | None]:
    """The round's next due action: ``(due_at, due_kind)``, or ``(None, None)``.
    A paused room's only one is a person's pause lapsing (`records.rulebook`)."""
    if room.is_closed:
        return None, None
    if room.paused:
        return pause_lapse(room, seats)
    if rnd.finished_at is not None or rnd.engine().is_over:
        if walkover_pending(room, rnd, seats):
            return rnd.turn_started_at + WALKOVER_AFTER, Round.DueKind.WALKOVER
        if room.visibility == Room.Visibility.PUBLIC and ready_pending(room, rnd, seats):
            return ready_deadline(rnd), Round.DueKind.READY
        return None, None
    if room.status != Room.Status.PLAYING:
        return None, None
    dues = seat_dues(room, rnd, seats)
    if not dues:
        return None, None
    return dues[0][0], dues[0][1]


def pause_lapse(room: Room, seats: Sequence[Seat]) -> tuple[datetime | None, str | None]:
    """When a person's pause at a match at stake ends by itself (their budget's end)."""
    index = room.paused_seat
    if room.paused_by != rulebook.PAUSED_BY_PLAYER or room.paused_at is None or index is None:
        return None, None
    used = (
        timedelta(milliseconds=seats[index].pause_used_ms) if index < len(seats) else timedelta(0)
    )
    return rulebook.pause_lapses_at(paused_at=room.paused_at, used=used), Round.DueKind.RESUME


def refresh_due(room: Room, rnd: Round | None, seats: Sequence[Seat]) -> None:
    """Recompute and save ``rnd``'s due time after a change to the room or its seats."""
    if rnd is None:
        return
    due = compute_due(room, rnd, seats)
    if (rnd.due_at, rnd.due_kind) != due:
        rnd.due_at, rnd.due_kind = due
        rnd.save(update_fields=["due_at", "due_kind"])


def clear_due(rnd: Round | None) -> None:
    """Nothing is due on ``rnd`` any more (a new match, a closed room)."""
    if rnd is not None and rnd.due_at is not None:
        rnd.due_at, rnd.due_kind = None, None
        rnd.save(update_fields=["due_at", "due_kind"])


def walkover_table(room: Room) -> bool:
    """An absence at this table is a walkover (the rule set's ``walkover`` knob,
    docs/rules.md, "The knobs"): whoever does not confirm the next round in
    time, or leaves the series, loses it."""
    return bool(room.rules.get("walkover", False))


def walkover_pending(room: Room, rnd: Round, seats: Sequence[Seat]) -> bool:
    """A walkover table between rounds: somebody has not confirmed the next one yet."""
    return (
        walkover_table(room)
        and room.status == Room.Status.BETWEEN_ROUNDS
        and not rnd.match.over
        and any(s.active_human and not s.ready for s in seats)
    )


def ready_phase(room: Room, rnd: Round) -> bool:
    """Between rounds at a table where every person confirms what comes next:
    the next round (``all_ready``), or a single-game table's next game. The
    walkover table has its walkover instead."""
    if walkover_table(room) or room.status != Room.Status.BETWEEN_ROUNDS:
        return False
    rules = room.ruleset
    if rnd.match.over:
        return rules.goal == "single"
    return rules.next_round == "all_ready"


def ready_deadline(rnd: Round) -> datetime:
    """When the people not ready yet may be stood up: a while after the result."""
    return rnd.turn_started_at + READY_AFTER


def not_ready(seats: Sequence[Seat]) -> list[Seat]:
    """The people (playing their seats themselves) who have not confirmed yet."""
    return [s for s in seats if s.active_human and not s.leaving and not s.ready]


def ready_pending(room: Room, rnd: Round, seats: Sequence[Seat]) -> bool:
    """Someone is ready and waits for someone who is not (a stranger who never
    presses "Pronto" must not stall the table)."""
    if not ready_phase(room, rnd):
        return False
    humans = [s for s in seats if s.active_human and not s.leaving]
    return any(s.ready for s in humans) and bool(not_ready(seats))


def due_now(room: Room, rnd: Round, seats: Sequence[Seat], now: datetime) -> tuple[str, int] | None:
    """``(kind, seat index)`` of what is due at ``now`` from these rows, or None
    (index -1: the walkover, which is nobody's turn)."""
    if room.is_closed or rnd.due_at is None or rnd.due_at > now:
        return None
    if room.paused:
        lapsing = rnd.due_kind == Round.DueKind.RESUME and pause_lapse(room, seats)[0] is not None
        return (Round.DueKind.RESUME, -1) if lapsing else None
    if rnd.due_kind == Round.DueKind.WALKOVER:
        return (Round.DueKind.WALKOVER, -1) if walkover_pending(room, rnd, seats) else None
    if rnd.due_kind == Round.DueKind.READY:
        return (Round.DueKind.READY, -1) if ready_pending(room, rnd, seats) else None
    if room.status != Room.Status.PLAYING:
        return None
    dues = [d for d in seat_dues(room, rnd, seats) if d[0] <= now]
    return (dues[0][1], dues[0][2]) if dues else None
