"""What a table socket does, on the sync side (run in a worker thread by
`rooms.consumers`): who the socket is, binding its seat, reading its snapshot,
and running a client command through its service.

The consumers stay thin: they parse, authorise and call these, which call one
service each (the services check turn, seat, host rights and legality again).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ObjectDoesNotExist
from django.http import Http404
from django.utils.translation import gettext as _

from rooms import selectors, watchers
from rooms import services as room_services
from rooms.errors import ServiceError
from rooms.messages import MOVE_TYPES, Command
from rooms.models import Room


@dataclass
class Viewer:
    """Who a table socket is: fixed at connect; the seat may change later."""

    code: str
    user: Any  # a User, or None for an anonymous socket
    guest_token: str | None
    channel_name: str
    # Keyed hash of the address the socket comes from (domino_site.client_ip): kept
    # on the seat it binds or takes, for the rated-table rule.
    ip_hash: str = ""
    # The room's primary key, once the socket is open (moves lock it directly).
    room_id: int | None = None


def _room(code: str):
    try:
        return selectors.room_for_code(code)
    except (ObjectDoesNotExist, Http404):
        return None


def _seat(room, viewer: Viewer):
    return selectors.viewer_seat(room=room, user=viewer.user, guest_token=viewer.guest_token)


def open_socket(viewer: Viewer) -> tuple[str, dict | None, int | None, str | None]:
    """Authorise a new table socket and bind it to its seat.

    Returns ``(outcome, snapshot, seat index, replaced channel)``; outcome is
    ``"ok"``, ``"not_found"`` (no such room, or a private room this viewer
    has no seat at: the same answer) or ``"forbidden"`` (an anonymous socket
    on a public room).
    """
    room = _room(viewer.code)
    if room is None:
        return "not_found", None, None, None
    viewer.room_id = room.pk
    seat = _seat(room, viewer)
    # Private rooms are for the people seated there (they came by the invite
    # link): anyone else gets the answer of an unknown code (4004), so a
    # stranger cannot tell a private room from no room. Public rooms are
    # watched by accounts only (docs/protocol.md: an anonymous socket, 4003).
    if seat is None and room.visibility != "public":
        return "not_found", None, None, None
    if seat is None and viewer.user is None:
        return "forbidden", None, None, None
    replaced = None
    if seat is not None and room.status != "closed":
        replaced = _connect_seat(room, seat.index, viewer)
    snapshot, index = read_snapshot(viewer, seat.index if seat else None)
    return "ok", snapshot, index, replaced


def _connect_seat(room, index: int, viewer: Viewer) -> str | None:
    return room_services.seat_connected(
        room=room, index=index, channel_name=viewer.channel_name, ip_hash=viewer.ip_hash
    )


def read_snapshot(viewer: Viewer, known_index: int | None) -> tuple[dict | None, int | None]:
    """This viewer's ``room`` message body and seat index. A seat that became
    this viewer's since the last read (sat down, reservation honoured, a seat
    given back) is bound to this socket first."""
    room = _room(viewer.code)
    if room is None:
        return None, None
    seat = _seat(room, viewer)
    if (
        seat is not None
        and seat.index != known_index
        and seat.channel_name != viewer.channel_name
        and room.status != "closed"
    ):
        # The seat became this viewer's while connected (sat down, a reservation
        # honoured at the result): bind it to this socket.
        _connect_seat(room, seat.index, viewer)
        room = _room(viewer.code)
        seat = _seat(room, viewer)
    return _consistent_state(room, seat), (seat.index if seat else None)


def _consistent_state(room, seat) -> dict:
    """``room_state`` whose content is the one of its ``version``: the selector reads
    several rows one after the other, and a move committed in between would give
    a snapshot labelled with an older version than its content (the client's next
    move would then be refused as stale). Every change bumps ``room.version`` in
    its own transaction, so an unchanged version after the read proves the read
    saw one state."""
    for _attempt in range(10):
        state = selectors.room_state(room=room, viewer=seat)
        now = Room.objects.filter(pk=room.pk).values_list("version", flat=True).first()
        if now == state["version"]:
            return state
        room.refresh_from_db()
        if seat is not None:
            seat.refresh_from_db()
    return state


def rebind_if_released(viewer: Viewer, index: int) -> str | None:
    """Bind seat ``index`` to this live socket again if the server let it go
    (its process judged dead after a stall: no channel is bound to it now)."""
    room = _room(viewer.code)
    seat = _seat(room, viewer) if room is not None else None
    if seat is None or seat.index != index or seat.connected or seat.channel_name:
        return None
    return _connect_seat(room, index, viewer)


def close_socket(viewer: Viewer, index: int) -> None:
    room = _room(viewer.code)
    if room is not None:
        room_services.seat_disconnected(room=room, index=index, channel_name=viewer.channel_name)


def take_a_seat() -> ServiceError:
    """The refusal of a table command from a socket with no seat."""
    return ServiceError("not_seated", _("Take a seat first."))


def _need_seat(seat) -> None:
    if seat is None:
        raise take_a_seat()


def execute(viewer: Viewer, cmd: Command, seat_index: int | None = None) -> None:
    """Run one client command through its service (which checks the rules,
    host rights and the stale version, and broadcasts the change).

    A move from a socket that knows its seat (``seat_index``, from its last
    snapshot) goes straight to `action_apply`, which checks under the room's
    lock that the seat is this viewer's: no read before the lock."""
    if cmd.type in MOVE_TYPES and seat_index is not None and viewer.room_id is not None:
        room_services.action_apply(
            room=viewer.room_id,
            seat_index=seat_index,
            action=_action(cmd),
            version=cmd.version,
            by="person",
            player=(viewer.user, viewer.guest_token),
        )
        return
    room = _room(viewer.code)
    if room is None:
        raise ServiceError("room_closed", _("This room no longer exists."))
    seat = _seat(room, viewer)
    kind, f = cmd.type, cmd.fields
    if kind in MOVE_TYPES:
        _need_seat(seat)
        room_services.action_apply(
            room=room, seat_index=seat.index, action=_action(cmd), version=cmd.version, by="person"
        )
        return
    if kind == "sit":
        room_services.seat_take(
            room=room,
            index=f["seat"],
            user=viewer.user,
            guest_token=viewer.guest_token,
            channel_name=viewer.channel_name,
            ip_hash=viewer.ip_hash,
        )
        return
    _need_seat(seat)
    host_calls = {
        "add_bot": lambda: room_services.bot_add(
            room=room, actor=seat, index=f["seat"], level=f["level"]
        ),
        "remove_bot": lambda: room_services.bot_remove(room=room, actor=seat, index=f["seat"]),
        "stand_up": lambda: room_services.seat_stand_up(room=room, actor=seat, index=f["seat"]),
        "bot_level": lambda: room_services.bot_set_level(
            room=room, actor=seat, index=f["seat"], level=f["level"]
        ),
        "start": lambda: room_services.match_start(room=room, actor=seat, **f),
        "next_round": lambda: room_services.round_next(room=room, actor=seat),
        "new_match": lambda: room_services.match_new(room=room, actor=seat, **f),
        "pause": lambda: room_services.room_pause(room=room, actor=seat),
        "resume": lambda: room_services.room_resume(room=room, actor=seat),
        "settings": lambda: room_services.room_settings(room=room, actor=seat, **f),
        "leave": lambda: room_services.seat_leave(room=room, index=seat.index, actor=seat),
        "ready": lambda: room_services.player_ready(room=room, actor=seat),
        "annul": lambda: room_services.annul_vote(room=room, actor=seat, **f),
        "adjust": lambda: room_services.layout_adjust(room=room, actor=seat, **f),
        "auto": lambda: room_services.seat_auto(room=room, actor=seat, **f),
        "seed": lambda: room_services.seat_seed(room=room, actor=seat, **f),
        # A private duel's present player: a bot for the absent one (docs/table-rules.md).
        "stand_in": lambda: room_services.duel_bot_stand_in(room=room, actor=seat),
    }
    host_calls[kind]()


def chat_allowed(viewer: Viewer, seat_index: int) -> bool:
    """Whether this seat may send a quick-chat message now (one every 3 s per seat)."""
    if viewer.room_id is None:
        return False
    return room_services.chat_turn_take(room_id=viewer.room_id, index=seat_index)


def _action(cmd: Command) -> dict[str, Any]:
    """The engine's action dict of a move command."""
    return {"type": cmd.type, **{k: v for k, v in cmd.fields.items() if v is not None}}


def watch(code: str, channel_name: str, watching: bool) -> None:
    """Count this socket as a watcher of the table, or not any more (rooms.watchers)."""
    if watching:
        watchers.watcher_join(code=code, channel_name=channel_name)
    else:
        watchers.watcher_leave(code=code, channel_name=channel_name)
