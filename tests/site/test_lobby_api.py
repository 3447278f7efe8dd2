"""`GET /api/rooms/` filtered and paged on the server (docs/protocol.md), and
the lobby page's first page with the same filter."""

from __future__ import annotations

import re

import pytest

from rooms import services
from rooms.models import Room
from tests.site.helpers import seat

pytestmark = pytest.mark.django_db


def listed(user, preset="duelo", *, move_seconds=None, bots=0, name="Mesa", rated=False) -> Room:
    """A public room of ``user``, connected (so it is on the list), with ``bots``."""
    room = services.room_create(user=user, name=name, preset=preset, move_seconds=move_seconds)
    services.seat_connected(room=room, index=0, channel_name=f"c.{room.code}")
    for index in range(1, bots + 1):
        services.bot_add(room=room, actor=seat(room, 0), index=index, level="easy")
    if rated:  # the marker the seats give (records' rule), set as it is on the row
        Room.objects.filter(pk=room.pk).update(rated=True)
    return Room.objects.get(pk=room.pk)


def codes(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [row["code"] for row in response.json()]


@pytest.fixture
def rooms(make_user):
    ana = make_user("ana")
    return {
        "duelo": listed(ana, "duelo", move_seconds=30),
        "duelo_full": listed(ana, "duelo", bots=1),  # a bot's seat is one a person may take
        "parceria": listed(ana, "parceria", move_seconds=30, rated=True),
        "parceria_slow": listed(ana, "parceria", move_seconds=60),
    }


def test_without_a_query_every_public_row_newest_first(client, rooms):
    body = client.get("/api/rooms/")
    assert codes(body) == [r.code for r in reversed(list(rooms.values()))]
    assert body["X-Total-Count"] == "4" and "Link" not in body
    row = body.json()[0]
    for name in ("code", "name", "preset", "seats_taken", "humans", "bots", "status"):
        assert name in row


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("preset=duelo", ["duelo_full", "duelo"]),
        ("move_seconds=30", ["parceria", "duelo"]),
        ("move_seconds=0", ["duelo_full"]),  # no clock
        ("rated=1", ["parceria"]),
        ("preset=parceria&move_seconds=60", ["parceria_slow"]),
        ("free=1&preset=duelo", ["duelo_full", "duelo"]),
        ("rated=0&free=0&preset=", ["parceria_slow", "parceria", "duelo_full", "duelo"]),
    ],
)
def test_the_filters(client, rooms, query, expected):
    body = client.get(f"/api/rooms/?{query}")
    assert codes(body) == [rooms[name].code for name in expected]
    assert body["X-Total-Count"] == str(len(expected))


def test_free_leaves_out_a_room_whose_seats_are_all_people(client, rooms, make_user):
    services.seat_take(room=rooms["duelo"], index=1, user=make_user("bruno"))
    assert rooms["duelo"].code not in codes(client.get("/api/rooms/?free=1"))
    assert rooms["duelo"].code in codes(client.get("/api/rooms/"))


def test_pages_follow_the_cursor_of_the_link(client, rooms):
    every = codes(client.get("/api/rooms/"))
    first = client.get("/api/rooms/?page_size=3")
    assert codes(first) == every[:3] and first["X-Total-Count"] == "4"
    link = re.fullmatch(r'<(/api/rooms/\?[^>]+)>; rel="next"', first["Link"])
    assert link and f"cursor={first['X-Next-Cursor']}" in link.group(1)
    second = client.get(link.group(1))
    assert codes(second) == every[3:] and "Link" not in second and "X-Next-Cursor" not in second


def test_a_room_added_meanwhile_does_not_shift_the_next_page(client, rooms, make_user):
    first = client.get("/api/rooms/?page_size=2")
    listed(make_user("carla"), "duelo")  # newest: on the first page only
    second = client.get(f"/api/rooms/?page_size=2&cursor={first['X-Next-Cursor']}")
    assert codes(second) == [rooms["duelo_full"].code, rooms["duelo"].code]


@pytest.mark.parametrize(
    "query",
    ["preset=xadrez", "move_seconds=7", "move_seconds=abc", "free=yes", "rated=2",
     "page_size=0", "page_size=101", "cursor=-1", "cursor=abc"],
)  # fmt: skip
def test_a_bad_query_is_refused(client, rooms, query):
    body = client.get(f"/api/rooms/?{query}")
    assert body.status_code == 400
    assert body.json()["error"] == "bad_query" and body.json()["field"] == query.split("=")[0]


def test_the_lobby_page_renders_the_filtered_first_page_and_a_next_link(client, rooms):
    html = client.get("/?preset=parceria&page_size=1").content.decode()
    assert f'data-room="{rooms["parceria_slow"].code}"' in html
    assert f'data-room="{rooms["parceria"].code}"' not in html
    assert f'data-room="{rooms["duelo"].code}"' not in html
    next_link = re.search(r'href="(\?[^"]*)"[^>]*data-page="next"', html)
    assert next_link and "preset=parceria" in next_link.group(1)
    following = client.get("/" + next_link.group(1).replace("&amp;", "&")).content.decode()
    assert f'data-room="{rooms["parceria"].code}"' in following
    assert 'data-page="first"' in following


def test_the_lobby_page_filter_is_translated(client, rooms):
    html = client.get("/").content.decode()  # Portuguese by default
    assert 'data-form="room-filter"' in html and "Só com lugar livre" in html
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Only with a free seat" in english
