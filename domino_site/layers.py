"""The embedded server's channel layer.

channels' `InMemoryChannelLayer` walks every channel and every group looking
for expired messages on each ``receive`` and each ``group_send``: with 400
sockets that walk was a sixth of the embedded server's time under load
(py-spy, bench/load.py at 100 tables), and it grows with the square of the
sockets. Expiry is a safety net (a message nobody read for 60 s), so once a
second is plenty.
"""

from __future__ import annotations

import time

from channels.layers import InMemoryChannelLayer as StockInMemoryChannelLayer


class InMemoryChannelLayer(StockInMemoryChannelLayer):
    """`channels.layers.InMemoryChannelLayer`, cleaning expired messages and
    group memberships at most once every ``clean_every`` seconds."""

    clean_every = 1.0
    _cleaned_at = 0.0

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._cleaned_at < self.clean_every:
            return
        self._cleaned_at = now
        super()._clean_expired()
