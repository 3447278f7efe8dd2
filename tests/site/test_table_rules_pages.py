"""Issue 29's server-rendered parts (docs/table-rules.md): friendly or competitive
tables from the form to the ranking, the lobby's rows without JavaScript, "Regras
desta mesa", and the replay's bends and revealed picks."""

from __future__ import annotations

import re

import pytest

from domino_site.client_ip import ip_hash
from games.selectors import replay_positions
from records.models import MatchLineup, Rating
from rooms import services
from rooms.models import Room
from tests.site.helpers import current, fresh, play_round, seat, set_deal, two_humans

pytestmark = pytest.mark.django_db


def _duel(make_user, clock, competitive: bool):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = services.room_create(
        user=ana,
        name="Mesa",
        preset="duelo",
        ip_hash=ip_hash("203.0.113.1"),
        competitive=competitive,
        now=clock(),
    )
    services.seat_take(
        room=fresh(room), index=1, user=bruno, ip_hash=ip_hash("203.0.113.2"), now=clock()
    )
    return fresh(room), ana, bruno


# ---------------------------------------------------------------------- point 4


def test_a_friendly_table_is_never_rated_and_stays_out_of_the_ranking(make_user, clock, client):
    room, ana, bruno = _duel(make_user, clock, competitive=False)
    assert not room.rated  # accounts at two addresses, but friendly
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    rnd = play_round(fresh(room), clock())
    assert rnd.match.over
    lineup = MatchLineup.objects.get(match=rnd.match)
    assert not lineup.rated and lineup.reason == "friendly"
    assert not Rating.objects.exists()
    client.force_login(ana)
    assert client.get("/ranking/?by=xp").context["rows"] == []


def test_a_competitive_table_is_rated_when_the_conditions_hold(make_user, clock, client):
    room, ana, bruno = _duel(make_user, clock, competitive=True)
    assert room.rated
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    play_round(fresh(room), clock())
    client.force_login(ana)
    names = [r["username"] for r in client.get("/ranking/?by=xp").context["rows"]]
    assert sorted(names) == ["ana", "bruno"]


def test_the_create_form_offers_friendly_or_competitive(make_user, client):
    client.force_login(make_user("ana"))
    html = client.get("/").content.decode()
    assert 'name="kind" value="competitive"' in html and 'name="kind" value="friendly"' in html
    client.post("/rooms/", {"preset": "duelo", "visibility": "public", "kind": "friendly"})
    room = Room.objects.get()
    assert room.competitive is False
    page = client.get(f"/r/{room.code}/").content.decode()
    assert 'data-kind="friendly"' in page and "Amistosa" in page


def test_the_lobby_row_says_friendly_or_competitive(make_user, clock, client):
    room, ana, bruno = _duel(make_user, clock, competitive=False)
    services.seat_connected(room=room, index=0, channel_name="c0", now=clock())
    client.force_login(ana)
    response = client.get("/")
    assert response.context["lobby_boot"]["rooms"][0]["competitive"] is False
    assert 'data-kind="friendly"' in response.content.decode()


# ---------------------------------------------------------------------- bugs 4 and 7


def test_the_lobby_rows_rendered_by_the_server_are_translated(make_user, clock, client):
    ana = make_user("ana")
    room = services.room_create(user=ana, name="Mesa da Ana", preset="parceria", now=clock())
    services.seat_connected(room=room, index=0, channel_name="c0", now=clock())
    services.bot_add(room=fresh(room), actor=seat(room, 0), index=1, level="easy", now=clock())
    client.force_login(ana)
    html = client.get("/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    row = re.search(r'<li class="room-row".*?</li>', html, re.S).group(0)
    preset = re.search(r'class="room-preset">([^<]*)<', row).group(1)
    status = re.search(r'class="status status-waiting">([^<]*)<', row).group(1)
    assert preset.startswith("Parceria (") and preset != "parceria"
    assert status == "aguardando jogadores"


def test_the_lobby_row_offers_sit_when_the_free_seats_are_bots(make_user, clock, client):
    ana = make_user("ana")
    room = services.room_create(user=ana, name="Mesa", preset="duelo", now=clock())
    services.seat_connected(room=room, index=0, channel_name="c0", now=clock())
    services.bot_add(room=fresh(room), actor=seat(room, 0), index=1, level="easy", now=clock())
    client.force_login(make_user("bruno"))
    html = client.get("/").content.decode()
    assert 'data-action="sit"' in html  # the bot's seat can be taken


# ---------------------------------------------------------------------- point 9


def test_the_table_links_to_its_own_rules(make_user, clock, client):
    ana = make_user("ana")
    room = services.room_create(
        user=ana, name="Mesa", preset="com_monte", options={"target": 150, "seats": 3}, now=clock()
    )
    client.force_login(ana)
    page = client.get(f"/r/{room.code}/").content.decode()
    href = re.search(r'href="([^"]+)" data-rules-link', page).group(1).replace("&amp;", "&")
    assert href.startswith("/regras/com_monte/?")
    rules = client.get(href, HTTP_ACCEPT_LANGUAGE="pt-br")
    assert rules.status_code == 200
    text = rules.content.decode()
    assert "150" in rules.context["summary"] and "3" in rules.context["summary"]
    assert "data-this-table" in text
    defaults = client.get("/regras/com_monte/").context["summary"]
    assert "150" not in defaults
    # A query the preset does not allow, or an impossible one, gives the defaults.
    assert client.get("/regras/com_monte/?target=abc").context["summary"] == defaults
    assert (
        client.get("/regras/parceria/?seats=2").context["summary"]
        == client.get("/regras/parceria/").context["summary"]
    )


# ---------------------------------------------------------------------- points 5 and 6 (replay)


def test_the_replay_follows_the_stored_bends(make_user, clock):
    room, ana, bruno = two_humans(make_user, clock(), preset="sem_monte")
    services.match_start(room=room, actor=ana, now=clock())
    set_deal(fresh(room), hands=[["1-2", "1-1", "3-5", "6-6"], ["2-3", "1-4", "0-0", "5-6"]])

    def play(index, tile, end):
        services.action_apply(
            room=fresh(room),
            seat_index=index,
            action={"type": "play", "tile": tile, "end": end},
            version=None,
            now=clock(),
        )

    play(0, "1-2", None)
    play(1, "2-3", "B")
    services.layout_adjust(room=fresh(room), actor=seat(room, 0), at=1, bend="right")
    play(0, "1-1", "A")
    rnd = play_round(fresh(room), clock())
    positions = replay_positions(rnd)
    assert positions[1]["layout"] == {} and positions[2]["layout"] == {"1": "right"}
    assert positions[-1]["layout"] == current(room).layout == {"1": "right"}
    assert all("pick_off" in p for p in positions)
