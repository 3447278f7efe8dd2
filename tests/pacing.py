"""Test clients send as the page does: never more frames a second than the
server takes from one socket (`domino_site.realtime.frames.RateLimiter` refuses the 21st
frame within a second with ``rate_limited``, which a test reading for the next
snapshot would wait on in vain)."""

from __future__ import annotations

import asyncio

#: Frames a second a test client sends at most (the page's pace; the server allows 20).
PAGE_PACE = 15


class Pacer:
    """``await pacer.wait()`` before each frame: at most ``per_second`` frames in
    any second (0: no limit, for tests that flood on purpose)."""

    def __init__(self, per_second: int = PAGE_PACE) -> None:
        self.per_second = per_second
        self._sent: list[float] = []

    async def wait(self) -> None:
        if not self.per_second:
            return
        loop = asyncio.get_running_loop()
        self._sent = [t for t in self._sent if t > loop.time() - 1.0]
        if len(self._sent) >= self.per_second:
            await asyncio.sleep(self._sent[0] + 1.0 - loop.time())
        self._sent.append(loop.time())
