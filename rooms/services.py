"""The room lifecycle of site.md: create, sit, leave, bots, host, start, rounds,
pause, settings, annulment, connections, expiry. All writes to rooms go here.

Every service is keyword-only and atomic: it locks the room row first (then
the round row), raises `ServiceError` before writing anything when it refuses,
bumps ``room.version`` and registers the broadcast (`rooms.events`) on commit.
``actor`` is the `Seat` of the person acting; ``now`` is injectable for tests.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q, Value
from django.db.models.functions import StrIndex, Substr
from django.utils.translation import gettext as _

from domino_site import liveness
from games import engine
from games import services as games
from games.models import Round
from rooms import watchers as watching
from rooms.errors import ServiceError, rule_error_message
from rooms.events import room_changed
from rooms.models import BOT_LEVELS, MOVE_SECONDS_CHOICES, Room, Seat, Watcher, new_room_code

log = logging.getLogger(__name__)

_UNSET: Any = object()

TAKEOVER_AFTER = timedelta(minutes=2)  # away this long: a bot takes the seat
PUBLIC_EMPTY_CLOSE_AFTER = timedelta(minutes=2)
PRIVATE_EXPIRE_AFTER = timedelta(days=7)


# ---------------------------------------------------------------------- helpers


def _closed() -> ServiceError:
    return ServiceError("room_closed", _("This room is closed."))


def _lock_open(room: Room) -> Room:
    room = games.lock_room(room)
    if room.is_closed:
        raise _closed()
    return room


def _lock_with_seats(
    room: Room, now: datetime | None
) -> tuple[datetime, Room, Round | None, list[Seat]]:
    """What nearly every service starts with: the time, the room locked (and
    open), its current round and its seats."""
    now = games.now_or(now)
    room = _lock_open(room)
    return now, room, _current(room), games.seats_of(room)


def _is_user(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def _actor(seats: Sequence[Seat], actor: Seat | None) -> Seat:
    """The actor's seat as it is now: still a human playing it, still the same person."""
    if actor is None or not 0 <= actor.index < len(seats):
        raise ServiceError("not_seated", _("You are not seated at this table."))
    seat = seats[actor.index]
    same_person = seat.user_id == actor.user_id and seat.guest_token == actor.guest_token
    if seat.pk != actor.pk or not seat.is_human or not same_person:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    return seat


def _host(room: Room, seats: Sequence[Seat], actor: Seat | None) -> Seat:
    seat = _actor(seats, actor)
    if seat.substitute:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if room.host_seat != seat.index:
        raise ServiceError("not_host", _("Only the host can do that."))
    return seat


def _bad(reason: str, message: str, field: str | None = None) -> ServiceError:
    return ServiceError("bad_message", message, reason=reason, field=field)


def _wrong_phase() -> ServiceError:
    return _bad("wrong_phase", _("That cannot be done at this point of the game."))


def _seat_at(seats: Sequence[Seat], index: Any) -> Seat:
    if type(index) is not int or not 0 <= index < len(seats):
        raise _bad("bad_seat", _("There is no such seat."))
    return seats[index]


def _check_level(level: Any) -> str:
    if level not in BOT_LEVELS:
        raise _bad("bad_level", _("A bot plays at easy, medium or hard."))
    return level


def _check_move_seconds(value: Any) -> int | None:
    if value is None or (type(value) is int and value in MOVE_SECONDS_CHOICES):
        return value
    raise _bad("bad_clock", _("The move clock is 10, 15, 20, 30, 45 or 60 seconds, or none."))


def _rules_for(preset: Any, options: Any) -> engine.RuleSet:
    if not isinstance(options, dict):
        raise _bad("invalid_rules", _("The options must be an object of rule knobs."))
    try:
        return engine.RuleSet.preset(preset, **options)
    except engine.InvalidRules as exc:
        raise _bad("invalid_rules", str(rule_error_message(exc.field)), field=exc.field) from None
    except TypeError:
        raise _bad("invalid_rules", _("Those options are not valid.")) from None


def _round_in_play(room: Room) -> bool:
    return room.status == Room.Status.PLAYING


def _current(room: Room) -> Round | None:
    return games.lock_current_round(room)


def _match_over(rnd: Round | None) -> bool:
    return rnd is None or rnd.match.over


def _bot_name(level: str) -> str:
    names = {"easy": _("Bot (easy)"), "medium": _("Bot (medium)"), "hard": _("Bot (hard)")}
    return str(names.get(level, _("Bot")))


def _person_name(user: Any, name: str | None) -> str:
    if name:
        return name[:80]
    if _is_user(user):
        return user.get_username()[:80]
    return str(_("Guest"))


def ensure_host(room: Room, seats: Sequence[Seat]) -> None:
    """The host stays while they play the seat; otherwise the longest-seated human
    who is not leaving becomes host (None when there is nobody)."""
    current = room.host_seat
    if current is not None and current < len(seats):
        seat = seats[current]
        if seat.active_human and not seat.leaving:
            return
    candidates = [s for s in seats if s.active_human and not s.leaving]
    candidates.sort(key=lambda s: (s.seated_at is None, s.seated_at, s.index))
    room.host_seat = candidates[0].index if candidates else None


