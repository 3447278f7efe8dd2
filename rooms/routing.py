"""WebSocket URL patterns, mounted by domino_site/asgi.py (docs/protocol.md):
``ws/rooms/<code>/`` (table socket), after the arenas', the quick match's and
the lobby's patterns (arenas/routing.py, quick/routing.py, lobby/routing.py).
Any other path is closed with 4004 (without the catch-all, Channels' router
raises, and the server logs a traceback for every such request)."""

from django.urls import re_path

from rooms.consumers import NoSuchSocket, TableConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/rooms/(?P<code>[A-Za-z0-9]{4,16})/$", TableConsumer.as_asgi()),
    re_path(r"", NoSuchSocket.as_asgi()),
]
