"""The play flow's steps under the room's lock: dealing, a round's end, the
seats after a result, walkovers, pausing and resuming.

Each takes the command's `Table` (the room, its current round and its seats,
all locked) and changes it; the command records and tells the change. The
rows of matches, rounds and moves are written by `games.services` only; what
happens to the seats is decided here from what it returns.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from functools import partial
from typing import Any

from django.db import transaction

from games import services as games
from games.models import Match
from games.world import new_server_seed
from records import rulebook
from records import services as records
from records.models import Cooldown
from rooms.models import Room, Seat
from rooms.services.apart import reservation_lapses
from rooms.services.base import all_filled, ensure_host, seat_person, update_humans_since
from rooms.services.command import Table
from rooms.services.due import compute_due
from rooms.signals import match_over

SUBSTITUTE_LEVEL = "medium"  # the bot that stands in for a person who left or is away


def players_of(seats: Sequence[Seat]) -> list[dict[str, Any]]:
    """Who sits where when a round is dealt (kept on the round for the admin)."""
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


def client_seeds_of(seats: Sequence[Seat]) -> list[str]:
    """The client seeds of a deal: each seated human's who sent one since the
    commitment was published, in seat order; bots have none (docs/rules.md,
    "Verifiable deals")."""
    return [s.client_seed for s in seats if s.is_human and s.client_seed]


# ---------------------------------------------------------------------- dealing


def begin_match_locked(table: Table, actor: Seat | None = None) -> None:
    """A new match at the table, and its first round dealt: every path that
    starts one comes here, and the rulebook's cool-down is checked here
    (``actor``: who started it, told their own sentence)."""
    rulebook.check_match_start(
        seats=table.seats,
        competitive=table.room.competitive,
        now=table.now,
        actor_user=actor.user_id if actor is not None else None,
    )
    for seat in table.seats:  # a new match: nobody idle, every pause budget whole
        if seat.idle_since is not None or seat.pause_used_ms:
            seat.idle_since, seat.pause_used_ms = None, 0
            seat.save(update_fields=["idle_since", "pause_used_ms"])
    table.room.start_on_seeds = False  # whoever started it, nothing waits any more
    match = games.match_begin(room=table.room, now=table.now)
    records.match_started(
        match=match, seats=table.seats, competitive=table.room.competitive, now=table.now
    )
    deal_locked(table, match)


def deal_locked(table: Table, match: Match) -> None:
    """Deal ``match``'s next round and start playing it; it becomes ``table.rnd``."""
    room, seats = table.room, table.seats
    rnd = games.round_deal(
        match=match,
        players=players_of(seats),
        now=table.now,
        room_code=room.code,
        server_seed=room.next_server_seed,
        client_seeds=client_seeds_of(seats),
    )
    rnd.room = room
    room.status = Room.Status.PLAYING
    # The next deal's commitment is published with this one: the seeds sent so far
    # were for this deal, and only those sent from now on count for the next.
    room.next_server_seed = new_server_seed()
    for seat in seats:
        changed = [name for name in ("ready", "client_seed") if getattr(seat, name)]
        if changed:
            seat.ready, seat.client_seed = False, ""
            seat.save(update_fields=changed)
    rnd.due_at, rnd.due_kind = compute_due(room, rnd, seats)
    rnd.save()
    records.round_dealt(rnd=rnd, seats=seats)
    table.rnd = rnd


def deal_if_all_ready_locked(table: Table) -> bool:
    """Where every human confirms the next round: deal once they all have."""
    room, rnd, seats = table.room, table.rnd, table.seats
    if (
        room.status != Room.Status.BETWEEN_ROUNDS
        or room.paused
        or rnd is None
        or rnd.match.over
        or room.ruleset.next_round != "all_ready"
        or not all_filled(seats)
    ):
        return False
    humans = [s for s in seats if s.active_human]
    if not humans or not all(s.ready for s in humans):
        return False
    deal_locked(table, rnd.match)
    return True