def seats_after_round(room: Room, seats: Sequence[Seat], now: datetime) -> None:
    """At a round's result: reservations are honoured, leaving seats (a removed bot,
    a human who left or was replaced while away) are freed; then the host is checked."""
    for seat in seats:
        if seat.is_reserved and seat.active_human:
            # Its human came back before the result: the seat stays theirs.
            seat.clear_reservation()
            seat.save()
        elif seat.is_reserved:
            user, token, name = seat.reserved_user, seat.reserved_guest_token, seat.reserved_name
            ip_hash = seat.reserved_ip_hash
            seat.clear()
            seat.clear_reservation()
            _seat_person(seat, user, token, name, now, ip_hash)
            seat.save()
        elif seat.leaving:
            seat.clear()
            seat.save()
        elif seat.ready:
            seat.ready = False
            seat.save(update_fields=["ready"])
    ensure_host(room, seats)
    _update_humans_since(room, seats, now)


def _give_back(room: Room, seats: Sequence[Seat], seat: Seat) -> None:
    """Its human is back before the result (away, not left): the stand-in bot goes,
    the same hand is theirs again, and a reservation someone made on the stand-in
    lapses (site.md: coming back before the result gives them the seat). The
    caller saves ``seat``."""
    seat.substitute = False
    seat.substitute_reason = ""
    seat.bot_level = None
    seat.leaving = False
    seat.clear_reservation()
    ensure_host(room, seats)


def _seat_person(
    seat: Seat, user: Any, guest_token: str | None, name: str, now: datetime, ip_hash: str = ""
) -> None:
    seat.kind = Seat.Kind.HUMAN
    seat.user = user if _is_user(user) else None
    seat.guest_token = None if seat.user is not None else guest_token
    seat.display_name = name
    seat.bot_level = None
    seat.substitute = False
    seat.substitute_reason = ""
    seat.leaving = False
    seat.ready = False
    seat.seated_at = now
    seat.connected = False
    seat.channel_name = ""
    seat.disconnected_at = None
    seat.ip_hash = ip_hash or ""


def _connect(seat: Seat, channel_name: str, now: datetime) -> str | None:
    old = seat.channel_name if seat.connected and seat.channel_name != channel_name else None
    seat.connected = True
    seat.channel_name = channel_name
    seat.last_seen = now
    seat.disconnected_at = None
    return old or None


def _update_humans_since(room: Room, seats: Sequence[Seat], now: datetime) -> None:
    if any(s.is_human and s.connected for s in seats):
        room.no_humans_since = None
    elif room.no_humans_since is None:
        room.no_humans_since = now


def _pause(room: Room, rnd: Round | None, now: datetime, by: str) -> None:
    room.paused = True
    room.paused_by = by
    room.paused_at = now
    if rnd is not None:
        rnd.remaining_ms = None
        if rnd.due_at is not None:
            left = (rnd.due_at - now).total_seconds() * 1000
            rnd.remaining_ms = max(0, int(left))
        rnd.due_at, rnd.due_kind = None, None
        rnd.save(update_fields=["due_at", "due_kind", "remaining_ms"])


def _resume(room: Room, rnd: Round | None, seats: Sequence[Seat], now: datetime) -> None:
    """Continue from the same remaining time: the turn's start moves by the pause."""
    paused_for = now - room.paused_at if room.paused_at else timedelta(0)
    room.paused = False
    room.paused_by = ""
    room.paused_at = None
    if rnd is not None:
        rnd.turn_started_at += max(paused_for, timedelta(0))
        rnd.remaining_ms = None
        rnd.due_at, rnd.due_kind = games.compute_due(room, rnd, seats)
        rnd.save(update_fields=["turn_started_at", "remaining_ms", "due_at", "due_kind"])
    _maybe_deal_all_ready(room, rnd, seats, now)


def _takeover(
    room: Room, rnd: Round | None, seats: Sequence[Seat], seat: Seat, reason: str, now: datetime
) -> None:
    """A bot plays ``seat`` (same tiles and side) until the result; then it is empty.
    In the arena leaving a series is a walkover."""
    seat.substitute = True
    seat.substitute_reason = reason
    seat.bot_level = games.SUBSTITUTE_LEVEL
    seat.leaving = True
    seat.ready = False
    seat.save()
    ensure_host(room, seats)
    if room.preset in games.WALKOVER_PRESETS and rnd is not None and not rnd.match.over:
        games.walkover(room, rnd, seats, {seat.index}, now)
    else:
        games.refresh_due(room, rnd, seats)


def _all_filled(seats: Sequence[Seat]) -> bool:
    return all(not s.is_empty and not s.leaving for s in seats)


def _check_startable(seats: Sequence[Seat]) -> None:
    if not _all_filled(seats):
        raise _bad("seats_empty", _("Every seat must be taken (by a person or a bot)."))
    if not any(s.active_human for s in seats):
        raise _bad("need_human", _("A room needs at least one human."))


def _maybe_deal_all_ready(
    room: Room, rnd: Round | None, seats: Sequence[Seat], now: datetime
) -> Round | None:
    """Where every human confirms the next round: deal once they all have."""
    if (
        room.status != Room.Status.BETWEEN_ROUNDS
        or room.paused
        or rnd is None
        or rnd.match.over
        or room.ruleset.next_round != "all_ready"
        or not _all_filled(seats)
    ):
        return None
    humans = [s for s in seats if s.active_human]
    if not humans or not all(s.ready for s in humans):
        return None
    return games.deal_round(room, rnd.match, seats, now)


