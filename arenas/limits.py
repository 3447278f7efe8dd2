"""How often a person may join and leave one arena (settings: ``ARENA_TOGGLES``
per ``ARENA_TOGGLE_WINDOW``).

Every join and every leave sends the whole standings to every socket watching
the arena: 30 toggles in 3 s made 1,453 frames for 50 watchers. The latest
toggles are kept in the player's row (`ArenaPlayer.toggles`), read and written
under the arena's lock (`arenas.services.lock_arena`), so every process sees
the same count. A join past the limit is refused; a leave never is (nobody is
kept in an arena, to be paired into a match they would abandon), but it counts,
so the join after it is refused: at most ``ARENA_TOGGLES`` + 1 frames a window.
"""

from __future__ import annotations

import math
from datetime import datetime

from django.conf import settings
from django.utils.translation import ngettext

from arenas.models import ArenaPlayer
from rooms.errors import ServiceError


def _latest(player: ArenaPlayer) -> list[datetime]:
    return [datetime.fromisoformat(at) for at in player.toggles or ()]


def join_refusal(player: ArenaPlayer, now: datetime) -> ServiceError | None:
    """``rate_limited`` when ``player`` joined or left ``ARENA_TOGGLES`` times
    within the window before ``now``, saying how long to wait; else None."""
    latest = _latest(player)[-settings.ARENA_TOGGLES :]
    if len(latest) < settings.ARENA_TOGGLES:
        return None
    free_at = latest[0] + settings.ARENA_TOGGLE_WINDOW
    if free_at <= now:
        return None
    seconds = math.ceil((free_at - now).total_seconds())
    message = ngettext(
        "You joined and left this arena too often: wait %(seconds)s second before joining again.",
        "You joined and left this arena too often: wait %(seconds)s seconds before joining again.",
        seconds,
    ) % {"seconds": seconds}
    return ServiceError("rate_limited", message)


def count_toggle(player: ArenaPlayer, now: datetime) -> None:
    """Remember a join or a leave at ``now`` (the latest ``ARENA_TOGGLES`` only:
    the oldest of them says when the next join is allowed). Saved by the caller."""
    latest = [*_latest(player), now][-settings.ARENA_TOGGLES :]
    player.toggles = [at.isoformat() for at in latest]
