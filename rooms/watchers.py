"""Who is watching a table (docs/site.md, "Watching and quick chat").

A watcher is a table socket with no seat. Each one is a `rooms.Watcher` row
(room, channel name), added when such a socket opens (or its seat goes away) and
removed when it closes (or sits down). ``Room.watchers`` holds the count, kept
in step under the room's row lock, so a snapshot reads it with the room row
(no query per change) and the count is the same for every server process.

A change of the count is not a change of the game: it does not bump the room's
version (a move decided on the previous snapshot stays valid). After commit the
room group gets ``room.watchers`` with the new count, which every socket passes
on to its page as ``{"type": "watchers", "count": n}``; the next snapshot carries
it too (``room.watchers``).

Sockets of a server process that died never say goodbye: the sweeper removes the
rows whose process is dead (Redis layer, ``domino_site.realtime.liveness``), and the
embedded server forgets every row when it starts (no socket is open yet).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import datetime

from channels.layers import get_channel_layer
from django.db import transaction

from domino_site.realtime import liveness
from domino_site.realtime.fanout import send
from games.world import now_or
from rooms.events import room_group
from rooms.models import Room, Watcher

log = logging.getLogger(__name__)


@transaction.atomic
def watcher_join(*, code: str, channel_name: str, now: datetime | None = None) -> int | None:
    """Count the socket ``channel_name`` as watching room ``code``; the new count
    (None when there is no such open room)."""
    room = Room.objects.select_for_update().filter(code=code.upper()).first()
    if room is None or room.is_closed:
        return None
    Watcher.objects.get_or_create(
        room=room, channel_name=channel_name, defaults={"joined_at": now_or(now)}
    )
    return _recount(room)


@transaction.atomic
def watcher_leave(*, code: str, channel_name: str) -> int | None:
    """The socket stopped watching (closed, or sat down); the new count."""
    room = Room.objects.select_for_update().filter(code=code.upper()).first()
    if room is None:
        return None
    Watcher.objects.filter(room=room, channel_name=channel_name).delete()
    return _recount(room)


def forget_channels(channel_names: Iterable[str]) -> int:
    """Remove the watcher rows of these sockets (their process died); rooms whose
    count changed are told. Returns how many rows went."""
    names = list(channel_names)
    if not names:
        return 0
    gone = 0
    rooms = set(Watcher.objects.filter(channel_name__in=names).values_list("room_id", flat=True))
    for room_id in rooms:
        with transaction.atomic():
            room = Room.objects.select_for_update().get(pk=room_id)
            gone += Watcher.objects.filter(room=room, channel_name__in=names).delete()[0]
            _recount(room)
    return gone


def forget_all() -> int:
    """The embedded server's start: no socket is open yet, so nobody watches."""
    gone = Watcher.objects.all().delete()[0]
    Room.objects.filter(watchers__gt=0).update(watchers=0)
    return gone


def watcher_channels_of(processes: Iterable[str]) -> list[str]:
    """Channel names of watcher sockets that belong to these server processes."""
    wanted = set(processes)
    if not wanted:
        return []
    names = Watcher.objects.values_list("channel_name", flat=True)
    return [name for name in names if liveness.process_of(name) in wanted]


def watcher_processes() -> set[str]:
    heads = Watcher.objects.values_list("channel_name", flat=True)
    return {p for name in heads if (p := liveness.process_of(name))}


def _recount(room: Room) -> int:
    count = Watcher.objects.filter(room=room).count()
    if count != room.watchers:
        room.watchers = count
        room.save(update_fields=["watchers"])
        code = room.code
        transaction.on_commit(lambda: _tell(code, count), robust=True)
    return count


def _tell(code: str, count: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        send(layer, room_group(code), {"type": "room.watchers", "count": count})
