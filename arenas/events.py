"""After-commit side effects of a change to an arena: tell every socket on
``arena.<id>``, and ask the timers for the next tick.

The frame is built once (`arenas.selectors.arena_frame`) with what each socket
needs to add its viewer's ``you`` without a query (the active players and
their tables). A failing broadcast never breaks the commit: the next change,
or a reconnect, tells again.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime

from channels.layers import get_channel_layer
from django.db import transaction

from arenas.models import Arena
from arenas.selectors import arena_frame, arena_of_room, viewers_part
from arenas.signals import arena_due
from domino_site.realtime.fanout import send
from games.world import world

log = logging.getLogger(__name__)


def arena_group(arena_id: int) -> str:
    return f"arena.{arena_id}"


def arena_changed(arena: Arena, *, due: Sequence[datetime] = ()) -> None:
    """Register the telling of ``arena``'s change (and its next ticks) for after commit."""
    pk = arena.pk
    times = list(due)

    def after_commit() -> None:
        for at in times:
            arena_due.send(sender=Arena, arena_id=pk, at=at)
        tell(pk)

    transaction.on_commit(after_commit, robust=True)


def on_match_over(sender: object, *, room_id: int, **_: object) -> None:
    """The receiver of `rooms.signals.match_over` (connected by ``arenas.apps``,
    after the match's commit): an arena's match ended, so its arena scores it and
    pairs its players again now (a tick, asked of the timers)."""
    arena_id = arena_of_room(room_id)
    if arena_id is not None:
        arena_due.send(sender=Arena, arena_id=arena_id, at=world().now())


def tell(arena_id: int) -> None:
    """Send the arena's frame to its group as it is now."""
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None:
        return
    message = {"type": "arena.state", "frame": arena_frame(arena), **viewers_part(arena)}
    try:
        send(get_channel_layer(), arena_group(arena_id), message)
    except Exception:  # noqa: BLE001 - the sockets read again on the next change
        log.exception("could not tell arena %s", arena_id)
