"""What the site uses of psycopg-pool beyond its documented API.

Django's pooled PostgreSQL connections (``OPTIONS["pool"]``) are checked
when lent with ``CONN_HEALTH_CHECKS``: Django passes psycopg-pool's
`ConnectionPool.check_connection`, an empty query and its answer, one round
trip before every service call, and offers no way to pass another check.
`check_lent_connection` asks the server only when the connection's socket
has something to read while idle (a server that ends a session sends its
reason and closes the socket). It uses:

* ``ConnectionPool._check``: the check the pool was built with, which its
  ``getconn`` calls on every connection it lends (`use_cheap_check` sets it).

tests/infra/test_psycopg_pool.py fails when this changes.
"""

from __future__ import annotations

import select
import weakref
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from domino_site.infra.versions import require

VERSION = require("psycopg-pool", ("3.3",), module=__name__)


def check_lent_connection(conn: psycopg.Connection) -> None:
    """Raise `psycopg.OperationalError` if ``conn`` cannot be used.

    A connection with something to read while idle (usually its server's last
    words) gets psycopg-pool's full check: a round trip, which fails on a
    closed session and passes on a live one that only had a notice to read.
    A live idle connection passes without a round trip (its socket has
    nothing to read; tests/infra/test_psycopg_pool.py); a closed one fails
    before any:

        >>> from types import SimpleNamespace
        >>> check_lent_connection(SimpleNamespace(closed=True, broken=False))
        Traceback (most recent call last):
        ...
        psycopg.OperationalError: the connection is closed
    """
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    poller = select.poll()  # not select(): its descriptors stop at 1023
    poller.register(conn.pgconn.socket, select.POLLIN)
    if poller.poll(0):
        ConnectionPool.check_connection(conn)


def use_cheap_check(pool: ConnectionPool) -> None:
    """Make ``pool`` check what it lends with `check_lent_connection`, if it was
    built with psycopg-pool's own check (a pool built without one stays so)."""
    if pool._check is ConnectionPool.check_connection:
        pool._check = check_lent_connection


#: The pools this process has lent connections from (the metrics sample them:
#: `domino_site.heartbeats`), never one made only to be looked at.
_seen: weakref.WeakSet[ConnectionPool] = weakref.WeakSet()


def pools_in_use() -> list[ConnectionPool]:
    """The pools of this process that have lent a connection."""
    return list(_seen)


def on_connection_created(sender: Any, connection: Any, **kwargs: Any) -> None:
    """Django's ``connection_created`` signal: the pool of a PostgreSQL
    connection just lent (Django built it on first use) checks cheaply from now on."""
    if connection.vendor != "postgresql":
        return
    pool = connection.pool
    if pool is not None:
        use_cheap_check(pool)
        _seen.add(pool)
