"""A copy of one's data (docs/site.md, "Your data (LGPD)"): ``GET
/accounts/export/`` gives a signed-in person one JSON file to download with
everything the site keeps about them: their matches and the finished rounds
they may see, as the round's JSON gives them, and no tile of a round still in
play (nobody's hand), nothing of matches they did not play, their friends,
blocks, challenges, the reports they made (never those about them), puzzles,
settings, sessions. It is limited per account (``PRIVACY_EXPORT_LIMIT``)."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts import services as accounts
from people import services as people
from people.moderation import report_make
from privacy.models import DataRequest
from tests.privacy.conftest import LEAVER, OPPONENT

pytestmark = pytest.mark.django_db


def _export(user) -> tuple[dict, object]:
    client = Client()
    client.force_login(user)
    response = client.get("/accounts/export/")
    assert response.status_code == 200, response.content[:300]
    return json.loads(response.content), response


def test_the_copy_is_one_json_file_to_download_with_the_account(played):
    data, response = _export(played["leaver"])
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith("attachment; filename=")
    assert data["account"]["username"] == LEAVER
    assert data["account"]["date_joined"]
    for section in (
        "email_addresses",
        "email_history",
        "sessions",
        "ratings",
        "rating_history",
        "matches",
        "friends",
        "blocks",
        "challenges",
        "reports_made",
        "settings",
        "puzzles",
    ):
        assert section in data, section
    assert (
        DataRequest.objects.filter(user=played["leaver"], kind="export", source="site").count() == 1
    )


def test_the_copy_has_ones_own_matches_and_none_of_the_others(played):
    data, _ = _export(played["leaver"])
    rooms = {m["room"] for m in data["matches"]}
    assert rooms == {played["finished"].code, played["playing"].code}
    assert played["others"].code not in json.dumps(data)
    finished = next(m for m in data["matches"] if m["room"] == played["finished"].code)
    rnd = finished["rounds"][0]
    assert rnd["deal"]["hands"] and rnd["moves"]  # as the round's JSON gives it to a player
    assert [p["name"] for p in rnd["players"]] == [LEAVER, OPPONENT]


def test_the_copy_shows_no_tile_of_a_round_still_in_play(played):
    live = played["current"]
    assert live.number == 2 and live.finished_at is None
    data, _ = _export(played["leaver"])
    playing = next(m for m in data["matches"] if m["room"] == played["playing"].code)
    in_play = next(r for r in playing["rounds"] if r["number"] == live.number)
    assert in_play == {"number": live.number, "finished": False}  # no hand, no move, no deal
    assert "boneyard" not in json.dumps(data)


def test_the_copy_has_the_reports_made_and_not_those_about_the_person(played, make_user):
    leaver, opponent = played["leaver"], played["opponent"]
    people.friend_request_send(sender=leaver, recipient=opponent)
    people.friend_request_accept(user=opponent, sender=leaver)
    rude = make_user("grosseirao")
    people.block(blocker=leaver, blocked=rude)
    people.block(blocker=make_user("zefa"), blocked=leaver)  # somebody else's, not the leaver's
    # a report needs a match played together (docs/site.md): the two of the table
    report_make(reporter=leaver, reported=opponent, reason="name", note="um nome feio")
    report_make(reporter=opponent, reported=leaver, reason="stalling", note="segredo do outro")
    data, _ = _export(leaver)
    assert [f["name"] for f in data["friends"]] == [OPPONENT]
    assert [b["name"] for b in data["blocks"]] == ["grosseirao"]
    assert [(r["about"], r["note"]) for r in data["reports_made"]] == [(OPPONENT, "um nome feio")]
    assert "segredo do outro" not in json.dumps(data)


def test_copies_past_the_limit_are_refused_with_a_clear_page(played, settings):
    settings.PRIVACY_EXPORT_LIMIT = 1
    client = Client()
    client.force_login(played["leaver"])
    assert client.get("/accounts/export/").status_code == 200
    refused = client.get("/accounts/export/")
    assert refused.status_code == 429
    assert "Content-Disposition" not in refused
    assert b'role="alert"' in refused.content


def test_a_visitor_not_signed_in_is_sent_to_sign_in(client):
    response = client.get("/accounts/export/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_copy_has_the_email_addresses_their_history_and_the_sessions(played):
    """The accounts' part: the confirmed address, the one replaced before it,
    the mail written (never its body) and the signed-in sessions, masked."""
    leaver = played["leaver"]
    first = accounts.email_add(user=leaver, email="velho@example.com", language="pt-br")
    accounts.email_confirm(token=accounts.confirm_token(first))
    second = accounts.email_add(user=leaver, email="novo@example.com", language="pt-br")
    accounts.email_confirm(token=accounts.confirm_token(second))
    client = Client(
        REMOTE_ADDR="203.0.113.9", HTTP_USER_AGENT="Mozilla/5.0 (X11; Linux) Firefox/120.0"
    )
    client.force_login(leaver)
    client.get("/conta/")  # the session is recorded
    data = json.loads(client.get("/accounts/export/").content)
    assert [(a["email"], a["state"]) for a in data["email_addresses"]] == [
        ("novo@example.com", "confirmed")
    ]
    assert [(a["email"], a["state"]) for a in data["email_history"]] == [
        ("velho@example.com", "replaced"),
        ("novo@example.com", "confirmed"),
    ]
    assert {m["to"] for m in data["mail"]} >= {"velho@example.com", "novo@example.com"}
    (session,) = data["sessions"]
    assert session["address"].startswith("203.0.113.") and "9" not in session["address"][-2:]
    assert client.session.session_key not in json.dumps(data)
