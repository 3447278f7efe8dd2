"""A real SMTP server for the accounts' tests (aiosmtpd, on a free localhost
port), Django's SMTP backend pointed at it, and the helpers that read what it
received: the mails' links are followed as a person would.

Mail leaves the outbox after its commit (`accounts.mail`): the tests run the
commit's callbacks (``django_capture_on_commit_callbacks(execute=True)``),
then the runner's job (``timers.jobs.run("mail")``, what the ticker's mail
thread and the sweeper run) unless the test starts a runner of its own.
"""

from __future__ import annotations

import email
import re
import socket
import threading
from email import policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller

from tests.waiting import wait_for

LINK = re.compile(r"https?://[^\s<>\"]+")


class Inbox:
    """What the SMTP server received, in order: (recipients, message)."""

    def __init__(self) -> None:
        self.received: list[tuple[list[str], EmailMessage]] = []
        self._lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):  # aiosmtpd's handler
        message = email.message_from_bytes(envelope.content, policy=policy.default)
        with self._lock:
            self.received.append((list(envelope.rcpt_tos), message))
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self._lock:
            return [m for rcpt, m in self.received if address.lower() in (r.lower() for r in rcpt)]

    def wait(self, address: str, count: int = 1, timeout: float = 10.0) -> EmailMessage:
        """The ``count``-th message to ``address`` (waits for it)."""
        mails = wait_for(
            lambda: len(self.to(address)) >= count and self.to(address),
            timeout=timeout,
            message=f"{count} mail(s) to {address}",
        )
        return mails[count - 1]


def text_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("plain",)).get_content()


def html_of(message: EmailMessage) -> str:
    return message.get_body(preferencelist=("html",)).get_content()


def link_in(message: EmailMessage) -> str:
    """The one link of the mail's text that leads somewhere else than the home page."""
    links = [link for link in LINK.findall(text_of(message)) if link.rstrip("/").count("/") > 2]
    assert links, text_of(message)
    return links[0]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp(settings):
    """A real SMTP server for this test; Django sends to it."""
    inbox = Inbox()
    port = _free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = port
    settings.EMAIL_USE_TLS = False
    settings.EMAIL_HOST_USER = ""
    settings.EMAIL_HOST_PASSWORD = ""
    settings.SITE_URL = "http://testserver"
    inbox.port = port
    try:
        yield inbox
    finally:
        controller.stop()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """The session rows' throttle lives in the cache: every test starts without it."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()
