"""What every room service stands on: the locks, the checks and the refusals,
and the helpers of seats and people. The command wrapper is
`rooms.services.command`.

Helpers whose names end in ``_locked`` expect the room's lock held (Zulip's
``do_*``): they are steps inside a command, never entry points.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, TypeVar

from django.utils.translation import gettext as _

from games import engine
from games.models import Round
from rooms.errors import ServiceError, not_seated, rule_error_message
from rooms.models import BOT_LEVELS, MOVE_SECONDS_CHOICES, Room, Seat
from rooms.services.table_rows import LOCK_ROOM, SEATS

R = TypeVar("R")


def lock_room(room: Room | int) -> Room:
    """The room row, locked for this transaction (always the first lock taken)."""
    locked = LOCK_ROOM.first(room.pk if isinstance(room, Room) else room)
    if locked is None:
        raise gone()
    return locked


def seats_of(room: Room) -> list[Seat]:
    """The room's seats in index order (the room lock already serialises writers)."""
    seats = SEATS.all(room.pk)
    for seat in seats:
        seat.room = room
    return seats


# ---------------------------------------------------------------------- refusals


def gone() -> ServiceError:
    return ServiceError("room_closed", _("This room no longer exists."))


def closed() -> ServiceError:
    return ServiceError("room_closed", _("This room is closed."))


def paused() -> ServiceError:
    return ServiceError("paused", _("The game is paused."))


def bad(reason: str, message: str, field: str | None = None) -> ServiceError:
    return ServiceError("bad_message", message, reason=reason, field=field)


def wrong_phase() -> ServiceError:
    return bad("wrong_phase", _("That cannot be done at this point of the game."))


def is_user(user: Any) -> bool:
    return user is not None and getattr(user, "is_authenticated", False)


def actor_seat(seats: Sequence[Seat], actor: Seat | None) -> Seat:
    """The actor's seat as it is now: still a human playing it, still the same person."""
    if actor is None or not 0 <= actor.index < len(seats):
        raise not_seated()
    seat = seats[actor.index]
    same_person = seat.user_id == actor.user_id and seat.guest_token == actor.guest_token
    if seat.pk != actor.pk or not seat.is_human or not same_person:
        raise not_seated()
    return seat


def player_seat(seats: Sequence[Seat], actor: Seat | None) -> Seat:
    """The actor's seat, played by themselves (not by a bot standing in)."""
    seat = actor_seat(seats, actor)
    if seat.substitute:
        raise not_seated()
    return seat


def host_seat(room: Room, seats: Sequence[Seat], actor: Seat | None) -> Seat:
    seat = player_seat(seats, actor)
    if room.host_seat != seat.index:
        raise ServiceError("not_host", _("Only the host can do that."))
    return seat


def seat_at(seats: Sequence[Seat], index: Any) -> Seat:
    if type(index) is not int or not 0 <= index < len(seats):
        raise bad("bad_seat", _("There is no such seat."))
    return seats[index]


def check_level(level: Any) -> str:
    if level not in BOT_LEVELS:
        raise bad("bad_level", _("A bot plays at easy, medium or hard."))
    return level


def check_move_seconds(value: Any) -> int | None:
    if value is None or (type(value) is int and value in MOVE_SECONDS_CHOICES):
        return value
    raise bad("bad_clock", _("The move clock is 10, 15, 20, 30, 45 or 60 seconds, or none."))


def rules_for(preset: Any, options: Any) -> engine.RuleSet:
    if not isinstance(options, dict):
        raise bad("invalid_rules", _("The options must be an object of rule knobs."))
    try:
        return engine.RuleSet.preset(preset, **options)
    except engine.InvalidRules as exc:
        raise bad("invalid_rules", str(rule_error_message(exc.field)), field=exc.field) from None
    except TypeError:
        raise bad("invalid_rules", _("Those options are not valid.")) from None


# ---------------------------------------------------------------------- seats and people


def round_in_play(room: Room) -> bool:
    return room.status == Room.Status.PLAYING


def match_over(rnd: Round | None) -> bool:
    return rnd is None or rnd.match.over


def new_game_by_both(room: Room, rnd: Round | None) -> bool:
    """Single-round matches (``duelo``) after a game: every human accepts the
    next one (a seat's ``ready``), instead of the host alone starting it
    (docs/site.md, "Rounds and the clock")."""
    return (
        room.status == Room.Status.BETWEEN_ROUNDS
        and rnd is not None
        and rnd.match.over
        and room.ruleset.goal == "single"
    )


def pending_yes_terms(room: Room, rnd: Round | None, seats: Sequence[Seat]) -> Any:
    """What a pending "yes" to a duelo's next game was given to: who sits where,
    the move clock and the rules. None when no "yes" is pending."""
    if not new_game_by_both(room, rnd) or not any(s.ready for s in seats):
        return None
    people = tuple((s.kind, s.user_id, s.guest_token) for s in seats)
    return people, room.move_seconds, dict(room.rules)


def pending_yes_withdrawn_locked(
    room: Room, rnd: Round | None, seats: Sequence[Seat], terms: Any
) -> bool:
    """A pending "yes" stands for the game it was given to: once the people at
    the table or its settings differ from ``terms`` (`pending_yes_terms`), every
    "yes" is withdrawn, and each player accepts again (docs/site.md, "Rounds and
    the clock"). Whether any was."""
    if terms is None or not new_game_by_both(room, rnd):
        return False
    if pending_yes_terms(room, rnd, seats) in (None, terms):
        return False
    for seat in seats:
        if seat.ready:
            seat.ready = False
            seat.save(update_fields=["ready"])
    return True


def all_filled(seats: Sequence[Seat]) -> bool:
    return all(not s.is_empty and not s.leaving for s in seats)


def bot_name(level: str) -> str:
    names = {"easy": _("Bot (easy)"), "medium": _("Bot (medium)"), "hard": _("Bot (hard)")}
    return str(names.get(level, _("Bot")))


def person_name(user: Any, name: str | None) -> str:
    if name:
        return name[:80]
    if is_user(user):
        return user.get_username()[:80]
    return str(_("Guest"))


def seat_person(
    seat: Seat, user: Any, guest_token: str | None, name: str, now: datetime, ip_hash: str = ""
) -> None:
    """``seat`` is now this person's, not yet connected (the caller saves)."""
    seat.clear()
    seat.kind = Seat.Kind.HUMAN
    seat.user = user if is_user(user) else None
    seat.guest_token = None if seat.user is not None else guest_token
    seat.display_name = name
    seat.seated_at = now
    seat.ip_hash = ip_hash or ""


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


def update_humans_since(room: Room, seats: Sequence[Seat], now: datetime) -> None:
    if any(s.is_human and s.connected for s in seats):
        room.no_humans_since = None
    elif room.no_humans_since is None:
        room.no_humans_since = now


def bind_socket(seat: Seat, channel_name: str, now: datetime) -> str | None:
    """``seat`` is connected through ``channel_name`` now (the caller saves).
    Returns the channel it replaces (another tab), if any."""
    old = seat.channel_name if seat.connected and seat.channel_name != channel_name else None
    seat.connected = True
    seat.channel_name = channel_name
    seat.last_seen = now
    seat.disconnected_at = None
    return old or None
