"""An account's email address (docs/site.md, "Accounts: email"): given at sign-up
or on the Conta page, confirmed by the link of a mail sent through a real SMTP
server, unique across accounts whatever its case; a change tells the old
address; mail leaves the outbox after the commit and a failed send loses
nothing (docs/decisions.md, "Accounts: Django's own views and django-otp, not
django-allauth")."""

from __future__ import annotations

import socket
from datetime import timedelta

import pytest
from django.core import signing
from django.urls import reverse

from accounts import selectors, services
from accounts.mail import MailNotSent, mail_send
from accounts.models import EmailAddress, OutgoingMail
from tests.accounts.conftest import html_of, link_in, text_of
from timers import jobs

pytestmark = pytest.mark.django_db

PASSWORD = "s3nha-longa-e-boa"


def deliver() -> int:
    """What the ticker's mail thread and the sweeper run: the outbox's due messages."""
    return jobs.run("mail")


def sign_up(client, username: str, email: str = "", **extra):
    data = {"username": username, "password1": PASSWORD, "password2": PASSWORD, "email": email}
    return client.post(reverse("signup"), data, **extra)


def test_a_sign_up_with_an_email_gets_a_confirmation_mail_whose_link_confirms_it(
    client, smtp, django_capture_on_commit_callbacks
):
    page = client.get(reverse("signup"))
    assert "A única forma de recuperar sua conta se esquecer a senha." in page.content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = sign_up(client, "ana", "Ana@Example.com")
    assert response.status_code == 302
    assert OutgoingMail.objects.get().sent_at is None  # written, not sent inside the request
    assert deliver() == 1
    mail = smtp.wait("Ana@Example.com")
    assert mail["Subject"] == "Dominó: confirme seu endereço de email"
    assert "Dominó" in text_of(mail) and "Confirmar meu endereço" in html_of(mail)
    link = link_in(mail)
    assert link.startswith("http://testserver/conta/email/confirmar/")
    assert link in html_of(mail)
    user = EmailAddress.objects.get().user
    assert selectors.confirmed_email(user) is None
    page = client.get(link.removeprefix("http://testserver"))
    assert page.status_code == 200
    assert "Ana@Example.com" in page.content.decode()
    assert selectors.confirmed_email(user) == "Ana@Example.com"
    sent = OutgoingMail.objects.get()
    assert sent.sent_at is not None and sent.body_text == ""  # the one-time link is not kept


@pytest.mark.parametrize(
    ("site_url", "link_start"),
    [
        ("https://domino.example", "https://domino.example/conta/email/confirmar/"),
        ("", "http://domino.test:8123/conta/email/confirmar/"),
    ],
    ids=["SITE_URL set", "SITE_URL unset: the asking request's address"],
)
def test_the_mails_link_is_on_the_sites_own_address(
    client, smtp, settings, django_capture_on_commit_callbacks, site_url, link_start
):
    settings.SITE_URL = site_url
    settings.ALLOWED_HOSTS = ["domino.test", "testserver"]
    with django_capture_on_commit_callbacks(execute=True):
        assert (
            sign_up(client, "ana", "ana@example.com", HTTP_HOST="domino.test:8123").status_code
            == 302
        )
    assert deliver() == 1
    assert link_in(smtp.wait("ana@example.com")).startswith(link_start)


