"""Sitting, reserving, leaving, and a bot standing in for whoever left or is away.

docs/site.md, "Seats": an empty seat is taken at once; a bot's seat at once between
rounds and reserved until the result during one; who leaves during a round
leaves a bot in the seat until the result (at a walkover table, such as the
arena's: a walkover).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _

from records import rulebook
from rooms.errors import ServiceError, not_seated
from rooms.models import Room, Seat
from rooms.services.apart import check_not_kept_apart
from rooms.services.base import (
    actor_seat,
    bad,
    bind_socket,
    ensure_host,
    host_seat,
    is_user,
    person_name,
    round_in_play,
    seat_at,
    seat_person,
    update_humans_since,
    wrong_phase,
)
from rooms.services.command import RoomRef, Table, room_command
from rooms.services.due import (
    not_ready,
    ready_deadline,
    ready_phase,
    refresh_due,
    walkover_table,
)
from rooms.services.rounds import (
    ABSENT,
    LEFT,
    SUBSTITUTE_LEVEL,
    deal_if_all_ready_locked,
    forfeit_locked,
    walkover_locked,
)


@room_command(lobby=True)
def seat_take(
    table: Table,
    *,
    room: RoomRef,
    index: int,
    user: Any = None,
    guest_token: str | None = None,
    name: str | None = None,
    channel_name: str | None = None,
    ip_hash: str = "",
    now: datetime | None = None,
) -> Seat:
    """Sit at ``index``: an empty seat at once; a bot's seat at once between rounds,
    reserved until the result during one. Sitting again on one's own seat is a no-op
    (or a return, when leaving). ``channel_name`` marks the seat connected."""
    room, seats = table.room, table.seats
    if not is_user(user) and not guest_token:
        raise not_seated()
    if not is_user(user) and room.visibility == Room.Visibility.PUBLIC:
        raise bad("login_required", _("Log in to sit at a public table."))
    target = seat_at(seats, index)
    seat = sit_locked(table, target, user, guest_token, name, ip_hash)
    if channel_name and seat.belongs_to(user, guest_token):
        bind_socket(seat, channel_name, table.now)
        seat.save()
    update_humans_since(room, seats, table.now)
    refresh_due(room, table.rnd, seats)
    deal_if_all_ready_locked(table)
    return seat


def seat_take_by_invite(
    *,
    token: str,
    user: Any = None,
    guest_token: str | None = None,
    name: str | None = None,
    ip_hash: str = "",
    now: Any = None,
) -> Seat:
    """The invite link: the seat already bound to this person, or the first free
    seat (an empty one, else a bot's: at once between rounds, reserved during one).
    Only private rooms have one (public rooms are for accounts: they sit from the
    table). Unknown token: ``bad_message``/``not_found``; no seat: ``room_full``."""
    rooms = Room.objects.filter(invite_token=token, visibility=Room.Visibility.PRIVATE)
    room_id = rooms.values_list("pk", flat=True).first()
    if room_id is None:
        raise bad("not_found", _("This invitation does not exist."))
    return _sit_by_invite(
        room=room_id, user=user, guest_token=guest_token, name=name, ip_hash=ip_hash, now=now
    )


@room_command(lobby=True)
def _sit_by_invite(
    table: Table,
    *,
    room: RoomRef,
    user: Any,
    guest_token: str | None,
    name: str | None,
    ip_hash: str,
    now: datetime | None = None,
) -> Seat:
    if not is_user(user) and not guest_token:
        raise not_seated()
    seats = table.seats
    for seat in seats:
        if seat.belongs_to(user, guest_token) or seat.reserved_by(user, guest_token):
            table.unchanged()
            return seat
    free = [s for s in seats if s.is_empty] or [
        s for s in seats if s.is_bot and not s.is_reserved and not s.leaving
    ]
    if not free:
        raise ServiceError("room_full", _("Every seat at this table is taken."))
    seat = sit_locked(table, free[0], user, guest_token, name, ip_hash)
    refresh_due(table.room, table.rnd, seats)
    return seat


def sit_locked(
    table: Table,
    target: Seat,
    user: Any,
    guest_token: str | None,
    name: str | None,
    ip_hash: str = "",
) -> Seat:
    room, seats, now = table.room, table.seats, table.now
    mine = next((s for s in seats if s.belongs_to(user, guest_token)), None)
    playing = round_in_play(room)
    if mine is target:
        if target.substitute and target.substitute_reason == "left":
            # docs/site.md: who leaves during a round leaves a bot in the seat until
            # the result; then the seat is empty (and free to take again).
            raise ServiceError(
                "seat_taken",
                _("You left this seat: a bot plays it until the round's result."),
                reason="left",
            )
        if target.substitute and target.leaving:  # back before the result: same hand
            give_back_locked(table, target)
            target.save()
        return target
    if mine is not None and (playing or mine.leaving):
        raise ServiceError(
            "seat_taken", _("You already have a seat here."), reason="already_seated"
        )
    if room.competitive and mine is None:  # a rated table: not while cooling down
        rulebook.check_no_cooldown(user, now)
    if mine is None:
        check_not_kept_apart(seats, user)
    if target.is_human:
        if not (playing and target.leaving and target.substitute):
            raise ServiceError("seat_taken", _("That seat is taken."))
    reserved = next((s for s in seats if s.reserved_by(user, guest_token)), None)
    display = person_name(user, name)
    if target.is_empty or (target.is_bot and not playing):
        if reserved is not None:
            reserved.clear_reservation()
            reserved.save()
        if mine is not None:  # moving between rounds: the old seat empties
            mine.clear()
            mine.save()
        seat_person(target, user, guest_token, display, now, ip_hash)
        target.clear_reservation()
        target.save()
        ensure_host(room, seats)
        return target
    # A bot plays the target during the round: reserve it for the result.
    if target.is_reserved and not target.reserved_by(user, guest_token):
        raise ServiceError("seat_taken", _("That seat is already reserved."))
    if reserved is not None and reserved is not target:
        reserved.clear_reservation()
        reserved.save()
    target.reserved_user = user if is_user(user) else None
    target.reserved_guest_token = None if is_user(user) else guest_token
    target.reserved_name = display
    target.reserved_ip_hash = ip_hash or ""
    target.save()
    return target


def give_back_locked(table: Table, seat: Seat) -> None:
    """Its human is back before the result (away, not left): the stand-in bot goes,
    the same hand is theirs again, and a reservation someone made on the stand-in
    lapses (docs/site.md: coming back before the result gives them the seat). The
    caller saves ``seat``."""
    seat.substitute = False
    seat.substitute_reason = ""
    seat.bot_level = None
    seat.leaving = False
    seat.clear_reservation()
    ensure_host(table.room, table.seats)


@room_command(lobby=True)
def seat_leave(
    table: Table,
    *,
    room: RoomRef,
    index: int,
    actor: Seat | None,
    now: datetime | None = None,
) -> None:
    """A human leaves: at once between rounds; during a round a bot keeps playing
    the seat (same tiles and side) until the result (a walkover table: a walkover)."""
    seat = actor_seat(table.seats, actor)
    if seat.index != index:
        raise not_seated()
    if seat.leaving:
        # A bot already stands in because they were away: now they leave for good
        # (no taking it back before the result), and the socket sees that change.
        seat.substitute_reason = "left"
        seat.save(update_fields=["substitute_reason"])
        return
    leave_locked(table, seat, "left")
    update_humans_since(table.room, table.seats, table.now)


@room_command(lobby=True)
def seat_stand_up(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    index: int,
    now: datetime | None = None,
) -> None:
    """A private table's host stands up a person who is not ready by the ready
    deadline (docs/rated-play.md; public tables do it themselves): their seat
    is freed, as if they had left."""
    room, rnd, seats = table.room, table.rnd, table.seats
    host = host_seat(room, seats, actor)
    target = seat_at(seats, index)
    if room.visibility != Room.Visibility.PRIVATE:
        raise bad("wrong_phase", _("At a public table whoever is not ready is stood up by itself."))
    if (
        rnd is None
        or not ready_phase(room, rnd)
        or target is host
        or target not in not_ready(seats)
    ):
        raise wrong_phase()
    if table.now < ready_deadline(rnd):
        raise bad("too_early", _("Wait until the time to be ready is over."))
    leave_locked(table, target, "left")
    update_humans_since(room, seats, table.now)


def leave_locked(table: Table, seat: Seat, reason: str, absent: bool = False) -> None:
    """During a round a bot stands in until the result; otherwise the seat empties
    now. Abandoning an unfinished series at a walkover table
    (the rule set's ``walkover``) is a walkover either way, and
    leaving a rated match before its end a forfeit (the match ends: the seat
    then empties at once). ``absent`` (away for good, not ready in time): the
    abandonment is a walkover for absence rather than leaving."""
    room, rnd = table.room, table.rnd
    why = ABSENT if absent or reason == "away" else LEFT
    if _rated_match_running(table):
        charged = {seat.index}
        if why == LEFT:  # nobody is charged for leaving a side that is away
            charged = rulebook.charged_for_leaving(
                leaver=seat,
                seats=table.seats,
                side_of=room.ruleset.side_of,
                now=table.now,
                paused_seat=room.paused_seat if room.paused else None,
            )
        forfeit_locked(table, charged, why if charged == {seat.index} else ABSENT)
    if round_in_play(room):
        _stand_in_locked(table, seat, reason)
        return
    if (
        walkover_table(room)
        and rnd is not None
        and not rnd.match.over
        and room.status == Room.Status.BETWEEN_ROUNDS
    ):
        walkover_locked(table, {seat.index}, why)
    seat.clear()
    seat.save()
    ensure_host(room, table.seats)
    refresh_due(room, rnd, table.seats)


def _rated_match_running(table: Table) -> bool:
    """A rated match not over yet, still played by the people it started with
    (a walkover table has its own walkover)."""
    rnd = table.rnd
    return (
        rnd is not None
        and not walkover_table(table.room)
        and rulebook.at_stake(match=rnd.match, seats=table.seats)
    )


def _stand_in_locked(table: Table, seat: Seat, reason: str) -> None:
    """A bot plays ``seat`` (same tiles and side) until the result; then it is empty.
    At a walkover table leaving a series is a walkover."""
    room, rnd = table.room, table.rnd
    seat.substitute = True
    seat.substitute_reason = reason
    seat.bot_level = SUBSTITUTE_LEVEL
    seat.leaving = True
    seat.ready = False
    seat.save()
    ensure_host(room, table.seats)
    if walkover_table(room) and rnd is not None and not rnd.match.over:
        walkover_locked(table, {seat.index}, ABSENT if reason == "away" else LEFT)
    else:
        refresh_due(room, rnd, table.seats)