def begin_if_seeded_locked(table: Table) -> bool:
    """A table that starts by itself (``room.start_on_seeds``, play alone): begin
    its match once every seated person has sent a seed for the published
    commitment, so that their seeds are in its first deal too."""
    room, seats = table.room, table.seats
    if not room.start_on_seeds or room.status != Room.Status.WAITING or room.paused:
        return False
    humans = [s for s in seats if s.active_human]
    if not all_filled(seats) or not humans or not all(s.client_seed for s in humans):
        return False
    begin_match_locked(table)
    return True


# ---------------------------------------------------------------------- endings


def round_ended_locked(table: Table) -> None:
    """``table.rnd`` reached its result (already scored by `games.apply_action`):
    the experience and ratings of a finished match, then the seats change."""
    room, rnd = table.room, table.rnd
    assert rnd is not None
    if rnd.match.over:  # with the seats as they were dealt
        records.match_finished(
            match=rnd.match, preset=room.preset, seats=table.seats, now=table.now
        )
        tell_match_over(rnd.match)
    room.status = Room.Status.BETWEEN_ROUNDS
    seats_after_round_locked(table)


def tell_match_over(match: Match) -> None:
    """After the commit, `rooms.signals.match_over` (whoever runs matches above
    the rooms listens, e.g. the arenas)."""
    send = partial(match_over.send, sender=Match, match_id=match.pk, room_id=match.room_id)
    transaction.on_commit(send)


def round_stop_locked(table: Table) -> None:
    """The match ended without the round's result (walkover, annulment): the
    round stops, if it was still being played, and the seats change."""
    rnd = table.rnd
    if rnd is not None:
        games.round_stop(rnd=rnd, now=table.now)
        if rnd.match.over:
            tell_match_over(rnd.match)
    table.room.status = Room.Status.BETWEEN_ROUNDS
    seats_after_round_locked(table)
    if rnd is not None:
        rnd.due_at, rnd.due_kind = compute_due(table.room, rnd, table.seats)
        rnd.save()


FORFEIT = "abandono"  # a rated match left before its end (the match record's ended_by)
LEFT, ABSENT, TIMEOUTS = Cooldown.Reason.LEFT, Cooldown.Reason.ABSENT, Cooldown.Reason.TIMEOUTS


def at_stake_locked(table: Table) -> bool:
    """The table's match is at stake (`records.rulebook.at_stake`)."""
    rnd = table.rnd
    return rnd is not None and rulebook.at_stake(match=rnd.match, seats=table.seats)


def walkover_locked(table: Table, losers: set[int], why: str = ABSENT) -> None:
    """A walkover table's W.O. (the rule set's ``walkover``, as at the arena's
    tables): the seats in ``losers`` lose the series (at a rated
    match an abandonment too: ``why``, a `records.models.Cooldown.Reason`)."""
    if at_stake_locked(table):
        _abandoned_locked(table, losers, why)
    _lose_locked(table, losers, "walkover")


def forfeit_locked(table: Table, losers: set[int], why: str = LEFT) -> None:
    """A rated match left before its end (``leave``, away until the seat is
    freed, three timeouts in a row): the leavers' side loses it, in the ratings
    too, and the other side wins (docs/rated-play.md, "Forfeits"). The match
    says ``abandono``, and each leaver starts a cool-down (``why``)."""
    _abandoned_locked(table, losers, why)
    _lose_locked(table, losers, FORFEIT)


def _match(table: Table) -> Match:
    assert table.rnd is not None
    return table.rnd.match


def _abandoned_locked(table: Table, losers: set[int], why: str) -> None:
    """Each account among ``losers`` abandoned the rated match: a cool-down
    (docs/rated-play.md, "Abandonment cool-down")."""
    for index in sorted(losers):
        seat = table.seats[index]
        if seat.user_id:
            records.abandonment_recorded(
                user=seat.user_id,
                reason=why,
                match=_match(table),
                name=seat.display_name,
                now=table.now,
            )


def _lose_locked(table: Table, losers: set[int], reason: str) -> None:
    """``losers``' side loses the match now (with the seats as they are: the
    ratings see the people the match was played by); the round stops."""
    rnd = table.rnd
    assert rnd is not None
    if table.room.paused and table.room.paused_by == rulebook.PAUSED_BY_PLAYER:
        _unpause(table.room)  # a person's pause ends with the match it paused
    rules = table.room.ruleset
    losing_sides = {rules.side_of(i) for i in losers}
    others = [side for side in range(rules.sides) if side not in losing_sides]
    winner = others[0] if len(others) == 1 else None
    games.match_end(match=rnd.match, winner=winner, reason=reason, now=table.now)
    records.match_finished(
        match=rnd.match, preset=table.room.preset, seats=table.seats, now=table.now
    )
    round_stop_locked(table)