def test_a_sign_up_without_an_email_still_works_and_sends_nothing(
    client, smtp, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        assert sign_up(client, "bia").status_code == 302
    assert deliver() == 0
    assert not OutgoingMail.objects.exists() and not EmailAddress.objects.exists()


def test_an_address_another_account_uses_is_refused_whatever_its_case(
    client, django_user_model, smtp
):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    services.email_add(user=ana, email="ana@example.com", language="pt-br")
    response = sign_up(client, "bia", "ANA@EXAMPLE.COM")
    assert response.status_code == 200
    assert "Este endereço de email já é usado por outra conta." in response.content.decode()
    assert not django_user_model.objects.filter(username="bia").exists()
    bia = django_user_model.objects.create_user("bia", password=PASSWORD)
    client.force_login(bia)
    response = client.post(reverse("accounts:email_add"), {"email": "Ana@Example.COM"})
    assert response.status_code == 400
    assert "Este endereço de email já é usado por outra conta." in response.content.decode()
    assert EmailAddress.objects.filter(user=bia).count() == 0


def test_an_address_waiting_past_its_link_no_longer_holds_it_against_another_account(
    django_user_model,
):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    bia = django_user_model.objects.create_user("bia", password=PASSWORD)
    old = services.email_add(user=ana, email="x@example.com", language="pt-br")
    EmailAddress.objects.filter(pk=old.pk).update(created_at=old.created_at - timedelta(days=4))
    row = services.email_add(user=bia, email="X@example.com", language="pt-br")
    assert row.user == bia
    assert EmailAddress.objects.get(pk=old.pk).state == "withdrawn"


def _confirm_link(client, smtp, address: str, count: int = 1) -> str:
    deliver()
    return link_in(smtp.wait(address, count)).removeprefix("http://testserver")


def test_a_used_link_says_so_and_changes_nothing(
    client, django_user_model, smtp, django_capture_on_commit_callbacks
):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    client.force_login(ana)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:email_add"), {"email": "ana@example.com"})
    link = _confirm_link(client, smtp, "ana@example.com")
    assert client.get(link).status_code == 200
    again = client.get(link)
    assert again.status_code == 400
    assert "Este link já foi usado" in again.content.decode()
    assert selectors.confirmed_email(ana) == "ana@example.com"


def test_an_expired_link_is_refused(client, django_user_model, monkeypatch):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    row = services.email_add(user=ana, email="ana@example.com", language="pt-br")
    real = signing.TimestampSigner.timestamp
    monkeypatch.setattr(
        signing.TimestampSigner,
        "timestamp",
        lambda self: signing.b62_encode(signing.b62_decode(real(self)) - 4 * 86400),
    )
    token = services.confirm_token(row)
    monkeypatch.undo()
    response = client.get(reverse("accounts:email_confirm", args=[token]))
    assert response.status_code == 400
    assert "Este link de confirmação expirou" in response.content.decode()
    assert selectors.confirmed_email(ana) is None


def test_a_link_for_another_account_is_refused_to_a_signed_in_person(client, django_user_model):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    bia = django_user_model.objects.create_user("bia", password=PASSWORD)
    row = services.email_add(user=ana, email="ana@example.com", language="pt-br")
    client.force_login(bia)
    response = client.get(reverse("accounts:email_confirm", args=[services.confirm_token(row)]))
    assert response.status_code == 400
    assert "Este link é de outra conta" in response.content.decode()
    assert selectors.confirmed_email(ana) is None and selectors.confirmed_email(bia) is None
    # A link altered to name another row is no link at all.
    forged = signing.dumps({"u": bia.pk, "e": row.pk, "a": "ana@example.com"}, salt="other")
    response = client.get(reverse("accounts:email_confirm", args=[forged]))
    assert response.status_code == 400 and selectors.confirmed_email(bia) is None


def test_a_new_address_tells_the_old_one_and_replaces_it_once_confirmed(
    client, django_user_model, smtp, django_capture_on_commit_callbacks
):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    client.force_login(ana)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:email_add"), {"email": "old@example.com"})
    client.get(_confirm_link(client, smtp, "old@example.com"))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:email_add"), {"email": "new@example.com"})
    assert response.status_code == 302
    deliver()
    notice = smtp.wait("old@example.com", 2)
    assert "n**@example.com" in text_of(notice)
    assert "http://testserver/conta/" in text_of(notice)
    assert selectors.confirmed_email(ana) == "old@example.com"  # until the new one is confirmed
    page = client.get(reverse("accounts:conta")).content.decode()
    assert "old@example.com" in page and "new@example.com" in page
    client.get(link_in(smtp.wait("new@example.com")).removeprefix("http://testserver"))
    assert selectors.confirmed_email(ana) == "new@example.com"
    history = [(row.email, row.state) for row in selectors.email_history(ana)]
    assert history == [("old@example.com", "replaced"), ("new@example.com", "confirmed")]


def test_mail_is_written_in_the_language_of_the_request(
    client, django_user_model, smtp, django_capture_on_commit_callbacks
):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    client.force_login(ana)
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            reverse("accounts:email_add"), {"email": "ana@example.com"}, HTTP_ACCEPT_LANGUAGE="en"
        )
    deliver()
    mail = smtp.wait("ana@example.com")
    assert mail["Subject"] == "Dominoes: confirm your email address"
    assert "Open this link to confirm ana@example.com" in text_of(mail)
    assert "Confirm my address" in html_of(mail)


