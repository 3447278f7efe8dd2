"""Text that is not valid Unicode (a lone surrogate from a JSON body, or the
replacement characters a form post leaves of undecodable bytes) is refused by
the forms with a translated message, and nothing is written."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from domino_site.forms import AdminLoginForm, LoginForm, SignupForm
from rooms.forms import CreateRoomForm
from rooms.models import Room

pytestmark = pytest.mark.django_db

SURROGATE = "\ud800"


def _json_create(client, name: str, **headers):
    # json.dumps escapes a surrogate ("\\ud800"), as a hostile client would send it.
    body = json.dumps({"name": name, "preset": "parceria", "visibility": "public"})
    return client.post("/rooms/", body, content_type="application/json", **headers)


def test_a_lone_surrogate_in_a_json_room_name_is_refused_and_creates_nothing(client, make_user):
    client.force_login(make_user("ana"))
    client.raise_request_exception = False
    response = _json_create(client, SURROGATE)
    assert response.status_code == 400
    body = response.json()
    assert body["error"] == "bad_message"
    assert body["errors"]["name"] == ["Este texto contém caracteres inválidos. Digite-o novamente."]
    assert not Room.objects.exists()


def test_the_same_refusal_in_english(client, make_user):
    client.force_login(make_user("ana"))
    response = _json_create(client, "Mesa \udfff da Ana", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json()["errors"]["name"] == [
        "This text contains characters that are not valid. Type it again."
    ]
    assert not Room.objects.exists()


def test_undecodable_bytes_in_a_form_post_are_refused_on_the_lobby_page(client, make_user):
    client.force_login(make_user("ana"))
    # UTF-8 of U+D800 is not valid UTF-8: Django decodes it as three U+FFFD.
    response = client.post(
        "/rooms/",
        "name=%ED%A0%80&preset=parceria&visibility=public",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200  # the lobby again, the error beside the field
    assert "Este texto contém caracteres inválidos" in response.content.decode()
    assert not Room.objects.exists()


@pytest.mark.parametrize("name", ["Mesa\nda Ana", "Mesa\x1b[31m", "\ud800"])
def test_the_create_form_refuses_control_characters_and_surrogates(name):
    form = CreateRoomForm({"name": name, "preset": "parceria", "visibility": "public"})
    assert not form.is_valid()
    assert "name" in form.errors


def test_a_room_name_with_accents_and_emoji_is_fine(client, make_user):
    client.force_login(make_user("ana"))
    response = _json_create(client, "Mesa da Conceição 🁣")
    assert response.status_code == 302
    assert Room.objects.get().name == "Mesa da Conceição 🁣"


def test_the_sign_up_form_refuses_a_surrogate_in_the_name_or_the_password(db):
    with translation.override("en"):
        form = SignupForm(
            {
                "username": "ana" + SURROGATE,
                "password1": "s3nha-longa!",
                "password2": "s3nha-longa!",
            }
        )
        assert not form.is_valid()
        assert (
            "This text contains characters that are not valid. Type it again."
            in (form.errors["username"])
        )
        password = "s3nha-longa!" + SURROGATE
        form = SignupForm({"username": "ana", "password1": password, "password2": password})
        assert not form.is_valid()
        assert "password1" in form.errors
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.exists()


def test_sign_up_with_undecodable_bytes_creates_no_account(client):
    response = client.post(
        "/accounts/signup/",
        "username=ana%ED%A0%80&password1=s3nha-longa!&password2=s3nha-longa!",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.exists()


@pytest.mark.parametrize("form_class", [LoginForm, AdminLoginForm])
def test_the_login_forms_refuse_a_surrogate_without_asking_the_database(rf, form_class):
    request = rf.post("/accounts/login/")
    form = form_class(request, data={"username": SURROGATE, "password": "x"})
    assert not form.is_valid()
    assert "username" in form.errors
