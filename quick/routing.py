"""WebSocket URL patterns of the quick match (docs/protocol.md, "Quick match"):
``ws/quick/``, mounted by domino_site/asgi.py before the rooms' patterns (which
end with the catch-all)."""

from django.urls import re_path

from quick.consumers import QuickConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/quick/$", QuickConsumer.as_asgi()),
]