def test_confirmation_mails_are_limited_per_account(client, django_user_model, settings):
    settings.EMAIL_CONFIRMATIONS_PER_HOUR = 2
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    client.force_login(ana)
    client.post(reverse("accounts:email_add"), {"email": "ana@example.com"})
    client.post(reverse("accounts:email_resend"))
    response = client.post(reverse("accounts:email_add"), {"email": "other@example.com"})
    assert response.status_code == 429
    assert OutgoingMail.objects.count() == 2
    assert selectors.pending_email(ana).email == "ana@example.com"


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a_failed_send_loses_nothing_and_is_sent_once_the_server_answers(
    django_user_model, smtp, settings
):
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    services.email_add(user=ana, email="ana@example.com", language="pt-br")
    mail = OutgoingMail.objects.get()
    working = settings.EMAIL_PORT
    settings.EMAIL_PORT = _closed_port()  # the mail server is down
    with pytest.raises(MailNotSent):
        mail_send(mail_id=mail.pk)
    mail.refresh_from_db()
    assert mail.sent_at is None and mail.attempts == 1 and mail.body_text
    assert mail.next_try_at > mail.created_at  # tried again later, not at once
    assert deliver() == 0  # not due yet
    settings.EMAIL_PORT = working
    OutgoingMail.objects.filter(pk=mail.pk).update(next_try_at=mail.created_at)  # its time came
    assert deliver() == 1
    assert "ana@example.com" in text_of(smtp.wait("ana@example.com"))
    assert deliver() == 0 and len(smtp.to("ana@example.com")) == 1  # sent once


def test_the_celery_task_sends_after_the_commit(
    django_user_model, smtp, settings, django_capture_on_commit_callbacks
):
    from accounts.tasks import mail_send_task

    settings.DOMINO_SCHEDULER = "celery"
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    app = mail_send_task.app
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            services.email_add(user=ana, email="ana@example.com", language="pt-br")
        assert smtp.to("ana@example.com") == []  # nothing inside the transaction
        for callback in callbacks:
            callback()
    finally:
        app.conf.task_always_eager = eager
    assert link_in(smtp.wait("ana@example.com"))
    assert OutgoingMail.objects.get().sent_at is not None


@pytest.mark.django_db(transaction=True)
async def test_the_embedded_ticker_sends_after_the_commit(smtp, settings):
    from asgiref.sync import sync_to_async
    from django.contrib.auth import get_user_model

    from tests.waiting import async_wait_for
    from timers import ticker as ticker_module

    settings.DOMINO_SCHEDULER = "inprocess"
    ticker = ticker_module.Ticker()
    ticker_module.ticker, previous = ticker, ticker_module.ticker
    ticker.ensure_started()
    try:
        await ticker.ready()

        def add() -> None:
            user = get_user_model().objects.create_user("ana", password=PASSWORD)
            services.email_add(user=user, email="ana@example.com", language="en")

        await sync_to_async(add)()
        await async_wait_for(
            lambda: smtp.to("ana@example.com"), timeout=10, message="the ticker sent the mail"
        )
    finally:
        await ticker.stop()
        ticker_module.ticker = previous
    assert "confirm" in smtp.to("ana@example.com")[0]["Subject"]


