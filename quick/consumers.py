"""``ws/quick/``: the quick-match socket (docs/protocol.md, "Quick match").

Thin, as the table's: it parses, calls `quick.services` in a worker
thread, and passes on what the services tell after their commit: the person's
entry (``quick.entry``, to every tab of theirs: the tab follows the queue the
person is in), the queue's count (``quick.count``), the table they were
seated at (``quick.matched``).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from domino_site.client_ip import scope_ip_hash
from domino_site.realtime.asyncdb import NoDatabaseInTheLoop, db_async
from domino_site.realtime.listening import Handler, ListeningSocket
from domino_site.realtime.socket_guard import LAYER_ERRORS, LayerGuard, track, untrack
from quick import selectors as quick_selectors
from quick import services as quick
from rooms.errors import ServiceError


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


class QuickConsumer(LayerGuard, NoDatabaseInTheLoop, ListeningSocket):
    """One socket per lobby page that uses "Jogar agora com pessoas"."""

    socket_kind = "quick"

    queue: tuple[str, int] | None = None  # the queue group this socket is in
    since: str | None = None

    async def connect(self) -> None:
        if not await self.admit_person(quick.person_group):
            return
        track(self)
        entry = await db_async(_current)(self.user)
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

    def handlers(self) -> dict[str, Handler]:
        return {"join": self._join, "leave": self._leave}

    def refusal(self) -> str:
        return _("This socket answers join, leave and ping.")

    async def _leave(self, msg: dict[str, Any]) -> None:
        await db_async(quick.quick_leave)(user=self.user)

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
