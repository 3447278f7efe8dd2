"""Django admin: lists with filters and search, read-only move logs, the round
replay page, and the action that closes rooms."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Match, Move, Round
from rooms import services
from rooms.models import Room
from tests.site.helpers import current, fresh, play_round, room_with_bots, seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    play_round(room, clock())
    return fresh(room)


@pytest.mark.parametrize(
    "model", ["rooms/room", "rooms/seat", "games/match", "games/round", "games/move"]
)
def test_changelists_with_filters_and_search(admin_client, played, model):
    url = f"/admin/{model}/"
    assert admin_client.get(url).status_code == 200
    response = admin_client.get(url, {"q": played.code})
    assert response.status_code == 200
    assert played.code in response.content.decode() or model == "games/move"
    assert admin_client.get(url, {"q": "ana"}).status_code == 200


def test_room_filters(admin_client, played):
    response = admin_client.get("/admin/rooms/room/", {"status__exact": "closed"})
    assert played.code not in response.content.decode()
    response = admin_client.get("/admin/rooms/room/", {"preset": "duelo"})
    assert played.code in response.content.decode()


def test_round_page_shows_its_moves_read_only_and_links_the_replay(admin_client, played):
    rnd = current(played)
    response = admin_client.get(reverse("admin:games_round_change", args=[rnd.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert reverse("admin:games_round_replay", args=[rnd.pk]) in html
    # ... and the site's replay page, which admins may open for any room.
    page = f"/r/{played.code}/rounds/{rnd.number}/?match={rnd.match.number}"
    assert page in html
    assert admin_client.get(page).status_code == 200
    first = Move.objects.filter(round=rnd).order_by("seq").first()
    assert first.action["type"] in html
    assert 'name="moves-0-seq"' not in html  # not editable
    assert admin_client.get(reverse("admin:games_move_add")).status_code == 403


def test_replay_page_rebuilds_the_round_step_by_step(admin_client, played):
    rnd = current(played)
    response = admin_client.get(reverse("admin:games_round_replay", args=[rnd.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'data-replay="ok"' in html
    moves = Move.objects.filter(round=rnd).count()
    assert html.count("data-step=") == moves + 1  # the deal, then each move
    for tile in rnd.deal["hands"][0]:
        assert tile in html


def test_replay_page_flags_a_tampered_log(admin_client, played):
    rnd = current(played)
    Round.objects.filter(pk=rnd.pk).update(state={**rnd.state, "passes_in_row": 99})
    response = admin_client.get(reverse("admin:games_round_replay", args=[rnd.pk]))
    assert 'data-replay="mismatch"' in response.content.decode()
    Round.objects.filter(pk=rnd.pk).update(state=rnd.state)  # the autouse check runs after


def test_replay_page_needs_staff(client, played):
    rnd = current(played)
    response = client.get(reverse("admin:games_round_replay", args=[rnd.pk]))
    assert response.status_code == 302


def test_admin_action_closes_rooms(admin_client, played):
    response = admin_client.post(
        "/admin/rooms/room/",
        {"action": "close_rooms", "_selected_action": [played.pk]},
        follow=True,
    )
    assert response.status_code == 200
    room = Room.objects.get(pk=played.pk)
    assert room.status == "closed" and room.close_reason == "admin"
    assert Match.objects.filter(room=room).exists()


@pytest.mark.parametrize("model", ["records/rating", "records/ratingchange", "records/matchlineup"])
def test_records_are_listed_read_only(admin_client, played, model):
    assert admin_client.get(f"/admin/{model}/").status_code == 200
    assert admin_client.get(f"/admin/{model}/add/").status_code == 403
