"""``ws/arenas/<id>/``: the arena's live frame (docs/protocol.md, "Arenas"),
on connect and on every change. The socket only listens (and answers ping)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from arenas.events import arena_group
from arenas.models import Arena
from arenas.selectors import arena_frame, arena_visible, viewers_part, you
from domino_site.realtime.asyncdb import NoDatabaseInTheLoop, db_async
from domino_site.realtime.listening import ListeningSocket
from domino_site.realtime.socket_guard import LAYER_ERRORS, LayerGuard, track, untrack
from rooms.consumers import CLOSE_NOT_FOUND


def _read(arena_id: int, user: Any) -> tuple[dict, dict] | None:
    arena = Arena.objects.filter(pk=arena_id).first()
    if arena is None or not arena_visible(arena, user):
        return None
    return arena_frame(arena), viewers_part(arena)


class ArenaConsumer(LayerGuard, NoDatabaseInTheLoop, ListeningSocket):
    socket_kind = "arena"

    async def connect(self) -> None:
        self.arena_id = int(self.scope["url_route"]["kwargs"]["arena_id"])
        user = self.scope.get("user")
        self.user_id = user.pk if getattr(user, "is_authenticated", False) else None
        self.version = 0
        self.joined = False
        read = await db_async(_read)(self.arena_id, user)
        await self.accept()
        if read is None:
            await self.close(code=CLOSE_NOT_FOUND)
            return
        await self.channel_layer.group_add(arena_group(self.arena_id), self.channel_name)
        self.joined = True
        track(self)
        # Read again after joining the group: no change falls between the two.
        read = await db_async(_read)(self.arena_id, user) or read
        await self._send_frame(*read)

    async def disconnect(self, code: int) -> None:
        if not self.joined:
            return
        untrack(self)
        try:
            await self.channel_layer.group_discard(arena_group(self.arena_id), self.channel_name)
        except LAYER_ERRORS:
            pass

    def refusal(self) -> str:
        return _("The arena socket only answers ping.")

    async def arena_state(self, event: dict) -> None:
        await self._send_frame(event["frame"], event)

    async def _send_frame(self, frame: dict, part: dict) -> None:
        if frame["version"] <= self.version:
            return  # an older or the same state, already sent
        self.version = frame["version"]
        await self.send_json({**frame, "you": you(part, self.user_id)})
