"""Who may not sit together: two accounts of which one blocks the other
(docs/site.md, "Friends, blocking and who is online"). Every way to take or be
handed a seat asks here: a person sitting down (`check_not_kept_apart`), and a
reservation handed over when its seat frees (`reservation_lapses`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from rooms.errors import ServiceError
from rooms.models import Room, Seat
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
