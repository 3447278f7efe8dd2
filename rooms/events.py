"""After-commit side effects of a change to a room: tell, then schedule.

`room_changed` is called by every service that changed a room, inside its
transaction. Nothing happens unless the transaction commits (a refused or
rolled-back change tells nobody), and a failing broadcast or scheduler never
breaks the commit (``robust=True``; clients that miss a version ask again, and
the sweeper fires what was not scheduled).
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction

log = logging.getLogger(__name__)

LOBBY_GROUP = "lobby"


def room_group(code: str) -> str:
    return f"room.{code}"


def seat_group(code: str, index: int) -> str:
    """Per-seat group for private data (architecture.md)."""
    return f"room.{code}.seat.{index}"


def room_changed(room: Any, lobby: bool = False, round: Any = None) -> None:
    """Register the broadcast of ``room.version`` (and the lobby's, when the public
    list may change) and the scheduling of ``round``'s due action for after commit.

    ``round`` is the room's current `games.Round` (looked up after commit when not
    given).
    """
    code, version, room_id = room.code, room.version, room.pk
    due = None
    if round is not None:
        due = (round.pk, round.version, round.due_at, round.due_kind)

    def after_commit() -> None:
        _broadcast(code, version, lobby)
        _schedule(room_id, round is not None, due)

    transaction.on_commit(after_commit, robust=True)


def _broadcast(code: str, version: int, lobby: bool) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    messages = [(room_group(code), {"type": "room.changed", "version": version})]
    if lobby:
        messages.append((LOBBY_GROUP, {"type": "lobby.changed"}))
    for group, message in messages:
        send(layer, group, message)


def send(layer: Any, group: str, message: dict) -> None:
    """``group_send`` from sync code; from a thread that runs an event loop itself
    (async_to_sync refuses there) the send is scheduled on that loop instead."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        try:
            async_to_sync(layer.group_send)(group, message)
        except Exception:  # noqa: BLE001 - telling is best effort; the state is committed
            log.exception("group_send to %s failed", group)
        return
    task = asyncio.get_running_loop().create_task(layer.group_send(group, message))
    task.add_done_callback(lambda t: t.cancelled() or t.exception())


def _schedule(
    room_id: int, known: bool, due: tuple[int, int, datetime | None, str | None] | None
) -> None:
    if not known:
        from games.models import Round

        row = (
            Round.objects.filter(room_id=room_id)
            .order_by("-id")
            .values_list("id", "version", "due_at", "due_kind")
            .first()
        )
        due = tuple(row) if row else None
    if due is None or due[2] is None:
        return
    from games.scheduling import schedule_due

    round_id, version, due_at, kind = due
    schedule_due(round_id=round_id, version=version, due_at=due_at, kind=kind)
