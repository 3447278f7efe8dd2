"""A client's frames on any socket: their largest size, how many a second, and
the one ``error`` body a socket sends.

`error_message` is the protocol's only serialiser of that body
(docs/protocol.md, ``error``); `games.errors` (its codes, `ServiceError`)
re-exports it.
"""

from __future__ import annotations

import time
from collections import deque
from typing import Any

from domino_site.metrics import error_sent

MAX_FRAME_BYTES = 4096


def error_message(
    code: str,
    message: str,
    ref: Any = None,
    *,
    reason: str | None = None,
    field: str | None = None,
) -> dict[str, Any]:
    """The protocol's ``error`` message body, the only one a socket sends.

    ``{"type": "error", "code", "message", "ref"}`` (docs/protocol.md; ``ref`` is the
    client's, null when it had none), plus ``reason`` and ``field`` when the
    refusal names them: the table page shows the rule knob's own message for
    ``field``.
    """
    error_sent(code)  # domino_errors_total{code}: every error frame is built here
    body: dict[str, Any] = {"type": "error", "code": code, "message": str(message), "ref": ref}
    if reason:
        body["reason"] = reason
    if field:
        body["field"] = field
    return body


class RateLimiter:
    """Frames per second on one socket: over ``rate`` a frame is refused
    (``rate_limited``); over ``close_at`` within the same second the socket is
    flooding and gets closed (4008)."""

    def __init__(self, rate: int = 20, close_at: int = 40, clock=time.monotonic) -> None:
        self.rate = rate
        self.close_at = close_at
        self.clock = clock
        self._stamps: deque[float] = deque()

    def hit(self) -> str:
        """Record a frame: ``"ok"``, ``"limited"`` or ``"flood"``."""
        now = self.clock()
        stamps = self._stamps
        stamps.append(now)
        while stamps and stamps[0] <= now - 1.0:
            stamps.popleft()
        if len(stamps) > self.close_at:
            return "flood"
        if len(stamps) > self.rate:
            return "limited"
        return "ok"