def _latest(room: Room) -> Round | None:
    return Round.objects.filter(room_id=room.pk).order_by("-id").first()


# ---------------------------------------------------------------------- creating


@transaction.atomic
def room_create(
    *,
    user: Any,
    guest_token: str | None = None,
    name: str,
    preset: str,
    options: dict | None = None,
    visibility: str = Room.Visibility.PUBLIC,
    move_seconds: int | None = None,
    ip_hash: str = "",
    now: datetime | None = None,
) -> Room:
    """A new room; its creator takes seat 0 and is the host. ``ip_hash``: the keyed
    hash of the creator's address (domino_site.client_ip), for the rated-table rule."""
    now = games.now_or(now)
    options = dict(options or {})
    rules = _rules_for(preset, options)
    move_seconds = _check_move_seconds(move_seconds)
    if visibility not in Room.Visibility.values:
        raise _bad("bad_visibility", _("A room is public or private."))
    if not _is_user(user):
        if visibility == Room.Visibility.PUBLIC:
            raise _bad("login_required", _("Log in to open a public room."))
        if not guest_token:
            raise ServiceError("not_seated", _("You are not seated at this table."))
    display = _person_name(user, None)
    room_name = (name or "").strip()[:80] or _("%(name)s's table") % {"name": display}
    for _attempt in range(5):
        try:
            with transaction.atomic():
                room = Room.objects.create(
                    code=new_room_code(),
                    name=room_name,
                    preset=preset,
                    options=options,
                    rules=rules.to_dict(),
                    move_seconds=move_seconds,
                    visibility=visibility,
                    created_by=user if _is_user(user) else None,
                    host_seat=0,
                    created_at=now,
                    last_activity_at=now,
                    no_humans_since=now,
                )
            break
        except IntegrityError:  # a code collision: draw another
            continue
    else:  # pragma: no cover - 32**8 codes
        raise RuntimeError("could not find a free room code")
    seats = [Seat(room=room, index=i) for i in range(rules.seats)]
    _seat_person(seats[0], user, guest_token, display, now, ip_hash)
    Seat.objects.bulk_create(seats)
    room_changed(room, lobby=True)
    return room


# ---------------------------------------------------------------------- seats


