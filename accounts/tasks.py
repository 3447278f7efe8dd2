"""Celery: ``accounts.mail_send`` sends one message of the outbox
(`accounts.mail.mail_send`), on the default queue (the Procfile's ``worker``).
A failed send is retried by the task with a growing delay
(`accounts.mail.retry_delay`), and by the sweeper whatever happens to the
task: the message stays in the outbox until the mail server took it."""

from typing import Any

from celery import shared_task

from accounts.mail import MailNotSent, mail_send


@shared_task(
    name="accounts.mail_send",
    bind=True,
    acks_late=True,
    reject_on_worker_lost=True,
    ignore_result=True,
    max_retries=8,
)
def mail_send_task(self: Any, *, mail_id: int) -> bool:
    try:
        return mail_send(mail_id=mail_id)
    except MailNotSent as exc:
        raise self.retry(countdown=exc.retry_in, exc=exc) from exc
