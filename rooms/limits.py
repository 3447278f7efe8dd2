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
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.world import now_or
from rooms.models import Room, Seat


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
