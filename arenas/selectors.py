"""Reads of arenas: the lists, the live frame the sockets send, a profile's
arenas (docs/protocol.md, "Arenas")."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from arenas.models import Arena, ArenaMatch, ArenaPlayer
from arenas.scoring import rank_players
from domino_site.removed import is_tombstone, shown_name

PODIUM = 3


def public_arenas() -> dict[str, QuerySet[Arena]]:
    """The public arenas by status, for /torneios/."""
    public = Arena.objects.filter(visibility=Arena.Visibility.PUBLIC)
    return {
        "running": public.filter(status=Arena.Status.RUNNING).order_by("starts_at"),
        "upcoming": public.filter(status=Arena.Status.UPCOMING).order_by("starts_at"),
        "finished": public.filter(status=Arena.Status.FINISHED).order_by("-starts_at")[:20],
    }


def arena_visible(arena: Arena, user: Any) -> bool:
    """A private arena is seen by its creator, its players and admins (and
    through its invite link)."""
    if arena.visibility == Arena.Visibility.PUBLIC:
        return True
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_staff or arena.created_by_id == user.pk:
        return True
    return ArenaPlayer.objects.filter(arena=arena, user=user).exists()


def standings(arena: Arena) -> list[dict[str, Any]]:
    """Everyone who is in the arena or played in it, best first."""
    players = ArenaPlayer.objects.filter(arena=arena).select_related("user")
    shown = [p for p in players if p.active or p.matches]
    return [
        {
            "rank": position,
            "player": p.user.username,
            "name": shown_name(p.user.username),  # a removed account: "Removed player"
            "removed": is_tombstone(p.user.username),
            "score": p.score,
            "streak": p.streak,
            "matches": p.matches,
            "wins": p.wins,
            "performance": round(p.performance),
            "active": p.active,
            "playing": p.table_id is not None,
        }
        for position, p in enumerate(rank_players(shown), start=1)
    ]


def status_of(arena: Arena) -> str:
    """The protocol's three states (a cancelled arena is over)."""
    return "finished" if arena.status == Arena.Status.CANCELLED else arena.status


def arena_frame(arena: Arena) -> dict[str, Any]:
    """The arena's frame without its viewer's part (``you``)."""
    rows = standings(arena)
    # The podium once every match is scored (a match started before the end
    # still counts after it).
    finished = (
        arena.status == Arena.Status.FINISHED
        and not ArenaMatch.objects.filter(arena=arena, ended_at=None).exists()
    )
    return {
        "type": "arena",
        "id": arena.pk,
        "name": arena.name,
        "preset": arena.preset,
        "status": status_of(arena),
        "cancelled": arena.status == Arena.Status.CANCELLED,
        "starts_at": arena.starts_at.isoformat(),
        "ends_at": arena.ends_at.isoformat(),
        "version": arena.version,
        "standings": rows,
        "podium": rows[:PODIUM] if finished else [],
    }


def viewers_part(arena: Arena) -> dict[str, Any]:
    """What each viewer's ``you`` is made of: the active players and the table
    each one is at (by account id, as text)."""
    rows = ArenaPlayer.objects.filter(arena=arena).select_related("table")
    return {
        "joined": [p.user_id for p in rows if p.active],
        "tables": {
            str(p.user_id): p.table.code
            for p in rows
            if p.table is not None and p.table.status != "closed"
        },
    }


def you(part: dict[str, Any], user_id: int | None) -> dict[str, Any]:
    return {
        "joined": user_id is not None and user_id in part["joined"],
        "table": part["tables"].get(str(user_id)) if user_id is not None else None,
    }


def arenas_of(user: Any) -> list[ArenaPlayer]:
    """A profile's arenas: every arena the account played a match in, newest first."""
    return list(
        ArenaPlayer.objects.filter(user=user, matches__gt=0)
        .exclude(arena__status=Arena.Status.CANCELLED)
        .select_related("arena")
        .order_by("-arena__starts_at")[:50]
    )


def current_rank(player: ArenaPlayer) -> int | None:
    """The final rank, or the live one while the arena runs."""
    if player.rank is not None:
        return player.rank
    shown = ArenaPlayer.objects.filter(arena_id=player.arena_id, matches__gt=0)
    ranked = rank_players(shown)
    return next((i for i, p in enumerate(ranked, start=1) if p.pk == player.pk), None)


def arena_of_room(room_id: int) -> int | None:
    """The arena whose match is at this room (None: not an arena table)."""
    return ArenaMatch.objects.filter(room_id=room_id).values_list("arena_id", flat=True).first()
