"""The sockets' plumbing, below every app (issue 39): it imports no app (a
contract in pyproject.toml), and the apps' consumers and after-commit events
are built on it.

* `asyncdb`: the sync services called from async code, on the process's
  database threads (`db_async`);
* `fanout`: a committed change's channel-layer messages sent from sync code
  without waiting for them (`deliver`, `send`);
* `frames`: a client's frame (size, JSON object), the frames-per-second limit
  and the socket's ``error`` body;
* `listening`: the sockets that mostly listen (lobby, arena, quick match):
  ``ping``, their own types, the same refusals;
* `socket_guard`: a failing channel layer closes sockets with 4012;
* `liveness`: which server processes are alive (Redis layer).
"""
