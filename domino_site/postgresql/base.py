"""Django's PostgreSQL backend; its connection pool checks what it lends without
a round trip when it can.

psycopg_pool's own check (`ConnectionPool.check_connection`, which Django
passes with ``CONN_HEALTH_CHECKS``) sends an empty query and waits for the
answer: one round trip for every service call, a fifth of a move's. Here the
connection is asked only when its socket says something happened. An idle
connection has nothing to read: a server that ends the session (a restart,
``pg_terminate_backend``, an idle timeout) sends its reason and closes the
socket, which then reads as ready. Then the full check runs, fails, and the
pool lends another connection instead.

Selected by ``ENGINE = "domino_site.postgresql"`` (domino_site.settings).
"""

from __future__ import annotations

import select
from typing import Any

import psycopg
from django.db.backends.postgresql import base
from psycopg_pool import ConnectionPool

from domino_site.ablation import off


def check_lent_connection(conn: psycopg.Connection) -> None:
    """Raise `psycopg.OperationalError` if ``conn`` cannot be used.

    A connection with something to read while idle (usually its server's last
    words) gets psycopg_pool's full check: a round trip, which fails on a
    closed session and passes on a live one that only had a notice to read.

        >>> check_lent_connection(conn)   # a live idle connection: no round trip
    """
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    poller = select.poll()  # not select(): its descriptors stop at 1023
    poller.register(conn.pgconn.socket, select.POLLIN)
    if poller.poll(0):
        ConnectionPool.check_connection(conn)


class DatabaseWrapper(base.DatabaseWrapper):
    @property
    def pool(self) -> Any:
        new = self.alias not in self._connection_pools  # type: ignore[attr-defined]
        pool = super().pool
        if (
            new
            and pool is not None
            and self.settings_dict["CONN_HEALTH_CHECKS"]
            and not off("pool_check")
        ):
            # Django gives psycopg_pool's own check, and offers no other way in.
            pool._check = check_lent_connection
        return pool
