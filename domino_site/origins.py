"""The table and lobby sockets accept a page of this site only: the socket's
``Origin`` must be the whole origin (scheme, host and port) of the site the
socket was opened on, or one of ``CSRF_TRUSTED_ORIGINS``. Channels'
``AllowedHostsOriginValidator`` (kept in front of this) compares the host
name only, so another port or plain HTTP on an allowed host passed.

The site's own origin is the socket's ``Host`` header with the scheme the
browser used: ``wss``, or behind a proxy that ends TLS its ``X-Forwarded-Proto``
(trusted exactly when Django trusts it for pages: ``SECURE_PROXY_SSL_HEADER``).
"""

from __future__ import annotations

from typing import Any

from channels.security.websocket import WebsocketDenier
from django.conf import settings


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers") or ():
        if key.lower() == name:
            try:
                return value.decode("latin-1").strip()
            except (AttributeError, UnicodeDecodeError):
                return None
    return None


def _secure(scope: dict[str, Any]) -> bool:
    if scope.get("scheme") == "wss":
        return True
    proxy_header = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if not proxy_header:
        return False
    name, value = proxy_header  # ("HTTP_X_FORWARDED_PROTO", "https")
    header = name.removeprefix("HTTP_").lower().replace("_", "-").encode()
    forwarded = _header(scope, header)
    return forwarded is not None and forwarded.split(",")[0].strip() == value


def allowed_origin(scope: dict[str, Any]) -> bool:
    """Whether the socket's ``Origin`` is this site's whole origin or a trusted one."""
    origin = _header(scope, b"origin")
    if not origin:
        return False
    origin = origin.lower().rstrip("/")
    trusted = {o.lower().rstrip("/") for o in getattr(settings, "CSRF_TRUSTED_ORIGINS", [])}
    if origin in trusted:
        return True
    host = _header(scope, b"host")
    if not host:
        return False
    scheme = "https" if _secure(scope) else "http"
    own = f"{scheme}://{host.lower()}"
    return origin == own or origin == _without_default_port(own, scheme)


def _without_default_port(origin: str, scheme: str) -> str:
    default = {"http": ":80", "https": ":443"}[scheme]
    return origin.removesuffix(default)


class SameOriginValidator:
    """ASGI middleware: a WebSocket whose ``Origin`` is not allowed is refused at
    the handshake (403), before any consumer runs."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> Any:
        if scope.get("type") == "websocket" and not allowed_origin(scope):
            denier = WebsocketDenier()
            return await denier(scope, receive, send)
        return await self.application(scope, receive, send)
