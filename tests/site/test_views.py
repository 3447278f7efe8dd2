"""HTTP views of docs/protocol.md: lobby, create room, table, invite, JSON API,
profile, ranking and sign-up."""

from __future__ import annotations

import json
import re

import pytest
from django.http import HttpResponse
from django.test import Client

from domino_site.guests import GUEST_COOKIE, GUEST_SALT
from rooms import services
from rooms.models import Room, Seat
from tests.site.helpers import fresh, play_round, room_with_bots, seat

pytestmark = pytest.mark.django_db


def _code(response) -> str:
    match = re.fullmatch(r"/r/([A-Z0-9]+)/", response["Location"])
    assert match, response["Location"]
    return match.group(1)


def _guest_client(client, token: str):
    response = HttpResponse()
    response.set_signed_cookie(GUEST_COOKIE, token, salt=GUEST_SALT)  # as the views do
    client.cookies[GUEST_COOKIE] = response.cookies[GUEST_COOKIE].value
    return client


# ----------------------------------------------------------------------- lobby


def test_lobby_has_the_create_form_and_play_alone_hooks(client):
    html = client.get("/").content.decode()
    assert 'data-form="create-room"' in html
    assert 'data-action="play_alone"' in html
    assert 'id="lobby-boot"' in html
    boot = json.loads(re.search(r'id="lobby-boot"[^>]*>(.*?)</script>', html, re.S).group(1))
    # Every preset tells the form which options it allows (games.engine.PRESET_OPTIONS).
    assert boot["presets"]["parceria"]["options"] == ["target"]
    assert set(boot["presets"]["com_monte"]["options"]) == {
        "seats",
        "partnership",
        "hand_size",
        "scoring",
        "target",
    }
    assert boot["presets"]["duelo"]["options"] == []


def test_lobby_lists_public_rooms_with_a_connected_human(client, make_user, clock):
    room = room_with_bots(make_user("ana"), clock())
    services.seat_connected(room=room, index=0, channel_name="c0", now=clock())
    rows = client.get("/api/rooms/").json()
    assert [r["code"] for r in rows] == [room.code]
    assert rows[0]["seats_taken"] == 4 and rows[0]["bots"] == 3
    assert room.code in client.get("/").content.decode()


# ----------------------------------------------------------------- create room


def test_a_user_creates_a_public_room_with_options(client, make_user):
    client.force_login(make_user("ana"))
    response = client.post(
        "/rooms/",
        {"name": "Mesa da Ana", "preset": "parceria", "visibility": "public", "move_seconds": "20",
         "target": "100"},
    )  # fmt: skip
    assert response.status_code == 302
    room = Room.objects.get(code=_code(response))
    assert (room.name, room.visibility, room.move_seconds) == ("Mesa da Ana", "public", 20)
    assert room.rules["target"] == 100
    assert seat(room, 0).user.username == "ana"


def test_options_the_preset_does_not_allow_are_ignored(client, make_user):
    client.force_login(make_user())
    response = client.post(
        "/rooms/", {"preset": "parceria", "visibility": "public", "seats": "2", "hand_size": "3"}
    )
    room = Room.objects.get(code=_code(response))
    assert room.rules["seats"] == 4 and room.rules["hand_size"] == 7


def test_invalid_rules_are_shown_next_to_their_field(client, make_user):
    client.force_login(make_user())
    response = client.post(
        "/rooms/", {"preset": "parceria", "visibility": "public", "target": "500"}
    )
    assert response.status_code == 200  # the lobby again, not a failed request
    html = response.content.decode()
    field = re.search(r'<div class="field has-error" data-option="target">.*?</div>', html, re.S)
    assert field and "field-error" in field.group(0)
    assert Room.objects.count() == 0


def test_hand_size_error_from_the_engine_names_the_field(client, make_user):
    client.force_login(make_user())
    response = client.post(
        "/rooms/",
        {"preset": "com_monte", "visibility": "public", "seats": "4", "hand_size": "7"},
    )
    assert response.status_code == 200
    assert 'class="field has-error" data-option="hand_size"' in response.content.decode()


def test_a_guest_cannot_open_a_public_room(client):
    response = client.post("/rooms/", {"preset": "parceria", "visibility": "public"})
    assert response.status_code == 200
    assert "field-error" in response.content.decode()
    assert Room.objects.count() == 0


