"""WebSocket URL patterns, mounted by domino_site/asgi.py (protocol.md):
``ws/rooms/<code>/`` (table socket) and ``ws/lobby/`` (lobby socket)."""

from django.urls import re_path

from rooms.consumers import LobbyConsumer, TableConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/rooms/(?P<code>[A-Za-z0-9]{4,16})/$", TableConsumer.as_asgi()),
    re_path(r"^ws/lobby/$", LobbyConsumer.as_asgi()),
]
