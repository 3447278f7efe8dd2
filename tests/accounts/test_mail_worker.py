"""The production path of mail (docs/site.md, "Accounts: mail"): a real Celery
worker on the Redis broker sends the outbox's message after the commit
through a real SMTP server, and the beat's sweeper (``rooms.sweep``) hands it
what a down mail server left unsent."""

from __future__ import annotations

import socket

import pytest
from celery.contrib.testing.worker import start_worker

from accounts import services
from accounts.models import OutgoingMail
from domino_site.celery import app
from tests.accounts.conftest import link_in
from tests.waiting import wait_for
from timers import tasks

pytestmark = [pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_celery_worker_sends_the_mail_after_the_commit_and_the_sweeper_what_failed(
    django_user_model, settings, smtp
):
    settings.DOMINO_SCHEDULER = "celery"
    app.control.purge()
    ana = django_user_model.objects.create_user("ana", password="x")
    # The mail goes to the analysis queue (the Procfile's worker below play, never a
    # clock's). This in-process worker consumes it beside the default queue: one of
    # the analysis queue alone would put the test process itself below play.
    assert app.amqp.router.route({}, "accounts.mail_send")["queue"].name == "analysis"
    with start_worker(
        app,
        pool="solo",
        perform_ping_check=False,
        loglevel="WARNING",
        queues=["analysis", "celery"],
    ):
        services.email_add(user=ana, email="ana@example.com", language="pt-br")
        mail = smtp.wait("ana@example.com", timeout=60)
        assert link_in(mail).startswith("http://testserver/conta/email/confirmar/")
        wait_for(
            lambda: OutgoingMail.objects.filter(sent_at__isnull=False).exists(),
            timeout=30,
            message="the message marked sent",
        )

        working = settings.EMAIL_PORT
        settings.EMAIL_PORT = _closed_port()  # the mail server goes down
        services.email_resend(user=ana)
        failed = wait_for(
            lambda: OutgoingMail.objects.filter(sent_at__isnull=True, attempts__gte=1).first(),
            timeout=60,
            message="a failed try, kept",
        )
        settings.EMAIL_PORT = working  # back up; its next try is due at once
        OutgoingMail.objects.filter(pk=failed.pk).update(next_try_at=failed.created_at)
        tasks.sweep.apply()  # the beat's sweeper: hands the worker what is due
        smtp.wait("ana@example.com", 2, timeout=60)
    assert OutgoingMail.objects.filter(sent_at__isnull=True).count() == 0
