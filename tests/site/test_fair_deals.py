"""Verifiable deals through the services, the admin and the round's JSON
(docs/rules.md, "Verifiable deals"; docs/site.md, "Verifiable deals")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.engine.fairness import FairDeal, check_round, commitment, material
from games.selectors import replay_export, replay_fair
from rooms import services
from tests.site.helpers import current, fresh, play_round, room_with_bots, seat, two_humans

pytestmark = pytest.mark.django_db


def test_each_deal_uses_the_committed_seed_and_commits_to_the_next(make_user, clock):
    room = room_with_bots(make_user("ana"), clock())
    first = room.next_server_seed
    services.seat_seed(room=room, actor=seat(room, 0), value="c0ffee", now=clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = current(room)
    assert rnd.server_seed == first and rnd.commitment == commitment(first)
    assert rnd.client_seeds == ["c0ffee"] and rnd.material == f"{room.code}:1:1:c0ffee"
    order = FairDeal.compute(first, rnd.material).order
    assert rnd.deal["hands"][0] == [str(t) for t in order[:7]]
    room = fresh(room)
    assert room.next_server_seed != first
    assert seat(room, 0).client_seed == ""  # used: the next deal needs a new one


def test_the_admin_shows_a_server_seed_only_once_its_round_has_ended(
    admin_client, make_user, clock
):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = current(room)
    page = admin_client.get(reverse("admin:games_round_change", args=[rnd.pk])).content.decode()
    assert rnd.commitment in page and rnd.server_seed not in page
    room_page = admin_client.get(reverse("admin:rooms_room_change", args=[room.pk]))
    next_seed = fresh(room).next_server_seed
    assert next_seed not in room_page.content.decode()
    assert commitment(next_seed) in room_page.content.decode()
    play_round(room, clock())
    page = admin_client.get(reverse("admin:games_round_change", args=[rnd.pk])).content.decode()
    assert rnd.server_seed in page


def test_a_seat_that_changes_person_forgets_the_seed(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock())
    services.seat_seed(room=room, actor=bruno, value="bruno", now=clock())
    assert seat(room, 1).client_seed == "bruno"
    services.seat_leave(room=room, index=1, actor=bruno, now=clock())
    assert seat(room, 1).client_seed == ""
    services.seat_take(room=room, index=1, user=make_user("carla"), now=clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    assert current(room).client_seeds == []


def test_a_finished_rounds_json_checks_out_and_a_changed_one_does_not(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock())
    services.seat_seed(room=room, actor=bruno, value="Bruno's seed", now=clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = play_round(room, clock())
    data = replay_export(rnd)
    assert data["fair"]["server_seed"] == rnd.server_seed
    assert data["fair"]["material"] == material(room.code, 1, 1, ["Bruno's seed"])
    assert check_round(data) == []
    boot = replay_fair(rnd)
    assert boot["hands"] == data["deal"]["hands"] and boot["fair"] == data["fair"]

    swapped = {**data, "deal": {**data["deal"], "hands": data["deal"]["hands"][::-1]}}
    assert any("seat 0" in p for p in check_round(swapped))
    other_seed = {**data, "fair": {**data["fair"], "server_seed": "0" * 64}}
    assert any("commitment" in p for p in check_round(other_seed))
    other_room = {**data, "room": "ZZZZZZZZ"}
    assert any("material" in p for p in check_round(other_room))
    hidden = {**data, "fair": {**data["fair"], "server_seed": None}}
    assert check_round(hidden) == ["the server seed is not revealed yet (the round has not ended)"]


def test_a_finished_rounds_json_keeps_the_lines_bends(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock())
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = play_round(room, clock())
    bend = {"after": 3, "seat": 0, "at": "2026-12-04T13:00:00+00:00", "bend": {"2": "up"}}
    rnd.layout, rnd.adjustments = {"adjust": {"2": "up"}}, [bend]
    rnd.save(update_fields=["layout", "adjustments"])
    data = replay_export(rnd)
    assert data["layout"] == {"adjust": {"2": "up"}}
    assert data["adjustments"] == [bend]
