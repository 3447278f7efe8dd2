"""``make prod`` (tools/prod.py) and the deployment files (README.md, "Production").

* docker-compose.yml's services run exactly the Procfile's commands (modulo
  ``${PORT:-8000}`` and the shell that runs a line with ``&&``), and the
  Dockerfile's default command is the ``web`` line: the three cannot drift.
* ``make prod``'s runner refuses, with a message, without ``DATABASE_URL`` or
  ``REDIS_URL``.
* ``make prod`` starts the whole set against a fresh PostgreSQL database and
  the tests' Redis: ``/healthz`` answers, real requests (a sign-up with an
  email address, a wrong login, a login, a recovery request), a table socket
  and the workers' tasks go through, and every line each process writes is one
  JSON object with no secret in it; SIGTERM then stops every process.
"""

from __future__ import annotations

import http.cookiejar
import json
import os
import re
import secrets
import shlex
import signal
import subprocess
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.waiting import wait_for
from tools.prod import procfile_entries

ROOT = Path(__file__).resolve().parents[2]
PORT_DEFAULT = re.compile(r"\$\{PORT:-(\d+)\}")


def _argv(command: str) -> list[str]:
    """A Procfile line's argv (``${PORT:-8000}`` as its default)."""
    return shlex.split(PORT_DEFAULT.sub(r"\1", command))


def _compose_argv(command: Any) -> list[str]:
    """A compose ``command``'s argv; ``sh -c "<line>"`` counts as the line's."""
    argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
    if argv[:2] == ["sh", "-c"] and len(argv) == 3:
        return shlex.split(argv[2])
    return argv


def test_docker_compose_runs_exactly_the_procfiles_processes():
    procfile = procfile_entries(ROOT / "Procfile")
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    services = {name: spec for name, spec in compose.items() if name not in {"db", "redis"}}
    assert set(services) == set(procfile), "docker-compose.yml's services are not the Procfile's"
    for name, command in procfile.items():
        assert _compose_argv(services[name]["command"]) == _argv(command), name
    # The one-shot release runs before everything else, once.
    assert services["release"]["restart"] == "no"
    for name in set(procfile) - {"release"}:
        needs = services[name]["depends_on"]["release"]
        assert needs["condition"] == "service_completed_successfully", name
    dockerfile = (ROOT / "Dockerfile").read_text()
    (cmd,) = re.findall(r"^CMD (\[.*\])$", dockerfile, re.M)
    assert json.loads(cmd) == _argv(procfile["web"])


def _prod(env: dict[str, str], **kw: Any) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, str(ROOT / "tools" / "prod.py")], cwd=ROOT, env=env, **kw
    )


def _base_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG", "TMPDIR"}}
    env.update(extra)
    return env


