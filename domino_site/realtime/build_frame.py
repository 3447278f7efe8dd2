"""Every socket's first frame carries the build (docs/protocol.md, "The build").

`FirstFrameBuild` wraps the WebSocket application: the first text frame a
socket sends (a JSON object: the table's ``room`` snapshot, the lobby's list,
...) gets ``"build": settings.BUILD_VERSION`` as its first key, whatever
consumer sent it. One string splice per socket; the frames after it pass
untouched. A page that meets another build than its own reloads itself at a
quiet moment (static/js/build.js).

    >>> with_build('{"type": "room", "version": 3}', "abc")
    '{"build":"abc","type": "room", "version": 3}'
    >>> with_build("{}", "abc")
    '{"build":"abc"}'
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings


def with_build(text: str, build: str) -> str:
    """``text`` (a JSON object) with ``"build"`` first; other text as it is."""
    if not text.startswith("{"):
        return text
    rest = text[1:]
    head = '{"build":' + json.dumps(build)
    return head + rest if rest.lstrip().startswith("}") else f"{head},{rest}"


class FirstFrameBuild:
    """ASGI middleware for the ``websocket`` scope: see the module's docstring."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> Any:
        if scope["type"] != "websocket":
            return await self.app(scope, receive, send)
        build = settings.BUILD_VERSION
        first = True

        async def send_with_build(message: dict) -> None:
            nonlocal first
            if first and message.get("type") == "websocket.send" and message.get("text"):
                first = False
                message = {**message, "text": with_build(message["text"], build)}
            await send(message)

        return await self.app(scope, receive, send_with_build)
