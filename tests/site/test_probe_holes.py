"""Holes an attacker's probe found over HTTP (docs/rated-play.md, "Holes"):
deeply nested JSON, unlimited room creation, misleading names (rooms, arenas,
accounts)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from arenas.models import Arena
from domino_site.client_ip import ip_hash
from rooms.models import Room

pytestmark = pytest.mark.django_db

NESTED = "[" * 5000 + "]" * 5000


@pytest.mark.parametrize("debug", [True, False])
def test_a_deeply_nested_json_body_is_a_bad_message(client, make_user, settings, debug):
    settings.DEBUG = debug
    client.raise_request_exception = False
    client.force_login(make_user("ana"))
    response = client.post("/rooms/", NESTED, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"] == "bad_message"
    assert not Room.objects.exists()


# ------------------------------------------------------------ room creation per address


def _solo(address: str):
    """A client with no cookies at all asks for a solo table from ``address``."""
    data = {"preset": "parceria", "play_alone": "1", "bot_level": "hard"}
    return Client(REMOTE_ADDR=address).post("/rooms/", data)


def test_cookie_less_solo_tables_are_capped_per_address(settings):
    settings.SOLO_TABLES_PER_ADDRESS = 3
    answers = [_solo("203.0.113.5").status_code for _ in range(12)]
    assert answers == [302] * 3 + [429] * 9
    assert Room.objects.count() == 3
    assert _solo("198.51.100.9").status_code == 302  # another address is someone else
    # A table its people left is paused by the sweeper: its bots cost nothing.
    Room.objects.filter(created_ip_hash=ip_hash("203.0.113.5")).update(
        paused=True, paused_by="empty"
    )
    assert _solo("203.0.113.5").status_code == 302


def test_cookie_less_room_creation_is_limited_per_address(settings):
    settings.ROOM_CREATE_LIMIT_PER_ADDRESS = 5
    data = {"preset": "duelo", "visibility": "private"}
    answers = [
        Client(REMOTE_ADDR="203.0.113.6").post("/rooms/", data).status_code for _ in range(8)
    ]
    assert answers == [302] * 5 + [429] * 3
    assert Room.objects.count() == 5


def test_sign_ups_are_limited_per_address(settings):
    settings.SIGNUP_LIMIT_PER_ADDRESS = 2
    User = get_user_model()

    def sign_up(name: str, address: str = "203.0.113.7"):
        data = {
            "username": name,
            "password1": "dominó-secreto-42",
            "password2": "dominó-secreto-42",
        }
        return Client(REMOTE_ADDR=address).post("/accounts/signup/", data)

    assert sign_up("ana").status_code == 302
    assert sign_up("bia").status_code == 302
    refused = sign_up("carla")
    assert refused.status_code == 429
    assert not User.objects.filter(username="carla").exists()
    assert sign_up("carla", "198.51.100.8").status_code == 302


# ------------------------------------------------------------------ misleading names


@pytest.mark.parametrize(
    "name",
    [
        "Mesa \u202eazul",  # right-to-left override
        "Mesa \u2066azul\u2069",  # bidi isolate
        "Me\u200bsa",  # zero-width space
        "Mesa\u200f",  # right-to-left mark
        "Mesa\u2060",  # word joiner
        "\u3164",  # Hangul filler: an invisible letter
    ],
)
def test_a_room_name_with_bidi_or_invisible_characters_is_refused(client, make_user, name):
    client.force_login(make_user("ana"))
    data = {"name": name, "preset": "parceria", "visibility": "public"}
    response = client.post("/rooms/", json.dumps(data), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["errors"]["name"]
    assert not Room.objects.exists()


def test_a_room_name_with_an_emoji_sequence_is_fine(client, make_user):
    client.force_login(make_user("ana"))
    data = {"name": "Família 👨\u200d👩\u200d👧", "preset": "parceria", "visibility": "public"}
    response = client.post("/rooms/", json.dumps(data), content_type="application/json")
    assert response.status_code == 302


def _create(client, name: str):
    data = {"name": name, "preset": "parceria", "visibility": "public"}
    body = json.dumps(data)
    return client.post("/rooms/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")


@pytest.mark.parametrize(
    "name",
    [
        "Mesa\u2028da Ana",  # line separator
        "Mesa\u2029da Ana",  # paragraph separator
        "Mesa\x85da Ana",  # next line (NEL)
        "Mesa\x0bda Ana",  # vertical tab
    ],
)
def test_a_room_name_is_one_line(client, make_user, name):
    client.force_login(make_user("ana"))
    response = _create(client, name)
    assert response.status_code == 400
    assert response.json()["errors"]["name"] == [
        "Use letters, digits, spaces and punctuation only."
    ]
    assert not Room.objects.exists()


INVISIBLE = "Names may not hold invisible or direction-changing characters."


@pytest.mark.parametrize(
    "name",
    [
        "Mesa\ufe0f",  # the emoji selector after a letter
        "Me\ufe00sa",  # a text variation selector
        "Me\U000e0100sa",  # an ideographic variation selector
        "Me\u200dsa",  # a zero-width joiner between letters
        "Mesa 👨\u200da",  # ... between an emoji and a letter
        "Mesa a\u200d👩",
        "Mesa 👨\u200d",  # ... with nothing after it
    ],
)
def test_variation_selectors_and_joiners_are_refused_outside_emoji(client, make_user, name):
    client.force_login(make_user("ana"))
    response = _create(client, name)
    assert response.status_code == 400
    assert response.json()["errors"]["name"] == [INVISIBLE]
    assert not Room.objects.exists()


@pytest.mark.parametrize(
    "name",
    [
        "Mesa ❤️",  # a heart in emoji presentation
        "Mesa 1️⃣",  # a keycap
        "Mesa ‼️",  # an emoji base that is punctuation
        "🏳️\u200d🌈",  # a joined sequence with selectors
        "👩🏽\u200d💻",  # ... with a skin tone
        "❤️\u200d🔥",
    ],
)
def test_emoji_keep_their_selectors_and_joiners(client, make_user, name):
    client.force_login(make_user("ana"))
    assert _create(client, name).status_code == 302
    assert Room.objects.get().name == name


@pytest.mark.parametrize(
    "name",
    [
        "Ze\u0301\u0302\u0303ca",  # three marks on one letter
        "Z\u0336\u0335\u0334\u0337\u0338alg\u0361\u035co",
        "Ph\u1edf\u0301",  # a precomposed letter with two marks, and a third
    ],
)
def test_marks_stacked_past_two_on_a_letter_are_refused(client, make_user, name):
    client.force_login(make_user("ana"))
    response = _create(client, name)
    assert response.status_code == 400
    assert response.json()["errors"]["name"] == ["A letter may carry two accents or marks at most."]
    assert not Room.objects.exists()


@pytest.mark.parametrize(
    "name",
    [
        "Mesa do João",
        "ação",
        "Phở",
        "Pho\u031b\u0309",  # the same, decomposed: two marks
        "Tiếng Việt",
    ],
)
def test_accented_names_are_fine(client, make_user, name):
    client.force_login(make_user("ana"))
    assert _create(client, name).status_code == 302


def test_an_arena_name_follows_the_room_names_rules(client, make_user):
    """An arena's name is its tables' name."""
    client.force_login(make_user("ana"))
    data = {"preset": "duelo", "minutes": 30, "starts_in": 5, "move_seconds": ""}
    for name in ("Are\u2028na", "A\u200drena", "Are\u0301\u0301\u0301na"):
        refused = client.post("/torneios/novo/", {**data, "name": name})
        assert refused.status_code == 200 and refused.context["form"].errors["name"]
    assert not Arena.objects.exists()
    assert client.post("/torneios/novo/", {**data, "name": "Arena do João ❤️"}).status_code == 302


def _sign_up(name: str, **headers):
    password = "dominó-secreto-42"
    data = {"username": name, "password1": password, "password2": password}
    return Client().post("/accounts/signup/", data, **headers)


@pytest.mark.parametrize(
    "name", ["an\u2028a", "an\ufe0fa", "an\u200da", "ana\U000e0100", "a\u0301\u0301\u0301na"]
)
def test_usernames_follow_the_room_names_rules(name):
    response = _sign_up(name)
    assert response.status_code == 200  # the form again, with the reason
    assert response.context["form"].errors["username"]
    assert not get_user_model().objects.exists()


def test_an_accented_username_is_fine():
    assert _sign_up("João").status_code == 302


@pytest.mark.parametrize("lookalike", ["\u0430lice", "ALICE", "al\u200bice", "aIice"])
def test_a_username_confusable_with_an_existing_one_is_refused(make_user, lookalike):
    make_user("alice")
    response = _sign_up(lookalike)
    assert response.status_code == 200  # the form again, with the reason
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize(
    "lookalike",
    [
        "\u1d00lice",  # ᴀ: LATIN LETTER SMALL CAPITAL A
        "\u1d00\u029f\u026a\u1d04\u1d07",  # ᴀʟɪᴄᴇ: every letter a small capital
        "\uff21\uff2c\uff29\uff23\uff25",  # ＡＬＩＣＥ: fullwidth
        "\u1d2clice",  # ᴬ: MODIFIER LETTER CAPITAL A
        "\u1d2c\u1d38\u1d35\u1d9c\u1d31",  # ᴬᴸᴵᶜᴱ: modifier letters throughout
    ],
)
def test_small_capitals_and_compatibility_forms_count_as_their_letters(make_user, lookalike):
    """Django takes the compatibility forms to NFKC itself ("already exists");
    the small capitals are the skeleton's."""
    make_user("alice")
    response = _sign_up(lookalike)
    assert response.status_code == 200  # the form again, with the reason
    assert response.context["form"].errors["username"]
    assert get_user_model().objects.count() == 1


