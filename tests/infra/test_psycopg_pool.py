"""domino_site.infra.psycopg_pool: the PostgreSQL pool lends a live connection
without asking the server, and never lends one whose server closed it."""

from __future__ import annotations

import select

import psycopg
import pytest
from django.db import connection
from psycopg_pool import ConnectionPool

from domino_site.infra.psycopg_pool import check_lent_connection, use_cheap_check
from rooms.models import Room


def test_a_pool_built_with_psycopg_pools_check_takes_the_cheap_one():
    pool = ConnectionPool("", open=False, check=ConnectionPool.check_connection)
    use_cheap_check(pool)
    assert pool._check is check_lent_connection  # what getconn calls on every lend


def test_a_pool_built_without_a_check_stays_without():
    pool = ConnectionPool("", open=False)
    use_cheap_check(pool)
    assert pool._check is None


def _url() -> str:
    params = connection.get_connection_params()
    params.pop("context", None)
    params.pop("cursor_factory", None)
    params.pop("prepare_threshold", None)
    return psycopg.conninfo.make_conninfo(**{k: v for k, v in params.items() if v is not None})


def _terminate(pid: int) -> None:
    with psycopg.connect(_url(), autocommit=True) as killer:
        killer.execute("SELECT pg_terminate_backend(%s)", [pid])


def _until_readable(conn: psycopg.Connection) -> None:
    poller = select.poll()
    poller.register(conn.pgconn.socket, select.POLLIN)
    assert poller.poll(5000), "the server never closed the terminated session"


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_live_idle_connection_is_lent_without_a_round_trip(monkeypatch):
    asked = []
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(asked.append))
    with psycopg.connect(_url(), autocommit=True) as conn:
        conn.execute("SELECT 1")
        check_lent_connection(conn)
        assert asked == []
        assert conn.execute("SELECT 2").fetchone() == (2,)


@pytest.mark.postgres
@pytest.mark.django_db
def test_a_connection_whose_session_the_server_ended_is_refused():
    with psycopg.connect(_url(), autocommit=True) as conn:
        _terminate(conn.info.backend_pid)
        _until_readable(conn)
        with pytest.raises(psycopg.OperationalError):
            check_lent_connection(conn)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_sites_pool_lends_its_connections_without_a_round_trip(monkeypatch):
    if connection.pool is None:
        pytest.skip("DB_POOL=0: no pool in this configuration")
    Room.objects.count()  # the pool exists, and has taken the cheap check
    connection.close()
    asked = []
    monkeypatch.setattr(ConnectionPool, "check_connection", staticmethod(asked.append))
    for _ in range(3):
        Room.objects.count()
        connection.close()  # back to the pool; the next call borrows again
    assert asked == []


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_site_gets_another_connection_when_its_pooled_one_was_killed():
    if connection.pool is None:
        pytest.skip("DB_POOL=0: no pool in this configuration")
    Room.objects.count()
    pooled = connection.connection
    pid = pooled.info.backend_pid
    connection.close()  # back to the pool, idle
    _terminate(pid)
    _until_readable(pooled)
    assert Room.objects.count() == 0
    assert connection.connection.info.backend_pid != pid
