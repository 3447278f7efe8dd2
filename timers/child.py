"""What the embedded server's child process (timers/offload.py) runs first.

No Django here: the child imports only this and the pure scoring. It lowers
its own priority and ends itself when the server that started it is gone (a
killed server runs no clean-up, and its child would otherwise stay behind).
"""

from __future__ import annotations

import os
import signal
import threading
import time


def start(nice: int) -> None:
    """The pool's initializer: lower the priority by ``nice``, follow the parent."""
    os.nice(nice)
    parent = os.getppid()
    threading.Thread(target=_end_with, args=(parent,), daemon=True).start()


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1)
    os.kill(os.getpid(), signal.SIGTERM)
