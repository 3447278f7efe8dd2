"""Channels consumers: the table socket (docs/protocol.md; the lobby's is `lobby.consumers`).

Thin: they parse (``rooms.messages``), authorise (who is this socket: a session
user or a guest seat cookie) and call the sync side (``rooms.sockets``, one
service each) in a worker thread
(``database_sync_to_async(..., thread_sensitive=False)``: a sync consumer would
serialise every table of the process on one thread).

Each change is built once by the service that commits it (`rooms.events`):
the socket bound to a seat gets that seat's frame (``seat.state``, to its
channel), every other socket of the table the spectator's (``room.state``,
through the room group), each as the finished ``room`` frame, serialised once
by the service: one message a socket. A socket passes its frame on without
touching the database or encoding anything. Connect, ``refresh`` and anything
unexpected (a missed frame, a seat that became this viewer's elsewhere)
re-read the viewer's snapshot from the database with
``rooms.selectors.room_state``. Tab replacement goes straight to the replaced
socket's channel (``seat.replaced``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import time
import weakref
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.utils.translation import gettext as _

from domino_site import metrics
from domino_site.client_ip import scope_ip_hash
from domino_site.guests import guest_key, guest_token_of
from domino_site.jsonbody import BadJSON, parse
from domino_site.logs import bind
from domino_site.realtime import liveness
from domino_site.realtime.asyncdb import NoDatabaseInTheLoop, db_async
from domino_site.realtime.frames import MAX_FRAME_BYTES, RateLimiter
from domino_site.realtime.listening import CLOSE_FLOOD
from domino_site.realtime.socket_guard import LAYER_ERRORS, LayerGuard, track, untrack
from games.engine import IllegalAction
from rooms.errors import ServiceError, error_message
from rooms.events import room_group, watchable
from rooms.messages import MOVE_TYPES, BadMessage, Command, ConnectLimiter, parse_message
from rooms.signals import chat_hidden
from rooms.sockets import (
    Viewer,
    chat_allowed,
    close_socket,
    execute,
    open_socket,
    read_snapshot,
    rebind_if_released,
    take_a_seat,
    watch,
)

log = logging.getLogger(__name__)

CLOSE_REPLACED = 4001
CLOSE_FORBIDDEN = 4003
CLOSE_NOT_FOUND = 4004

#: Table sockets opened per person and process (rooms.messages.ConnectLimiter).
connects = ConnectLimiter()


def guest_token_from_scope(scope: dict[str, Any]) -> str | None:
    """The guest seat token of the signed cookie, read exactly as the views read it
    (`domino_site.guests.guest_token_of`); None if absent or forged."""
    return guest_token_of(scope.get("cookies", {}))


def _db(func):
    return db_async(func)


#: Per event loop: how many sockets may do their connect's database work at once.
_connect_slots: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def connect_concurrency() -> int:
    """``DOMINO_CONNECT_CONCURRENCY`` (a setting, or the environment): default 2."""
    value = getattr(settings, "DOMINO_CONNECT_CONCURRENCY", None)
    return int(value or os.environ.get("DOMINO_CONNECT_CONCURRENCY") or 2)


def connect_slot() -> asyncio.Semaphore:
    """The connect's database work (bind the seat, read the snapshot) holds one of
    ``connect_concurrency()`` slots. A reconnect storm (every page after a
    restart) then queues here, each socket already accepted, instead of filling
    every worker thread: the handshakes still coming (session and user lookups,
    before ``accept``) keep their share of the process and finish within
    Daphne's 5 s connect timeout (more slots let the storm's database work
    crowd the handshakes out, and they were dropped), and moves are not
    starved."""
    loop = asyncio.get_running_loop()
    slot = _connect_slots.get(loop)
    if slot is None:
        slot = _connect_slots[loop] = asyncio.Semaphore(connect_concurrency())
    return slot


# ----------------------------------------------------------------- consumers


def _chat_hidden(user_id: int) -> frozenset[int]:
    """The accounts whose quick-chat phrases ``user_id`` does not see, as the apps
    above answer `rooms.signals.chat_hidden` (the people: those they block)."""
    hidden: set[int] = set()
    for _receiver, ids in chat_hidden.send(sender=TableConsumer, user_id=user_id):
        hidden.update(int(i) for i in ids or ())
    return frozenset(hidden)


class TableConsumer(LayerGuard, NoDatabaseInTheLoop, AsyncJsonWebsocketConsumer):
    """``ws/rooms/<code>/``: one socket per open table page."""

    released = False  # its seat and watcher row were let go (disconnect)
    waiting_for_slot = False  # accepted, its connect waiting for a `connect_slot`
    chat_hidden: frozenset[int] | None = None  # accounts whose phrases it drops (asked once)
    socket_kind = "table"
    # When this socket's pending move arrived (time.perf_counter), until the
    # frame of a newer version goes out: domino_move_seconds.
    move_at: float | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        self.viewer = Viewer(
            # Codes are upper case; the group and every lookup use the same name.
            code=self.scope["url_route"]["kwargs"]["code"].strip().upper(),
            user=user if user is not None and user.is_authenticated else None,
            guest_token=guest_token_from_scope(self.scope),
            channel_name=self.channel_name,
            ip_hash=scope_ip_hash(self.scope),
        )
        # Every line this socket's task (and its database threads) logs names the room.
        bind(room=self.viewer.code)
        self.user_id = self.viewer.user.pk if self.viewer.user is not None else None
        self.guest_key = guest_key(self.viewer.guest_token) if self.user_id is None else None
        self.version = -1
        self.seat_index: int | None = None
        self.replaced = False
        self.limiter = RateLimiter()
        self.group = room_group(self.viewer.code)
        self.watching = False  # counted as a watcher (a socket with no seat)
        self.public = False
        if not connects.allow(self._person_key()):
            await self.accept()
            await self._send_error("rate_limited", _("Too many connections: wait a minute."))
            await self.close(code=CLOSE_FLOOD)
            return
        # Subscribe before reading, so no change falls between snapshot and group.
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        track(self)  # told to reconnect if the channel layer loses its groups
        self.waiting_for_slot = True  # a deploy may close it at once (come_back_elsewhere)
        async with connect_slot():  # a reconnect storm queues here, accepted
            self.waiting_for_slot = False
            if self.restarting:  # closed with 4013 while it waited: bind nothing
                return
            outcome, snapshot, index, replaced = await _db(open_socket)(self.viewer)
        if outcome != "ok":
            code = CLOSE_NOT_FOUND if outcome == "not_found" else CLOSE_FORBIDDEN
            await self.close(code=code)
            return
        self.seat_index = index
        log.info("table socket open (seat %s)", "-" if index is None else index)
        if replaced and replaced != self.channel_name:
            await self.channel_layer.send(replaced, {"type": "seat.replaced"})
        await self._send_snapshot(snapshot)

    async def disconnect(self, code: int) -> None:
        untrack(self)
        if hasattr(self, "viewer"):
            log.info("table socket closed (code %s)", code)
        try:
            await self.channel_layer.group_discard(self.group, self.channel_name)
        except LAYER_ERRORS:  # Redis is down: its groups go with it, the seat still goes
            pass
        await self._release()

    async def layer_failed(self) -> None:
        """The channel layer failed and the socket was closed (domino_site.realtime.socket_guard)."""
        await self._release()

    async def _release(self) -> None:
        """Let go of the seat and the watcher row (once): the socket is closed."""
        if self.released or not hasattr(self, "viewer"):
            return
        self.released = True
        if self.restarting and liveness.enabled():
            # A deploy closed it with 4013 (socket_guard.come_back_elsewhere):
            # the page comes back at once and its new socket binds the seat
            # again. Nothing to write while the process drains (each write
            # would also bump the room's version, and moves decided on the
            # version before would be refused as stale). A page that does not
            # come back is released by the sweeper once this process's
            # heartbeat has lapsed, as after a crash (docs/scaling.md, "Deploying").
            return
        if self.watching:
            self.watching = False
            try:
                await _db(watch)(self.viewer.code, self.channel_name, False)
            except Exception:  # noqa: BLE001 - the sweeper forgets dead watchers later
                log.exception("watcher_leave failed for %s", self.viewer.code)
        if self.seat_index is not None and not self.replaced:
            try:
                await _db(close_socket)(self.viewer, self.seat_index)
            except Exception:  # noqa: BLE001 - the sweeper notices the dead seat later
                log.exception("seat_disconnected failed for %s", self.viewer.code)

    # -- from the client
    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        if self.replaced:
            return
        verdict = self.limiter.hit()
        if verdict == "flood":
            await self.close(code=CLOSE_FLOOD)
            return
        if verdict == "limited":
            await self._send_error("rate_limited", _("Too many messages: slow down."))
            return
        if text_data is None or len(text_data.encode()) > MAX_FRAME_BYTES:
            await self._send_error("bad_message", _("Messages are JSON text up to 4 KiB."))
            return
        try:
            cmd = parse_message(parse(text_data))
        except BadJSON:  # not JSON, or nested too deep (docs/protocol.md)
            await self._send_error("bad_message", _("Messages are JSON objects."))
            return
        except BadMessage as exc:
            await self._send_error("bad_message", exc.message, exc.ref)
            return
        await self.handle(cmd)

    async def handle(self, cmd: Command) -> None:
        if cmd.type == "ping":
            await self.send_json({"type": "pong", "ref": cmd.ref})
            return
        if cmd.type == "refresh":  # a client that saw a version gap
            self.version = -1
            await self._refresh()
            return
        if cmd.type == "chat":
            await self._chat(cmd)
            return
        if cmd.type in MOVE_TYPES:
            self.move_at = time.perf_counter()
        try:
            await _db(execute)(self.viewer, cmd, self.seat_index)
        except Exception as exc:  # noqa: BLE001 - see refusal_message
            self.move_at = None
            await self.send_json(refusal_message(exc, cmd.ref))

    # -- from the channel layer
    async def seat_state(self, event: dict) -> None:
        """A change, as this socket's seat sees it: the seat's ``room`` frame
        (the group's message of the change skips this socket)."""
        version = event["version"]
        if self.replaced or version <= self.version:
            return
        mine = self._own_seat(event["owners"])
        if mine == event["seat"]:
            self.seat_index = mine
            await self._send_frame(version, event["frame"], event["watchable"])
        else:  # the seat is not this viewer's any more
            await self._reread(mine, event)

    async def room_state(self, event: dict) -> None:
        """A change, for the sockets that got no frame of their own: the
        spectator's frame as it is, or a re-read from the database when this
        viewer has a seat (bound to another socket, newly theirs, or a lost
        message)."""
        version = event["version"]
        if self.replaced or version <= self.version:
            return
        mine = self._own_seat(event["owners"])
        if mine is None:
            self.seat_index = None
            await self._send_frame(version, event["frame"], event["watchable"])
        else:
            await self._reread(mine, event)

    async def _reread(self, mine: int | None, event: dict) -> None:
        if mine is not None and mine == self.seat_index and not event["connected"][mine]:
            # Our seat shows disconnected while this socket lives (its process
            # was judged dead after a stall): bind it to this socket again.
            await _db(rebind_if_released)(self.viewer, mine)
        await self._refresh()

    async def room_watchers(self, event: dict) -> None:
        """The number of sockets watching without a seat changed (rooms.watchers)."""
        if not self.replaced:
            await self.send_json({"type": "watchers", "count": event["count"]})

    async def room_chat(self, event: dict) -> None:
        """A quick-chat phrase of a seat: passed on as it is (not stored), unless
        its sender is an account this viewer hides (`rooms.signals.chat_hidden`,
        asked once, at the first phrase of another account)."""
        if self.replaced:
            return
        sender = event.get("user")
        if sender is not None and self.user_id is not None and sender != self.user_id:
            if self.chat_hidden is None:
                self.chat_hidden = await _db(_chat_hidden)(self.user_id)
            if sender in self.chat_hidden:
                return
        await self.send_json({"type": "chat", "seat": event["seat"], "phrase": event["phrase"]})

    async def _chat(self, cmd: Command) -> None:
        """Quick chat (docs/protocol.md ``chat``): seated people only, one every 3 s;
        the phrase key goes to everyone at the table, watchers included. Bots
        never chat; nothing is stored."""
        if self.seat_index is None:
            await self.send_json(take_a_seat().as_message(cmd.ref))
            return
        # Per seat, kept in its row: reopening the socket does not reset it.
        if not await _db(chat_allowed)(self.viewer, self.seat_index):
            await self._send_error("rate_limited", _("One quick message every 3 seconds."), cmd.ref)
            return
        message = {
            "type": "room.chat",
            "seat": self.seat_index,
            "phrase": cmd.fields["phrase"],
            "user": self.user_id,
        }
        await self.channel_layer.group_send(self.group, message)

    async def _sync_watching(self) -> None:
        """A socket with no seat at a public table is a watcher; one that sits down
        is not any more. The database is asked only when that changes."""
        watching = self.seat_index is None and self.public and not self.replaced
        if watching != self.watching:
            self.watching = watching
            await _db(watch)(self.viewer.code, self.channel_name, watching)

    async def room_changed(self, event: dict) -> None:
        """A bare version notice (no content): re-read if it is news."""
        if self.replaced or event.get("version", 0) <= self.version:
            return
        await self._refresh()

    def _person_key(self) -> str:
        if self.user_id is not None:
            return f"user:{self.user_id}"
        if self.guest_key is not None:
            return f"guest:{self.guest_key}"
        client = self.scope.get("client") or ("?",)
        return f"address:{client[0]}"

    def _own_seat(self, owners: list) -> int | None:
        """The seat this viewer plays, from the owners of a ``room.state``
        (``[user id, guest key]`` or None per seat), as `viewer_seat` decides it."""
        for index, owner in enumerate(owners):
            if owner is None:
                continue
            if self.user_id is not None:
                if owner[0] == self.user_id:
                    return index
            elif self.guest_key is not None and owner[0] is None and owner[1] == self.guest_key:
                return index
        return None

    async def seat_replaced(self, event: dict) -> None:
        self.replaced = True
        await self.send_json({"type": "replaced"})
        await self.close(code=CLOSE_REPLACED)

    # -- helpers
    async def _refresh(self) -> None:
        snapshot, self.seat_index = await _db(read_snapshot)(self.viewer, self.seat_index)
        await self._send_snapshot(snapshot)

    async def _send_snapshot(self, snapshot: dict | None) -> None:
        if snapshot is None or snapshot["version"] <= self.version:
            return
        self.version = snapshot["version"]
        await self.send_json({"type": "room", **snapshot})
        self._move_answered()
        self.public = watchable(snapshot)
        await self._sync_watching()

    async def _send_frame(self, version: int, frame: str, public: bool) -> None:
        """A ``room`` message the services serialised already (`rooms.events`)."""
        self.version = version
        await self.send(text_data=frame)
        self._move_answered()
        self.public = public
        await self._sync_watching()

    def _move_answered(self) -> None:
        """A newer version went out: the answer to the pending move, if any."""
        if self.move_at is not None:
            metrics.move_answered(time.perf_counter() - self.move_at)
            self.move_at = None

    async def _send_error(self, code: str, message: str, ref: Any = None) -> None:
        await self.send_json(error_message(code, message, ref))


def refusal_message(exc: Exception, ref: Any) -> dict[str, Any]:
    """The ``error`` message for a failed table command (``reason`` and ``field``
    kept); anything unexpected is logged."""
    if isinstance(exc, ServiceError):
        return exc.as_message(ref)
    if isinstance(exc, IllegalAction):  # the engine's codes (services may pass them on)
        return error_message(exc.code, exc.message, ref)
    if isinstance(exc, ValueError):  # e.g. a rule knob RuleSet refuses
        return error_message("bad_message", str(exc), ref)
    log.exception("table command failed", exc_info=exc)
    return error_message("internal", _("Something went wrong on the server; try again."), ref)


class NoSuchSocket(AsyncJsonWebsocketConsumer):
    """Any other WebSocket path (a mistyped or made-up room code): closed with
    4004, as an unknown room is, instead of an exception in the router."""

    async def connect(self) -> None:
        await self.accept()
        await self.close(code=CLOSE_NOT_FOUND)
