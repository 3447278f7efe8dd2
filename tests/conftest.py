"""Root conftest for the whole suite (tests/engine, site, realtime, scale, browser).

Markers (declared in pyproject.toml):

* ``postgres`` -- skipped unless the default database is PostgreSQL (DATABASE_URL).
* ``redis``    -- skipped unless REDIS_URL is set and answers PING.
* ``browser``  -- skipped unless Chromium exists (CHROMIUM_PATH, default /usr/bin/chromium).
* ``hosts``    -- skipped unless this machine can make the many-hosts set of
  ``bench.hosts`` (root, network namespaces, PostgreSQL's binaries, redis-server).
* ``slow``     -- informational; ``-m "not slow"`` deselects.

With ``DOMINO_REQUIRE_SERVICES=1`` (set by .ci/run) nothing is skipped for a
missing service: such tests run and fail loudly instead.

Settings for every test: ``BOT_DELAY_SECONDS = 0`` (override it per test with
pytest-django's ``settings`` fixture when a delay is what you test).
"""

import os
import shutil
from functools import cache

import pytest

from domino_site.realtime import liveness

CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def _require_services() -> bool:
    return os.environ.get("DOMINO_REQUIRE_SERVICES", "").strip() not in {"", "0", "false"}


@cache
def _postgres_missing() -> str | None:
    from django.conf import settings

    engine = settings.DATABASES["default"]["ENGINE"]
    if "postgresql" not in engine:
        return f"needs PostgreSQL: set DATABASE_URL=postgres://... (database is {engine})"
    return None


@cache
def _redis_missing() -> str | None:
    url = os.environ.get("REDIS_URL", "").strip()
    if not url:
        return "needs Redis: set REDIS_URL=redis://..."
    try:
        import redis

        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except Exception as exc:  # noqa: BLE001 - any failure means "not available"
        return f"needs Redis: {url} does not answer ({type(exc).__name__}: {exc})"
    return None


@cache
def _browser_missing() -> str | None:
    if not (os.path.exists(CHROMIUM_PATH) or shutil.which(CHROMIUM_PATH)):
        return f"needs Chromium at {CHROMIUM_PATH} (apt-get install chromium)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "needs the playwright package (pip install -r requirements-dev.txt)"
    return None


@cache
def _hosts_missing() -> str | None:
    from bench.hosts.net import why_unavailable
    from bench.hosts.site import why_no_services

    reason = why_unavailable() or why_no_services()
    return f"needs the many-hosts set (bench/hosts): {reason}" if reason else None


_SERVICE_CHECKS = {
    "postgres": _postgres_missing,
    "redis": _redis_missing,
    "browser": _browser_missing,
    "hosts": _hosts_missing,
}


def pytest_collection_modifyitems(config, items):
    # Browser tests run last: Playwright's sync API keeps an event loop running in
    # the main thread for the whole session, and asyncio-based tests collected
    # after it would fail with "Runner.run() cannot be called from a running loop".
    items.sort(key=lambda item: item.get_closest_marker("browser") is not None)
    if _require_services():
        return
    for item in items:
        for marker, check in _SERVICE_CHECKS.items():
            if item.get_closest_marker(marker) is None:
                continue
            reason = check()
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))
                break


@pytest.fixture(autouse=True)
def _default_language_after_each_test():
    """A request with Accept-Language leaves its language active in the thread
    (Django's LocaleMiddleware does not undo it): the next test starts from the
    site's default again, whatever the last one asked for."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(autouse=True)
def _no_wake_up_left_waiting():
    """A wake-up marked as waiting by one test (domino_site/wakeups.py: a key in the
    cache, removed when its task starts) never holds back the next test's."""
    from domino_site import wakeups

    for name in ("analysis", "puzzles"):
        wakeups.forget(name)


@pytest.fixture
def admin_client(client, admin_user):
    """pytest-django's ``admin_client``, signed in with a second factor: the
    admin asks staff for one whenever DEBUG is off (tests/staff.py)."""
    from tests.staff import sign_in_verified

    sign_in_verified(client, admin_user)
    return client


@pytest.fixture
def redis_up_for_a_while():
    """Redis has held its data for longer than any heartbeat TTL: its epoch marker
    (domino_site.realtime.liveness) is old, so the sweeper may judge processes dead at once.
    The marker is put back as it was afterwards."""
    import redis

    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    epoch = client.get(liveness.EPOCH_KEY)
    client.set(liveness.EPOCH_KEY, "0")
    yield client
    if epoch is None:
        client.delete(liveness.EPOCH_KEY)
    else:
        client.set(liveness.EPOCH_KEY, epoch)
    client.close()


def pytest_configure(config):
    # Bots act without the human-like pause in tests (docs/site.md, "Bots").
    from django.conf import settings

    if settings.configured:
        settings.BOT_DELAY_SECONDS = 0
        _sqlite_test_database_in_a_file(settings)


def _sqlite_test_database_in_a_file(settings) -> None:
    """Socket tests run the services in worker threads (as Daphne does). SQLite's
    default test database, a shared-cache in-memory one, then fails them with
    "database table is locked" (table locks ignore the busy timeout); a file
    honours the timeout and BEGIN IMMEDIATE, like the embedded mode's db.sqlite3."""
    import tempfile

    db = settings.DATABASES["default"]
    if db["ENGINE"] == "django.db.backends.sqlite3" and not db.get("TEST", {}).get("NAME"):
        name = os.path.join(tempfile.gettempdir(), f"domino-test-{os.getpid()}.sqlite3")
        db.setdefault("TEST", {})["NAME"] = name
