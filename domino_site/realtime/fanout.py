"""Sending channel-layer messages from sync code: a committed change's fan-out.

The apps' after-commit events (`rooms.events`, `arenas.events`, the quick
match's pairings) build their messages and hand them to `deliver` (or `send`,
one group message). A message is ``(how, target, message)``: ``"send"`` to
one socket's channel, ``"group"`` to a group, ``"group_others"`` to a group's
sockets that got no ``"send"`` of their own in the same batch (our layers,
`domino_site.infra`; any other layer gets the whole group). Sending is best
effort: a failure is logged, never raised (the state is committed; clients
that miss a version ask again).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any

from asgiref.sync import async_to_sync

from domino_site.realtime.asyncdb import calling_loop

log = logging.getLogger(__name__)


async def _deliver(layer: Any, messages: list[tuple[str, str, dict]]) -> None:
    # In order: a seat's own frame reaches its socket before the group's.
    in_order = getattr(layer, "send_in_order", None)
    if in_order is not None:  # our layers (domino_site.infra): "group_others" skips
        try:
            await in_order(messages)
        except Exception:  # noqa: BLE001 - telling is best effort; the state is committed
            log.exception("channel layer: a change's %d messages failed", len(messages))
        return
    # Any other layer: the whole group, so a seat's socket gets the change twice
    # and ignores the second (same version).
    for how, target, message in messages:
        try:
            if how == "send":
                await layer.send(target, message)
            else:
                await layer.group_send(target, message)
        except Exception:  # noqa: BLE001 - telling is best effort; the state is committed
            log.exception("channel layer %s to %s failed", how, target)


def deliver(layer: Any, messages: list[tuple[str, str, dict]]) -> None:
    """Send ``messages`` from sync code.

    In a thread that runs a socket's or the ticker's database work
    (`domino_site.realtime.asyncdb.db_async`) they are handed to the server's
    event loop and the thread goes on at once: nothing waits for the sending,
    and no thread is parked while the loop works for it (async_to_sync blocked
    the database thread until the loop had sent everything, and the two then
    fought for the GIL while the frames went out). From a thread that runs an
    event loop itself (async_to_sync refuses there) they are scheduled on that
    loop; elsewhere (Celery, management commands, tests) they are sent before
    returning."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        loop = None
    if loop is not None:
        _start(loop, layer, messages)
        return
    server_loop = calling_loop()
    if server_loop is not None and not server_loop.is_closed():
        try:
            server_loop.call_soon_threadsafe(_start, server_loop, layer, messages)
            return
        except RuntimeError:  # the loop closed meanwhile: send them here
            pass
    async_to_sync(_deliver)(layer, messages)


_sending: set[asyncio.Task] = set()  # (the loop keeps only weak references to tasks)


def _start(loop: asyncio.AbstractEventLoop, layer: Any, messages: list) -> None:
    spawn(loop, _deliver(layer, messages))


def spawn(loop: asyncio.AbstractEventLoop, sending: Coroutine[Any, Any, None]) -> None:
    """Run ``sending`` as a task of ``loop``, kept until it ends; it logs its own
    failures."""
    task = loop.create_task(sending)
    _sending.add(task)
    task.add_done_callback(_sent)


def _sent(task: asyncio.Task) -> None:
    _sending.discard(task)
    if not task.cancelled():
        task.exception()  # (the sending logs its own failures; this marks it retrieved)


def send(layer: Any, group: str, message: dict) -> None:
    """``group_send`` of one message from sync code (see `deliver`)."""
    deliver(layer, [("group", group, message)])