def test_a_small_capital_is_refused_as_a_lookalike(make_user):
    make_user("alice")
    response = _sign_up("\u1d00lice", HTTP_ACCEPT_LANGUAGE="en")
    assert response.context["form"].errors["username"] == [
        "This name looks like the name of another player: choose another one."
    ]


def test_an_existing_name_in_small_capitals_is_compared_the_same_way(make_user):
    make_user("\u1d00lice")
    assert _sign_up("alice").status_code == 200
    assert get_user_model().objects.count() == 1


def test_a_different_username_is_fine(make_user):
    make_user("alice")
    assert _sign_up("alicia").status_code == 302


# ------------------------------------------------------------------ password spraying


def _login(username: str, password: str, address: str):
    data = {"username": username, "password": password}
    return Client(REMOTE_ADDR=address).post("/accounts/login/", data)


def test_password_spraying_from_one_address_is_throttled(make_user, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 6
    victims = [make_user(f"victim{i}") for i in range(8)]
    make_user("zoe")
    # One guess each: no account reaches its own limit, but the address does.
    answers = [_login(v.username, "guess-1", "203.0.113.9").status_code for v in victims[:6]]
    assert answers == [200] * 5 + [429]
    refused = _login("zoe", "x", "203.0.113.9")  # the right password, from that address
    assert refused.status_code == 429
    assert "endereço" in refused.content.decode()
    assert _login("zoe", "x", "198.51.100.3").status_code == 302  # another address


def test_one_account_still_locks_at_its_own_limit(make_user, settings):
    settings.LOGIN_FAILURES_PER_ADDRESS = 50
    settings.LOGIN_FAILURES_PER_ACCOUNT = 3
    make_user("ana")
    make_user("bia")
    for _ in range(3):
        _login("ana", "nope", "203.0.113.10")
    assert _login("ana", "x", "203.0.113.10").status_code == 429
    assert _login("bia", "x", "203.0.113.10").status_code == 302  # other accounts are not
