"""The site sets only the cookies it needs (docs/site.md, "Cookies"): the
session, CSRF, language and guest seat cookies, each listed on the privacy
notice. A crawl of the main pages and actions, as a guest and signed in,
collects every Set-Cookie name and finds no other; a confirmation message
("Saved.") lives in the session, not in a cookie of its own."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from domino_site.guests import GUEST_COOKIE

pytestmark = pytest.mark.django_db

PAGES = (
    "/",
    "/ranking/",
    "/regras/",
    "/problemas/",
    "/torneios/",
    "/privacidade/",
    "/termos/",
    "/accounts/login/",
    "/accounts/signup/",
    "/api/rooms/",
)


def _documented() -> set[str]:
    return {
        settings.SESSION_COOKIE_NAME,
        settings.CSRF_COOKIE_NAME,
        settings.LANGUAGE_COOKIE_NAME,
        GUEST_COOKIE,
    }


def _crawl(client: Client, extra: tuple[str, ...] = ()) -> set[str]:
    names: set[str] = set()
    for path in PAGES + extra:
        response = client.get(path)
        assert response.status_code in (200, 302), path
        names |= set(response.cookies)
    return names


def test_a_guest_gets_only_the_documented_cookies():
    client = Client(enforce_csrf_checks=False)
    names = _crawl(client)
    made = client.post("/rooms/", {"preset": "parceria", "play_alone": "1", "bot_level": "easy"})
    assert made.status_code == 302
    names |= set(made.cookies)
    names |= _crawl(client, (made["Location"],))
    names |= set(client.post("/i18n/setlang/", {"language": "en", "next": "/"}).cookies)
    assert {GUEST_COOKIE, settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME} <= names
    assert names <= _documented(), names - _documented()


def test_a_signed_in_person_gets_only_the_documented_cookies(make_user):
    ana, make = make_user("ana"), make_user("bruno")
    client = Client()
    signed_in = client.post("/accounts/login/", {"username": "ana", "password": "x"})
    assert signed_in.status_code == 302
    names = set(signed_in.cookies)
    names |= _crawl(client, ("/players/ana/", "/players/bruno/", "/accounts/delete/"))
    names |= set(client.post("/friends/bruno/request/").cookies)  # "Sent." and the like
    names |= _crawl(client)  # the message shown
    names |= set(client.get("/accounts/export/").cookies)
    assert settings.SESSION_COOKIE_NAME in names
    assert names <= _documented(), names - _documented()
    assert make.friend_requests_received.filter(sender=ana).exists()


def test_the_privacy_notice_lists_every_cookie_the_site_sets(client):
    for language in ("pt-br", "en"):
        page = client.get("/privacidade/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
        for name in _documented():
            assert f"<code>{name}</code>" in page, (language, name)


def test_the_privacy_notice_says_where_to_write(client, settings):
    settings.PRIVACY_CONTACT = "privacidade@example.com"
    page = client.get("/privacidade/").content.decode()
    assert 'href="mailto:privacidade@example.com"' in page
    assert "/accounts/export/" in page and "/accounts/delete/" in page


def test_the_privacy_notice_says_how_long_the_mail_records_are_kept(client, settings):
    """The notice's numbers are the settings the sweeper runs on (the accounts'
    mail records: ``MAIL_KEEP_DAYS``), in both languages."""
    settings.MAIL_KEEP_DAYS = 17
    pt = client.get("/privacidade/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    en = client.get("/privacidade/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "depois de 17 dias" in pt and "after 17 days" in en
    assert "203.0.113.*" in pt and "203.0.113.*" in en  # the sessions' masked addresses
