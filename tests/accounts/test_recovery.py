"""Password recovery (docs/site.md, "Accounts: recovery"): "Esqueci minha senha"
on the login page, a mail with a one-time link to a confirmed address only, the
same answer whatever the address, limits per address and per client address,
and after the new password the person is signed in and every other session of
the account is signed out."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.contrib.auth.tokens import PasswordResetTokenGenerator
from django.test import Client
from django.urls import reverse
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import services
from accounts.models import EmailAddress, OutgoingMail, SessionRecord
from tests.accounts.conftest import html_of, link_in, text_of
from timers import jobs

pytestmark = pytest.mark.django_db

PASSWORD = "s3nha-longa-e-boa"
NEW_PASSWORD = "outra-s3nha-muito-boa"
SENT = "Se uma conta tem este endereço, confirmado, enviamos a ele um link"


@pytest.fixture
def ana(django_user_model):
    user = django_user_model.objects.create_user("ana", password=PASSWORD)
    row = services.email_add(user=user, email="ana@example.com", language="pt-br")
    services.email_confirm(token=services.confirm_token(row))
    OutgoingMail.objects.all().delete()  # the confirmation's mail: not these tests'
    return user


def ask(client, email: str, address: str = "127.0.0.1", **extra):
    return client.post(
        reverse("password_reset"), {"email": email}, REMOTE_ADDR=address, follow=True, **extra
    )


def _path(link: str) -> str:
    return link.removeprefix("http://testserver")


def test_the_login_page_links_to_recovery(client):
    page = client.get(reverse("login")).content.decode()
    assert "Esqueci minha senha" in page
    assert f'href="{reverse("password_reset")}"' in page
    form = client.get(reverse("password_reset"))
    assert form.status_code == 200 and 'data-form="password-reset"' in form.content.decode()


@pytest.mark.parametrize("engine", ["db", "cached_db", "cache"])
def test_a_person_recovers_the_account_from_the_mail_and_the_old_session_is_signed_out(
    ana, smtp, django_capture_on_commit_callbacks, settings, engine
):
    settings.SESSION_ENGINE = f"django.contrib.sessions.backends.{engine}"
    old = Client()
    old.force_login(ana)
    assert old.get(reverse("accounts:conta")).status_code == 200
    other = Client()
    other.force_login(ana)
    other.get(reverse("accounts:conta"))  # a recorded session too
    unseen = Client()
    unseen.force_login(ana)  # a session the Conta list never saw (from before it existed)
    assert not SessionRecord.objects.filter(session_key=unseen.session.session_key).exists()

    person = Client()
    with django_capture_on_commit_callbacks(execute=True):
        response = ask(person, "ANA@example.com")
    assert response.redirect_chain[-1][0] == reverse("password_reset_done")
    assert SENT in response.content.decode()
    jobs.run("mail")
    mail = smtp.wait("ana@example.com")
    assert mail["Subject"] == "Dominó: uma nova senha"
    link = link_in(mail)
    assert link.startswith("http://testserver/accounts/reset/") and link in html_of(mail)
    assert "Olá, ana." in text_of(mail)

    form = person.get(_path(link), follow=True)
    assert form.status_code == 200 and 'data-form="password-set"' in form.content.decode()
    weak = person.post(form.redirect_chain[-1][0], {"new_password1": "123", "new_password2": "123"})
    assert weak.status_code == 200 and "field-error" in weak.content.decode()  # Django's validators
    done = person.post(
        form.redirect_chain[-1][0],
        {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD},
        follow=True,
    )
    assert done.redirect_chain[-1][0] == reverse("password_reset_complete")
    assert "Sua nova senha foi salva e você está conectado." in done.content.decode()
    assert person.get(reverse("accounts:conta")).status_code == 200  # signed in

    for client in (
        old,
        other,
        unseen,
    ):  # signed out (unseen: by the session auth hash): the conta page sends them to the login
        response = client.get(reverse("accounts:conta"))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    fresh = Client()
    fresh.post(reverse("login"), {"username": "ana", "password": PASSWORD})
    assert "_auth_user_id" not in fresh.session
    fresh.post(reverse("login"), {"username": "ana", "password": NEW_PASSWORD})
    assert "_auth_user_id" in fresh.session

    used = person.get(_path(link), follow=True)  # the link works once
    assert used.status_code == 400
    assert "Este link não é válido" in used.content.decode()


def test_the_answer_is_the_same_whatever_the_address_and_only_a_confirmed_one_gets_mail(
    ana, django_user_model, smtp, django_capture_on_commit_callbacks
):
    bia = django_user_model.objects.create_user("bia", password=PASSWORD)
    services.email_add(user=bia, email="bia@example.com", language="pt-br")  # never confirmed
    OutgoingMail.objects.all().delete()
    cid = django_user_model.objects.create_user("cid", password=PASSWORD, is_active=False)
    row = services.email_add(user=cid, email="cid@example.com", language="pt-br")
    services.email_confirm(token=services.confirm_token(row))
    OutgoingMail.objects.all().delete()

    def page(email: str) -> tuple[int, list, bytes]:
        with django_capture_on_commit_callbacks(execute=True):
            response = ask(Client(), email)
        body = response.content.replace(response.wsgi_request.META["CSRF_COOKIE"].encode(), b"")
        return response.status_code, response.redirect_chain, body

    known = page("ana@example.com")
    for email in ("nobody@example.com", "bia@example.com", "cid@example.com"):
        answer = page(email)
        assert answer[:2] == known[:2]
        assert SENT in answer[2].decode()
    jobs.run("mail")
    assert OutgoingMail.objects.filter(kind="recovery").count() == 1
    smtp.wait("ana@example.com")
    for email in ("nobody@example.com", "bia@example.com", "cid@example.com"):
        assert smtp.to(email) == []


def test_recovery_is_limited_per_address_and_per_client_address(ana, settings):
    settings.RECOVERY_LIMIT_PER_EMAIL = 2
    settings.RECOVERY_LIMIT_PER_ADDRESS = 3
    for address in ("10.0.0.1", "10.0.0.2"):
        assert ask(Client(), "ana@example.com", address).status_code == 200
    refused = ask(Client(), "ANA@example.com", "10.0.0.3")  # a third time for this address
    assert refused.status_code == 429
    assert "Pedidos de recuperação demais" in refused.content.decode()
    # An address no account has is limited the same way (the limit tells nothing).
    for address in ("10.0.0.4", "10.0.0.5"):
        assert ask(Client(), "nobody@example.com", address).status_code == 200
    assert ask(Client(), "nobody@example.com", "10.0.0.6").status_code == 429
    # One client asking for many addresses.
    for n in range(3):
        assert ask(Client(), f"x{n}@example.com", "10.9.9.9").status_code == 200
    assert ask(Client(), "x9@example.com", "10.9.9.9").status_code == 429
    assert OutgoingMail.objects.filter(kind="recovery").count() == 2


def test_an_expired_link_is_refused_and_changes_nothing(ana, smtp, monkeypatch):
    services.recovery_request(email="ana@example.com", ip_hash="h", language="pt-br")
    jobs.run("mail")
    link = _path(link_in(smtp.wait("ana@example.com")))
    later = datetime.now() + timedelta(hours=2)
    monkeypatch.setattr(PasswordResetTokenGenerator, "_now", lambda self: later)
    client = Client()
    response = client.get(link, follow=True)
    assert response.status_code == 400 and "Este link não é válido" in response.content.decode()
    set_path = link.rsplit("/", 2)[0] + "/set-password/"
    response = client.post(set_path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    assert response.status_code == 400
    ana.refresh_from_db()
    assert ana.check_password(PASSWORD)


def test_a_link_for_another_account_sets_nobody_s_password(ana, django_user_model, smtp):
    bia = django_user_model.objects.create_user("bia", password=PASSWORD)
    services.recovery_request(email="ana@example.com", ip_hash="h", language="pt-br")
    jobs.run("mail")
    link = _path(link_in(smtp.wait("ana@example.com")))
    _, _, _, uid, token, _ = link.split("/")
    from django.utils.encoding import force_bytes
    from django.utils.http import urlsafe_base64_encode

    other = f"/accounts/reset/{urlsafe_base64_encode(force_bytes(bia.pk))}/{token}/"
    client = Client()
    response = client.get(other, follow=True)
    assert response.status_code == 400
    set_path = other.rsplit("/", 2)[0] + "/set-password/"
    client.post(set_path, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})
    bia.refresh_from_db()
    ana.refresh_from_db()
    assert bia.check_password(PASSWORD) and ana.check_password(PASSWORD)


def test_five_thousand_characters_are_refused_clearly(ana, smtp):
    long = "a" * 5000
    response = ask(Client(), long + "@example.com")
    assert response.status_code == 400 and "field-error" in response.content.decode()
    response = Client().get(f"/accounts/reset/{long}/{long}/", follow=True)
    assert response.status_code == 400
    assert not OutgoingMail.objects.exists()
    services.recovery_request(email="ana@example.com", ip_hash="h", language="pt-br")
    jobs.run("mail")
    client = Client()
    form = client.get(_path(link_in(smtp.wait("ana@example.com"))), follow=True)
    response = client.post(
        form.redirect_chain[-1][0], {"new_password1": long, "new_password2": long}
    )
    assert "Esta senha é longa demais" in response.content.decode()
    ana.refresh_from_db()
    assert ana.check_password(PASSWORD)


def test_mail_to_an_english_request_is_in_english(ana, smtp):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.post(reverse("password_reset"), {"email": "ana@example.com"})
    jobs.run("mail")
    mail = smtp.wait("ana@example.com")
    assert mail["Subject"] == "Dominoes: a new password"
    assert "Someone asked for a new password" in text_of(mail)
    assert EmailAddress.objects.get(user=ana).language == "pt-br"  # the address's own, kept


def test_with_two_step_sign_in_the_recovery_asks_for_the_code_before_signing_in(
    ana, smtp, django_capture_on_commit_callbacks
):
    """A new password is not a way around the second factor (docs/site.md,
    "Accounts: recovery"): after it, an account with two-step sign-in goes to
    the second step, and is signed in only with a code of its app."""
    device = TOTPDevice.objects.create(user=ana, name="app", confirmed=True)
    person = Client()
    with django_capture_on_commit_callbacks(execute=True):
        ask(person, "ana@example.com")
    jobs.run("mail")
    form = person.get(_path(link_in(smtp.wait("ana@example.com"))), follow=True)
    after = person.post(
        form.redirect_chain[-1][0], {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    )
    assert after.status_code == 302 and after["Location"] == reverse("twofactor:verify")
    assert "_auth_user_id" not in person.session  # not signed in yet
    person.post(reverse("twofactor:verify"), {"code": f"{totp(device.bin_key):06d}"})
    assert person.session["_auth_user_id"] == str(ana.pk)
    assert person.get(reverse("accounts:conta")).status_code == 200
