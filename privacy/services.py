"""Writes of a person's data rights (docs/site.md, "Your data (LGPD)").

* `export_taken`: a copy given (on the site or by staff) is recorded as a done
  `DataRequest`; the site's own copies are limited per account and window.
* `account_delete`: one atomic service. The account can no longer sign in; its
  name, email, sessions, friends, blocks, presence and settings are erased;
  its place in other people's matches, replays and ratings stays under a
  tombstone name (`domino_site.removed`) that every page shows as "Removed
  player"; a table it sits at is left as a leave is (the rulebook's
  forfeit: `rooms.services.seat_leave`); its name is held for `NAME_HOLD`.
  After the commit its former friends' lists are told.
* `data_request_carry_out`: staff carry out a written-in request (the admin's
  action), through the same services, recording who and when.
* `retention_sweep`: the sweeper's part (`timers.jobs.sweep`): what the
  privacy notice says is deleted after so many days is deleted.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime, timedelta
from typing import Any

from axes.models import AccessAttempt, AccessFailureLog
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.sessions.models import Session
from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from accounts.services import account_erase
from arenas.models import Arena, ArenaPlayer
from arenas.services import arena_leave
from domino_site.removed import TOMBSTONE_WORDS, is_tombstone, tombstone_name
from games.errors import ServiceError
from games.models import Round
from games.world import world
from people.events import tell_lists
from people.models import (
    Block,
    Challenge,
    FriendRequest,
    Friendship,
    Preferences,
    Presence,
    QueuePartner,
    Sanction,
)
from puzzles.models import PuzzleTry
from quick.services import quick_leave
from records.models import Cooldown, RoundPlayer, Signup
from rooms import services as rooms
from rooms.models import Room, Seat
from twofactor.services import two_factor_off

from . import selectors
from .models import DataRequest, HeldName

log = logging.getLogger(__name__)

#: How long a removed account's name stays out of reach of a new account.
NAME_HOLD = timedelta(days=90)
#: Failed sign-ins (django-axes keeps the client address with them): deleted after.
LOGIN_FAILURE_DAYS = 30
#: Rows one retention pass changes at most per kind (the sweeper runs every few
#: seconds; a backlog drains over several passes, never in one long transaction).
RETENTION_BATCH = 500
#: One retention pass per this long (the sweep job asks every time).
RETENTION_EVERY = timedelta(hours=1)


def _now(now: datetime | None) -> datetime:
    return now or world().now()


def _refused(reason: str, message: str) -> ServiceError:
    return ServiceError("bad_message", message, reason=reason)


# ------------------------------------------------------------------ the copy


def export_taken(
    *, user: Any, by: Any = None, request: DataRequest | None = None, now: datetime | None = None
) -> DataRequest:
    """Record a copy of ``user``'s data given to them: on the site (``by`` None:
    refused with ``rate_limited`` past `settings.PRIVACY_EXPORT_LIMIT` in the
    window), or by staff (``by``; ``request``: the written-in one it answers)."""
    now = _now(now)
    with transaction.atomic():
        if by is None:
            get_user_model().objects.select_for_update().filter(pk=user.pk).first()
            if selectors.exports_recent(user, now=now) >= settings.PRIVACY_EXPORT_LIMIT:
                raise ServiceError(
                    "rate_limited",
                    _("You have taken copies of your data too often: try again tomorrow."),
                )
            return DataRequest.objects.create(
                user=user,
                kind=DataRequest.Kind.EXPORT,
                source=DataRequest.Source.SITE,
                requested_at=now,
                done_by=user,
                done_at=now,
            )
        return _done(request, user=user, kind=DataRequest.Kind.EXPORT, by=by, now=now)


def _done(
    request: DataRequest | None, *, user: Any, kind: str, by: Any, now: datetime
) -> DataRequest:
    if request is None:
        request = DataRequest(
            user=user, kind=kind, source=DataRequest.Source.STAFF, requested_at=now
        )
    request.done_by, request.done_at = by, now
    request.save()
    return request


# ------------------------------------------------------------------ deletion


def _leave_play(user: Any, now: datetime) -> None:
    """Every table this account sits at is left as a leave is (during a match:
    a bot plays the seat to the result, the rulebook's forfeit and cool-down);
    the quick-match queue and the arenas are left; reservations are dropped."""
    seats = Seat.objects.filter(user=user).exclude(room__status=Room.Status.CLOSED)
    for seat in seats.select_related("room"):  # away already (a bot in it): for good now
        try:
            rooms.seat_leave(room=seat.room_id, index=seat.index, actor=seat, now=now)
        except ServiceError:  # no longer theirs (a leave already under way)
            log.info("account_delete: seat %s of room %s not left", seat.index, seat.room_id)
    Seat.objects.filter(reserved_user=user).update(
        reserved_user=None, reserved_name="", reserved_ip_hash=""
    )
    quick_leave(user=user)
    arenas = ArenaPlayer.objects.filter(user=user, active=True).exclude(
        arena__status__in=[Arena.Status.FINISHED, Arena.Status.CANCELLED]
    )
    for arena_id in arenas.values_list("arena", flat=True):
        arena_leave(arena=arena_id, user=user, now=now)


def _erase_people(user: Any, now: datetime) -> list[int]:
    """Friends, requests, blocks made, presence, the queue partner, settings;
    challenges still waiting are withdrawn (or declined). The former friends'
    ids (their lists change)."""
    friendships = Friendship.objects.filter(Q(low=user) | Q(high=user))
    friends = [f.high_id if f.low_id == user.pk else f.low_id for f in friendships]
    friendships.delete()
    FriendRequest.objects.filter(Q(sender=user) | Q(recipient=user)).delete()
    Block.objects.filter(blocker=user).delete()
    Presence.objects.filter(user=user).delete()
    Preferences.objects.filter(user=user).delete()
    QueuePartner.objects.filter(Q(user=user) | Q(partner=user)).delete()
    pending = Challenge.objects.filter(status=Challenge.Status.PENDING)
    pending.filter(challenger=user).update(status=Challenge.Status.WITHDRAWN, answered_at=now)
    pending.filter(challenged=user).update(status=Challenge.Status.DECLINED, answered_at=now)
    Challenge.objects.filter(Q(challenger=user) | Q(challenged=user)).update(
        challenger_ip_hash="", challenged_ip_hash=""
    )
    return friends


def _rename_everywhere(user: Any, old_name: str, tombstone: str) -> None:
    """Every name the site stored for this account becomes its tombstone: the
    seats' names, the rounds' players (the replay,
    the round's JSON, the admin), the cool-downs (the table's "X left"). The
    name of a table it sat at that holds its name ("anastacia's table", the
    default) says "Jogador removido" instead; its sanctions forget the name it
    had before a name reset."""
    room_ids = set(RoundPlayer.objects.filter(user=user).values_list("room", flat=True))
    room_ids |= set(Seat.objects.filter(user=user).values_list("room", flat=True))
    named = re.compile(rf"(?<!\w){re.escape(old_name)}(?!\w)", re.IGNORECASE)  # a whole word
    for room in Room.objects.filter(pk__in=room_ids, name__icontains=old_name).only("pk", "name"):
        Room.objects.filter(pk=room.pk).update(name=named.sub(TOMBSTONE_WORDS, room.name)[:80])
    Sanction.objects.filter(user=user).update(old_name="")
    Seat.objects.filter(user=user).update(display_name=tombstone)
    Cooldown.objects.filter(user=user).update(name=tombstone)
    round_ids = RoundPlayer.objects.filter(user=user).values_list("round", flat=True)
    for rnd in Round.objects.filter(pk__in=round_ids).only("pk", "players"):
        players = [
            {**p, "name": tombstone} if p.get("user") == user.pk else p for p in rnd.players or []
        ]
        if players != rnd.players:
            Round.objects.filter(pk=rnd.pk).update(players=players)
    PuzzleTry.objects.filter(user=user).update(ip_hash="")
    ArenaPlayer.objects.filter(user=user).update(ip_hash="")


def _accounts_app_erase(user: Any) -> None:
    """The accounts' part (`accounts.services.account_erase`: the addresses,
    their history and mail, the recorded sessions signed out), Django's own
    session rows of the person, and the second factors (twofactor: the app's
    key and the recovery codes)."""
    account_erase(user=user)
    Session.objects.filter(pk__in=[s.pk for s in selectors.user_sessions(user)]).delete()
    two_factor_off(user=user)


def account_delete(
    *,
    user: Any,
    by: Any = None,
    request: DataRequest | None = None,
    now: datetime | None = None,
) -> DataRequest:
    """Delete ``user``'s account (docs/site.md, "Your data (LGPD)"): by the
    person (``by`` None, after the page checked the password and the
    confirmation) or by staff (``by``; ``request``: the written-in request).
    Refused (``bad_message``/``already_removed``) for an account removed
    already; nothing changes then."""
    now = _now(now)
    with transaction.atomic():
        user = get_user_model().objects.select_for_update().get(pk=user.pk)
        if is_tombstone(user.username):
            raise _refused("already_removed", _("This account was removed already."))
        old_name, tombstone = user.username, tombstone_name(user.pk)
        # Renamed first: the leave's frames (built while the rows are locked) and
        # its cool-down's name already say the tombstone, never the old name.
        _rename_everywhere(user, old_name, tombstone)
        _leave_play(user, now)
        Cooldown.objects.filter(user=user).update(name=tombstone)
        # After the leave, whose rulebook reads them (the same-address rule).
        Seat.objects.filter(user=user).update(ip_hash="")
        friends = _erase_people(user, now)
        _accounts_app_erase(user)
        AccessAttempt.objects.filter(username=old_name).delete()
        AccessFailureLog.objects.filter(username=old_name).delete()
        HeldName.objects.create(name=old_name, until=now + NAME_HOLD)
        user.username = tombstone
        user.first_name = user.last_name = user.email = ""
        user.set_unusable_password()  # and so every session's auth hash is stale
        user.is_active = user.is_staff = user.is_superuser = False
        user.last_login = None
        user.save()
        user.groups.clear()
        user.user_permissions.clear()
        if by is None:
            done = DataRequest.objects.create(
                user=user,
                kind=DataRequest.Kind.DELETION,
                source=DataRequest.Source.SITE,
                requested_at=now,
                done_by=None,
                done_at=now,
            )
        else:
            done = _done(request, user=user, kind=DataRequest.Kind.DELETION, by=by, now=now)
        tell_lists(friends)  # after the commit: their lists lose this account
        transaction.on_commit(lambda: log.info("account %s removed", user.pk))
    return done


def data_request_carry_out(*, request: DataRequest, by: Any, now: datetime | None = None) -> Any:
    """Staff carry out a written-in request: a deletion through `account_delete`,
    a copy through `export_taken` (its file: `selectors.account_export`).
    Refused (``bad_message``/``already_done``) when it was done already."""
    if request.done_at is not None:
        raise _refused("already_done", _("This request was carried out already."))
    if request.kind == DataRequest.Kind.DELETION:
        return account_delete(user=request.user, by=by, request=request, now=now)
    return export_taken(user=request.user, by=by, request=request, now=now)


# ------------------------------------------------------------------ retention

_last_pass: list[int] = []  # the RETENTION_EVERY period of the last pass, in this process


def retention_sweep(*, now: datetime | None = None, force: bool = False) -> dict[str, int]:
    """What the privacy notice says is deleted after so many days (settings
    ``PRIVACY_ADDRESS_DAYS``, ``PRIVACY_REQUEST_DAYS``): the hashed client
    addresses of the seats and tables of rooms closed, the challenges answered,
    the arenas ended and the puzzle tries made before then, the sign-ups'
    rows (only their address and time), the failed sign-ins, the expired
    sessions, the names held past their 90 days, the done data requests. At
    most `RETENTION_BATCH` rows per kind and pass, once per `RETENTION_EVERY`
    (``force``: now). What each kind changed, by name."""
    now = _now(now)
    period = int(now.timestamp() // RETENTION_EVERY.total_seconds())
    if not force and _last_pass and _last_pass[0] == period:
        return {}
    _last_pass[:] = [period]
    addresses = now - timedelta(days=settings.PRIVACY_ADDRESS_DAYS)

    def cleared(queryset: Any, **fields: Any) -> int:
        ids = list(queryset.values_list("pk", flat=True)[:RETENTION_BATCH])
        return queryset.model.objects.filter(pk__in=ids).update(**fields) if ids else 0

    def deleted(queryset: Any) -> int:
        ids = list(queryset.values_list("pk", flat=True)[:RETENTION_BATCH])
        return queryset.model.objects.filter(pk__in=ids).delete()[0] if ids else 0

    closed = Q(room__status=Room.Status.CLOSED, room__closed_at__lt=addresses)
    done = {
        "seats": cleared(
            Seat.objects.filter(closed).filter(~Q(ip_hash="") | ~Q(reserved_ip_hash="")),
            ip_hash="",
            reserved_ip_hash="",
        ),
        "rooms": cleared(
            Room.objects.filter(status=Room.Status.CLOSED, closed_at__lt=addresses).exclude(
                created_ip_hash=""
            ),
            created_ip_hash="",
        ),
        "challenges": cleared(
            Challenge.objects.filter(created_at__lt=addresses)
            .exclude(status=Challenge.Status.PENDING)
            .filter(~Q(challenger_ip_hash="") | ~Q(challenged_ip_hash="")),
            challenger_ip_hash="",
            challenged_ip_hash="",
        ),
        "arena_players": cleared(
            ArenaPlayer.objects.filter(
                arena__status__in=[Arena.Status.FINISHED, Arena.Status.CANCELLED],
                joined_at__lt=addresses,
            ).exclude(ip_hash=""),
            ip_hash="",
        ),
        "puzzle_tries": cleared(
            PuzzleTry.objects.filter(created_at__lt=addresses).exclude(ip_hash=""), ip_hash=""
        ),
        "signups": deleted(Signup.objects.filter(created_at__lt=addresses)),
        "login_failures": deleted(
            AccessAttempt.objects.filter(attempt_time__lt=now - timedelta(days=LOGIN_FAILURE_DAYS))
        )
        + deleted(
            AccessFailureLog.objects.filter(
                attempt_time__lt=now - timedelta(days=LOGIN_FAILURE_DAYS)
            )
        ),
        "sessions": deleted(Session.objects.filter(expire_date__lt=now)),
        "held_names": deleted(HeldName.objects.filter(until__lt=now)),
        "data_requests": deleted(
            DataRequest.objects.filter(
                done_at__lt=now - timedelta(days=settings.PRIVACY_REQUEST_DAYS)
            )
        ),
    }
    return done
