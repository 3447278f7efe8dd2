"""After-commit side effects of a change to a room: tell, then schedule.

`room_changed` is called by every service that changed a room, inside its
transaction, after its last write. It copies the rows as they are (so the
content is exactly the one of ``room.version``) and, after the commit, builds
the change once, with no lock held:

* each connected human seat's own ``room`` frame, with its private part
  (hand, legal actions, mandatory tile, pending pick), which goes to that
  seat's socket channel only;
* the spectator's frame (the public state, `rooms.selectors.public_state`),
  which goes to the room group ``room.<CODE>``, to every socket there that
  got no frame of its own in this change.

Each socket thus gets one message a change, with the seat owners' identities
(for the consumers to recognise their own seat; never sent to a browser).
The frames travel finished (JSON text, serialised once here with
`rooms.selectors.compose_state` and `frame_texts`), and consumers pass them on
without a query; connect, reconnect and a version gap re-read the database.
No hand ever travels through the room group. They leave through
`domino_site.realtime.fanout.deliver`, without waiting for the sending.

Nothing happens unless the transaction commits (a refused or rolled-back change
tells nobody), and a failing broadcast or scheduler never breaks the commit
(``robust=True``; clients that miss a version ask again, and the sweeper fires
what was not scheduled). A committed change is always told: when the database
fails while its messages are built (the connection cut after the commit), they
are built again on a new connection, or a bare ``room.changed`` notice goes to
the group and each socket re-reads the room.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import json
import logging
import uuid
import weakref
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from channels.layers import get_channel_layer
from django.conf import settings
from django.db import DatabaseError, transaction
from django.db import connection as db_connection
from django.utils import translation

from domino_site.guests import guest_key
from domino_site.realtime.asyncdb import calling_loop, db_async
from domino_site.realtime.fanout import deliver, spawn
from games.models import Round
from games.signals import round_due
from rooms import selectors
from rooms.models import Seat

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def room_group(code: str) -> str:
    """The room's group; codes are upper case (a socket may use any case)."""
    return f"room.{code.upper()}"


def room_changed(
    room: Any, lobby: bool = False, round: Any = None, seats: Sequence[Any] | None = None
) -> None:
    """Register the change of ``room`` for after commit: its messages (built from
    the rows as they are now), the lobby's when the public list may change, and
    the scheduling of ``round``'s due action.

    ``round`` is the room's current `games.Round` (looked up when not given) and
    ``seats`` its seats in index order (read when not given). Call it after the
    last write: the rows are copied now, so the messages carry exactly the state
    of ``room.version``; building them waits until after the commit, so no lock
    is held meanwhile.
    """
    rnd = round if round is not None else selectors.current_round(room)
    if seats is None:
        seats = list(Seat.objects.filter(room_id=room.pk).order_by("index"))
    rows = frozen_copy(room), [copy.copy(seat) for seat in seats], frozen_copy(rnd)
    due = (rnd.pk, rnd.version, rnd.due_at, rnd.due_kind) if rnd is not None else None

    listed = (room.pk, room.code, room.version) if lobby else None

    def after_commit() -> None:
        _broadcast(_told(rows), listed)
        _schedule(due)

    transaction.on_commit(after_commit, robust=True)


def frozen_copy(row: Any) -> Any:
    """A copy of a room or round row (and a round's match) as it is now: the
    caller may go on changing its own objects in the same transaction."""
    if row is None:
        return None
    # Copying a model instance copies its cache of related objects too (Django
    # pickles them so); the match in it is still the caller's object, so it is
    # copied and set again, through the relation itself.
    frozen = copy.copy(row)
    if getattr(row, "match_id", None) is not None:
        frozen.match = copy.copy(row.match)
    return frozen


