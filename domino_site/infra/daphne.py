"""What the site uses of Daphne beyond its documented API: a graceful stop.

Daphne stops on SIGTERM by cancelling every application at once: each socket
drops without a close frame (the page sees 1006) and a move in hand is lost.
`DrainingServer` (run by ``python -m domino_site.serve``, the Procfile's web
line) stops the way a deploy needs (docs/scaling.md, "Deploying"):

1. on SIGTERM (or SIGINT) it stops listening: a new connection is refused, and
   the proxy sends it to another web process;
2. every open socket is closed with 4013, "server restarting, reconnect now",
   between two of its messages (`come_back_elsewhere`): a move in hand is applied
   and answered first, and the frames a client sent before it got the close are
   still handed to its consumer before the disconnect (autobahn reads data
   frames while closing; tests/infra/test_daphne.py holds it);
3. it exits once every application (socket or request) has ended, or after
   ``settings.DRAIN_SECONDS``; a second signal stops it at once.

It uses:

* ``Server(signal_handlers=False)`` (Daphne installs no handler of its own:
  this module's are installed on the event loop once the reactor runs);
* ``Server.listen_success(port)``, called with each Twisted listening port
  (kept here, to call ``stopListening`` on);
* ``Server.connections``: ``{protocol: {"application_instance": future, ...}}``
  (what is still running);
* ``CommandLineInterface.server_class``: the command line (every ``daphne``
  option) builds this server instead of its own.

tests/infra/test_daphne.py fails when any of these changes.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

from daphne.cli import CommandLineInterface
from daphne.server import Server
from twisted.internet import reactor

from domino_site.infra.versions import require

VERSION = require("daphne", ("4.2",), module=__name__)

log = logging.getLogger(__name__)

#: How often the drain looks again at what is still running.
POLL_SECONDS = 0.05


class DrainingServer(Server):
    """`daphne.server.Server` that drains on SIGTERM (see the module's docstring)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["signal_handlers"] = False
        super().__init__(*args, **kwargs)
        self.ports: list[Any] = []
        self.draining = False
        self.drained: asyncio.Future | None = None

    def listen_success(self, port: Any) -> None:
        self.ports.append(port)
        super().listen_success(port)

    def run(self) -> None:
        reactor.callWhenRunning(self._install_signal_handlers)  # type: ignore[attr-defined]
        super().run()

    def _install_signal_handlers(self) -> None:
        loop = asyncio.get_event_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, self.drain)

    def drain(self) -> None:
        """Stop taking connections, ask every socket to come back elsewhere, and
        stop once nothing runs (or after ``settings.DRAIN_SECONDS``)."""
        if self.draining:
            log.warning("drain: told again, stopping now")
            self.stop()
            return
        from django.conf import settings

        self.draining = True
        for port in self.ports:
            port.stopListening()
        log.info("drain: no longer listening; asking the sockets to come back elsewhere")
        self.drained = asyncio.ensure_future(self._drain(float(settings.DRAIN_SECONDS)))

    def running_applications(self) -> int:
        """Applications (sockets, requests) not ended yet."""
        return sum(
            1
            for details in list(self.connections.values())
            if (app := details.get("application_instance")) is not None and not app.done()
        )

    async def _drain(self, seconds: float) -> None:
        from domino_site.realtime.socket_guard import come_back_elsewhere

        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        told = 0
        try:
            while loop.time() < deadline:
                # Again each time: a socket whose connect was under way joins late.
                told += await asyncio.wait_for(come_back_elsewhere(), deadline - loop.time())
                if not self.running_applications():
                    break
                await asyncio.sleep(POLL_SECONDS)
        except TimeoutError:
            pass
        left = self.running_applications()
        if left:
            log.warning(
                "drain: %d sockets told, %d applications still running at the deadline", told, left
            )
        else:
            log.info("drain: %d sockets told, all gone", told)
        self.stop()


class DrainingCommandLine(CommandLineInterface):
    """Daphne's command line (every option) running a `DrainingServer`."""

    server_class = DrainingServer
