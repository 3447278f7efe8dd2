"""Real processes against the test database: Daphne servers on free ports, and
WebSocket clients (the ``websockets`` library) talking to them.

The servers get the test database's URL (pytest-django's ``test_…`` database,
PostgreSQL or the SQLite file; tests here use ``transaction=True`` so that what
they create is committed and visible to the servers) and, when asked, the
Redis channel layer.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import quote

import psycopg
import pytest
from django.conf import settings
from django.db import connections

from tests.scale.players import duelo
from tests.waiting import NeverCame, wait_for

ROOT = Path(__file__).resolve().parents[2]
DAPHNE = Path(sys.executable).with_name("daphne")


@pytest.fixture(autouse=True)
def _close_connections():
    yield
    connections.close_all()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def servers_database_url() -> str:
    """The test database, for the servers: PostgreSQL, or the SQLite file the
    root conftest puts the test database in (the embedded set-up)."""
    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3":
        name = str(db["NAME"])
        assert os.path.isabs(name), f"an in-memory SQLite database cannot be shared: {name}"
        return f"sqlite:///{name}"
    auth = quote(db.get("USER") or "postgres")
    if db.get("PASSWORD"):
        auth += ":" + quote(db["PASSWORD"])
    return (
        f"postgres://{auth}@{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    )


#: What the servers' PostgreSQL connections are called (pg_stat_activity), so a
#: drill tells them from the test process's own; each Daphne adds its port
#: (``domino-server-8123``), so that stopping one waits for its sessions only.
SERVER_APPLICATION_NAME = "domino-server"


def process_env(**extra: str) -> dict[str, str]:
    """The environment of a server-side process (Daphne, Celery): the test
    database, the site's settings, no bot delay; not the tests' own REDIS_URL
    nor DOMINO_SCHEDULER (``extra`` sets what the process is to have)."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DOMINO_SCHEDULER"}}
    env.update(
        DATABASE_URL=servers_database_url(),
        DJANGO_SETTINGS_MODULE="domino_site.settings",
        PYTHONUNBUFFERED="1",
        BOT_DELAY_SECONDS="0",
        DB_APPLICATION_NAME=SERVER_APPLICATION_NAME,
    )
    env.update(extra)
    return env


class KillableProcess:
    """A subprocess (``proc``, once started) that a test may SIGKILL."""

    proc: subprocess.Popen | None = None
    application_name = SERVER_APPLICATION_NAME  # its PostgreSQL sessions' name

    def kill(self) -> None:
        """SIGKILL: no shutdown handlers, no warm shutdown, no goodbye to the
        sockets, nothing acknowledged or handed back."""
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def wait_for_its_database_sessions(self, timeout: float = 5) -> None:
        """A killed process's database sessions end a moment after it (the test
        database can only be dropped once they have); other processes' sessions
        (the test's own, a Celery worker's) are not waited for. Its own
        connection, so that async tests may call it too."""
        url = servers_database_url()
        if not url.startswith("postgres://"):
            return
        # autocommit: in a transaction pg_stat_activity is a snapshot that never changes
        with psycopg.connect(url, autocommit=True) as watch:
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                count = watch.execute(
                    "SELECT count(*) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND application_name = %s",
                    [self.application_name],
                ).fetchone()
                if count and count[0] == 0:
                    return
                time.sleep(0.05)


