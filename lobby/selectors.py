"""Reads of the public list for the lobby: one filtered page of it (the page,
`/api/rooms/` and the socket), and how many rows a filter has. The rows are
the rooms' own (`rooms.selectors.public_listing`, `listing_entries`), so the
lobby's reads and the rooms' notices (`rooms.events.lobby_notice`) agree."""

from __future__ import annotations

from django.db.models import F, Q, QuerySet

from lobby.listing import NO_CLOCK, View
from rooms.models import Room
from rooms.selectors import Entry, listing_entries, public_listing


def lobby_entries(view: View, limit: int) -> list[Entry]:
    """The first ``limit`` rows of ``view``'s filter below its cursor, newest first,
    each with its key and version (`rooms.selectors.Entry`)."""
    rooms = _filtered(view)
    if view.cursor is not None:
        rooms = rooms.filter(pk__lt=view.cursor)
    return listing_entries(rooms[:limit])


def lobby_count(view: View) -> int:
    """How many rows ``view``'s filter has, on every page together."""
    return _filtered(view).count()


def lobby_page(view: View, limit: int) -> tuple[list[Entry], bool]:
    """The first ``limit`` entries of ``view``, and whether they are all there are."""
    entries = lobby_entries(view, limit)
    return entries, len(entries) < limit


def _filtered(view: View) -> QuerySet[Room]:
    rooms = public_listing()
    if view.preset is not None:
        rooms = rooms.filter(preset=view.preset)
    if view.move_seconds == NO_CLOCK:
        rooms = rooms.filter(move_seconds__isnull=True)
    elif view.move_seconds is not None:
        rooms = rooms.filter(move_seconds=view.move_seconds)
    if view.free:
        rooms = rooms.filter(Q(humans__lt=F("seat_total")))  # (an annotation: in Q for mypy)
    if view.rated:
        rooms = rooms.filter(rated=True)
    return rooms
