"""Reads of the quick-match queue (docs/site.md, "Quick match"): the lobby's
"N jogando agora · M na fila", who waits in which queue, and whether a person
is already in the middle of a match."""

from __future__ import annotations

from typing import Any

from django.db.models import Count

from games.models import Match
from rooms.models import QUICK_PRESETS, QuickEntry, Room, Seat

IN_PLAY = (Room.Status.PLAYING, Room.Status.BETWEEN_ROUNDS)


def now_counts() -> dict[str, Any]:
    """``GET /api/now/``: people playing now, and people in each queue.

    Playing is a person's seat with its socket open, played by them (not by a
    bot standing in), at a table in play that is not paused: a seat left at a
    table its people abandoned is not someone playing."""
    playing = Seat.objects.filter(
        kind=Seat.Kind.HUMAN,
        substitute=False,
        connected=True,
        room__status__in=IN_PLAY,
        room__paused=False,
    ).count()
    rows = dict(
        QuickEntry.objects.values_list("preset").annotate(n=Count("id")).values_list("preset", "n")
    )
    return {"playing": playing, "queued": {preset: rows.get(preset, 0) for preset in QUICK_PRESETS}}


def waiting_in(preset: str, move_seconds: int) -> int:
    """How many people wait in this queue (one preset and clock)."""
    return QuickEntry.objects.filter(preset=preset, move_seconds=move_seconds).count()


def entry_of(user: Any) -> QuickEntry | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    return QuickEntry.objects.filter(user=user).first()


def seated_in_play(user: Any) -> str | None:
    """The code of a room where ``user`` plays a match not over yet, or None."""
    seats = (
        Seat.objects.filter(user=user, kind=Seat.Kind.HUMAN, substitute=False)
        .filter(room__status__in=IN_PLAY)
        .select_related("room")
        .order_by("-room__created_at")
    )
    for seat in seats[:5]:
        room = seat.room
        if room.status == Room.Status.PLAYING:
            return room.code
        match = Match.objects.filter(room=room).order_by("-number").first()
        if match is not None and not match.over:
            return room.code
    return None
