"""ASGI entry point: HTTP through Django, WebSockets through Channels.

Run with ``daphne domino_site.asgi:application``.
"""

import asyncio
import gc
import os
import weakref
from concurrent.futures import ThreadPoolExecutor

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")

# Set up Django (apps, models) before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack
from channels.routing import ProtocolTypeRouter, URLRouter
from channels.security.websocket import AllowedHostsOriginValidator
from django.conf import settings

from arenas.routing import websocket_urlpatterns as arena_sockets
from domino_site import heartbeats
from domino_site.logs import SocketLogContext
from domino_site.origins import SameOriginValidator
from domino_site.realtime.build_frame import FirstFrameBuild
from domino_site.realtime.liveness import start_heartbeat
from lobby.routing import websocket_urlpatterns as lobby_sockets
from people.routing import websocket_urlpatterns as people_sockets
from quick.routing import websocket_urlpatterns as quick_sockets
from rooms.routing import websocket_urlpatterns as room_sockets
from timers.scheduling import start_inprocess_scheduler


class SchedulerStarter:
    """Starts the in-process machinery on the server's event loop: the in-process
    scheduler (``DOMINO_SCHEDULER=inprocess`` only) and, with the Redis channel
    layer in either mode, the heartbeat that tells the other processes this one
    is alive (``domino_site.realtime.liveness``).

    Daphne has no lifespan hook, so the first connection (HTTP or WebSocket)
    starts them; servers that do send ``lifespan`` (uvicorn) start them at boot.
    """

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self._lifespan(receive, send)
        use_db_threads_by_default()
        freeze_what_was_loaded()
        heartbeats.start("web")  # domino_processes, the pool's sampling (cheap once started)
        await start_inprocess_scheduler()
        await start_heartbeat()
        return await self.app(scope, receive, send)

    async def _lifespan(self, receive, send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                use_db_threads_by_default()
                freeze_what_was_loaded()
                heartbeats.start("web")
                await start_inprocess_scheduler()
                await start_heartbeat()
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return


_small_default: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def use_db_threads_by_default() -> None:
    """The server loop's default executor gets ``settings.DB_THREADS`` threads, as
    the database pool (`domino_site.realtime.asyncdb.db_executor`), instead of asyncio's
    ``cores + 4``: fewer threads competing for the GIL keep the event loop that
    serves the sockets responsive (bench/load.py measures it). A pool of the
    loop's own: a closing loop shuts its default executor down."""
    loop = asyncio.get_running_loop()
    if loop not in _small_default:
        _small_default[loop] = ThreadPoolExecutor(max_workers=settings.DB_THREADS)
        loop.set_default_executor(_small_default[loop])


_frozen = False


def freeze_what_was_loaded() -> None:
    """Move every object the server holds at its first connection (Django, the
    apps, the modules, classes and functions: objects that live as long as the
    process) out of the cyclic garbage collector's reach, once (`gc.freeze`).

    A full collection walks every tracked object while the event loop waits,
    and under load those pauses were the slowest moves (bench/load.py). Frozen
    objects are still
    freed by reference counting; only cycles among them are never collected,
    and the startup objects form none that die."""
    global _frozen
    if _frozen:
        return
    _frozen = True
    gc.collect()
    gc.freeze()


application = SchedulerStarter(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # The socket's id on its log lines (domino_site.logs). The host
            # must be allowed, and the whole origin (scheme, host, port) this
            # site's or a trusted one (domino_site.origins). Every socket's
            # first frame carries the build (FirstFrameBuild).
            "websocket": SocketLogContext(
                FirstFrameBuild(
                    AllowedHostsOriginValidator(
                        SameOriginValidator(
                            AuthMiddlewareStack(
                                URLRouter(
                                    arena_sockets
                                    + quick_sockets
                                    + lobby_sockets
                                    + people_sockets
                                    + room_sockets
                                )
                            )
                        )
                    )
                )
            ),
        }
    )
)
