"""The reminder that an arena joined ahead has started (docs/site.md,
"Tournaments on a calendar"): after the commit of its start, every page of each
of its active players hears it on their people socket (``ws/people/``,
``arena_started``; docs/protocol.md), which shows a line with the way to the
arena and, when the person allowed the site's notifications in this browser,
a system notification (static/js/people.js, static/js/alerts.js).

Only the arena's own players are told, each on their own account's group: a
private arena's name reaches nobody else.
"""

from __future__ import annotations

import logging

from channels.layers import get_channel_layer
from django.db import transaction
from django.urls import reverse

from arenas.models import Arena, ArenaPlayer
from domino_site.realtime.fanout import deliver
from people.events import person_group

log = logging.getLogger(__name__)


def started_frame(arena: Arena) -> dict[str, object]:
    """What each player's people socket receives (its ``type`` is the layer's)."""
    return {
        "type": "people.arena_started",
        "id": arena.pk,
        "name": arena.name,
        "preset": arena.preset,
        "url": reverse("arenas:detail", args=[arena.pk]),
    }


def arena_started(arena: Arena) -> None:
    """Register, for after the commit, the reminder to ``arena``'s active players."""
    pk = arena.pk

    def tell() -> None:
        fresh = Arena.objects.filter(pk=pk).first()
        if fresh is None:
            return
        users = ArenaPlayer.objects.filter(arena_id=pk, active=True).values_list(
            "user_id", flat=True
        )
        frame = started_frame(fresh)
        try:
            deliver(get_channel_layer(), [("group", person_group(u), frame) for u in users])
        except Exception:  # noqa: BLE001 - a reminder lost is no broken start
            log.exception("could not remind the players of arena %s", pk)

    transaction.on_commit(tell, robust=True)
