"""How many rooms a person may open (settings: ``ROOM_CREATE_LIMIT`` per
``ROOM_CREATE_WINDOW``), counted from the rooms table itself, so every web
process sees the same count.

A person is an account, or a guest (the signed guest cookie): the rooms a guest
opened are the ones without an account whose first seat (the creator's) holds
that guest's token. A client that drops its cookies is a new guest every time;
limiting such clients per address is the proxy's job (README, "Production").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils.translation import ngettext

from games.world import now_or
from rooms.models import Room


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


def room_create_refusal(
    *, user: Any, guest_token: str | None, now: datetime | None = None
) -> str | None:
    """A translated message when this person has opened their share of rooms
    for now, else None."""
    limit = settings.ROOM_CREATE_LIMIT
    if rooms_opened_recently(user=user, guest_token=guest_token, now=now) < limit:
        return None
    minutes = round(settings.ROOM_CREATE_WINDOW.total_seconds() / 60)
    return ngettext(
        "You may open %(n)s table every %(minutes)s minutes: wait a little before opening another.",
        "You may open %(n)s tables every %(minutes)s minutes: wait a little before "
        "opening another.",
        limit,
    ) % {"n": limit, "minutes": minutes}
