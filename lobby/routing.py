"""WebSocket URL patterns of the lobby (docs/protocol.md): ``ws/lobby/``,
mounted by domino_site/asgi.py before the rooms' patterns (which end with the
catch-all)."""

from django.urls import re_path

from lobby.consumers import LobbyConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/lobby/$", LobbyConsumer.as_asgi()),
]