class Server(KillableProcess):
    """``daphne domino_site.asgi:application`` in a subprocess; with ``graceful``,
    through the Procfile's runner (``python -m domino_site.serve``: SIGTERM
    drains it, docs/scaling.md "Deploying")."""

    def __init__(
        self,
        *,
        redis: bool,
        scheduler: str,
        bot_delay: float = 0.0,
        env: dict[str, str] | None = None,
        graceful: bool = False,
    ) -> None:
        self.graceful = graceful
        self.port = free_port()
        extra = env
        env = process_env(DOMINO_SCHEDULER=scheduler, BOT_DELAY_SECONDS=str(bot_delay))
        if redis:
            env["REDIS_URL"] = os.environ["REDIS_URL"]
        self.application_name = f"{SERVER_APPLICATION_NAME}-{self.port}"
        env["DB_APPLICATION_NAME"] = self.application_name
        self.env = {**env, **(extra or {})}
        self.log = tempfile.NamedTemporaryFile(prefix="daphne-", suffix=".log", delete=False)
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 20) -> Server:
        program = [sys.executable, "-m", "domino_site.serve"] if self.graceful else [str(DAPHNE)]
        cmd = [*program, "-b", "127.0.0.1", "-p", str(self.port), "domino_site.asgi:application"]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT
        )

        def answers() -> bool:
            assert self.proc is not None and self.proc.poll() is None, (
                f"daphne exited:\n{self.output()}"
            )
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1):
                    return True
            except OSError:
                return False

        try:
            wait_for(answers, timeout=timeout, message="daphne answering", every=0.1)
        except NeverCame:
            raise AssertionError(
                f"daphne did not answer on :{self.port}\n{self.output()}"
            ) from None
        return self

    def stop(self) -> None:
        # Everything a server confirmed is already in the database (that is what
        # these tests show), so there is nothing to wait for: Daphne's graceful
        # stop would only add seconds to the suite.
        self.kill()
        self.wait_for_its_database_sessions()

    def terminate(self) -> None:
        """SIGTERM: what a deploy sends (a graceful server drains)."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGTERM)

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")[-4000:]

    def url(self, path: str) -> str:
        return f"ws://127.0.0.1:{self.port}{path}"


@pytest.fixture
def duelo_for_servers(transactional_db, django_user_model, settings):
    """A duelo (``tests.scale.players.duelo``: the room, ana's and bruno's
    cookies) that only the servers the test starts run: this process schedules
    nothing (``DOMINO_SCHEDULER`` inprocess, its ticker never started)."""
    settings.DOMINO_SCHEDULER = "inprocess"
    return duelo(django_user_model)


@pytest.fixture
def servers():
    """Start servers with ``servers(redis=..., scheduler=...)``; all stop at the end."""
    started: list[Server] = []

    def start(**kw: Any) -> Server:
        server = Server(**kw).start()
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()
        os.unlink(server.log.name)


class RedisServer(KillableProcess):
    """A throw-away redis-server of the drill's own (kill it, start it again): a
    private ``redis-server`` on a free port, without persistence (``--save ""
    --appendonly no``), so restarting it loses every key, like a production Redis
    restarted without persistence. The drills never touch the shared Redis of
    ``REDIS_URL``."""

    def __init__(self) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log = tempfile.NamedTemporaryFile(prefix="redis-", suffix=".log", delete=False)
        self.dir = tempfile.mkdtemp(prefix="redis-drill-")

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self, timeout: float = 10) -> RedisServer:
        cmd = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1",
               "--save", "", "--appendonly", "no", "--dir", self.dir]  # fmt: skip
        self.proc = subprocess.Popen(cmd, stdout=self.log, stderr=subprocess.STDOUT)
        import redis

        def answers() -> bool:
            try:
                return bool(redis.Redis.from_url(self.url(), socket_connect_timeout=0.5).ping())
            except redis.exceptions.ConnectionError:
                assert self.proc is not None and self.proc.poll() is None, Path(
                    self.log.name
                ).read_text()
                return False

        wait_for(answers, timeout=timeout, message=f"redis-server answering on :{self.port}")
        return self

    def stop(self) -> None:
        self.kill()
        os.unlink(self.log.name)


@pytest.fixture
def own_redis():
    """A private ``redis-server`` (``RedisServer``) for one fault drill
    (tests/scale/test_drill_*.py), so that killing it touches nobody else's Redis;
    stopped at the end."""
    import shutil

    if shutil.which("redis-server") is None and not os.environ.get("DOMINO_REQUIRE_SERVICES"):
        pytest.skip("needs redis-server on the PATH (apt-get install redis-server)")
    server = RedisServer().start()
    yield server
    server.stop()
