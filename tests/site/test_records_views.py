"""Who may see a finished round (the replay page and its JSON alike), the
profile's privacy, the ranking and the public rooms' missing invite (docs/site.md,
"Accounts, records, ranking").

* public rooms: anyone logged in;
* private rooms: the people who sat at that table, and admins;
* everyone else: 404, the same answer as an unknown code.
"""

from __future__ import annotations

import re

import pytest
from django.http import HttpResponse

from domino_site.client_ip import ip_hash
from domino_site.guests import GUEST_COOKIE, GUEST_SALT
from records.models import Rating
from rooms import services
from tests.site.helpers import current, fresh, play_round, seat

pytestmark = pytest.mark.django_db


def _as_guest(client, token: str):
    response = HttpResponse()
    response.set_signed_cookie(GUEST_COOKIE, token, salt=GUEST_SALT)
    client.cookies[GUEST_COOKIE] = response.cookies[GUEST_COOKIE].value
    return client


@pytest.fixture
def tables(make_user, clock, django_user_model):
    """A finished public duelo (ana, bruno) and a finished private one (host and
    the guest "sat-guest" by the invite link)."""
    ana, bruno, host = make_user("ana"), make_user("bruno"), make_user("host")
    public = services.room_create(
        user=ana, name="Mesa pública", preset="duelo", ip_hash=ip_hash("203.0.113.1"), now=clock()
    )
    services.seat_take(
        room=public, index=1, user=bruno, ip_hash=ip_hash("203.0.113.2"), now=clock()
    )
    private = services.room_create(
        user=host, name="Mesa secreta", preset="duelo", visibility="private", now=clock()
    )
    services.seat_take_by_invite(token=private.invite_token, guest_token="sat-guest", now=clock())
    for room in (public, private):
        services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
        assert play_round(fresh(room), clock()).match.over
    admin = django_user_model.objects.create_superuser("admin", "a@example.com", "x")
    return {
        "public": fresh(public),
        "private": fresh(private),
        "ana": ana,
        "host": host,
        "stranger": make_user("stranger"),
        "admin": admin,
    }


VISITORS = ("anonymous", "sat_guest", "other_guest", "stranger", "player", "admin")

# (room, visitor) -> may see. The player of the public room is ana, of the
# private one its host.
MAY_SEE = {
    ("public", "anonymous"): False,
    ("public", "sat_guest"): False,  # not logged in (and public rooms have no guests)
    ("public", "other_guest"): False,
    ("public", "stranger"): True,
    ("public", "player"): True,
    ("public", "admin"): True,
    ("private", "anonymous"): False,
    ("private", "sat_guest"): True,
    ("private", "other_guest"): False,
    ("private", "stranger"): False,
    ("private", "player"): True,
    ("private", "admin"): True,
}


def _visit(client, tables, kind: str, visitor: str):
    if visitor in ("sat_guest", "other_guest"):
        _as_guest(client, "sat-guest" if visitor == "sat_guest" else "other-guest")
    elif visitor == "player":
        client.force_login(tables["ana" if kind == "public" else "host"])
    elif visitor in ("stranger", "admin"):
        client.force_login(tables[visitor])
    return client


@pytest.mark.parametrize(("kind", "visitor"), list(MAY_SEE))
def test_who_may_see_a_finished_round(client, tables, kind, visitor):
    room = tables[kind]
    _visit(client, tables, kind, visitor)
    page = client.get(f"/r/{room.code}/rounds/1/")
    data = client.get(f"/api/rooms/{room.code}/rounds/1/")
    if MAY_SEE[kind, visitor]:
        assert page.status_code == data.status_code == 200
        assert 'id="replay-boot"' in page.content.decode()
        assert data.json()["room"] == room.code
    else:
        # Exactly what an unknown code answers.
        unknown_page = client.get("/r/NOPE2345/rounds/1/")
        unknown_data = client.get("/api/rooms/NOPE2345/rounds/1/")
        assert page.status_code == data.status_code == 404
        assert page.content == unknown_page.content
        assert data.json() == unknown_data.json() == {"error": "not_found"}


def test_the_replay_page_shows_every_hand_and_never_the_boneyard(client, tables):
    client.force_login(tables["ana"])
    room = tables["public"]
    response = client.get(f"/r/{room.code}/rounds/1/?match=1")
    boot = response.context["boot"]
    rnd = current(room)
    positions = boot["positions"]
    assert len(positions) == rnd.moves.count() + 1
    assert positions[0]["hands"] == rnd.deal["hands"] and positions[0]["chain"] == []
    final = positions[-1]
    assert [link["tile"] for link in final["chain"]] == [x["tile"] for x in rnd.state["chain"]]
    assert final["hands"] == rnd.state["hands"] and final["result"] == rnd.result
    boneyard = set(rnd.state["boneyard"])
    assert boneyard  # a duelo leaves tiles in the boneyard
    html = response.content.decode()
    assert not any(re.search(rf'"{tile}"', html) for tile in boneyard)
    # Linked to the table and to its JSON export.
    assert f'href="/r/{room.code}/"' in html and f"/api/rooms/{room.code}/rounds/1/?match=1" in html


