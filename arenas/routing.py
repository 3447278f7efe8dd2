"""WebSocket URL patterns of the arenas (docs/protocol.md): ``ws/arenas/<id>/``,
mounted by domino_site/asgi.py before the rooms' patterns (which end with the
catch-all)."""

from django.urls import re_path

from arenas.consumers import ArenaConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/arenas/(?P<arena_id>[0-9]{1,12})/$", ArenaConsumer.as_asgi()),
]
