"""The Conta page (docs/site.md, "Accounts: the Conta page"): linked from the
header for a signed-in person; the password, the address, the sessions (each
device, its masked address, when last seen) with "sign out the others", the
language, who may challenge and whom one blocks, in one place."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import SessionRecord
from accounts.sessions import session_ref
from people import services as people_services
from people.models import Block, Preferences

pytestmark = pytest.mark.django_db

PASSWORD = "s3nha-longa-e-boa"
FIREFOX_ANDROID = "Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0"
CHROME_WINDOWS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
    "Chrome/131.0 Safari/537.36"
)


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD)


def signed_in(user, agent: str, address: str) -> Client:
    client = Client(HTTP_USER_AGENT=agent, REMOTE_ADDR=address)
    client.post(reverse("login"), {"username": user.username, "password": PASSWORD})
    assert "_auth_user_id" in client.session
    return client


def test_the_page_is_for_signed_in_people_and_the_header_links_to_it(client, ana):
    response = client.get(reverse("accounts:conta"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert 'data-link="conta"' not in client.get(reverse("lobby:lobby")).content.decode()
    client.force_login(ana)
    assert (
        f'href="{reverse("accounts:conta")}"' in client.get(reverse("lobby:lobby")).content.decode()
    )
    page = client.get(reverse("accounts:conta")).content.decode()
    for section in ("email", "password", "sessions", "language", "privacy"):
        assert f'data-section="{section}"' in page
    assert "Nenhum endereço confirmado" in page


@pytest.mark.parametrize("engine", ["db", "cache", "cached_db"])
def test_the_page_shows_the_sessions_and_signs_out_the_others(ana, settings, engine):
    settings.SESSION_ENGINE = f"django.contrib.sessions.backends.{engine}"
    phone = signed_in(ana, FIREFOX_ANDROID, "203.0.113.57")
    laptop = signed_in(ana, CHROME_WINDOWS, "198.51.100.9")
    page = phone.get(reverse("accounts:conta")).content.decode()
    assert "Firefox · Android" in page and "Chrome · Windows" in page
    assert "203.0.113.*" in page and "198.51.100.*" in page
    assert "203.0.113.57" not in page and "198.51.100.9" not in page
    assert SessionRecord.objects.filter(user=ana).count() == 2
    response = phone.post(reverse("accounts:sessions_end"), follow=True)
    assert "Suas outras sessões foram encerradas." in response.content.decode()
    page = response.content.decode()
    assert "Firefox · Android" in page and "Chrome · Windows" not in page
    assert laptop.get(reverse("accounts:conta")).status_code == 302  # signed out
    assert phone.get(reverse("accounts:conta")).status_code == 200  # still signed in
    assert list(SessionRecord.objects.values_list("device", flat=True)) == ["Firefox · Android"]


def test_one_other_session_may_be_signed_out_but_never_another_account_s(ana, django_user_model):
    bia = django_user_model.objects.create_user("bia", password=PASSWORD)
    phone = signed_in(ana, FIREFOX_ANDROID, "203.0.113.57")
    laptop = signed_in(ana, CHROME_WINDOWS, "198.51.100.9")
    hers = signed_in(bia, CHROME_WINDOWS, "192.0.2.1")
    hers.get(reverse("accounts:conta"))
    bia_ref = session_ref(hers.session.session_key)
    response = phone.post(reverse("accounts:sessions_end"), {"session": bia_ref}, follow=True)
    assert "Você não tem essa sessão." in response.content.decode()
    assert hers.get(reverse("accounts:conta")).status_code == 200
    laptop.get(reverse("lobby:lobby"))
    page = phone.get(reverse("accounts:conta")).content.decode()
    assert laptop.session.session_key not in page  # a key signs in: never on a page
    laptop_ref = session_ref(laptop.session.session_key)
    assert f'value="{laptop_ref}"' in page
    phone.post(reverse("accounts:sessions_end"), {"session": laptop.session.session_key})
    assert laptop.get(reverse("accounts:conta")).status_code == 200  # a key is no reference
    phone.post(reverse("accounts:sessions_end"), {"session": laptop_ref})
    assert laptop.get(reverse("accounts:conta")).status_code == 302


def test_a_session_is_written_at_most_once_every_few_minutes(ana):
    phone = signed_in(ana, FIREFOX_ANDROID, "203.0.113.57")
    phone.get(reverse("lobby:lobby"))
    seen = SessionRecord.objects.get().last_seen
    SessionRecord.objects.update(device="marked")
    phone.get(reverse("lobby:lobby"))
    phone.get(reverse("accounts:conta"))
    row = SessionRecord.objects.get()
    assert row.device == "marked" and row.last_seen == seen  # not written again


def test_changing_the_password_keeps_this_session_and_signs_out_the_others(ana):
    phone = signed_in(ana, FIREFOX_ANDROID, "203.0.113.57")
    laptop = signed_in(ana, CHROME_WINDOWS, "198.51.100.9")
    laptop.get(reverse("lobby:lobby"))
    wrong = phone.post(
        reverse("accounts:password_change"),
        {
            "old_password": "nope",
            "new_password1": "outra-s3nha-boa",
            "new_password2": "outra-s3nha-boa",
        },
    )
    assert wrong.status_code == 400 and "field-error" in wrong.content.decode()
    response = phone.post(
        reverse("accounts:password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "outra-s3nha-boa",
            "new_password2": "outra-s3nha-boa",
        },
        follow=True,
    )
    assert "Sua senha foi trocada" in response.content.decode()
    assert phone.get(reverse("accounts:conta")).status_code == 200
    assert laptop.get(reverse("accounts:conta")).status_code == 302
    ana.refresh_from_db()
    assert ana.check_password("outra-s3nha-boa")


def test_who_may_challenge_the_blocks_and_the_queue_partner_are_on_the_page(
    client, ana, django_user_model
):
    bia = django_user_model.objects.create_user("bia", password=PASSWORD)
    people_services.block(blocker=ana, blocked=bia)
    client.force_login(ana)
    page = client.get(reverse("accounts:conta")).content.decode()
    assert 'data-blocked-person="bia"' in page
    response = client.post(
        reverse("people:preferences"), {"challenges": "friends", "next": reverse("accounts:conta")}
    )
    assert response["Location"] == reverse("accounts:conta")
    assert Preferences.objects.get(user=ana).challenges == "friends"
    page = client.get(reverse("accounts:conta")).content.decode()
    assert '<option value="friends" selected>' in page
    client.post(reverse("people:unblock", args=["bia"]), {"next": reverse("accounts:conta")})
    assert not Block.objects.exists()
    assert 'data-form="queue-partner"' not in page  # no friend to queue with yet
    people_services.friend_request_send(sender=ana, recipient=bia)
    people_services.friend_request_accept(user=bia, sender=ana)
    client.post(
        reverse("people:queue_partner"), {"partner": "bia", "next": reverse("accounts:conta")}
    )
    page = client.get(reverse("accounts:conta")).content.decode()
    assert '<option value="bia" selected>' in page


def test_the_language_chosen_on_the_page_is_the_site_s(client, ana):
    client.force_login(ana)
    client.post(reverse("set_language"), {"language": "en", "next": reverse("accounts:conta")})
    page = client.get(reverse("accounts:conta")).content.decode()
    assert "Your settings, ana, in one place." in page


def test_a_forged_session_cookie_of_5000_characters_records_nothing(client):
    client.cookies["sessionid"] = "x" * 5000
    assert client.get(reverse("lobby:lobby")).status_code == 200
    assert client.get(reverse("accounts:conta")).status_code == 302
    assert not SessionRecord.objects.exists()


def test_erasing_an_account_s_data_leaves_no_address_mail_or_session(ana, django_user_model):
    from accounts import selectors, services
    from accounts.models import EmailAddress, OutgoingMail

    phone = signed_in(ana, FIREFOX_ANDROID, "203.0.113.57")
    phone.get(reverse("lobby:lobby"))
    row = services.email_add(user=ana, email="ana@example.com", language="pt-br")
    services.email_confirm(token=services.confirm_token(row))
    services.email_add(user=ana, email="new@example.com", language="pt-br")
    bia = django_user_model.objects.create_user("bia", password=PASSWORD)
    services.email_add(user=bia, email="bia@example.com", language="pt-br")
    erased = services.account_erase(user=ana)
    assert erased == {"addresses": 2, "mail": 3, "sessions": 1}
    assert selectors.email_history(ana) == [] and selectors.sessions_of(ana) == []
    assert phone.get(reverse("accounts:conta")).status_code == 302  # signed out
    assert EmailAddress.objects.filter(user=bia).count() == 1  # nobody else's
    assert OutgoingMail.objects.filter(user=bia).count() == 1
