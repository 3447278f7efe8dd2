"""The receiving side of the sockets that mostly listen (the lobby, an arena,
the quick-match queue; docs/protocol.md): each answers ``ping`` and a few
message types of its own, and the rest of what a client may send is refused
the same way on all of them.

A subclass names its handlers in `handlers` and the text of its refusal in
`refusal`:

* over 40 frames in a second the socket is flooding and closes with 4008;
  over 20 a frame gets ``rate_limited``;
* a frame that is not a JSON object of at most `MAX_FRAME_BYTES` bytes, or of
  a type the socket does not answer, gets ``bad_message`` with the refusal
  (and the message's ``ref``, when it had one);
* ``{"type": "ping", "ref": …}`` gets ``{"type": "pong", "ref": …}``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils.translation import gettext as _

from domino_site.jsonbody import BadJSON, parse
from domino_site.realtime.frames import MAX_FRAME_BYTES, RateLimiter, error_message

CLOSE_FLOOD = 4008
CLOSE_FORBIDDEN = 4003

Handler = Callable[[dict[str, Any]], Awaitable[None]]


def parse_frame(text: str | None) -> dict[str, Any] | None:
    """A text frame as a JSON object, or None (not text, too big, not JSON,
    nested too deep, or not an object).

    >>> parse_frame('{"type": "ping"}')
    {'type': 'ping'}
    >>> parse_frame("[1]") is None
    True
    >>> parse_frame('{"type": "view", "page_size": NaN}') is None  # not JSON (RFC 8259)
    True
    """
    if text is None or len(text.encode()) > MAX_FRAME_BYTES:
        return None
    try:
        msg = parse(text)  # the site's one parser: never raises anything else
    except BadJSON:
        return None
    return msg if isinstance(msg, dict) else None


class ListeningSocket(AsyncJsonWebsocketConsumer):
    """A consumer whose `receive` is the module's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limiter = RateLimiter()

    def handlers(self) -> dict[str, Handler]:
        """The socket's own message types (besides ``ping``) and their handlers."""
        return {}

    def refusal(self) -> str:
        """The ``bad_message`` text: what this socket answers."""
        raise NotImplementedError

    async def admit_person(self, group_of: Callable[[int], str]) -> bool:
        """Accept a logged-in person's socket, in their own group
        (``group_of(user.pk)``, kept as ``self.group``; the person as
        ``self.user``); anyone else's is accepted and closed with 4003. True
        when admitted."""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.accept()
            await self.close(code=CLOSE_FORBIDDEN)
            return False
        self.user = user
        self.group = group_of(user.pk)
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        return True

    async def receive(self, text_data=None, bytes_data=None, **kwargs) -> None:
        verdict = self.limiter.hit()
        if verdict == "flood":
            await self.close(code=CLOSE_FLOOD)
            return
        if verdict == "limited":
            await self.send_json(error_message("rate_limited", _("Too many messages: slow down.")))
            return
        msg = parse_frame(text_data)
        kind = msg.get("type") if msg is not None else None
        handler = self.handlers().get(kind) if isinstance(kind, str) else None
        if msg is not None and kind == "ping":
            await self.send_json({"type": "pong", "ref": msg.get("ref")})
        elif msg is not None and handler is not None:
            await handler(msg)
        else:
            ref = msg.get("ref") if msg is not None else None
            await self.send_json(error_message("bad_message", self.refusal(), ref))
