"""WebSocket URL patterns, mounted by domino_site/asgi.py (protocol.md):
``ws/rooms/<code>/`` (table socket) and ``ws/lobby/`` (lobby socket)."""

websocket_urlpatterns: list = []