@transaction.atomic
def seat_take(
    *,
    room: Room,
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
    now = games.now_or(now)
    room = _lock_open(room)
    if not _is_user(user) and not guest_token:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if not _is_user(user) and room.visibility == Room.Visibility.PUBLIC:
        raise _bad("login_required", _("Log in to sit at a public table."))
    rnd = _current(room)
    seats = games.seats_of(room)
    target = _seat_at(seats, index)
    seat = _sit(room, rnd, seats, target, user, guest_token, name, now, ip_hash)
    if channel_name and seat.belongs_to(user, guest_token):
        _connect(seat, channel_name, now)
        seat.save()
    _update_humans_since(room, seats, now)
    games.refresh_due(room, rnd, seats)
    _maybe_deal_all_ready(room, rnd, seats, now)
    games.touch(room, now, lobby=True, rnd=rnd)
    return seat


def _sit(
    room: Room,
    rnd: Round | None,
    seats: Sequence[Seat],
    target: Seat,
    user: Any,
    guest_token: str | None,
    name: str | None,
    now: datetime,
    ip_hash: str = "",
) -> Seat:
    mine = next((s for s in seats if s.belongs_to(user, guest_token)), None)
    playing = _round_in_play(room)
    if mine is target:
        if target.substitute and target.substitute_reason == "left":
            # site.md: who leaves during a round leaves a bot in the seat until
            # the result; then the seat is empty (and free to take again).
            raise ServiceError(
                "seat_taken",
                _("You left this seat: a bot plays it until the round's result."),
                reason="left",
            )
        if target.substitute and target.leaving:  # back before the result: same hand
            _give_back(room, seats, target)
            target.save()
        return target
    if mine is not None and (playing or mine.leaving):
        raise ServiceError(
            "seat_taken", _("You already have a seat here."), reason="already_seated"
        )
    if target.is_human:
        if not (playing and target.leaving and target.substitute):
            raise ServiceError("seat_taken", _("That seat is taken."))
    reserved = next((s for s in seats if s.reserved_by(user, guest_token)), None)
    display = _person_name(user, name)
    if target.is_empty or (target.is_bot and not playing):
        if reserved is not None:
            reserved.clear_reservation()
            reserved.save()
        if mine is not None:  # moving between rounds: the old seat empties
            mine.clear()
            mine.save()
        _seat_person(target, user, guest_token, display, now, ip_hash)
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
    target.reserved_user = user if _is_user(user) else None
    target.reserved_guest_token = None if _is_user(user) else guest_token
    target.reserved_name = display
    target.reserved_ip_hash = ip_hash or ""
    target.save()
    return target


@transaction.atomic
def seat_take_by_invite(
    *,
    token: str,
    user: Any = None,
    guest_token: str | None = None,
    name: str | None = None,
    ip_hash: str = "",
    now: datetime | None = None,
) -> Seat:
    """The invite link: the seat already bound to this person, or the first free
    seat (an empty one, else a bot's: at once between rounds, reserved during one).
    Only private rooms have one (public rooms are for accounts: they sit from the
    table). Unknown token: ``bad_message``/``not_found``; no seat: ``room_full``."""
    now = games.now_or(now)
    rooms = Room.objects.filter(invite_token=token, visibility=Room.Visibility.PRIVATE)
    room_id = rooms.values_list("pk", flat=True).first()
    if room_id is None:
        raise _bad("not_found", _("This invitation does not exist."))
    room = _lock_open(Room(pk=room_id))
    if not _is_user(user) and not guest_token:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    rnd = _current(room)
    seats = games.seats_of(room)
    for seat in seats:
        if seat.belongs_to(user, guest_token) or seat.reserved_by(user, guest_token):
            return seat
    free = [s for s in seats if s.is_empty] or [
        s for s in seats if s.is_bot and not s.is_reserved and not s.leaving
    ]
    if not free:
        raise ServiceError("room_full", _("Every seat at this table is taken."))
    seat = _sit(room, rnd, seats, free[0], user, guest_token, name, now, ip_hash)
    games.refresh_due(room, rnd, seats)
    games.touch(room, now, lobby=True, rnd=rnd)
    return seat


@transaction.atomic
def seat_leave(*, room: Room, index: int, actor: Seat, now: datetime | None = None) -> None:
    """A human leaves: at once between rounds; during a round a bot keeps playing
    the seat (same tiles and side) until the result (arena: a walkover)."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    seat = _actor(seats, actor)
    if seat.index != index:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if seat.leaving:
        # A bot already stands in because they were away: now they leave for good
        # (no taking it back before the result), and the socket sees that change.
        seat.substitute_reason = "left"
        seat.save(update_fields=["substitute_reason"])
        games.touch(room, now, lobby=True, rnd=rnd)
        return
    _leave(room, rnd, seats, seat, "left", now)
    _update_humans_since(room, seats, now)
    games.touch(room, now, lobby=True, rnd=rnd)


def _leave(
    room: Room, rnd: Round | None, seats: Sequence[Seat], seat: Seat, reason: str, now: datetime
) -> None:
    """During a round a bot stands in until the result; otherwise the seat empties
    now. Abandoning an unfinished arena series is a walkover either way."""
    if _round_in_play(room):
        _takeover(room, rnd, seats, seat, reason, now)
        return
    if (
        room.preset in games.WALKOVER_PRESETS
        and rnd is not None
        and not rnd.match.over
        and room.status == Room.Status.BETWEEN_ROUNDS
    ):
        games.walkover(room, rnd, seats, {seat.index}, now)
    seat.clear()
    seat.save()
    ensure_host(room, seats)
    games.refresh_due(room, rnd, seats)


# ---------------------------------------------------------------------- bots


@transaction.atomic
def bot_add(
    *, room: Room, actor: Seat, index: int, level: str = "medium", now: datetime | None = None
) -> Seat:
    """The host puts a bot in an empty seat (at most ``seats - 1`` bots)."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    _host(room, seats, actor)
    seat = _seat_at(seats, index)
    level = _check_level(level)
    if not seat.is_empty:
        raise ServiceError("seat_taken", _("That seat is taken."))
    if sum(1 for s in seats if s.is_bot) >= len(seats) - 1:
        raise _bad("too_many_bots", _("A room needs at least one human: no more bots."))
    seat.clear()
    seat.kind = Seat.Kind.BOT
    seat.bot_level = level
    seat.display_name = _bot_name(level)
    seat.seated_at = now
    seat.save()
    _maybe_deal_all_ready(room, rnd, seats, now)
    games.touch(room, now, lobby=True, rnd=rnd)
    return seat


@transaction.atomic
def bot_remove(*, room: Room, actor: Seat, index: int, now: datetime | None = None) -> None:
    """The host removes a bot: at once, or at the result during a round."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    _host(room, seats, actor)
    seat = _seat_at(seats, index)
    if not seat.is_bot:
        raise _bad("not_a_bot", _("There is no bot in that seat."))
    if _round_in_play(room):
        seat.leaving = True
    else:
        reservation = (seat.reserved_user, seat.reserved_guest_token, seat.reserved_name)
        ip_hash = seat.reserved_ip_hash
        seat.clear()
        if reservation[0] is not None or reservation[1]:
            _seat_person(seat, *reservation, now, ip_hash)
            seat.clear_reservation()
    seat.save()
    games.touch(room, now, lobby=True, rnd=rnd)


@transaction.atomic
def bot_set_level(
    *, room: Room, actor: Seat, index: int, level: str, now: datetime | None = None
) -> Seat:
    """The host changes a bot's level; its hand and the chain stay as they are."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    _host(room, seats, actor)
    seat = _seat_at(seats, index)
    level = _check_level(level)
    if not seat.is_bot:
        raise _bad("not_a_bot", _("There is no bot in that seat."))
    seat.bot_level = level
    seat.display_name = _bot_name(level)
    seat.save(update_fields=["bot_level", "display_name"])
    games.touch(room, now, rnd=rnd)
    return seat


# ---------------------------------------------------------------------- matches and rounds


@transaction.atomic
def match_start(
    *, room: Room, actor: Seat, alone: bool = False, now: datetime | None = None
) -> Round:
    """The host starts a match (every seat filled): its first round is dealt.
    Also after a match is over (a new match). With ``alone`` at a two-seat table
    whose other seat is free, a medium bot takes that seat and a new match starts
    against it, even if the last match was left unfinished (site.md: the creator
    may restart alone against the computer)."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    if not alone and _both_accept(room, rnd):
        return _accept_new_match(room, rnd, seats, actor, now)
    host = _host(room, seats, actor)
    if room.paused:
        raise ServiceError("paused", _("The game is paused."))
    if room.status == Room.Status.PLAYING:
        raise _wrong_phase()
    if alone:
        _seat_bot_opposite(seats, host, now)
        if rnd is not None and not rnd.match.over:  # left unfinished: counts for nobody
            rnd.match.annulled = True
            games.match_award(rnd.match, None, "restart", now)
    elif not _match_over(rnd):
        raise _wrong_phase()
    _check_startable(seats)
    if rnd is not None and rnd.due_at is not None:
        rnd.due_at, rnd.due_kind = None, None
        rnd.save(update_fields=["due_at", "due_kind"])
    games.match_begin(room, seats, now)
    new = _current(room)
    games.touch(room, now, lobby=True, rnd=new)
    return new


def _seat_bot_opposite(seats: Sequence[Seat], host: Seat, now: datetime) -> None:
    other = seats[1 - host.index] if len(seats) == 2 else None
    if other is None or not other.is_empty:
        raise _bad("not_alone", _("Playing alone needs a two-seat table with the other seat free."))
    other.kind = Seat.Kind.BOT
    other.bot_level = games.SUBSTITUTE_LEVEL
    other.display_name = _bot_name(other.bot_level)
    other.seated_at = now
    other.save()


def _both_accept(room: Room, rnd: Round | None) -> bool:
    """Single-round matches (``duelo``): after a game every human accepts the next
    one (site.md), instead of the host alone starting it."""
    return (
        rnd is not None
        and rnd.match.over
        and room.ruleset.goal == "single"
        and room.status == Room.Status.BETWEEN_ROUNDS
    )


def _accept_new_match(
    room: Room, rnd: Round, seats: Sequence[Seat], actor: Seat | None, now: datetime
) -> Round:
    """``actor`` accepts a new game (its seat's ``ready``, shown as pending to the
    others); the last human to accept starts it. Bots always accept."""
    seat = _actor(seats, actor)
    if seat.substitute:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if room.paused:
        raise ServiceError("paused", _("The game is paused."))
    if not seat.ready:
        seat.ready = True
        seat.save(update_fields=["ready"])
    humans = [s for s in seats if s.active_human and not s.leaving]
    if not (_all_filled(seats) and all(s.ready for s in humans)):
        games.touch(room, now, rnd=rnd)
        return rnd
    if rnd.due_at is not None:
        rnd.due_at, rnd.due_kind = None, None
        rnd.save(update_fields=["due_at", "due_kind"])
    games.match_begin(room, seats, now)  # the deal clears every ready flag
    new = _current(room)
    games.touch(room, now, lobby=True, rnd=new)
    return new


def match_new(
    *, room: Room, actor: Seat, alone: bool = False, now: datetime | None = None
) -> Round:
    """ "New match": scores reset, first-round opening again, seats stay."""
    return match_start(room=room, actor=actor, alone=alone, now=now)


@transaction.atomic
def round_next(*, room: Room, actor: Seat, now: datetime | None = None) -> Round:
    """The host deals the next round (tables whose ``next_round`` is ``host``)."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    _host(room, seats, actor)
    if room.paused:
        raise ServiceError("paused", _("The game is paused."))
    if room.status != Room.Status.BETWEEN_ROUNDS or _match_over(rnd):
        raise _wrong_phase()
    if room.ruleset.next_round != "host":
        raise _bad("wrong_phase", _("At this table every player confirms the next round."))
    _check_startable(seats)
    new = games.deal_round(room, rnd.match, seats, now)
    games.touch(room, now, lobby=True, rnd=new)
    return new


@transaction.atomic
def player_ready(*, room: Room, actor: Seat, now: datetime | None = None) -> None:
    """A human confirms the next round (``all_ready``); the last one deals it."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    seat = _actor(seats, actor)
    if seat.substitute:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if room.status != Room.Status.BETWEEN_ROUNDS or _match_over(rnd):
        raise _wrong_phase()
    if room.ruleset.next_round != "all_ready":
        raise _bad("wrong_phase", _("At this table the host deals the next round."))
    seat.ready = True
    seat.save(update_fields=["ready"])
    new = _maybe_deal_all_ready(room, rnd, seats, now)
    if new is None:
        games.refresh_due(room, rnd, seats)
    games.touch(room, now, lobby=new is not None, rnd=new or rnd)


@transaction.atomic
def room_pause(*, room: Room, actor: Seat, now: datetime | None = None) -> None:
    """The host freezes the clock, the bots and the dealing; the time left is kept."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    _host(room, seats, actor)
    if room.paused:
        if room.paused_by == "host":  # nothing would change: say so (every message is answered)
            raise ServiceError("paused", _("The game is already paused."))
        room.paused_by = "host"  # paused for want of people: now the host's pause
        games.touch(room, now, rnd=rnd)
        return
    _pause(room, rnd, now, "host")
    games.touch(room, now, rnd=rnd)


@transaction.atomic
def room_resume(*, room: Room, actor: Seat, now: datetime | None = None) -> None:
    """The host resumes: the clock continues from the remaining time."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    _host(room, seats, actor)
    if not room.paused:  # nothing would change: say so (every message is answered)
        raise _bad("not_paused", _("The game is not paused."))
    _resume(room, rnd, seats, now)
    games.touch(room, now, rnd=_latest(room))


@transaction.atomic
def room_settings(
    *,
    room: Room,
    actor: Seat,
    move_seconds: Any = _UNSET,
    options: Any = _UNSET,
    now: datetime | None = None,
) -> Room:
    """The host changes the move clock (between rounds) or the table's options
    (before a match or after it ended; the seat count may change with them)."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    _host(room, seats, actor)
    if room.status == Room.Status.PLAYING:
        raise _wrong_phase()
    if move_seconds is not _UNSET:
        room.move_seconds = _check_move_seconds(move_seconds)
    if options is not _UNSET:
        if not _match_over(rnd):
            raise _bad("match_in_progress", _("The rules change only between matches."))
        merged = {**room.options, **(options or {})}
        rules = _rules_for(room.preset, merged)
        _resize(room, seats, rules.seats)
        room.options = merged
        room.rules = rules.to_dict()
    games.touch(room, now, lobby=True, rnd=rnd)
    return room


def _resize(room: Room, seats: Sequence[Seat], count: int) -> None:
    if count < len(seats):
        extra = seats[count:]
        if any(s.is_human or s.is_reserved for s in extra):
            raise _bad("seats_occupied", _("Someone sits in a seat that would disappear."))
        Seat.objects.filter(pk__in=[s.pk for s in extra]).delete()
    elif count > len(seats):
        Seat.objects.bulk_create([Seat(room=room, index=i) for i in range(len(seats), count)])


@transaction.atomic
def annul_vote(*, room: Room, actor: Seat, now: datetime | None = None) -> bool:
    """A human votes to annul the match; when every human has, it counts for nobody.
    Returns whether the match is now annulled."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    seat = _actor(seats, actor)
    if seat.substitute:
        raise ServiceError("not_seated", _("You are not seated at this table."))
    if rnd is None or rnd.match.over:
        raise _wrong_phase()
    match = rnd.match
    votes = sorted(set(match.annul_votes) | {seat.index})
    match.annul_votes = votes
    humans = {s.index for s in seats if s.active_human and not s.leaving}
    annulled = humans <= set(votes)
    if annulled:
        match.annulled = True
        match.save()
        games.match_award(match, None, "annulled", now)
        games.round_stop(room, rnd if rnd.finished_at is None else None, seats, now)
        if rnd.finished_at is not None:
            games.refresh_due(room, rnd, seats)
    else:
        match.save(update_fields=["annul_votes"])
    games.touch(room, now, lobby=annulled, rnd=rnd)
    return annulled


BENDS = ("straight", "left", "right")


@transaction.atomic
def layout_adjust(
    *, room: Room, actor: Seat, at: int, bend: str, now: datetime | None = None
) -> None:
    """The seat to act bends the drawn chain at link ``at`` (layout only, not a move)."""
    now, room, rnd, seats = _lock_with_seats(room, now)
    seat = _actor(seats, actor)
    if rnd is None or rnd.finished_at is not None or room.status != Room.Status.PLAYING:
        raise ServiceError("round_over")
    if seat.index not in games.acting_seats(rnd.engine()):
        raise ServiceError("not_your_turn")
    eng = rnd.engine()
    if bend not in BENDS or type(at) is not int or not 0 <= at < len(eng.chain):
        raise _bad("bad_layout", _("There is no such place on the chain."))
    if bend != "straight":
        _check_bend(eng.chain, at)
    layout = dict(rnd.layout)
    if bend == "straight":
        layout.pop(str(at), None)
    else:
        layout[str(at)] = bend
    rnd.layout = layout
    # For the log ("ajustou a fila"), after the move it followed.
    entry = {"after": len(eng.history), "seat": seat.index, "at": at, "bend": bend}
    rnd.adjustments = [*rnd.adjustments, entry]
    rnd.save(update_fields=["layout", "adjustments"])
    games.touch(room, now, rnd=rnd)


def _check_bend(chain: Sequence[Any], at: int) -> None:
    """Seed 002: the line never bends at the first tile of the round, and a double
    (drawn across the line) neither bends nor is followed by a bend."""
    if at == 0:
        raise _bad("bad_layout", _("The line cannot bend at the first tile."))
    link, end = chain[at], chain[at].end
    inner = next((chain[i] for i in range(at - 1, 0, -1) if chain[i].end == end), chain[0])
    if link.tile.is_double or inner.tile.is_double:
        raise _bad("bad_layout", _("The line does not bend at a double or right after one."))


@transaction.atomic
def room_close(*, room: Room, reason: str, now: datetime | None = None) -> None:
    """Close the room (admin, expiry): it keeps its history; timers stop."""
    now = games.now_or(now)
    room = games.lock_room(room)
    if room.is_closed:
        return
    rnd = _current(room)
    room.status = Room.Status.CLOSED
    room.closed_at = now
    room.close_reason = reason[:32]
    if rnd is not None and rnd.due_at is not None:
        rnd.due_at, rnd.due_kind = None, None
        rnd.save(update_fields=["due_at", "due_kind"])
    games.touch(room, now, lobby=True, rnd=rnd)


# ---------------------------------------------------------------------- connections


@transaction.atomic
def seat_connected(
    *,
    room: Room,
    index: int,
    channel_name: str,
    ip_hash: str = "",
    now: datetime | None = None,
) -> str | None:
    """A seated human's socket opened. Returns the channel it replaces (the other
    tab to tell ``replaced``), if any. Coming back before the result takes the
    seat back from the bot that stood in while away; an empty room resumes."""
    now = games.now_or(now)
    room = games.lock_room(room)
    if room.is_closed:  # nothing to bind: the page shows the closed room
        return None
    rnd = _current(room)
    seats = games.seats_of(room)
    seat = _seat_at(seats, index)
    if not seat.is_human or (seat.substitute and seat.substitute_reason != "away"):
        raise ServiceError("not_seated", _("You are not seated at this table."))
    old = _connect(seat, channel_name, now)
    if ip_hash:  # the address it plays from now (the rated-table rule follows it)
        seat.ip_hash = ip_hash
    if seat.substitute:
        _give_back(room, seats, seat)
    seat.save()
    room.no_humans_since = None
    if room.paused and room.paused_by == "empty":
        _resume(room, rnd, seats, now)
        rnd = _latest(room)
    else:
        games.refresh_due(room, rnd, seats)
    games.touch(room, now, lobby=True, rnd=rnd)
    return old


@transaction.atomic
def seat_disconnected(
    *, room: Room, index: int, channel_name: str, now: datetime | None = None
) -> None:
    """A seated human's socket closed (ignored when that tab was already replaced).
    The last connected human leaving pauses the room."""
    now = games.now_or(now)
    room = games.lock_room(room)
    if room.is_closed:
        return
    seats = games.seats_of(room)
    if not 0 <= index < len(seats):
        return
    seat = seats[index]
    if not seat.connected or seat.channel_name != channel_name:
        return
    rnd = _current(room)
    seat.connected = False
    seat.channel_name = ""
    seat.disconnected_at = now
    seat.last_seen = now
    seat.save()
    _update_humans_since(room, seats, now)
    if room.no_humans_since is not None and not room.paused and room.status != Room.Status.WAITING:
        _pause(room, rnd, now, "empty")
    else:
        games.refresh_due(room, rnd, seats)
    games.touch(room, now, lobby=True, rnd=rnd)


# ---------------------------------------------------------------------- the sweeper


def rooms_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The safety net (Celery beat / the ticker): disconnects the seats of a server
    process that died (Redis layer), fires due actions whose wake-up was lost,
    lets a bot take the seat of a human away for 2 minutes, pauses rooms with no
    connected human, closes public rooms 2 minutes after their last human and
    private rooms after 7 days without activity. Idempotent; returns counts."""
    now = games.now_or(now)
    done = {"dead_sockets": 0, "fired": 0, "takeovers": 0, "paused": 0, "closed": 0}
    for room_id, index, channel_name in _seats_of_dead_processes(now):
        done["dead_sockets"] += _safely(_sweep_dead_socket, room_id, index, channel_name, now)
    _safely(_sweep_dead_watchers, now)
    due = Round.objects.filter(
        due_at__lte=now,
        room__status__in=(Room.Status.PLAYING, Room.Status.BETWEEN_ROUNDS),
        room__paused=False,
    ).values_list("id", "version")
    for round_id, version in list(due):
        done["fired"] += _safely(games.round_due_fire, round_id=round_id, version=version, now=now)
    away = Seat.objects.filter(
        kind=Seat.Kind.HUMAN,
        substitute=False,
        connected=False,
        disconnected_at__lte=now - TAKEOVER_AFTER,
        room__status__in=(Room.Status.PLAYING, Room.Status.BETWEEN_ROUNDS),
        room__paused=False,
    ).values_list("room_id", "index")
    for room_id, index in list(away):
        done["takeovers"] += _safely(_sweep_takeover, room_id, index, now)
    open_rooms = Room.objects.exclude(status=Room.Status.CLOSED)
    connected = Seat.objects.filter(room=OuterRef("pk"), kind=Seat.Kind.HUMAN, connected=True)
    empty = open_rooms.filter(~Exists(connected))
    for room_id in list(empty.filter(paused=False).values_list("pk", flat=True)):
        done["paused"] += _safely(_sweep_empty, room_id, now)
    stale = list(
        empty.filter(
            visibility=Room.Visibility.PUBLIC, no_humans_since__lte=now - PUBLIC_EMPTY_CLOSE_AFTER
        ).values_list("pk", flat=True)
    )
    expired = list(
        open_rooms.filter(
            visibility=Room.Visibility.PRIVATE, last_activity_at__lte=now - PRIVATE_EXPIRE_AFTER
        ).values_list("pk", flat=True)
    )
    for room_id in stale:
        done["closed"] += _safely(_close_if, room_id, now, "empty", _public_empty_for)
    for room_id in expired:
        done["closed"] += _safely(_close_if, room_id, now, "expired", _private_expired)
    return done


