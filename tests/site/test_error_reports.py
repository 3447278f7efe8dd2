"""Errors to Sentry (docs/scaling.md, "Errors"): with ``SENTRY_DSN`` pointing at
a fake Sentry (an HTTP server of the test's that keeps every envelope it is
sent), an exception in a view reaches it, with the build's release, and
without the person's email address, password, session or CSRF cookies;
without ``SENTRY_DSN`` sentry-sdk is not even initialised."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import sentry_sdk
from django.test import Client

from domino_site import error_reports
from tests.waiting import wait_for

ROOT = Path(__file__).resolve().parents[2]
EMAIL = "bia.errors@example.com"
PASSWORD = "Errors-Are-Private-31"


class FakeSentry:
    """``http://key@127.0.0.1:<port>/1``: keeps the body of every envelope."""

    def __init__(self) -> None:
        self.envelopes: list[bytes] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server's name
                body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                encoding = self.headers.get("Content-Encoding", "")
                if encoding == "gzip":
                    body = gzip.decompress(body)
                elif encoding == "deflate":
                    body = zlib.decompress(body)
                elif encoding == "br":
                    import brotli

                    body = brotli.decompress(body)
                outer.envelopes.append(body)
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(b"{}")

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def dsn(self) -> str:
        return f"http://publickey@127.0.0.1:{self.server.server_address[1]}/1"

    def text(self) -> str:
        return b"\n".join(self.envelopes).decode("utf-8", "replace")

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def fake_sentry(settings, monkeypatch):
    """sentry-sdk started by the site's own `error_reports.start` against the
    fake; closed and forgotten afterwards (the process has no client again)."""
    fake = FakeSentry()
    settings.SENTRY_DSN = fake.dsn
    settings.SENTRY_ENVIRONMENT = "drill"
    settings.BUILD_VERSION = "build-4f2a9c1"  # the build's version (domino_site/build.py)
    assert error_reports.start(settings)
    assert sentry_sdk.get_client().should_send_default_pii() is False
    yield fake
    sentry_sdk.get_client().close(timeout=2)
    sentry_sdk.get_global_scope().set_client(None)
    assert not sentry_sdk.is_initialized()
    fake.stop()


@pytest.mark.django_db
def test_an_exception_in_a_view_is_sent_scrubbed(fake_sentry, settings, django_user_model):
    settings.ROOT_URLCONF = "tests.site.crash_urls"
    bia = django_user_model.objects.create_user("bia", email=EMAIL, password=PASSWORD)
    client = Client(raise_request_exception=False)
    client.force_login(bia)
    client.get("/accounts/login/")  # a CSRF cookie too
    cookies = {name: morsel.value for name, morsel in client.cookies.items()}
    assert {"sessionid", "csrftoken"} <= set(cookies)
    response = client.post(
        "/crash/",
        {"email": EMAIL, "password": PASSWORD, "csrfmiddlewaretoken": cookies["csrftoken"]},
        HTTP_AUTHORIZATION="Bearer api-Secret-777",
    )
    assert response.status_code == 500
    sentry_sdk.flush(timeout=10)
    wait_for(
        lambda: "RuntimeError" in fake_sentry.text(), timeout=20, message="the event at the fake"
    )
    sent = fake_sentry.text()
    assert "the account of [email] failed" in sent  # the exception, its message scrubbed
    assert '"release":"build-4f2a9c1"' in sent.replace(" ", "")
    assert '"environment":"drill"' in sent.replace(" ", "")
    for secret in (EMAIL, PASSWORD, "api-Secret-777", *cookies.values()):
        assert secret not in sent, f"{secret!r} was sent"


def _sentry_state(**env: str) -> str:
    base = {k: v for k, v in os.environ.items() if k in {"PATH", "HOME", "LANG"}}
    base.update(DJANGO_SETTINGS_MODULE="domino_site.settings", PYTHONPATH=str(ROOT), DEBUG="1")
    base.update(env)
    code = (
        "import sys, django; django.setup(); import sentry_sdk; "
        "print(sentry_sdk.is_initialized(), 'sentry_sdk.integrations.django' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=base, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_without_a_dsn_sentry_is_not_initialised():
    assert _sentry_state() == "False False"
    assert _sentry_state(SENTRY_DSN="http://publickey@127.0.0.1:9/1") == "True True"