def test_five_thousand_characters_are_a_clear_error_that_changes_nothing(client, django_user_model):
    long = "a" * 5000
    response = client.post(
        reverse("signup"),
        {"username": long, "password1": long, "password2": long, "email": long + "@example.com"},
    )
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not django_user_model.objects.exists()
    response = client.post(
        reverse("signup"),
        {"username": "ana", "password1": long, "password2": long, "email": "ana@example.com"},
    )
    assert "Esta senha é longa demais: use no máximo 128 caracteres." in response.content.decode()
    assert not django_user_model.objects.exists()
    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    client.force_login(ana)
    response = client.post(reverse("accounts:email_add"), {"email": long})
    assert response.status_code == 400 and "field-error" in response.content.decode()
    response = client.get(reverse("accounts:email_confirm", args=[long]))
    assert response.status_code == 400
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": long, "new_password1": long, "new_password2": long},
    )
    assert response.status_code == 400
    response = client.post(
        reverse("accounts:password_change"),
        {"old_password": PASSWORD, "new_password1": long, "new_password2": long},
    )
    assert response.status_code == 400
    assert "Esta senha é longa demais" in response.content.decode()
    assert not EmailAddress.objects.exists()
    ana.refresh_from_db()
    assert ana.check_password(PASSWORD)


def test_existing_accounts_addresses_move_in_waiting_for_confirmation(django_user_model):
    from importlib import import_module

    from django.apps import apps

    ana = django_user_model.objects.create_user("ana", email="Ana@Example.com")
    django_user_model.objects.create_user("bia", email="ana@example.COM")  # the same, later
    django_user_model.objects.create_user("cid", email="not an address")
    migration = import_module("accounts.migrations.0002_existing_emails")
    migration.forwards(apps, None)
    rows = list(EmailAddress.objects.values_list("user__username", "email", "state"))
    assert rows == [("ana", "Ana@example.com", "pending")]  # create_user lower-cases the domain
    assert selectors.confirmed_email(ana) is None


def test_the_sweeper_gives_up_old_unsent_mail_and_deletes_what_is_past_its_time(
    django_user_model, settings
):
    from django.utils import timezone

    from accounts.models import RecoveryRequest, SessionRecord

    ana = django_user_model.objects.create_user("ana", password=PASSWORD)
    services.email_add(user=ana, email="ana@example.com", language="pt-br")
    services.email_resend(user=ana)
    services.email_resend(user=ana)
    now = timezone.now()
    unsent, sent_long_ago, sent_lately = OutgoingMail.objects.order_by("pk")
    OutgoingMail.objects.filter(pk=unsent.pk).update(created_at=now - timedelta(days=4))
    OutgoingMail.objects.filter(pk=sent_long_ago.pk).update(
        created_at=now - timedelta(days=31), sent_at=now - timedelta(days=31), body_text=""
    )
    OutgoingMail.objects.filter(pk=sent_lately.pk).update(sent_at=now, body_text="")
    RecoveryRequest.objects.create(email_key="k", ip_hash="h", created_at=now - timedelta(hours=2))
    RecoveryRequest.objects.create(email_key="k", ip_hash="h", created_at=now)
    SessionRecord.objects.create(
        session_key="a" * 32,
        user=ana,
        last_seen=now - timedelta(seconds=settings.SESSION_COOKIE_AGE + 1),
    )
    SessionRecord.objects.create(session_key="b" * 32, user=ana, last_seen=now)
    jobs.run("sweep")
    unsent.refresh_from_db()
    assert unsent.gave_up_at is not None and unsent.body_text == ""  # its link expired
    assert set(OutgoingMail.objects.values_list("pk", flat=True)) == {unsent.pk, sent_lately.pk}
    assert RecoveryRequest.objects.count() == 1
    assert list(SessionRecord.objects.values_list("session_key", flat=True)) == ["b" * 32]
    assert deliver() == 0  # nothing given up is sent
