"""Deleting one's account (docs/site.md, "Your data (LGPD)"; docs/rated-play.md,
"A removed account"): ``POST /accounts/delete/`` with the password and the
confirmation. The account can no longer sign in; its name, sessions, friends,
blocks, presence and settings are erased; its place in the other people's
matches stays as "Jogador removido" ("Removed player") on the replay, the
round's JSON, the ranking and the admin, and nobody else's rating changes; a
match in play is left as a leave is; the name cannot be signed up again for
90 days. A wrong password, no confirmation or 5,000 characters change nothing."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts import services as accounts
from accounts.models import EmailAddress, OutgoingMail, SessionRecord
from games.models import Round
from games.world import world
from people import services as people
from people.models import Block, Friendship, Preferences, Presence
from people.moderation import sanction_apply
from privacy.models import DataRequest, HeldName
from records.models import Cooldown, Rating, RatingChange
from rooms.models import Seat
from tests.privacy.conftest import LEAVER, OPPONENT
from tests.site.helpers import seat
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db

User = get_user_model()


def _signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _can_sign_in(name: str, password: str = "x") -> bool:
    """Through the login page (django-axes wants the request)."""
    response = Client().post("/accounts/login/", {"username": name, "password": password})
    return response.status_code == 302


def _delete(client: Client, **data) -> object:
    return client.post(
        "/accounts/delete/", {"password": "x", "confirm": "on", **data}, HTTP_ACCEPT_LANGUAGE="en"
    )


def test_the_page_says_what_a_deletion_does(played):
    page = _signed_in(played["leaver"]).get("/accounts/delete/", HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Removed player" in text and 'name="password"' in text and 'name="confirm"' in text


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"password": "wrong"}, "This is not your password."),
        ({"confirm": ""}, "Tick the box to confirm the deletion."),
        ({"password": "x" * 5000}, "at most 1024 characters"),
    ],
    ids=["wrong password", "no confirmation", "5,000 characters"],
)
def test_a_deletion_without_the_password_or_the_confirmation_changes_nothing(played, data, error):
    leaver = played["leaver"]
    client = _signed_in(leaver)
    response = _delete(client, **data)
    assert response.status_code == 400
    assert error in response.content.decode()
    leaver.refresh_from_db()
    assert leaver.username == LEAVER and leaver.is_active and leaver.has_usable_password()
    assert not HeldName.objects.exists() and not DataRequest.objects.exists()
    assert _can_sign_in(LEAVER)
    assert client.get("/accounts/export/").status_code == 200  # still signed in


def test_after_a_deletion_the_account_cannot_sign_in_and_its_sessions_are_gone(played):
    leaver = played["leaver"]
    elsewhere = _signed_in(leaver)  # another browser, signed in
    client = _signed_in(leaver)
    response = _delete(client)
    assert response.status_code == 302 and response["Location"] == "/accounts/deleted/"
    assert client.get("/accounts/export/").status_code == 302  # signed out
    assert elsewhere.get("/accounts/export/").status_code == 302  # that one too
    assert not _can_sign_in(LEAVER)
    leaver.refresh_from_db()
    assert not _can_sign_in(leaver.username)
    assert leaver.username == f"Jogador removido {leaver.pk}" and not leaver.is_active
    assert not leaver.has_usable_password() and leaver.email == ""
    record = DataRequest.objects.get(user=leaver)
    assert record.kind == "deletion" and record.source == "site" and record.done_at


def test_after_a_deletion_friends_blocks_presence_and_settings_are_erased(played, make_user):
    leaver, opponent = played["leaver"], played["opponent"]
    people.friend_request_send(sender=leaver, recipient=opponent)
    people.friend_request_accept(user=opponent, sender=leaver)
    people.block(blocker=leaver, blocked=make_user("grosseirao"))
    Preferences.objects.create(user=leaver, challenges="nobody")
    people.presence_open(user=leaver, channel_name="test.leaver", room_code="")
    assert _delete(_signed_in(leaver)).status_code == 302
    assert not Friendship.objects.exists()
    assert not Block.objects.filter(blocker=leaver).exists()
    assert not Presence.objects.filter(user=leaver).exists()
    assert not Preferences.objects.filter(user=leaver).exists()


def test_the_others_see_removed_player_on_the_replay_the_round_json_and_the_admin(
    played, django_user_model
):
    leaver, opponent, room = played["leaver"], played["opponent"], played["finished"]
    ratings_before = list(Rating.objects.filter(user=opponent).values())
    changes_before = list(RatingChange.objects.filter(user=opponent).values())
    assert _delete(_signed_in(leaver)).status_code == 302

    viewer = _signed_in(opponent)  # pt-BR, the default language
    replay = viewer.get(f"/r/{room.code}/rounds/1/")
    assert replay.status_code == 200
    assert "Jogador removido" in replay.content.decode() and LEAVER not in replay.content.decode()
    round_json = viewer.get(f"/api/rooms/{room.code}/rounds/1/")
    names = [p["name"] for p in json.loads(round_json.content)["players"]]
    assert names == ["Jogador removido", OPPONENT]
    english = viewer.get(f"/api/rooms/{room.code}/rounds/1/", HTTP_ACCEPT_LANGUAGE="en")
    assert LEAVER not in english.content.decode()

    for table in (room, played["playing"]):  # the tables' pages, the forfeit's "X left" too
        page = viewer.get(f"/r/{table.code}/")
        assert page.status_code == 200 and LEAVER not in page.content.decode(), table.code
    forfeit = viewer.get(f"/r/{played['playing'].code}/").content.decode()
    assert "Jogador removido" in forfeit

    profile = viewer.get(f"/players/{OPPONENT}/")
    assert profile.status_code == 200 and LEAVER not in profile.content.decode()
    assert viewer.get(f"/players/{LEAVER}/").status_code == 404
    ranking = viewer.get("/ranking/").content.decode()
    assert LEAVER not in ranking

    admin = Client()
    sign_in_verified(
        admin, django_user_model.objects.create_superuser("chefe", "c@example.com", "x")
    )
    rnd = Round.objects.get(room=room, number=1)
    for url in (
        "/admin/auth/user/",
        f"/admin/games/round/{rnd.pk}/change/",
        "/admin/records/ratingchange/",
    ):
        page = admin.get(url)
        assert page.status_code == 200, url
        assert "Jogador removido" in page.content.decode(), url
        assert LEAVER not in page.content.decode(), url

    # The finished match's history stays as it was; the only new change is the
    # forfeit of the match left in play (docs/rated-play.md, "A removed account").
    playing = played["playing"].matches.get()
    kept = RatingChange.objects.filter(user=opponent).exclude(match=playing)
    assert list(kept.values()) == changes_before
    assert all(r["matches"] >= 1 for r in ratings_before)
    assert Rating.objects.filter(user=leaver).exists()  # its place in the ratings stays


def test_a_match_in_play_is_left_as_a_leave_is(played):
    leaver, room = played["leaver"], played["playing"]
    assert _delete(_signed_in(leaver)).status_code == 302
    match = room.matches.get()  # at two seats a leave ends the match: the other side wins
    assert match.over and match.winner == 1 and match.ended_by == "abandono"
    assert seat(room, 0).user is None and seat(room, 1).user == played["opponent"]
    assert Cooldown.objects.filter(user=leaver, reason="left").exists()  # the rulebook's forfeit
    assert not Seat.objects.filter(user=leaver, display_name=LEAVER).exists()


def test_the_name_cannot_be_signed_up_again_for_90_days(played):
    assert _delete(_signed_in(played["leaver"])).status_code == 302
    for name in (LEAVER, LEAVER.upper(), "anastac\u0456a"):  # Cyrillic і
        response = Client().post(
            "/accounts/signup/",
            {
                "username": name,
                "password1": "uma senha longa 123",
                "password2": "uma senha longa 123",
            },
            HTTP_ACCEPT_LANGUAGE="en",
        )
        assert response.status_code == 200, name
        assert not User.objects.filter(username=name).exists()
    held = HeldName.objects.get(name=LEAVER)
    assert held.until - world().now() > timedelta(days=89)
    held.until = world().now() - timedelta(seconds=1)  # the 90 days are over
    held.save()
    response = Client().post(
        "/accounts/signup/",
        {
            "username": LEAVER,
            "password1": "uma senha longa 123",
            "password2": "uma senha longa 123",
        },
    )
    assert response.status_code == 302 and User.objects.filter(username=LEAVER).exists()


def test_a_tombstone_look_alike_cannot_be_signed_up(client):
    for name in ("Jogador_removido", "RemovedPlayer7"):
        response = client.post(
            "/accounts/signup/",
            {
                "username": name,
                "password1": "uma senha longa 123",
                "password2": "uma senha longa 123",
            },
        )
        assert response.status_code == 200 and not User.objects.filter(username=name).exists()


def test_nobody_can_befriend_challenge_or_report_a_removed_account(played):
    leaver = played["leaver"]
    assert _delete(_signed_in(leaver)).status_code == 302
    leaver.refresh_from_db()
    viewer = _signed_in(played["opponent"])
    for action in ("request", "challenge", "report"):
        response = viewer.post(f"/friends/{leaver.username}/{action}/", {"reason": "other"})
        assert response.status_code == 404, action
    assert not leaver.friend_requests_received.exists()


def test_a_name_reset_cannot_pick_the_held_name_either(played, make_user, django_user_model):
    assert _delete(_signed_in(played["leaver"])).status_code == 302
    rude = make_user("palavrao")
    staff = django_user_model.objects.create_superuser("chefe", "c@example.com", "x")
    sanction_apply(user=rude, kind="name_reset", reason="ofensivo", by=staff)
    rude.refresh_from_db()
    client = _signed_in(rude)
    refused = client.post(
        "/moderation/name/", {"username": LEAVER.capitalize()}, HTTP_ACCEPT_LANGUAGE="en"
    )
    rude.refresh_from_db()
    assert rude.username.startswith("player-")
    assert (
        "removed recently"
        in client.get(refused["Location"], HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
    taken = client.post("/moderation/name/", {"username": "gentil"})
    assert taken["Location"] == "/players/gentil/"


def test_with_two_step_sign_in_the_deletion_asks_a_code_of_it_too(played):
    """An account that signs in in two steps gives a code of its app (or a
    recovery code) to be deleted; without it, or with a wrong one, nothing
    changes. The deletion forgets the app's key (docs/site.md, "Two-step
    sign-in")."""
    leaver = played["leaver"]
    device = TOTPDevice.objects.create(user=leaver, name="app", confirmed=True)
    client = _signed_in(leaver)
    assert 'name="code"' in client.get("/accounts/delete/").content.decode()
    for code in ("", "000000" if totp(device.bin_key) != 0 else "111111"):
        assert _delete(client, code=code).status_code == 400
        leaver.refresh_from_db()
        assert leaver.username == LEAVER and leaver.is_active
    device.refresh_from_db()
    device.throttle_reset()  # django-otp's back-off after the wrong code has passed
    response = _delete(client, code=f"{totp(device.bin_key):06d}")
    assert response.status_code == 302 and response["Location"] == "/accounts/deleted/"
    leaver.refresh_from_db()
    assert not leaver.is_active and not TOTPDevice.objects.filter(user=leaver).exists()


def test_a_deletion_erases_the_email_addresses_their_mail_and_recorded_sessions(played):
    leaver = played["leaver"]
    row = accounts.email_add(user=leaver, email="ana@example.com", language="pt-br")
    accounts.email_confirm(token=accounts.confirm_token(row))
    client = _signed_in(leaver)
    client.get("/conta/")  # a recorded session
    assert EmailAddress.objects.filter(user=leaver).exists()
    assert SessionRecord.objects.filter(user=leaver).exists()
    assert _delete(client).status_code == 302
    assert not EmailAddress.objects.filter(user=leaver).exists()
    assert not OutgoingMail.objects.filter(user=leaver).exists()
    assert not SessionRecord.objects.filter(user=leaver).exists()
    # the address is free for someone else
    assert accounts.email_add(user=played["opponent"], email="ANA@example.com", language="en")
