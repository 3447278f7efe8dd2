"""What the site uses of channels beyond its documented API: the in-memory
channel layer of the embedded server, without its clean-up on every call.

channels' `InMemoryChannelLayer` walks every channel and every group looking
for expired messages on each ``receive`` and each ``group_send``, a cost that
grows with the square of the sockets. Expiry is a safety net (a message
nobody read for a minute), so once a second is plenty. It uses:

* ``InMemoryChannelLayer._clean_expired``: the walk, called by ``receive``
  and ``group_send`` (overridden here to run at most every ``clean_every``);
* ``InMemoryChannelLayer.groups``: ``{group: {channel: joined_at}}``, the
  members a change's ``"group_others"`` message skips (`send_in_order`).

tests/infra/test_channels.py fails when either changes.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer

from domino_site.infra.layer_messages import recipients
from domino_site.infra.versions import require
from domino_site.metrics import frames_dropped

VERSION = require("channels", ("4.3",), module=__name__)

log = logging.getLogger(__name__)


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    """`channels.layers.InMemoryChannelLayer`, cleaning expired messages and
    group memberships at most once every ``clean_every`` seconds, with
    `send_in_order` as the Redis layer has it."""

    clean_every = 1.0
    cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self.cleaned_at < self.clean_every:
            return
        self.cleaned_at = now
        super()._clean_expired()

    async def send_in_order(self, messages: Sequence[tuple[str, str, dict[str, Any]]]) -> None:
        """Each ``("send", channel, message)``, ``("group", group, message)`` and
        ``("group_others", group, message)`` (to the group's members that no
        message before it went to) in this order; a full inbox drops its message."""
        self._clean_expired()
        told: set[str] = set()
        for how, target, message in messages:
            if how == "send":
                channels = [target]
            else:
                assert self.require_valid_group_name(target), "Group name not valid"
                channels = recipients(how, list(self.groups.get(target, {})), told)
            for channel in channels:
                try:
                    await self.send(channel, message)
                except ChannelFull:
                    frames_dropped("inbox_full")
                    log.info("channel layer: the inbox of %s is full", channel)
                told.add(channel)