def _safely(func: Any, *args: Any, **kwargs: Any) -> int:
    """One failing room must not stop the sweep of the others."""
    try:
        return int(bool(func(*args, **kwargs)))
    except Exception:  # noqa: BLE001 - logged; the next sweep tries again
        log.exception("sweep step %s%r failed", getattr(func, "__name__", func), args)
        return 0


def _seats_of_dead_processes(now: datetime) -> list[tuple[int, int, str]]:
    """Connected human seats whose socket lives in a server process that has not
    beaten for a TTL (``domino_site.liveness``; Redis layer only). A seat bound
    less than a TTL ago is left alone: its process may not have beaten yet.

    The database is asked for the distinct processes first (the part of the
    channel names up to ``!``: a handful of rows), Redis about those, and the
    database again only for the seats of dead ones."""
    if not liveness.enabled():
        return []
    bound_before = now - timedelta(seconds=liveness.ttl_seconds())
    candidates = (
        Seat.objects.filter(kind=Seat.Kind.HUMAN, connected=True, last_seen__lte=bound_before)
        .exclude(room__status=Room.Status.CLOSED)
        .exclude(channel_name="")
    )
    heads = candidates.annotate(
        head=Substr("channel_name", 1, StrIndex("channel_name", Value("!")))
    ).values_list("head", flat=True)
    processes = {p for head in set(heads.distinct()) if (p := liveness.process_of(head))}
    dead = liveness.dead_processes(processes)
    if not dead:
        return []
    of_dead = Q()
    for process in dead:
        of_dead |= Q(channel_name__contains=f"{process}!")
    rows = (
        candidates.filter(of_dead)
        .order_by("room_id", "index")
        .values_list("room_id", "index", "channel_name")
    )
    return [row for row in rows if liveness.process_of(row[2]) in dead]