@pytest.mark.parametrize(
    "present, absent",
    [
        ({}, "DATABASE_URL and REDIS_URL are not set"),
        ({"DATABASE_URL": "postgres://x@127.0.0.1:9/x"}, "REDIS_URL is not set"),
        ({"REDIS_URL": "redis://127.0.0.1:9/0"}, "DATABASE_URL is not set"),
    ],
)
def test_make_prod_refuses_without_a_database_or_redis(present, absent):
    proc = _prod(_base_env(**present), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 2
    assert absent in err and "make prod" in err
    assert "release" not in err  # nothing was run


def test_make_prod_calls_the_runner():
    done = subprocess.run(
        ["make", "-n", "prod", f"VENV={sys.prefix}"], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert f"{sys.prefix}/bin/python tools/prod.py" in done.stdout


def test_make_prod_gives_the_set_an_empty_metrics_folder(tmp_path):
    """A previous run's counters must not add up with this one's in /metrics."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("prod", ROOT / "tools" / "prod.py")
    prod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prod)
    (tmp_path / "counter_123.db").write_bytes(b"old")
    (tmp_path / "keep.txt").write_text("not a metrics file")
    assert prod.fresh_metrics_dir({"PROMETHEUS_MULTIPROC_DIR": str(tmp_path)}) == str(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.txt"]
    made = Path(prod.fresh_metrics_dir({}))
    assert made.is_dir() and not any(made.iterdir())
    made.rmdir()


# ------------------------------------------------------------ the whole set


def _free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def fresh_database():
    """A new, empty PostgreSQL database on the tests' server; dropped afterwards."""
    import psycopg
    from django.conf import settings

    db = settings.DATABASES["default"]
    host, port = db.get("HOST") or "127.0.0.1", db.get("PORT") or 5432
    auth = urllib.parse.quote(db.get("USER") or "postgres")
    if db.get("PASSWORD"):
        auth += ":" + urllib.parse.quote(db["PASSWORD"])
    name = f"domino_prod_{secrets.token_hex(4)}"
    admin = f"postgres://{auth}@{host}:{port}/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    yield f"postgres://{auth}@{host}:{port}/{name}"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


class Browser:
    """Pages over HTTP with cookies and the CSRF token, as a form posts them."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    def cookie(self, name: str) -> str:
        return next(c.value for c in self.jar if c.name == name and c.value)

    def get(self, path: str) -> Any:
        return self._open(urllib.request.Request(self.base + path))

    def post(self, path: str, data: dict[str, str]) -> Any:
        self.get(path)
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": self.cookie("csrftoken")})
        return self._open(urllib.request.Request(self.base + path, data=body.encode()))

    def _open(self, request: urllib.request.Request) -> Any:
        try:
            return self.opener.open(request, timeout=30)
        except urllib.error.HTTPError as exc:  # 3xx (not followed), 4xx: an answer all the same
            return exc


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


#: What Celery's worker prints to standard output itself (not through logging)
#: when it is told to stop: the only lines of the set that are not JSON.
CELERY_PRINTS = {"worker: Warm shutdown (MainProcess)"}

HONCHO_LINE = re.compile(r"^\d\d:\d\d:\d\d (?P<name>\S+)\s*\| (?P<payload>.*)$")


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_make_prod_runs_the_whole_set_and_every_line_is_json(fresh_database, tmp_path):
    port = _free_port()
    secret_key = secrets.token_urlsafe(50)
    env = _base_env(
        DATABASE_URL=fresh_database,
        REDIS_URL=os.environ["REDIS_URL"],
        SECRET_KEY=secret_key,
        DOMINO_HTTPS="0",
        ALLOWED_HOSTS="127.0.0.1,localhost",
        PORT=str(port),
        PYTHONUNBUFFERED="1",
        DOMINO_CACHE_PREFIX=f"prod-{secrets.token_hex(3)}",
    )
    out = tempfile.NamedTemporaryFile(
        prefix="make-prod-", suffix=".log", dir=tmp_path, delete=False
    )
    proc = _prod(env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    output = lambda: Path(out.name).read_text(errors="replace")  # noqa: E731
    base = f"http://127.0.0.1:{port}"
    try:

        def healthy() -> bool:
            assert proc.poll() is None, f"make prod exited:\n{output()[-4000:]}"
            try:
                with urllib.request.urlopen(base + "/healthz", timeout=2) as response:
                    return response.status == 200
            except OSError:
                return False

        wait_for(healthy, timeout=180, message="/healthz answering", every=0.25)
        password, email = "Prod-Line-Json-93", "carla.prod@example.com"
        browser = Browser(base)
        signup = browser.post(
            "/accounts/signup/",
            {"username": "carla", "email": email, "password1": password, "password2": password},
        )
        assert signup.status == 302, signup.read()[:300]
        sessions = [browser.cookie("sessionid")]
        browser.post("/accounts/logout/", {})
        wrong = browser.post("/accounts/login/", {"username": email, "password": "Nope-1234-x"})
        assert wrong.status == 200
        right = browser.post("/accounts/login/", {"username": "carla", "password": password})
        assert right.status == 302
        sessions.append(browser.cookie("sessionid"))
        recovery = browser.post("/accounts/password_reset/", {"email": email})
        assert recovery.status == 302
        ids = {r.headers["X-Request-ID"] for r in (signup, wrong, right, recovery)}

        from websockets.exceptions import ConnectionClosed
        from websockets.sync.client import connect

        with connect(
            f"ws://127.0.0.1:{port}/ws/rooms/ZZZZ99/",
            origin=base,  # type: ignore[arg-type]
            additional_headers={"Cookie": f"sessionid={sessions[-1]}"},
        ) as socket:
            with pytest.raises(ConnectionClosed):
                socket.recv(timeout=30)  # the server closes it: no such room
        assert socket.close_code == 4004

        def lines_of(name: str) -> list[dict]:
            found = []
            for raw in output().splitlines():
                match = HONCHO_LINE.match(raw)
                if match and match["name"] == name and match["payload"].strip():
                    found.append(json.loads(match["payload"]))
            return found

        # The sign-up's confirmation mail (the analysis worker: not sent, no
        # EMAIL_HOST) and the sweeper's tasks (beat, then the worker).
        wait_for(
            lambda: any(
                entry.get("task") == "accounts.mail_send" for entry in lines_of("analysis.1")
            ),
            timeout=60,
            message="the analysis worker running accounts.mail_send",
        )
        wait_for(
            lambda: any(entry.get("task") == "rooms.sweep" for entry in lines_of("worker.1")),
            timeout=60,
            message="the worker running rooms.sweep",
        )
        web = lines_of("web.1")
        access = {entry["request_id"] for entry in web if entry["logger"] == "domino_site.access"}
        assert ids <= access
        socket_lines = [entry for entry in web if entry["logger"] == "rooms.consumers"]
        assert socket_lines and all(entry["room"] == "ZZZZ99" for entry in socket_lines)
        assert lines_of("beat.1")
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)  # honcho: SIGTERM to every process
        try:
            proc.wait(60)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(10)
    text = output()
    for name in ("web.1", "worker.1", "analysis.1", "beat.1"):
        assert re.search(rf"{re.escape(name)} stopped \(rc=", text), f"{name} did not stop"
        for raw in text.splitlines():
            match = HONCHO_LINE.match(raw)
            if not match or match["name"] != name or not match["payload"].strip():
                continue
            if match["payload"] in CELERY_PRINTS:  # not a log line: docs/scaling.md, "Logs"
                continue
            json.loads(match["payload"])  # one JSON object a line, every line
    for secret in (password, email, secret_key, *sessions, browser.cookie("csrftoken")):
        assert secret not in text, f"{secret!r} is in the output"
