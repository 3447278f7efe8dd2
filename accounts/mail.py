"""The outbox (docs/site.md, "Accounts: mail"): every message the site sends.

`mail_queue` writes a message in its recipient's language, in the caller's
transaction, and asks for it to be sent after the commit
(``accounts.signals.mail_queued``, which `timers` turns into the Celery task
``accounts.mail_send`` or the in-process ticker's mail job). `mail_send`
sends one message and marks it sent only after the mail server took it; a
failure is tried again later, each time further apart (`retry_delay`), by the
task's own retry and by the sweeper (`mail_send_due`), until
``MAIL_GIVE_UP_DAYS``: nothing is lost to a mail server that is down for a
while. Two senders of one message do not both send it: a sender first takes
the message for ``LEASE`` (its ``next_try_at`` moved on), in one UPDATE.
"""

from __future__ import annotations

import logging
from contextvars import ContextVar
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.translation import gettext

from .models import OutgoingMail
from .signals import mail_queued

log = logging.getLogger(__name__)

#: How long a sender holds a message it is sending before another may try.
LEASE = timedelta(minutes=2)
#: The first retry's delay; each next one doubles, up to `MAX_DELAY`.
FIRST_DELAY = timedelta(seconds=30)
MAX_DELAY = timedelta(hours=1)


class MailNotSent(Exception):
    """The mail server refused or could not be reached; tried again in ``retry_in``."""

    def __init__(self, message: str, retry_in: float) -> None:
        super().__init__(message)
        self.retry_in = retry_in


def language_of(code: str | None) -> str:
    """One of the site's languages (``settings.LANGUAGES``), the default otherwise."""
    known = {value for value, _ in settings.LANGUAGES}
    code = (code or "").lower()
    if code in known:
        return code
    prefix = code.split("-")[0]
    return next((value for value in known if value.split("-")[0] == prefix and prefix), "pt-br")


# The address of the request being served (`accounts.middleware`), for a site
# that did not set SITE_URL.
asking_site: ContextVar[str] = ContextVar("asking_site", default="")
FALLBACK_SITE = "http://localhost:8000"


def site_url() -> str:
    """This site's address for links in mail: ``settings.SITE_URL`` (a worker
    has no request to take a host from), else the address of the request that
    asked for the mail, else ``http://localhost:8000``."""
    return (settings.SITE_URL or asking_site.get() or FALLBACK_SITE).rstrip("/")


def site_link(path: str) -> str:
    """An absolute link to ``path`` on this site (`site_url`)."""
    return site_url() + path


def mail_queue(
    *, kind: str, to: str, user: Any, language: str, template: str, context: dict[str, Any]
) -> OutgoingMail:
    """Write the message ``accounts/mail/<template>`` (subject, text, HTML) in
    ``language`` and put it in the outbox; sent after the commit."""
    language = language_of(language)
    with translation.override(language):
        values = {
            "site_name": gettext("Dominoes"),
            "site_url": site_url(),
            "user": user,
            **context,
        }
        subject = render_to_string(f"accounts/mail/{template}_subject.txt", values)
        text = render_to_string(f"accounts/mail/{template}.txt", values)
        html = render_to_string(f"accounts/mail/{template}.html", values)
    mail = OutgoingMail.objects.create(
        kind=kind,
        user=user,
        to=to,
        language=language,
        subject=" ".join(subject.split())[:255],
        body_text=text,
        body_html=html,
    )
    mail_id = mail.pk
    transaction.on_commit(lambda: mail_queued.send(sender=OutgoingMail, mail_id=mail_id))
    return mail


def retry_delay(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failure: 30 s, 1 min, 2 min, ... 1 h.

    >>> [int(retry_delay(n).total_seconds()) for n in (1, 2, 3, 9, 20)]
    [30, 60, 120, 3600, 3600]
    """
    return min(MAX_DELAY, FIRST_DELAY * (2 ** min(max(attempts - 1, 0), 12)))


def mail_send(*, mail_id: int, now: datetime | None = None) -> bool:
    """Send the message ``mail_id`` if it still waits and is due; True once it
    is sent (now or before), False if there was nothing to send (another sender
    holds it, it is not due yet, or it was given up). Raises `MailNotSent` when
    the mail server failed: the message waits for its next try."""
    now = now or timezone.now()
    waiting = OutgoingMail.objects.filter(
        pk=mail_id, sent_at__isnull=True, gave_up_at__isnull=True, next_try_at__lte=now
    )
    if not waiting.update(next_try_at=now + LEASE):
        return OutgoingMail.objects.filter(pk=mail_id, sent_at__isnull=False).exists()
    mail = OutgoingMail.objects.get(pk=mail_id)
    message = EmailMultiAlternatives(
        subject=mail.subject,
        body=mail.body_text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[mail.to],
        headers={"Content-Language": mail.language},
    )
    if mail.body_html:
        message.attach_alternative(mail.body_html, "text/html")
    try:
        message.send()
    except Exception as exc:  # noqa: BLE001 - any failure: try again later
        attempts = mail.attempts + 1
        delay = retry_delay(attempts)
        given_up = now - mail.created_at >= timedelta(days=settings.MAIL_GIVE_UP_DAYS)
        OutgoingMail.objects.filter(pk=mail_id).update(
            attempts=attempts,
            next_try_at=now + delay,
            last_error=f"{type(exc).__name__}: {exc}"[:300],
            gave_up_at=now if given_up else None,
        )
        log.warning("mail %s to the mail server failed (try %s): %s", mail_id, attempts, exc)
        raise MailNotSent(str(exc), delay.total_seconds()) from exc
    OutgoingMail.objects.filter(pk=mail_id).update(
        sent_at=timezone.now(),
        attempts=mail.attempts + 1,
        last_error="",
        body_text="",
        body_html="",
    )
    return True


def mail_send_due(*, limit: int = 50) -> int:
    """Send what waits and is due (the sweeper's and the ticker's job); how many were sent."""
    from .selectors import mail_due_ids

    sent = 0
    for mail_id in mail_due_ids(limit=limit):
        try:
            sent += mail_send(mail_id=mail_id)
        except MailNotSent:
            continue
    return sent


def mail_tidy(*, now: datetime | None = None) -> int:
    """The sweeper's housekeeping: sent messages older than ``MAIL_KEEP_DAYS``
    are deleted (their bodies were erased when sent); a message still unsent
    after ``MAIL_GIVE_UP_DAYS`` is given up (its links have expired). Each
    reads first: the sweep runs every few seconds and writes rarely."""
    now = now or timezone.now()
    stale = OutgoingMail.objects.filter(
        sent_at__isnull=True,
        gave_up_at__isnull=True,
        created_at__lt=now - timedelta(days=settings.MAIL_GIVE_UP_DAYS),
    )
    if stale.exists():
        stale.update(gave_up_at=now, body_text="", body_html="")
    old = OutgoingMail.objects.filter(
        created_at__lt=now - timedelta(days=settings.MAIL_KEEP_DAYS)
    ).exclude(sent_at__isnull=True, gave_up_at__isnull=True)
    if not old.exists():
        return 0
    deleted, _ = old.delete()
    return deleted