def _sweep_dead_watchers(now: datetime) -> int:
    """Watcher sockets (``rooms.watchers``) of a server process that died: they no
    longer count. Same rule as for seats: a socket younger than a TTL is left alone."""
    if not liveness.enabled():
        return 0
    dead = liveness.dead_processes(watching.watcher_processes())
    if not dead:
        return 0
    old = now - timedelta(seconds=liveness.ttl_seconds())
    names = [
        name
        for name in watching.watcher_channels_of(dead)
        if Watcher.objects.filter(channel_name=name, joined_at__lte=old).exists()
    ]
    return watching.forget_channels(names)


def _sweep_dead_socket(room_id: int, index: int, channel_name: str, now: datetime) -> bool:
    """The socket's server process died without closing it: exactly as if it had
    closed (``seat_disconnected``: pause, automatic move, takeover, expiry follow)."""
    room = Room.objects.filter(pk=room_id).first()
    bound = Seat.objects.filter(
        room_id=room_id, index=index, connected=True, channel_name=channel_name
    )
    if room is None or not bound.exists():  # reconnected (or closed) meanwhile
        return False
    seat_disconnected(room=room, index=index, channel_name=channel_name, now=now)
    return True


@transaction.atomic
def _sweep_takeover(room_id: int, index: int, now: datetime) -> bool:
    """Two minutes away counts as leaving: a bot stands in during a round (coming
    back before the result returns the seat); between rounds the seat empties."""
    room = games.lock_room(room_id)
    if room.status not in (Room.Status.PLAYING, Room.Status.BETWEEN_ROUNDS) or room.paused:
        return False
    rnd = _current(room)
    seats = games.seats_of(room)
    seat = seats[index]
    if (
        not seat.is_human
        or seat.substitute
        or seat.connected
        or seat.disconnected_at is None
        or seat.disconnected_at > now - TAKEOVER_AFTER
    ):
        return False
    _leave(room, rnd, seats, seat, "away", now)
    _update_humans_since(room, seats, now)
    games.touch(room, now, lobby=True, rnd=rnd)
    return True