def test_a_round_in_play_is_refused_to_those_who_may_see_it_and_unknown_to_others(
    client, tables, clock
):
    room = tables["private"]
    before = current(room)
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    if current(room) == before:  # a single-round table: every human accepts the next game
        services.match_start(room=fresh(room), actor=seat(room, 1), now=clock())
    number = current(room).number
    assert current(room).finished_at is None
    client.force_login(tables["host"])
    assert client.get(f"/api/rooms/{room.code}/rounds/{number}/?match=2").status_code == 403
    assert client.get(f"/r/{room.code}/rounds/{number}/?match=2").status_code == 403
    client.force_login(tables["stranger"])
    assert client.get(f"/api/rooms/{room.code}/rounds/{number}/?match=2").status_code == 404


# ------------------------------------------------------------------ profile


def test_a_profile_hides_a_private_room_from_who_did_not_sit_at_it(client, tables):
    private, public = tables["private"], tables["public"]
    html = client.get("/players/host/").content.decode()
    assert "data-match-line" not in html  # not there at all (test_profile_private_matches.py)
    assert private.code not in html and "Mesa secreta" not in html
    assert "/rounds/" not in html

    client.force_login(tables["stranger"])
    html = client.get("/players/host/").content.decode()
    assert private.code not in html and "Mesa secreta" not in html

    client.force_login(tables["host"])
    html = client.get("/players/host/").content.decode()
    assert f"/r/{private.code}/rounds/1/?match=1" in html and "Mesa secreta" in html

    guest = _as_guest(type(client)(), "sat-guest")
    assert f"/r/{private.code}/rounds/1/" in guest.get("/players/host/").content.decode()

    # A public room's replays: for anyone logged in; visitors are asked to log in.
    anonymous = type(client)().get("/players/ana/").content.decode()
    assert "/rounds/" not in anonymous and "Mesa pública" in anonymous
    assert f"/r/{public.code}/rounds/1/" in client.get("/players/ana/").content.decode()


def test_the_profile_shows_record_rating_history_and_favourite_preset(client, tables):
    client.force_login(tables["stranger"])
    response = client.get("/players/ana/", HTTP_ACCEPT_LANGUAGE="en")
    stats = response.context["stats"]
    assert (stats["matches"], stats["won"] + stats["lost"], stats["rounds"]) == (1, 1, 1)
    assert stats["favourite_preset"] == "duelo"
    assert stats["rating"].matches == 1 and stats["xp"] in (5, 20)
    html = response.content.decode()
    assert "<svg" in html and 'class="line"' in html and "data-rating-chart" in html
    assert str(stats["rating"].value) in html
    assert client.get("/players/nobody/").status_code == 404


# ------------------------------------------------------------------ ranking


def _rated(user, preset="", ordinal=0.0, matches=5, xp=0):
    return Rating.objects.create(
        user=user, preset=preset, mu=ordinal + 25, sigma=25 / 3, ordinal=ordinal,
        matches=matches, wins=1, xp=xp,
    )  # fmt: skip


def test_ranking_by_rating_needs_the_minimum_of_matches(client, make_user, settings):
    settings.RANKING_MIN_MATCHES = 5
    best, second, newcomer = make_user("best"), make_user("second"), make_user("newcomer")
    _rated(best, ordinal=3.0, xp=30)
    _rated(second, ordinal=1.0, xp=80)
    _rated(newcomer, ordinal=9.0, matches=4, xp=5)
    client.force_login(second)
    response = client.get("/ranking/")
    rows = response.context["rows"]
    assert [r["username"] for r in rows] == ["best", "second"]
    assert (rows[0]["rating"], rows[0]["uncertainty"]) == (180, 500)  # (28 - 25) x 60
    html = response.content.decode()
    assert re.search(r'<tr class="mine" aria-current="true" data-player="second">', html)
    assert response.context["my_position"] == 2
    by_xp = client.get("/ranking/?by=xp").context["rows"]
    assert [r["username"] for r in by_xp] == ["second", "best", "newcomer"]


def test_ranking_filters_by_preset_and_pages(client, make_user):
    for i in range(30):
        _rated(make_user(f"p{i:02d}"), preset="parceria", ordinal=float(i))
    _rated(make_user("duelist"), preset="duelo", ordinal=50.0)
    page1 = client.get("/ranking/?preset=parceria")
    assert page1.context["page"].paginator.num_pages == 2
    assert [r["username"] for r in page1.context["rows"]][:2] == ["p29", "p28"]
    page2 = client.get("/ranking/?preset=parceria&page=2").context["rows"]
    assert [r["position"] for r in page2] == list(range(26, 31))
    assert "duelist" not in page1.content.decode()
    assert client.get("/ranking/?preset=duelo").context["rows"][0]["username"] == "duelist"
    assert client.get("/ranking/").context["rows"] == []  # nobody rated over all presets
    assert client.get("/ranking/?preset=nonsense&page=x").status_code == 200


# ------------------------------------------------------------------ public rooms


def test_a_public_room_has_no_invite_link(client, make_user, clock):
    user = make_user()
    room = services.room_create(user=user, name="Mesa", preset="duelo", now=clock())
    response = client.get(room.invite_path)
    assert response.status_code == 404
    client.force_login(user)
    created = client.post(
        "/rooms/", data={"preset": "duelo", "visibility": "public", "name": "X"},
        content_type="application/json",
    )  # fmt: skip
    assert created.json()["invite_url"] is None
    snapshot = client.get(f"/r/{room.code}/").context["boot"]["snapshot"]
    assert snapshot["room"]["invite_url"] is None
