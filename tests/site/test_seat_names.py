"""One name for each seat everywhere (docs/site.md, "Names at the table"): a
person's name or the bot's own, a Brazilian one with its picture, the same at
the table, on the replay page (whose what-if and analysis name the seats from
it), in the round's JSON; the same bot keeps its name through a level change
and a match."""

from __future__ import annotations

import json
import re

import pytest

from games.models import Round
from games.seat_names import BOT_NAMES, bot_name
from rooms import selectors, services
from tests.site.helpers import fresh, play_round, room_with_bots, seat

pytestmark = pytest.mark.django_db


def _replay_seats(client, code: str) -> list[dict]:
    page = client.get(f"/r/{code}/rounds/1/?match=1").content.decode()
    island = re.search(
        r'<script id="replay-boot" type="application/json">(.*?)</script>', page, re.S
    )
    return json.loads(island.group(1))["seats"]


def _finished_parceria(make_user, clock):
    ana = make_user("ana")
    room = room_with_bots(ana, clock(), preset="parceria")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    play_round(fresh(room), clock())
    return ana, fresh(room)


def test_the_table_the_replay_and_the_json_name_every_seat_alike(make_user, clock, client):
    ana, room = _finished_parceria(make_user, clock)
    table = [
        (s["name"], s["avatar"]) for s in selectors.room_state(room=room, viewer=None)["seats"]
    ]
    client.force_login(ana)
    replay = [(s["name"], s["avatar"]) for s in _replay_seats(client, room.code)]
    answer = client.get(f"/api/rooms/{room.code}/rounds/1/?match=1").json()
    download = [(p["name"], p["avatar"]) for p in answer["players"]]
    assert table == replay == download
    names = [name for name, _ in table]
    assert names[0] == "ana" and table[0][1] is None  # a person: their name, their initial
    bots = names[1:]
    assert len(set(bots)) == 3 and set(bots) <= set(BOT_NAMES)  # three bots, three names
    assert not any(re.search(r"\bBot\b|Cadeira|Seat", name) for name in names)
    for _, picture in table[1:]:
        assert (
            client.get(picture).status_code == 200
        )  # a static picture: no request leaves the site


def test_a_bot_keeps_its_name_through_a_level_change_and_a_new_match(make_user, clock):
    ana = make_user("ana")
    room = room_with_bots(ana, clock(), preset="duelo")
    before = selectors.room_state(room=room, viewer=None)["seats"][1]["name"]
    services.bot_set_level(room=room, actor=seat(room, 0), index=1, level="hard", now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    after = selectors.room_state(room=fresh(room), viewer=None)["seats"][1]
    assert before == after["name"] == bot_name(room.code, 1) and after["bot_level"] == "hard"
    assert seat(room, 1).display_name == before  # the admin's column says it too


def test_a_round_from_before_bots_had_names_shows_the_names_of_today(make_user, clock, client):
    ana, room = _finished_parceria(make_user, clock)
    rnd = Round.objects.get(room=room)
    rnd.players = [{**p, "name": "Bot (easy)"} if p["kind"] == "bot" else p for p in rnd.players]
    rnd.save(update_fields=["players"])
    client.force_login(ana)
    answer = client.get(f"/api/rooms/{room.code}/rounds/1/?match=1").json()
    assert [p["name"] for p in answer["players"]][1:] == [bot_name(room.code, i) for i in (1, 2, 3)]
