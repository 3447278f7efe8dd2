"""``ws/quick/``: the quick-match socket (docs/protocol.md, "Quick match").

Thin, as the table's: it parses, calls `rooms.services.quick` in a worker
thread, and passes on what the services tell after their commit: the person's
entry (``quick.entry``, to every tab of theirs: the tab follows the queue the
person is in), the queue's count (``quick.count``), the table they were
seated at (``quick.matched``).
"""

from __future__ import annotations

import json
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext as _

from domino_site.asyncdb import NoDatabaseInTheLoop, db_async
from domino_site.client_ip import scope_ip_hash
from rooms import quick_selectors
from rooms.errors import ServiceError, error_message
from rooms.messages import MAX_FRAME_BYTES, RateLimiter
from rooms.services import quick
from rooms.socket_guard import LAYER_ERRORS, LayerGuard, track, untrack

CLOSE_FORBIDDEN = 4003
CLOSE_FLOOD = 4008


def _join(user: Any, msg: dict[str, Any], channel_name: str, ip_hash: str) -> None:
    quick.quick_join(
        user=user,
        preset=msg.get("preset"),
        move_seconds=msg.get("move_seconds"),
        people_only=msg.get("people_only", False),
        channel_name=channel_name,
        ip_hash=ip_hash,
    )


def _current(user: Any) -> dict[str, Any] | None:
    """The ``quick.entry`` event of the person's entry (a tab opened while they wait)."""
    entry = quick_selectors.entry_of(user)
    return quick._entry_event(entry)["entry"] if entry is not None else None


class QuickConsumer(NoDatabaseInTheLoop, LayerGuard, AsyncJsonWebsocketConsumer):
    """One socket per lobby page that uses "Jogar agora com pessoas"."""

    queue: tuple[str, int] | None = None  # the queue group this socket is in
    since: str | None = None

    async def connect(self) -> None:
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.accept()
            await self.close(code=CLOSE_FORBIDDEN)
            return
        self.user = user
        self.limiter = RateLimiter()
        self.group = quick.person_group(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        track(self)
        entry = await db_async(_current)(user)
        if entry is not None:  # already waiting (another tab, a reload): show it
            await self._follow(entry)

    async def disconnect(self, code: int) -> None:
        untrack(self)
        if not hasattr(self, "user"):
            return
        for group in (self.group, self._queue_group()):
            if group is None:
                continue
            try:
                await self.channel_layer.group_discard(group, self.channel_name)
            except LAYER_ERRORS:
                pass
        # The tab that joined last closed: the person leaves the queue.
        await db_async(quick.quick_leave)(user=self.user, channel_name=self.channel_name)

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        verdict = self.limiter.hit()
        if verdict == "flood":
            await self.close(code=CLOSE_FLOOD)
            return
        if verdict == "limited":
            await self.send_json(error_message("rate_limited", _("Too many messages: slow down.")))
            return
        msg = self._parse(text_data)
        kind = msg.get("type") if msg is not None else None
        if kind == "ping":
            await self.send_json({"type": "pong", "ref": msg.get("ref")})  # type: ignore[union-attr]
        elif kind == "join":
            await self._join(msg)  # type: ignore[arg-type]
        elif kind == "leave":
            await db_async(quick.quick_leave)(user=self.user)
        else:
            await self.send_json(
                error_message("bad_message", _("This socket answers join, leave and ping."))
            )

    def _parse(self, text: str | None) -> dict[str, Any] | None:
        if text is None or len(text.encode()) > MAX_FRAME_BYTES:
            return None
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            return None
        return msg if isinstance(msg, dict) else None

    async def _join(self, msg: dict[str, Any]) -> None:
        try:
            await db_async(_join)(self.user, msg, self.channel_name, scope_ip_hash(self.scope))
        except ServiceError as exc:
            await self.send_json(exc.as_message(msg.get("ref")))

    # -- from the services, after their commit
    async def quick_entry(self, event: dict) -> None:
        entry = event["entry"]
        if entry is None:
            await self._unfollow()
            await self.send_json({"type": "left"})
        else:
            await self._follow(entry)

    async def quick_count(self, event: dict) -> None:
        if self.queue == (event["preset"], event["move_seconds"]):
            await self.send_json({"type": "queue", **self._queue_fields(event["waiting"])})

    async def quick_matched(self, event: dict) -> None:
        await self._unfollow()
        await self.send_json(
            {"type": "matched", "room": event["room"], "url": event["url"], "seat": event["seat"]}
        )

    async def quick_refused(self, event: dict) -> None:
        """Taken out of the queue by a pass (a cool-down, a match elsewhere)."""
        await self._unfollow()
        await self.send_json(event["error"])

    # -- helpers
    async def _follow(self, entry: dict[str, Any]) -> None:
        """This tab shows the queue the person is in now (moved from another tab too)."""
        queue = (entry["preset"], entry["move_seconds"])
        if queue != self.queue:
            await self._unfollow()
            self.queue = queue
            await self.channel_layer.group_add(self._queue_group(), self.channel_name)
        self.since = entry["since"]
        waiting = await db_async(quick_selectors.waiting_in)(*queue)
        await self.send_json({"type": "queue", **self._queue_fields(waiting)})

    async def _unfollow(self) -> None:
        group = self._queue_group()
        self.queue = self.since = None
        if group is not None:
            await self.channel_layer.group_discard(group, self.channel_name)

    def _queue_group(self) -> str | None:
        return quick.queue_group(*self.queue) if self.queue is not None else None

    def _queue_fields(self, waiting: int) -> dict[str, Any]:
        assert self.queue is not None
        preset, seconds = self.queue
        return {"preset": preset, "move_seconds": seconds, "waiting": waiting, "since": self.since}
