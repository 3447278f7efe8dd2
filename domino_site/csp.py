"""Content-Security-Policy (django-csp 4, ``CONTENT_SECURITY_POLICY`` in settings).

The policy allows no inline script and no inline style: pages load their code
from ``static/js`` (ES modules) and their data from ``json_script`` islands,
which browsers do not execute. ``connect-src`` names the WebSocket origins of
the page's own host explicitly (``ws://`` on plain HTTP, ``wss://``), besides
``'self'``, which older browsers do not extend to ``ws:``/``wss:``.
"""

from __future__ import annotations

from csp.middleware import CSPMiddleware, PolicyParts
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponseBase


def websocket_sources(request: HttpRequest) -> list[str]:
    """The WebSocket origins of the requested host (an allowed one only)."""
    try:
        host = request.get_host()
    except DisallowedHost:
        return []
    if request.is_secure():
        return [f"wss://{host}"]
    return [f"ws://{host}", f"wss://{host}"]


class SiteCSPMiddleware(CSPMiddleware):
    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        sources = websocket_sources(request)
        if sources:
            update = dict(parts.update or {})
            existing = update.get("connect-src") or []
            if isinstance(existing, str):
                existing = [existing]
            update["connect-src"] = [*existing, *sources]
            parts.update = update
        return parts
