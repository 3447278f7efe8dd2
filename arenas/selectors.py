"""Reads of arenas: the lists, the live frame the sockets send, a profile's
arenas (docs/protocol.md, "Arenas")."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import QuerySet

from arenas.models import Arena, ArenaMatch, ArenaPlayer
from arenas.pairing import Free, held_apart
from arenas.scoring import rank_players
from domino_site.removed import is_tombstone, shown_name
from games.world import now_or
from people.selectors import kept_apart
from records import rulebook

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
    each one is at (by account id, as text), and while the arena runs those
    waiting for a table with why the pairing keeps them from everyone waiting
    (`waiting_reasons`). Sent to the arena's group; each socket passes on only
    its own viewer's part."""
    rows = list(ArenaPlayer.objects.filter(arena=arena).select_related("table", "user"))
    return {
        "joined": [p.user_id for p in rows if p.active],
        "tables": {
            str(p.user_id): p.table.code
            for p in rows
            if p.table is not None and p.table.status != "closed"
        },
        "waiting": waiting_reasons(arena, rows),
    }


def you(part: dict[str, Any], user_id: int | None) -> dict[str, Any]:
    """A viewer's ``you``: joined, their table, and while they wait for one
    (``waiting``) the one reason the pairing keeps them from everyone waiting
    (``apart``: "same_address" or "kept_apart", else null)."""
    waiting = part.get("waiting", {})
    key = str(user_id)
    return {
        "joined": user_id is not None and user_id in part["joined"],
        "table": part["tables"].get(key) if user_id is not None else None,
        "waiting": user_id is not None and key in waiting,
        "apart": waiting.get(key) if user_id is not None else None,
    }


def apart_of(
    player: ArenaPlayer, free: Sequence[ArenaPlayer], kept: set[frozenset[int]]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The free accounts ``player`` is never paired with, and those of them kept
    away by the address rule (records.rulebook.may_meet): the pairing's
    ``apart`` and ``address`` (`arenas.pairing.Free`). A block either way
    (``kept``, `people.selectors.kept_apart`) keeps two apart too."""
    apart, address = [], []
    for other in free:
        if other.user_id == player.user_id:
            continue
        one_address = not rulebook.may_meet(player.ip_hash, other.ip_hash)
        if one_address or frozenset((player.user_id, other.user_id)) in kept:
            apart.append(other.user_id)
        if one_address:
            address.append(other.user_id)
    return tuple(apart), tuple(address)


def waiting_reasons(arena: Arena, rows: Sequence[ArenaPlayer]) -> dict[str, str | None]:
    """Those waiting for a table in a running arena (active, no table), by
    account id as text, each with `arenas.pairing.held_apart`'s reason or None
    (docs/site.md, "Arenas": "aguardando adversário" and why). Read as the
    pairing reads them; those it does not pair now (another arena's table, a
    cool-down) are not counted as someone to play."""
    if arena.status != Arena.Status.RUNNING:
        return {}
    waiting = [p for p in rows if p.active and p.table_id is None]
    if not waiting:
        return {}
    now = now_or(None)
    busy = set(
        ArenaPlayer.objects.exclude(arena=arena)
        .filter(user__in=[p.user_id for p in waiting], table__isnull=False)
        .values_list("user_id", flat=True)
    )
    free = [p for p in waiting if p.user_id not in busy and rulebook.may_be_paired(p.user, now)]
    kept = kept_apart(p.user_id for p in free)
    candidates = {}
    for p in free:
        apart, address = apart_of(p, free, kept)
        candidates[p.user_id] = Free(
            user=p.user_id,
            score=0,
            rating=0,
            last=tuple(p.last_opponents or ()),
            apart=apart,
            address=address,
        )
    pool = list(candidates.values())
    return {
        str(p.user_id): (
            held_apart(candidates[p.user_id], pool, arena.seats)
            if p.user_id in candidates
            else None
        )
        for p in waiting
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