@transaction.atomic
def _sweep_empty(room_id: int, now: datetime) -> bool:
    room = games.lock_room(room_id)
    if room.is_closed:
        return False
    seats = games.seats_of(room)
    if any(s.is_human and s.connected for s in seats):
        return False
    changed = room.no_humans_since is None
    _update_humans_since(room, seats, now)
    paused = False
    if not room.paused and room.status != Room.Status.WAITING:
        _pause(room, _current(room), now, "empty")
        paused = True
    if changed or paused:
        games.touch(room, now, lobby=True, rnd=_latest(room))
    return paused


def _public_empty_for(room: Room, seats: Sequence[Seat], now: datetime) -> bool:
    return (
        room.visibility == Room.Visibility.PUBLIC
        and not any(s.is_human and s.connected for s in seats)
        and room.no_humans_since is not None
        and room.no_humans_since <= now - PUBLIC_EMPTY_CLOSE_AFTER
    )


def _private_expired(room: Room, seats: Sequence[Seat], now: datetime) -> bool:
    return (
        room.visibility == Room.Visibility.PRIVATE
        and room.last_activity_at <= now - PRIVATE_EXPIRE_AFTER
    )


def _close_if(room_id: int, now: datetime, reason: str, check: Any) -> bool:
    with transaction.atomic():
        room = games.lock_room(room_id)
        if room.is_closed or not check(room, games.seats_of(room), now):
            return False
        room_close(room=room, reason=reason, now=now)
        return True
