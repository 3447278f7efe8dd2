"""What the embedded server's child process (timers/offload.py) runs first.

No Django here: the child imports only this, `domino_site.below_play` and the
pure scoring. It puts itself below play (the server's sockets come first on a
busy machine, autogroup or not) and ends itself when the server that started it is gone (a
killed server runs no clean-up, and its child would otherwise stay behind).
"""

from __future__ import annotations

import os
import signal
import threading
import time

from domino_site.below_play import go_below_play


def start() -> None:
    """The pool's initializer: below play, and following the parent."""
    go_below_play()
    parent = os.getppid()
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)