def test_play_alone_makes_a_private_room_with_bots_that_deals_on_its_persons_seed(client):
    response = client.post(
        "/rooms/", {"preset": "parceria", "bot_level": "hard", "play_alone": "1"}
    )
    assert response.status_code == 302
    room = Room.objects.get(code=_code(response))
    assert room.visibility == "private"
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    assert seats[0].kind == "human" and seats[0].guest_token
    assert [(s.kind, s.bot_level) for s in seats[1:]] == [("bot", "hard")] * 3
    # The guest cookie binds this browser to seat 0.
    assert response.cookies[GUEST_COOKIE]["httponly"]
    # Nothing is dealt before the page has seen the commitment and sent its seed.
    assert room.status == "waiting" and room.start_on_seeds
    boot = client.get(response["Location"]).context["boot"]
    assert boot["snapshot"]["you"]["seat"] == 0 and boot["snapshot"]["round"] is None
    assert boot["snapshot"]["room"]["start_on_seeds"]

    services.seat_seed(room=room, actor=seats[0], value="c0ffee")
    boot = client.get(response["Location"]).context["boot"]
    assert boot["snapshot"]["room"]["status"] == "playing"
    assert len(boot["snapshot"]["round"]["hand"]) == 7
    assert boot["snapshot"]["round"]["fair"]["client_seeds"] == ["c0ffee"]


def test_create_room_as_json(client, make_user):
    client.force_login(make_user())
    response = client.post(
        "/rooms/",
        json.dumps({"preset": "duelo", "visibility": "private", "move_seconds": None}),
        content_type="application/json",
    )
    assert response.status_code == 302
    body = response.json()
    assert response["Location"] == body["url"] == f"/r/{body['code']}/"
    assert Room.objects.get(code=body["code"]).move_seconds is None


# ------------------------------------------------------------------------ table


