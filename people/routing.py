"""WebSocket URL patterns of the people (docs/protocol.md): ``ws/people/``,
mounted by domino_site/asgi.py before the rooms' patterns (which end with the
catch-all)."""

from django.urls import re_path

from people.consumers import PeopleConsumer

websocket_urlpatterns: list = [
    re_path(r"^ws/people/$", PeopleConsumer.as_asgi()),
]
