"""Browser tests: Playwright (Python) driving Debian's Chromium against the real
ASGI application (HTTP + WebSockets) served by a Daphne subprocess.

pytest-django's ``live_server`` is WSGI (no WebSockets), so the session starts
``daphne domino_site.asgi:application`` on a free port, against its own
database: a fresh PostgreSQL database next to DATABASE_URL's when that is
PostgreSQL (dropped at the end), otherwise a migrated SQLite file in a temp
folder. The subprocess uses the in-memory channel layer and the in-process
scheduler (one process: no Celery worker needed), with a short bot pause.

Screenshots and measurements go to ``artifacts/`` at the project root
(gitignored).

Playwright's sync API keeps its event loop registered as the thread's running
loop for as long as the session's ``playwright`` fixture lives, which breaks
every pytest-asyncio test that runs after it ("Runner.run() cannot be called
from a running event loop"). So the browser tests run last in the session.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.waiting import NeverCame, wait_for

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "artifacts"
CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
BOT_DELAY = "0.05"

# The CI machine is shared (two cores, other suites running): assertions wait
# longer than Playwright's 5 s before calling a page wrong.
expect.set_options(timeout=15_000)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    here = Path(__file__).resolve().parent
    browser = [item for item in items if here in Path(str(item.path)).resolve().parents]
    if browser:
        others = [item for item in items if item not in browser]
        items[:] = others + browser


@pytest.fixture(autouse=True)
def _allow_async_unsafe(monkeypatch: pytest.MonkeyPatch) -> None:
    # Playwright's loop counts as "running" in this thread: Django's sync-only
    # guard would refuse any in-process database call while it lives.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture(autouse=True)
def no_content_security_policy_violations(browser, monkeypatch: pytest.MonkeyPatch):
    """Fail a test whose pages broke the Content-Security-Policy (an inline
    script, handler or style the browser refused): every context the test opens,
    through the ``page`` fixture or ``browser.new_context()``, reports them."""
    violations: list[str] = []
    new_context = browser.new_context

    def watched_context(*args, **kwargs):
        context = new_context(*args, **kwargs)

        def on_console(message) -> None:
            if "Content Security Policy" in message.text:
                violations.append(f"{message.location.get('url', '?')}: {message.text}")

        context.on("console", on_console)
        return context

    monkeypatch.setattr(browser, "new_context", watched_context)
    yield violations
    assert not violations, "Content-Security-Policy violations:\n" + "\n".join(violations)


@pytest.fixture(scope="session")
def browser_type_launch_args(tmp_path_factory: pytest.TempPathFactory) -> dict:
    home = tmp_path_factory.mktemp("chromium-home")
    return {
        "executable_path": CHROMIUM,
        "args": [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
        "env": {**os.environ, "XDG_CONFIG_HOME": str(home), "XDG_CACHE_HOME": str(home)},
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict) -> dict:
    # The site's default language; the hooks (data-*) do not depend on it.
    return {**browser_context_args, "locale": "pt-BR", "viewport": {"width": 1440, "height": 900}}


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _postgres_database(suffix: str = "") -> tuple[str, callable] | None:
    """A fresh database on DATABASE_URL's server: (url, drop)."""
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith(("postgres://", "postgresql://")):
        return None
    import psycopg

    name = f"domino_browser_{os.getpid()}{suffix}"
    base = url.rsplit("/", 1)[0]

    def run(sql: str) -> None:
        # The maintenance database, as pytest-django does: DATABASE_URL's own
        # database need not exist.
        with psycopg.connect(f"{base}/postgres", autocommit=True) as conn:
            conn.execute(sql)

    run(f'DROP DATABASE IF EXISTS "{name}"')
    run(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        try:
            run(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        except Exception:  # noqa: BLE001 - best effort at teardown
            pass

    return f"{base}/{name}", drop


def _wait_until_up(url: str, proc: subprocess.Popen, log: Path) -> None:
    def answers() -> bool:
        if proc.poll() is not None:
            raise RuntimeError(f"daphne exited ({proc.returncode}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    try:
        wait_for(answers, timeout=30, message="daphne answering /healthz", every=0.2)
    except NeverCame:
        raise RuntimeError(f"daphne did not answer in 30 s:\n{log.read_text()[-3000:]}") from None


def _server_env(database_url: str, **extra: str) -> dict[str, str]:
    """A browser server's environment: ``database_url``, no Redis (unless
    ``extra`` gives one), the in-process scheduler, short bot pauses."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DJANGO_SETTINGS_MODULE"}}
    env.update(
        DJANGO_SETTINGS_MODULE="domino_site.settings",
        DOMINO_SCHEDULER="inprocess",
        BOT_DELAY_SECONDS=BOT_DELAY,
        DEBUG="1",
        # Pages may come "through a proxy" with their own X-Forwarded-For (two
        # players at two addresses: a rated table; tests/browser/test_replay.py).
        TRUSTED_PROXIES="127.0.0.1",
        # Every page of the session comes from 127.0.0.1: the per-address limits
        # (docs/rated-play.md, "Addresses") would refuse the session's many
        # sign-ups and tables.
        SIGNUP_LIMIT_PER_ADDRESS="10000",
        ROOM_CREATE_LIMIT_PER_ADDRESS="10000",
        SOLO_TABLES_PER_ADDRESS="10000",
        LOGIN_FAILURES_PER_ADDRESS="10000",
        PYTHONPATH=str(ROOT),
        PYTHONUNBUFFERED="1",
        DATABASE_URL=database_url,
    )
    env.update(extra)
    return env


def _migrate(env: dict[str, str]) -> None:
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
    )


@contextlib.contextmanager
def _daphne(
    env: dict[str, str], workdir: Path, name: str = "browser", port: int | None = None
) -> Iterator[str]:
    """A Daphne of the real ASGI app on ``port`` (a free one by default), until
    the block ends: its URL. Its log is kept as ``artifacts/daphne-<name>.log``."""
    port = port or _free_port()
    log = workdir / f"daphne-{name}.log"
    daphne = Path(sys.executable).with_name("daphne")
    with log.open("w") as out:
        proc = subprocess.Popen(
            [str(daphne), "-b", "127.0.0.1", "-p", str(port), "domino_site.asgi:application"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        _wait_until_up(url, proc, log)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"daphne-{name}.log").write_text(log.read_text())


@pytest.fixture(scope="session")
def server() -> Iterator[tuple[str, dict[str, str]]]:
    """The real ASGI app on a free port, with its own migrated database: its URL
    and its environment (for building rooms in that database, real_rooms.py)."""
    workdir = Path(tempfile.mkdtemp(prefix="domino-browser-"))
    postgres = _postgres_database()
    database_url = postgres[0] if postgres else f"sqlite:///{workdir / 'browser.sqlite3'}"
    env = _server_env(database_url)
    _migrate(env)
    try:
        with _daphne(env, workdir) as url:
            yield url, env
    finally:
        if postgres:
            postgres[1]()


@pytest.fixture(scope="module")
def two_daphnes() -> Iterator[tuple[str, str]]:
    """Two Daphnes of the production set-up sharing one fresh PostgreSQL database
    and the Redis channel layer (REDIS_URL, its keys flushed first), as two
    hosts behind a proxy: their URLs. Skipped without PostgreSQL and Redis (the
    ``postgres`` and ``redis`` markers of the test), failing in CI instead."""
    postgres = _postgres_database("_two")
    redis_url = os.environ.get("REDIS_URL", "").strip()
    assert postgres and redis_url, "two_daphnes needs DATABASE_URL (PostgreSQL) and REDIS_URL"
    import redis

    redis.Redis.from_url(redis_url).flushdb()
    workdir = Path(tempfile.mkdtemp(prefix="domino-browser-two-"))
    # The timers of a production set-up are Celery's; nothing here waits for one.
    env = _server_env(postgres[0], REDIS_URL=redis_url, DOMINO_SCHEDULER="celery")
    _migrate(env)
    try:
        with _daphne(env, workdir, "one") as one, _daphne(env, workdir, "two") as two:
            yield one, two
    finally:
        postgres[1]()


@pytest.fixture(scope="session")
def server_url(server: tuple[str, dict[str, str]]) -> str:
    return server[0]


@pytest.fixture(scope="session")
def real_rooms(server: tuple[str, dict[str, str]]):
    """``real_rooms(count, seed, moves=None)``: rounds played to the end (or for
    ``moves`` moves) at real tables of four guests in the server's database
    (tests/browser/real_rooms.py), each ``{code, cookie}`` (the cookie seats the
    browser in seat 0)."""
    import json

    def build(count: int, seed: int, moves: int | None = None) -> list[dict]:
        extra = [] if moves is None else [str(moves)]
        done = subprocess.run(
            [sys.executable, "-m", "tests.browser.real_rooms", str(count), str(seed), *extra],
            cwd=ROOT,
            env=server[1],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr[-3000:]
        return json.loads(done.stdout.strip().splitlines()[-1])

    return build


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