def change_messages(room: Any, seats: Sequence[Any], rnd: Any) -> list[tuple[str, str, dict]]:
    """The layer messages of one change: ``("send", channel, message)`` for each
    connected human seat (its own ``room`` frame), then ``("group_others",
    group, message)``: the spectator's frame, for the group's sockets that got
    no message of their own in this change.

    Each socket gets one message a change. Each carries its ``room`` message
    already serialised (``frame``): the JSON text is built once here, not once
    per socket, and the layer copies or packs a string instead of a nested
    state (the in-memory layer deep-copies every message for every channel).
    Both carry what a socket needs to know that the frame is its own: the seats'
    owners, who is connected, and whether the room may be watched."""
    # Socket snapshots are in the site's default language whoever made the
    # change (an English page's request must not rename bots for everyone).
    with translation.override(settings.LANGUAGE_CODE):
        public = selectors.public_state(room=room, seats=seats, rnd=rnd)
    version = room.version
    owners = [_owner(seat) for seat in seats]
    facts = {
        "version": version,
        "owners": owners,
        "connected": [seat["connected"] for seat in public["seats"]],
        "watchable": watchable(public),
    }
    told = [seat for seat, owner in zip(seats, owners, strict=True) if _told_alone(seat, owner)]
    privates = [selectors.private_part(rnd, s.index) if rnd is not None else None for s in told]
    viewers = [*zip([s.index for s in told], privates, strict=True), (None, None)]
    *seat_frames, group_frame = frame_texts(public, viewers)
    messages: list[tuple[str, str, dict]] = []
    for seat, frame in zip(told, seat_frames, strict=True):
        message = {"type": "seat.state", "seat": seat.index, "frame": frame, **facts}
        messages.append(("send", seat.channel_name, message))
    group_message = {"type": "room.state", "frame": group_frame, **facts}
    messages.append(("group_others", room_group(room.code), group_message))
    return messages


def _told_alone(seat: Any, owner: list | None) -> bool:
    """Whether the seat's socket gets its own frame (a connected person's seat)."""
    return bool(owner and seat.connected and seat.channel_name)


def frame_texts(
    public: dict[str, Any], viewers: Sequence[tuple[int | None, dict[str, Any] | None]]
) -> list[str]:
    """``json.dumps(compose_state(public, private, index))`` of each ``(index,
    private)``, with each part every viewer shares (the seats, the match, the
    log...) encoded once for all of them: the same text, for less than half the
    encoding (a table's three frames had three copies of its log encoded)."""
    shared: dict[str, str] = {}
    texts = []
    for index, private in viewers:
        state = selectors.compose_state(public, private, index)
        parts = []
        for key, value in state.items():
            if value is public.get(key):  # passed on unchanged: the shared encoding
                text = shared.get(key)
                if text is None:
                    text = shared[key] = json.dumps(value)
            else:
                text = json.dumps(value)
            parts.append(f"{json.dumps(key)}: {text}")
        texts.append("{" + ", ".join(parts) + "}")
    return texts


def _owner(seat: Any) -> list | None:
    """``[user id, guest key]`` of the person who plays ``seat`` (a substitute
    bot for someone away still plays for them), or None."""
    if seat.is_human and not (seat.substitute and seat.substitute_reason != "away"):
        # An account's seat has no guest token: no digest to make.
        return [seat.user_id, guest_key(seat.guest_token) if seat.guest_token else None]
    return None


def watchable(state: dict[str, Any]) -> bool:
    """Whether a socket with no seat at this table counts as a watcher: an open
    public room."""
    room = state.get("room") or {}
    return room.get("visibility") == "public" and room.get("status") != "closed"


def _told(rows: tuple[Any, Sequence[Any], Any]) -> list[tuple[str, str, dict]]:
    """The messages of a committed change. Building them reads the database; when
    that fails (the connection was cut after the commit), once more on a new
    connection, and at worst a bare ``room.changed`` notice, on which every
    socket re-reads the room itself: a committed change is always told."""
    room = rows[0]
    for attempt in (1, 2):
        try:
            return change_messages(*rows)
        except DatabaseError as exc:
            log.warning("room %s v%s: building the broadcast failed (%s, attempt %d)",
                        room.code, room.version, exc, attempt)  # fmt: skip
            _drop_connection()  # a cut connection stays broken: take a new one
    notice = {"type": "room.changed", "version": room.version}
    return [("group", room_group(room.code), notice)]


