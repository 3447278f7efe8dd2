"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Run with ``daphne domino_site.asgi:application``.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")

# Set up Django (apps, models) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator

from domino_site.liveness import start_heartbeat
from rooms.routing import websocket_urlpatterns
from timers.scheduling import start_inprocess_scheduler


class SchedulerStarter:
    """Starts the in-process machinery on the server's event loop: the in-process
    scheduler (``DOMINO_SCHEDULER=inprocess`` only) and, with the Redis channel
    layer in either mode, the heartbeat that tells the other processes this one
    is alive (``domino_site.liveness``).

    Daphne has no lifespan hook, so the first connection (HTTP or WebSocket)
    starts them; servers that do send ``lifespan`` (uvicorn) start them at boot.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        await start_inprocess_scheduler()
        await start_heartbeat()
        return await self.app(scope, receive, send)

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await start_inprocess_scheduler()
                await start_heartbeat()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


application = SchedulerStarter(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    )
)
