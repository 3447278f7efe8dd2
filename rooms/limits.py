"""How many rooms a person may open (settings: ``ROOM_CREATE_LIMIT`` per
``ROOM_CREATE_WINDOW``), counted from the rooms table itself, so every web
process sees the same count.

A person is an account, or a guest (the signed guest cookie): the rooms a guest
opened are the ones without an account whose first seat (the creator's) holds
that guest's token. A client that drops its cookies is a new guest every time,
so the rooms opened from one client address (its keyed hash, kept on the room)
are limited as well (``ROOM_CREATE_LIMIT_PER_ADDRESS``), and so are the tables
with bots open at once from one address (``SOLO_TABLES_PER_ADDRESS``: bots
cost CPU).

Wrong passwords at locked tables are limited like failed logins, per person and
per address (``TABLE_PASSWORD_FAILURES_PER_PERSON``,
``TABLE_PASSWORD_FAILURES_PER_ADDRESS`` per ``TABLE_PASSWORD_WINDOW``), counted
from their own rows (`PasswordMiss`).
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.world import now_or
from rooms.models import PasswordMiss, Room, Seat


def rooms_opened_recently(
    *, user: Any, guest_token: str | None, now: datetime | None = None
) -> int:
    since = now_or(now) - settings.ROOM_CREATE_WINDOW
    rooms = Room.objects.filter(created_at__gte=since)
    if user is not None:
        return rooms.filter(created_by=user).count()
    if guest_token:
        return rooms.filter(
            created_by__isnull=True, seats__index=0, seats__guest_token=guest_token
        ).count()
    return 0


def rooms_opened_from(ip_hash: str, now: datetime | None = None) -> int:
    since = now_or(now) - settings.ROOM_CREATE_WINDOW
    return Room.objects.filter(created_at__gte=since, created_ip_hash=ip_hash).count()


# A "play alone" table still waiting for its person's seed this long was never
# opened: the sweeper closes it, and it no longer counts against its address.
UNSEEDED_CLOSE_AFTER = timedelta(minutes=2)


def solo_tables_open_from(ip_hash: str, now: datetime | None = None) -> int:
    """Rooms opened from this address that have a bot seated and may be playing:
    not closed, not paused for want of a connected person (the sweeper pauses a
    table its people left: its bots then cost nothing), and not a "play alone"
    table whose seed never came (`UNSEEDED_CLOSE_AFTER`)."""
    with_bots = Seat.objects.filter(kind=Seat.Kind.BOT).values("room_id")
    stale = now_or(now) - UNSEEDED_CLOSE_AFTER
    return (
        Room.objects.filter(created_ip_hash=ip_hash, pk__in=with_bots)
        .exclude(status=Room.Status.CLOSED)
        .exclude(paused=True, paused_by="empty")
        .exclude(status=Room.Status.WAITING, start_on_seeds=True, created_at__lte=stale)
        .count()
    )


def room_create_refusal(
    *,
    user: Any,
    guest_token: str | None,
    ip_hash: str = "",
    solo: bool = False,
    now: datetime | None = None,
) -> str | None:
    """A translated message when this person (or their address) has opened their
    share of rooms for now, else None."""
    limit = settings.ROOM_CREATE_LIMIT
    minutes = round(settings.ROOM_CREATE_WINDOW.total_seconds() / 60)
    person_full = rooms_opened_recently(user=user, guest_token=guest_token, now=now) >= limit
    if ip_hash and not person_full:
        limit = settings.ROOM_CREATE_LIMIT_PER_ADDRESS
        person_full = rooms_opened_from(ip_hash, now) >= limit
    if person_full:
        return ngettext(
            "You may open %(n)s table every %(minutes)s minutes: wait a little before "
            "opening another.",
            "You may open %(n)s tables every %(minutes)s minutes: wait a little before "
            "opening another.",
            limit,
        ) % {"n": limit, "minutes": minutes}
    if solo and ip_hash and solo_tables_open_from(ip_hash, now) >= settings.SOLO_TABLES_PER_ADDRESS:
        return _("Too many tables with bots are open from your address: close one first.")
    return None


def _password_misses(**who: Any) -> list[datetime]:
    """The times of the wrong passwords ``who`` gave within the window."""
    return list(PasswordMiss.objects.filter(**who).values_list("at", flat=True))


def password_refusal(
    *, user: Any, guest_token: str | None, ip_hash: str, now: datetime | None = None
) -> str | None:
    """A translated message when this person (an account, or a guest's token) gave
    ``TABLE_PASSWORD_FAILURES_PER_PERSON`` wrong table passwords within
    ``TABLE_PASSWORD_WINDOW``, or their address ``TABLE_PASSWORD_FAILURES_PER_ADDRESS``,
    else None. Asked before the password is checked, as a login lockout is: the
    right password does not help, so a guesser learns nothing more until the
    oldest of those failures is out of the window."""
    now = now_or(now)
    window = settings.TABLE_PASSWORD_WINDOW
    recent = {"at__gt": now - window}
    person: list[datetime] = []
    if user is not None and getattr(user, "is_authenticated", False):
        person = _password_misses(user=user, **recent)
    elif guest_token:
        person = _password_misses(user__isnull=True, guest_token=guest_token, **recent)
    free_at = _free_at(person, settings.TABLE_PASSWORD_FAILURES_PER_PERSON, window)
    if free_at is None and ip_hash:
        address = _password_misses(ip_hash=ip_hash, **recent)
        free_at = _free_at(address, settings.TABLE_PASSWORD_FAILURES_PER_ADDRESS, window)
    if free_at is None:
        return None
    minutes = max(1, math.ceil((free_at - now).total_seconds() / 60))
    return ngettext(
        "Too many wrong table passwords: try again in %(minutes)s minute.",
        "Too many wrong table passwords: try again in %(minutes)s minutes.",
        minutes,
    ) % {"minutes": minutes}


def _free_at(times: list[datetime], limit: int, window: timedelta) -> datetime | None:
    """When ``limit`` of ``times`` (all within the window) stop holding: the
    ``limit``-th latest's end of window; None while there are fewer."""
    latest = sorted(times, reverse=True)
    return latest[limit - 1] + window if limit > 0 and len(latest) >= limit else None


def password_miss_forget_before(when: datetime) -> int:
    """The sweeper: wrong passwords older than ``when`` count no more."""
    deleted, _kinds = PasswordMiss.objects.filter(at__lt=when).delete()
    return deleted