def _drop_connection() -> None:
    """Close this thread's database connection after it failed, so that the next
    query opens (or borrows) a new one; never inside a transaction (after a
    commit there is none, except in tests that run the callbacks themselves)."""
    if not db_connection.in_atomic_block:
        db_connection.close()


def _broadcast(messages: list[tuple[str, str, dict]], listed: Listed | None) -> None:
    """Deliver a change's messages; ``listed`` (the room's id, code and version)
    when the lobby's public list may have changed too."""
    layer = get_channel_layer()
    if layer is None:
        return
    server_loop = calling_loop()
    if listed and server_loop is not None and not server_loop.is_closed():
        deliver(layer, messages)
        try:
            server_loop.call_soon_threadsafe(_lobby_soon, server_loop, layer, listed)
        except RuntimeError:  # the loop closed meanwhile: nobody to tell
            pass
        return
    if listed:
        messages = [*messages, ("group", LOBBY_GROUP, lobby_notice({listed[0]: listed[1:]}))]
    deliver(layer, messages)


#: A room whose lobby row may have changed: its id, code and version.
Listed = tuple[int, str, int]

#: In a server, the lobby's news of one process goes out at most this often.
LOBBY_EVERY = 0.5
#: Per server loop, the rooms changed since the lobby was last told: id -> (code, version).
_lobby_due: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, dict[int, tuple[str, int]]] = (
    weakref.WeakKeyDictionary()
)
_notices = itertools.count(1)
_PROCESS = uuid.uuid4().hex[:12]


def lobby_notice(rooms: dict[int, tuple[str, int]]) -> dict[str, Any]:
    """The lobby sockets' ``lobby.changed`` for these changed rooms (id -> (code,
    version)): ``rows``, the rows of those still on the public list as
    `rooms.selectors.Entry` ``[key, version, row]``, and ``gone``, ``[code, version]``
    of the others. One query for all the rooms changed meanwhile, not one per
    lobby socket: each socket sorts out what reaches its own page
    (`lobby.listing.Page`). ``id`` names the notice, for the sockets that must
    re-read the same page to share one read. If the rows cannot be read, a bare
    notice: each socket then re-reads its page."""
    notice: dict[str, Any] = {"type": "lobby.changed", "id": f"{_PROCESS}:{next(_notices)}"}
    try:
        entries = selectors.lobby_entries_of(rooms)
    except DatabaseError as exc:
        log.warning("the lobby rows could not be read for the broadcast (%s)", exc)
        _drop_connection()
        return notice
    listed = {key for key, _version, _row in entries}
    notice["rows"] = [list(entry) for entry in entries]
    notice["gone"] = [
        [code, version] for key, (code, version) in rooms.items() if key not in listed
    ]
    return notice


def _lobby_soon(loop: asyncio.AbstractEventLoop, layer: Any, listed: Listed) -> None:
    """Tell the lobby in ``LOBBY_EVERY`` seconds of every room changed until then,
    in one notice: a busy site changes many rooms in that time."""
    due = _lobby_due.get(loop)
    key, code, version = listed
    if due is not None:
        if version >= due.get(key, (code, -1))[1]:
            due[key] = (code, version)
        return
    _lobby_due[loop] = {key: (code, version)}
    loop.call_later(LOBBY_EVERY, _start_lobby, loop, layer)


def _start_lobby(loop: asyncio.AbstractEventLoop, layer: Any) -> None:
    rooms = _lobby_due.pop(loop, {})  # a change from now on is told again
    spawn(loop, _tell_lobby(layer, rooms))


async def _tell_lobby(layer: Any, rooms: dict[int, tuple[str, int]]) -> None:
    try:
        notice = await db_async(lobby_notice)(rooms)
        await layer.group_send(LOBBY_GROUP, notice)
    except Exception:  # noqa: BLE001 - telling is best effort; the state is committed
        log.exception("channel layer: the lobby's news failed")


def _schedule(due: tuple[int, int, datetime | None, str | None] | None) -> None:
    """Announce the round's due action to whoever wakes rounds up (``timers``)."""
    if due is None or due[2] is None:
        return
    round_id, version, due_at, kind = due
    round_due.send(sender=Round, round_id=round_id, version=version, due_at=due_at, kind=kind)
