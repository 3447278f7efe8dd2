"""The lobby socket, ``ws/lobby/`` (docs/protocol.md): the live public list, one
filtered page of it. Every change of the list comes to the group ``lobby`` as
the changed rows alone (`rooms.events.lobby_notice`), and each socket's
`lobby.listing.Page` sorts out, in memory, what reaches its page."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _

from domino_site.realtime.asyncdb import NoDatabaseInTheLoop, db_async
from domino_site.realtime.frames import error_message
from domino_site.realtime.listening import Handler, ListeningSocket
from domino_site.realtime.socket_guard import LAYER_ERRORS, LayerGuard, track, untrack
from lobby.listing import BadView, Page, View, changes_message, rooms_message
from lobby.selectors import lobby_page
from rooms.events import LOBBY_GROUP


def _db(func):
    return db_async(func)


class LobbyConsumer(LayerGuard, NoDatabaseInTheLoop, ListeningSocket):
    """``ws/lobby/``: the live public list, one filtered page of it.

    On connect the first page of the unfiltered list (``rooms``); a ``view``
    message picks another filter or page (answered with its ``rooms``). Then
    only what changes on that page (``rooms_changed``; a client that never sent
    a ``view`` gets its page whole, ``rooms``, when it changed, within a byte
    budget: `whole_rate`): every change of the
    public list comes as the changed rows alone (`rooms.events.lobby_notice`),
    and the socket's `lobby.listing.Page` sorts out, in memory, what reaches its
    page; it reads the database again only when its spare rows run out."""

    socket_kind = "lobby"

    async def connect(self) -> None:
        self.page: Page | None = None
        # Until the client says what it views, it is told as the first lobby
        # clients were: its page whole (``rooms``) when the page changed, within
        # a budget of `whole_rate()` bytes a second (a busy site's first page
        # changes all the time, and a whole page is some 10 KB): a bucket that
        # holds `WHOLE_BURST` bytes, so a quiet lobby's changes go out at once.
        self.deltas = False
        self.credit = float(WHOLE_BURST)
        self.credit_at = asyncio.get_running_loop().time()
        self.whole_later: asyncio.TimerHandle | None = None
        await self.channel_layer.group_add(LOBBY_GROUP, self.channel_name)
        await self.accept()
        track(self)
        await self._show(View())

    async def disconnect(self, code: int) -> None:
        untrack(self)
        later = getattr(self, "whole_later", None)  # (a socket refused before connect's end)
        if later is not None:
            later.cancel()
        try:
            await self.channel_layer.group_discard(LOBBY_GROUP, self.channel_name)
        except LAYER_ERRORS:
            pass

    def handlers(self) -> dict[str, Handler]:
        return {"view": self._view}

    def refusal(self) -> str:
        return _("The lobby socket answers ping and view only.")

    async def _view(self, msg: dict) -> None:
        fields = {k: v for k, v in msg.items() if k not in ("type", "ref")}
        try:
            view = View.parse(fields)
        except BadView as exc:  # the page stays as it was
            await self.send_json(
                error_message(
                    "bad_message", _("This filter or page does not exist."), msg.get("ref"),
                    reason="bad_view", field=str(exc),
                )
            )  # fmt: skip
            return
        self.deltas = True
        await self._show(view, msg.get("ref"))

    async def _show(self, view: View, ref: Any = None) -> None:
        """Read ``view``'s page and send it whole (``rooms``)."""
        page = Page(view, [], complete=True)
        page.refill(*(await _db(lobby_page)(view, page.want)))
        self.page = page
        message = rooms_message(page, ref)
        await self.send_json(message)

    async def lobby_changed(self, event: dict) -> None:
        page = self.page
        if page is None:  # (not shown yet: its first read is newer than the news)
            return
        rows = event.get("rows")
        entries = [tuple(entry) for entry in rows] if isinstance(rows, list) else None
        if entries is None or not page.apply(entries, event.get("gone") or []):
            page.refill(*(await shared_reads.read(page.view, page.want, event.get("id"))))
            if page is not self.page:  # another view was asked meanwhile
                return
        if not self.deltas:
            await self._whole_soon()
            return
        diff = page.diff()
        if diff:
            await self.send_json(changes_message(page, diff))

    room_changed = lobby_changed  # the contract's name for a bare notice: read the page again

    async def _whole_soon(self) -> None:
        """A client without a view: its changed page whole, now if its budget
        has credit, else as soon as it has (the changes meanwhile together)."""
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.credit = min(WHOLE_BURST, self.credit + (now - self.credit_at) * whole_rate())
        self.credit_at = now
        if self.credit >= 0:
            await self._send_whole()
        elif self.whole_later is None:
            wait = -self.credit / whole_rate()
            self.whole_later = loop.call_later(
                wait, lambda: asyncio.ensure_future(self._whole_due())
            )

    async def _whole_due(self) -> None:
        self.whole_later = None
        await self._whole_soon()

    async def _send_whole(self) -> None:
        page = self.page
        if self.deltas or page is None or not page.diff():  # (diff: rows changed since shown)
            return
        text = json.dumps(rooms_message(page))
        self.credit -= len(text)
        await self.send(text_data=text)


#: A lobby socket without a view: the bytes its budget holds at most (a page
#: of 50 rows is some 10 KB), and how many a second it earns.
WHOLE_BURST = 12_000


def whole_rate() -> float:
    """``DOMINO_LOBBY_WHOLE_BYTES`` (bytes a second, default 1500): what a lobby
    socket that never sent a view gets at most, on average, of whole pages."""
    return float(getattr(settings, "DOMINO_LOBBY_WHOLE_BYTES", 1500))


class SharedReads:
    """Re-reads of a page after one notice, shared by the process's sockets that
    look at the same page: a thousand sockets on the first page that all run out
    of spare rows at the same news make one query, not a thousand."""

    KEEP = 64

    def __init__(self) -> None:
        self._reads: dict[tuple, asyncio.Task] = {}

    async def read(self, view: View, limit: int, notice: Any) -> tuple[list, bool]:
        if not isinstance(notice, str):  # (a notice without a name: read alone)
            return await _db(lobby_page)(view, limit)
        key = (notice, view.share_key(), limit)
        task = self._reads.get(key)
        if task is None:
            task = asyncio.ensure_future(_db(lobby_page)(view, limit))
            self._reads[key] = task
            while len(self._reads) > self.KEEP:  # the oldest notices' reads
                del self._reads[next(iter(self._reads))]
        entries, complete = await asyncio.shield(task)
        return list(entries), complete


shared_reads = SharedReads()