def test_table_page_renders_the_viewers_snapshot(client, make_user, clock):
    user = make_user()
    room = room_with_bots(user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    client.force_login(user)
    response = client.get(f"/r/{room.code}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "data-table" in html and 'data-panel="result"' in html
    snapshot = response.context["boot"]["snapshot"]
    assert snapshot["you"] == {"seat": 0, "is_host": True, "side": 0}
    assert len(snapshot["round"]["hand"]) == 7
    # The page's script strings come translated (pt-BR by default).
    assert response.context["strings"]["Pass"] == "Passar"


def test_public_table_asks_anonymous_visitors_to_log_in(client, make_user, clock):
    room = room_with_bots(make_user(), clock())
    response = client.get(f"/r/{room.code}/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_a_private_table_answers_strangers_as_an_unknown_code(client, make_user, clock):
    room = services.room_create(
        user=make_user(), name="Duelo", preset="duelo", visibility="private", now=clock()
    )
    client.force_login(make_user())
    stranger = client.get(f"/r/{room.code}/")
    unknown = client.get("/r/NOPE2345/")
    assert stranger.status_code == unknown.status_code == 404
    assert stranger.content == unknown.content.replace(b"NOPE2345", room.code.encode())
    services.room_close(room=room, reason="admin")
    assert client.get(f"/r/{room.code}/").status_code == 404  # closed: still not a 410


def test_unknown_and_closed_tables(client, make_user, clock):
    assert client.get("/r/NOPE1234/").status_code == 404
    room = room_with_bots(make_user(), clock())
    services.room_close(room=room, reason="admin")
    assert client.get(f"/r/{room.code}/").status_code == 410


# ----------------------------------------------------------------------- invite


def test_invite_seats_a_guest_and_returns_them_to_the_same_seat(client, make_user, clock):
    host = make_user()
    room = services.room_create(
        user=host, name="Duelo", preset="duelo", visibility="private", now=clock()
    )
    response = client.post(room.invite_path)
    assert response.status_code == 302 and response["Location"] == f"/r/{room.code}/"
    assert response.cookies[GUEST_COOKIE]["httponly"]
    guest = seat(room, 1)
    assert guest.kind == "human" and guest.guest_token
    # Same browser again: same seat, no new cookie needed (opening the link too).
    again = client.post(room.invite_path)
    assert again["Location"] == f"/r/{room.code}/"
    assert client.get(room.invite_path)["Location"] == f"/r/{room.code}/"
    assert Seat.objects.filter(room=room, kind="human").count() == 2
    assert client.get(f"/r/{room.code}/").context["boot"]["snapshot"]["you"]["seat"] == 1


def test_opening_an_invite_only_shows_the_table_and_asks_to_sit(client, make_user, clock):
    """A GET changes nothing (a link opened from another site carries the
    session cookie too): the page shows the table and a form that POSTs."""
    room = services.room_create(
        user=make_user("ana"), name="Duelo", preset="duelo", visibility="private", now=clock()
    )
    victim = make_user("bia")
    client.force_login(victim)
    before = fresh(room).version
    page = client.get(room.invite_path)
    assert page.status_code == 200
    assert b'data-action="sit"' in page.content and b"csrfmiddlewaretoken" in page.content
    assert seat(room, 1).is_empty and fresh(room).version == before
    assert GUEST_COOKIE not in page.cookies
    # A guest's GET neither seats nor hands out a seat cookie.
    guest = type(client)()
    assert guest.get(room.invite_path).status_code == 200
    assert seat(room, 1).is_empty and GUEST_COOKIE not in guest.cookies


def test_sitting_by_invite_needs_the_csrf_token(make_user, clock):
    room = services.room_create(
        user=make_user("ana"), name="Duelo", preset="duelo", visibility="private", now=clock()
    )
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(make_user("bia"))
    assert browser.post(room.invite_path).status_code == 403
    assert seat(room, 1).is_empty
    page = browser.get(room.invite_path)
    token = page.context["csrf_token"]
    assert browser.post(room.invite_path, {"csrfmiddlewaretoken": token}).status_code == 302
    assert seat(room, 1).user.username == "bia"


def test_invite_to_a_full_room_or_an_unknown_token(client, make_user, clock):
    room = services.room_create(
        user=make_user(), name="Duelo", preset="duelo", visibility="private", now=clock()
    )
    _guest_client(client, "first-guest").post(room.invite_path)
    other = type(client)()
    assert _guest_client(other, "second-guest").get(room.invite_path).status_code == 409
    assert _guest_client(other, "second-guest").post(room.invite_path).status_code == 409
    assert client.get("/i/not-a-token/").status_code == 404
    assert client.post("/i/not-a-token/").status_code == 404


def test_a_logged_in_user_takes_the_invite_seat(client, make_user, clock):
    room = services.room_create(
        user=make_user(), name="Duelo", preset="duelo", visibility="private", now=clock()
    )
    bia = make_user("bia")
    client.force_login(bia)
    client.post(room.invite_path)
    assert seat(room, 1).user == bia


# ---------------------------------------------------------------- round replay


def test_round_replay_is_forbidden_while_played_then_served(client, make_user, clock):
    user = make_user()
    room = room_with_bots(user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    url = f"/api/rooms/{room.code}/rounds/1/"
    client.force_login(user)
    assert client.get(url).status_code == 403
    play_round(room, clock())
    body = client.get(url).json()
    assert body["number"] == 1 and body["deal"]["hands"]
    assert body["moves"] and body["result"]["reason"] in ("domino", "blocked")
    assert client.get(f"/api/rooms/{room.code}/rounds/9/").status_code == 404


# ---------------------------------------------------------------------- accounts


def test_sign_up_logs_the_new_player_in(client, django_user_model):
    response = client.post(
        "/accounts/signup/",
        {"username": "novo", "password1": "pedra-seis-seis", "password2": "pedra-seis-seis"},
    )
    assert response.status_code == 302 and response["Location"] == "/"
    assert django_user_model.objects.filter(username="novo").exists()
    assert 'data-action="logout"' in client.get("/").content.decode()


def test_sign_up_shows_errors(client):
    response = client.post(
        "/accounts/signup/", {"username": "x", "password1": "a", "password2": "b"}
    )
    assert response.status_code == 200
    assert "errorlist" in response.content.decode()


def test_header_links_and_language_switch(client):
    html = client.get("/").content.decode()
    for href in ("/ranking/", "/accounts/login/", "/accounts/signup/", "/i18n/setlang/"):
        assert href in html
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Play alone against the computer" in english
    assert "Jogar sozinho contra o computador" in client.get("/").content.decode()


def test_the_move_clock_choices_speak_the_pages_language(client):
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    portuguese = client.get("/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert ">30 seconds<" in english and "segundos" not in english
    assert ">30 segundos<" in portuguese