def seats_after_round_locked(table: Table) -> None:
    """At a round's result: reservations are honoured, leaving seats (a removed bot,
    a human who left or was replaced while away) are freed; then the host is checked."""
    room, seats, now = table.room, table.seats, table.now
    for seat in seats:
        if seat.is_reserved and seat.active_human:
            # Its human came back before the result: the seat stays theirs.
            seat.clear_reservation()
            seat.save()
        elif seat.is_reserved and reservation_lapses(seats, seat):
            # A block between them made since the reservation: it lapses.
            seat.clear_reservation()
            if seat.leaving:
                seat.clear()
            seat.save()
        elif seat.is_reserved:
            user, token, name = seat.reserved_user, seat.reserved_guest_token, seat.reserved_name
            ip_hash = seat.reserved_ip_hash
            seat.clear()
            seat.clear_reservation()
            seat_person(seat, user, token, name, now, ip_hash)
            seat.save()
        elif seat.leaving:
            seat.clear()
            seat.save()
        elif seat.ready:
            seat.ready = False
            seat.save(update_fields=["ready"])
    ensure_host(room, seats)
    update_humans_since(room, seats, now)


# ---------------------------------------------------------------------- pausing


def pause_locked(table: Table, by: str, seat: int | None = None) -> None:
    """Freeze the clock, the bots and the dealing; the time left is kept. A
    person's pause (``by`` `rulebook.PAUSED_BY_PLAYER`, ``seat`` theirs) is due
    to lapse when their budget ends."""
    room, rnd, now = table.room, table.rnd, table.now
    room.paused = True
    room.paused_by = by
    room.paused_at = now
    room.paused_seat = seat
    if rnd is not None:
        rnd.remaining_ms = None
        if rnd.due_at is not None:
            left = (rnd.due_at - now).total_seconds() * 1000
            rnd.remaining_ms = max(0, int(left))
        rnd.due_at, rnd.due_kind = compute_due(room, rnd, table.seats)
        rnd.save(update_fields=["due_at", "due_kind", "remaining_ms"])


def _unpause(room: Room) -> None:
    room.paused = False
    room.paused_by = ""
    room.paused_at = None
    room.paused_seat = None


def resume_locked(table: Table) -> None:
    """Continue from the same remaining time: the turn's start moves by the pause.
    A person's pause is charged to their budget, and froze no absence."""
    room, rnd, now = table.room, table.rnd, table.now
    paused_for = max(now - room.paused_at if room.paused_at else timedelta(0), timedelta(0))
    if rulebook.absence_runs_while_paused(room.paused_by):
        _charge_pause(table.seats, room.paused_seat, paused_for)
    else:
        _shift_absences(table.seats, paused_for)
    _unpause(room)
    if rnd is not None:
        rnd.turn_started_at += paused_for
        rnd.remaining_ms = None
        rnd.due_at, rnd.due_kind = compute_due(room, rnd, table.seats)
        rnd.save(update_fields=["turn_started_at", "remaining_ms", "due_at", "due_kind"])
    deal_if_all_ready_locked(table)


def _charge_pause(seats: Sequence[Seat], index: int | None, paused_for: timedelta) -> None:
    """The pauser's budget is used by as long as their pause lasted."""
    if index is not None and 0 <= index < len(seats):
        seat = seats[index]
        seat.pause_used_ms += int(paused_for.total_seconds() * 1000)
        seat.save(update_fields=["pause_used_ms"])


def _shift_absences(seats: Sequence[Seat], paused_for: timedelta) -> None:
    """A pause freezes the 2-minute absence too: whoever dropped before it is away
    for as long after it as they had left, not replaced the moment play resumes."""
    for seat in seats:
        if seat.disconnected_at is not None and paused_for:
            seat.disconnected_at += paused_for
            seat.save(update_fields=["disconnected_at"])
