"""Who may not sit together, and who may not come in: the rulebook every way
to take or be handed a seat, and every way to watch, asks.

* Two accounts of which one blocks the other (docs/site.md, "Friends, blocking
  and who is online"): a person sitting down (`check_not_kept_apart`), and a
  reservation handed over when its seat frees (`reservation_lapses`).
* A host's locks (docs/site.md, "Locked tables"): a password to take a seat
  other than by the invite link (`check_table_password`), limited like a login
  (`rooms.limits.password_refusal`), and "sem espectadores" (`watch_refusal`:
  the table page and the table socket ask it of whoever has no seat there).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.utils.translation import gettext as _

from games.world import now_or
from rooms.errors import ServiceError
from rooms.limits import password_refusal
from rooms.models import PasswordMiss, Room, Seat
from rooms.services.base import is_user
from rooms.signals import kept_apart


def check_not_kept_apart(seats: Sequence[Seat], user: Any) -> None:
    """The one check of every way to take a seat (docs/site.md, "Friends,
    blocking and who is online"): an account never sits, nor reserves a seat,
    at a table where someone they block, or who blocks them, sits or holds a
    reservation (the host is one of them). The people answer who is kept apart
    (`rooms.signals.kept_apart`); refused with ``blocked``."""
    refusal = kept_apart_refusal(seats, user)
    if refusal is not None:
        raise refusal


def kept_apart_refusal(seats: Sequence[Seat], user: Any) -> ServiceError | None:
    """`check_not_kept_apart`'s answer as a value: the refusal, or None when
    ``user`` may sit with these seats' people (a reservation handed over at a
    round's result asks it too: a block made since lets it lapse)."""
    if not is_user(user):
        return None
    others = {
        seat.user_id
        for seat in seats
        if seat.user_id and seat.is_human and seat.substitute_reason != "left"
    } | {seat.reserved_user_id for seat in seats if seat.reserved_user_id}
    others.discard(user.pk)
    if not others:
        return None
    blocks: set[tuple[int, int]] = set()
    for _receiver, answer in kept_apart.send(sender=Room, user_ids={user.pk, *others}):
        blocks |= _block_pairs(answer)
    if any((user.pk, other) in blocks for other in others):
        return ServiceError(
            "blocked", _("You blocked someone at this table: unblock them to sit here.")
        )
    if any((other, user.pk) in blocks for other in others):
        return ServiceError("blocked", _("You cannot sit at this table."))
    return None


def _block_pairs(answer: Any) -> set[tuple[int, int]]:
    """A receiver's answer to `rooms.signals.kept_apart`: (blocker, blocked) pairs."""
    return {(int(blocker), int(blocked)) for blocker, blocked in answer or ()}


def reservation_lapses(seats: Sequence[Seat], seat: Seat) -> bool:
    """``seat``'s reservation is not honoured when its seat frees: its person and
    someone at the table block one another (a block made since it was made)."""
    user = seat.reserved_user
    others = [other for other in seats if other is not seat]
    return user is not None and kept_apart_refusal(others, user) is not None


# The longest password a host may set, and the longest one read: a password is
# hashed (slow on purpose), so a megabyte's worth is refused unread.
PASSWORD_MAX_LENGTH = 128


class TablePasswordHasher(PBKDF2PasswordHasher):
    """Django's PBKDF2 at fewer rounds, for a table's password only. A table's
    password is checked inside the table's lock (every seat-taking path asks
    `check_table_password` there), so the accounts' million rounds (a third of
    a second) would hold the table's moves while a stranger guesses; 20,000
    rounds cost a few milliseconds. It guards a week-long table, not an
    account, and the wrong guesses are limited (`rooms.limits`)."""

    algorithm = "pbkdf2_sha256_table"
    iterations = 20_000


TABLE_PASSWORD_HASHER = TablePasswordHasher()


def password_hash_of(password: str | None) -> str:
    """What a room keeps of its host's password (`Room.password_hash`): its
    `TablePasswordHasher` hash, or "" for a table without one."""
    if not password:
        return ""
    return TABLE_PASSWORD_HASHER.encode(password, TABLE_PASSWORD_HASHER.salt())


def _password_matches(password: str, encoded: str) -> bool:
    return encoded.startswith(TablePasswordHasher.algorithm + "$") and (
        TABLE_PASSWORD_HASHER.verify(password, encoded)
    )


def check_table_password(
    room: Room,
    *,
    user: Any,
    guest_token: str | None,
    password: str | None,
    ip_hash: str,
    now: datetime | None = None,
) -> None:
    """A person taking a seat at a locked table other than by its invite link
    gives its password (docs/site.md, "Locked tables"). Refused with
    ``rate_limited`` while this person or their address is over the wrong
    passwords' limit (asked first, so the right password does not help then),
    ``password_required`` without one (not counted: the page asks for it), and
    ``wrong_password`` (counted by `seating.seat_take`, after the refusal)."""
    if not room.locked:
        return
    refusal = password_refusal(user=user, guest_token=guest_token, ip_hash=ip_hash, now=now)
    if refusal is not None:
        raise ServiceError("rate_limited", refusal)
    if not password:
        raise ServiceError("password_required", _("This table asks for a password to sit."))
    if len(password) > PASSWORD_MAX_LENGTH or not _password_matches(password, room.password_hash):
        raise ServiceError("wrong_password", _("Wrong password for this table."))


def password_miss_record(
    *,
    room_id: int,
    user: Any,
    guest_token: str | None,
    ip_hash: str,
    now: datetime | None = None,
) -> None:
    """Count a wrong password (`rooms.limits.password_refusal`). Written after
    the refused command's transaction rolled back, so that it stays."""
    PasswordMiss.objects.create(
        room_id=room_id,
        user=user if is_user(user) else None,
        guest_token="" if is_user(user) else (guest_token or ""),
        ip_hash=ip_hash or "",
        at=now_or(now),
    )


def watch_refusal(room: Room) -> ServiceError | None:
    """``no_watchers`` at a table whose host allowed no watchers ("sem
    espectadores"), for whoever has no seat nor reservation there (the callers
    ask it of them only: its players, and the people its invite seats, come in);
    else None."""
    return no_watchers_error() if room.no_watchers else None


def no_watchers_error() -> ServiceError:
    """`watch_refusal`'s refusal, in the active language."""
    return ServiceError(
        "no_watchers", _("This table does not accept watchers: only its players see it.")
    )
