"""Failed logins are throttled per account and address (django-axes), on the
site and the admin; room creation is limited per account and per guest."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from rooms.models import Room

pytestmark = pytest.mark.django_db

PASSWORD = "s3nha-longa-e-boa"
LOCKED_PT = "Muitas tentativas de entrar sem sucesso nesta conta a partir do seu endereço."
LOCKED_EN = "Too many failed logins for this account from your address."


@pytest.fixture
def ana(django_user_model):
    return django_user_model.objects.create_user("ana", password=PASSWORD, is_staff=True)


@pytest.fixture
def bia(django_user_model):
    return django_user_model.objects.create_user("bia", password=PASSWORD, is_staff=True)


def _login(client, path: str, username: str, password: str, address: str = "127.0.0.1", **extra):
    return client.post(
        path, {"username": username, "password": password}, REMOTE_ADDR=address, **extra
    )


def _logged_in(client) -> bool:
    return "_auth_user_id" in client.session


@pytest.mark.parametrize("path", ["/accounts/login/", "/admin/login/"])
def test_fifteen_wrong_passwords_then_the_right_one_is_refused(client, ana, path):
    for _ in range(15):
        response = _login(client, path, "ana", "wrong-password")
        assert not _logged_in(client)
    response = _login(client, path, "ana", PASSWORD)
    assert response.status_code == 429
    assert not _logged_in(client)
    assert LOCKED_PT in response.content.decode()
    assert "Tente novamente em 15 minutos." in response.content.decode()


def test_the_lockout_message_in_english(client, ana):
    for _ in range(6):
        response = _login(client, "/accounts/login/", "ana", "nope", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429
    text = response.content.decode()
    assert LOCKED_EN in text and "Try again in 15 minutes." in text


def test_the_site_and_the_admin_share_the_count(client, ana):
    for _ in range(3):
        _login(client, "/accounts/login/", "ana", "wrong-password")
        _login(client, "/admin/login/", "ana", "wrong-password")
    response = _login(client, "/admin/login/", "ana", PASSWORD)
    assert response.status_code == 429


def test_another_account_and_another_address_are_not_locked(client, ana, bia):
    for _ in range(15):
        _login(client, "/accounts/login/", "ana", "wrong-password")
    # the same address, another account
    response = _login(client, "/accounts/login/", "bia", PASSWORD)
    assert response.status_code == 302 and _logged_in(client)
    client.logout()
    # the same account, another address
    response = _login(client, "/accounts/login/", "ana", PASSWORD, address="10.9.8.7")
    assert response.status_code == 302 and _logged_in(client)
    client.logout()
    # and from the first address, still refused
    assert _login(client, "/accounts/login/", "ana", PASSWORD).status_code == 429


def test_a_few_mistakes_then_the_right_password_logs_in_and_clears_the_count(client, ana):
    for _ in range(4):
        _login(client, "/accounts/login/", "ana", "wrong-password")
    response = _login(client, "/accounts/login/", "ana", PASSWORD)
    assert response.status_code == 302 and _logged_in(client)
    client.logout()
    for _ in range(4):  # the count started again
        _login(client, "/accounts/login/", "ana", "wrong-password")
    assert _login(client, "/accounts/login/", "ana", PASSWORD).status_code == 302


# ----------------------------------------------------------------- room creation


def _create(client, **extra):
    data = {"preset": "parceria", "visibility": "private", "move_seconds": "30", **extra}
    return client.post("/rooms/", data)


def test_an_account_opens_at_most_the_limit_of_rooms_in_ten_minutes(client, ana, settings):
    settings.ROOM_CREATE_LIMIT = 3
    client.force_login(ana)
    for _ in range(3):
        assert _create(client).status_code == 302
    response = _create(client, name="Mais uma")
    assert response.status_code == 429
    assert "Você pode abrir 3 mesas a cada 10 minutos" in response.content.decode()
    assert Room.objects.count() == 3
    # JSON says the same, with the protocol's code
    response = client.post(
        "/rooms/",
        json.dumps({"preset": "parceria", "visibility": "private"}),
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 429
    body = response.json()
    assert body["error"] == "rate_limited"
    assert body["errors"]["__all__"] == [
        "You may open 3 tables every 10 minutes: wait a little before opening another."
    ]
    # ten minutes later the oldest ones no longer count
    Room.objects.update(created_at=timezone.now() - timedelta(minutes=11))
    assert _create(client).status_code == 302


def test_a_guest_is_limited_by_its_cookie_and_others_are_not(client, ana, settings):
    settings.ROOM_CREATE_LIMIT = 2
    for _ in range(2):
        assert _create(client, play_alone="1").status_code == 302  # the first sets the cookie
    assert _create(client, play_alone="1").status_code == 429
    assert Room.objects.count() == 2
    # an account on the same address is someone else
    client.cookies.clear()
    client.force_login(ana)
    assert _create(client).status_code == 302
