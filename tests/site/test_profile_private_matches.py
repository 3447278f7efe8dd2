"""A profile's recent matches and private tables (docs/site.md, "Accounts,
records, ranking"): a private room's match, in play or finished, is listed
only to the people who may see that room (`rooms.selectors.may_see_rounds`:
who sat at it, and admins), asked through `records.signals.rounds_visible`;
to anyone else (a visitor not logged in, a stranger, an account the player
blocks) it is not there at all: no line, no score, no time. A public room's
match stays listed to everyone."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from domino_site.client_ip import ip_hash
from people import services as people
from rooms import services
from tests.site.helpers import fresh, play_round, seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def host_matches(make_user, clock, django_user_model):
    """``host`` played a public duelo (finished) with ``ana``, a private duelo
    (finished) with ``friend`` and, at another private table, a partida de 6
    for two with ``friend`` that is still in play after its first round; the
    host blocks ``rude``."""
    host, friend, ana = make_user("host"), make_user("friend"), make_user("ana")
    public = services.room_create(
        user=host, name="Mesa aberta", preset="duelo", ip_hash=ip_hash("203.0.113.1"), now=clock()
    )
    services.seat_take(room=public, index=1, user=ana, ip_hash=ip_hash("203.0.113.2"), now=clock())
    finished = services.room_create(
        user=host, name="Mesa fechada", preset="duelo", visibility="private", now=clock()
    )
    services.seat_take_by_invite(token=finished.invite_token, user=friend, now=clock())
    for room in (public, finished):
        services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
        assert play_round(fresh(room), clock()).match.over
    playing = services.room_create(
        user=host, name="Mesa em jogo", preset="partida_dois", visibility="private", now=clock()
    )
    services.seat_take_by_invite(token=playing.invite_token, user=friend, now=clock())
    services.match_start(room=fresh(playing), actor=seat(playing, 0), now=clock())
    first = play_round(fresh(playing), clock())
    assert first.finished_at is not None and not first.match.over  # in play, scored
    rude = make_user("rude")
    people.block(blocker=host, blocked=rude)
    return {
        "host": host,
        "friend": friend,
        "stranger": make_user("stranger"),
        "rude": rude,
        "admin": django_user_model.objects.create_superuser("admin", "a@example.com", "x"),
        "public": fresh(public),
        "finished": fresh(finished),
        "playing": fresh(playing),
    }


def _profile(host_matches, visitor: str) -> str:
    client = Client()
    if visitor != "anonymous":
        client.force_login(host_matches[visitor])
    response = client.get("/players/host/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


def _lines(html: str) -> list[str]:
    return re.findall(r"<li data-match-line>.*?</li>", html, flags=re.S)


@pytest.mark.parametrize("visitor", ["anonymous", "stranger", "rude"])
def test_a_private_tables_matches_are_not_on_the_profile_for_who_may_not_see_the_room(
    host_matches, visitor
):
    html = _profile(host_matches, visitor)
    lines = _lines(html)
    assert len(lines) == 1 and "Mesa aberta" in lines[0]  # the public match only
    assert "in progress" not in html and "Private table" not in html
    for kind in ("finished", "playing"):
        room = host_matches[kind]
        assert room.code not in html and room.name not in html


@pytest.mark.parametrize("visitor", ["host", "friend", "admin"])
def test_a_private_tables_matches_are_on_the_profile_for_who_may_see_the_room(
    host_matches, visitor
):
    lines = _lines(_profile(host_matches, visitor))
    assert len(lines) == 3
    by_room = {kind: next(li for li in lines if host_matches[kind].name in li) for kind in
               ("public", "finished", "playing")}  # fmt: skip
    assert "in progress" in by_room["playing"] and "outcome-playing" in by_room["playing"]
    assert f"/r/{host_matches['finished'].code}/rounds/1/?match=1" in by_room["finished"]
    assert f"/r/{host_matches['playing'].code}/rounds/1/?match=1" in by_room["playing"]


def test_a_private_match_hidden_from_the_profile_leaves_room_for_the_ten_latest_shown(
    host_matches, make_user, clock
):
    """The list is the ten latest matches this viewer may see: a run of
    private matches does not push the public ones off it."""
    from records.selectors import RECENT_MATCHES

    host, friend = host_matches["host"], host_matches["friend"]
    for n in range(RECENT_MATCHES):
        room = services.room_create(
            user=host, name=f"Privada {n}", preset="duelo", visibility="private", now=clock()
        )
        services.seat_take_by_invite(token=room.invite_token, user=friend, now=clock())
        services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
        play_round(fresh(room), clock())
    lines = _lines(_profile(host_matches, "stranger"))
    assert len(lines) == 1 and "Mesa aberta" in lines[0]
    assert len(_lines(_profile(host_matches, "friend"))) == RECENT_MATCHES


def test_a_private_arena_is_on_the_profile_only_for_who_may_see_it(django_user_model):
    """The arenas' part of the profile closes the same hole: a private arena
    running (its live rank and score) or over is listed only to whoever may
    see it (`arenas.selectors.arena_visible`: its creator, its players,
    admins)."""
    from datetime import timedelta

    from arenas import services as arenas
    from tests.site.conftest import T0

    a, b, stranger = (
        django_user_model.objects.create_user(n, password="pw") for n in ("a", "b", "stranger")
    )
    admin = django_user_model.objects.create_superuser("admin", "a@example.com", "x")
    arena = arenas.arena_create(
        name="Noite secreta", preset="duelo", starts_at=T0, minutes=30,
        visibility="private", created_by=a, now=T0 - timedelta(hours=1),
    )  # fmt: skip
    for i, user in enumerate((a, b)):
        arenas.arena_join(arena=arena, user=user, ip_hash=f"ip{i}", now=T0 - timedelta(minutes=1))
    arenas.arena_tick(arena=arena, now=T0)
    arena.players.filter(user=b).update(matches=1, score=2)  # a match of it played
    line = f'data-arena-line="{arena.pk}"'
    for viewer, sees in ((None, False), (stranger, False), (a, True), (b, True), (admin, True)):
        client = Client()
        if viewer is not None:
            client.force_login(viewer)
        page = client.get("/players/b/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
        assert "data-profile-arenas" in page
        assert (line in page) is sees, viewer
        assert ("Private arena" in page) is sees, viewer


def _figures(host_matches, visitor: str) -> dict:
    from records.selectors import player_stats
    from rooms.selectors import may_see_rounds

    viewer = host_matches.get(visitor)
    stats = player_stats(
        host_matches["host"], may_see_rounds=lambda room: may_see_rounds(room=room, user=viewer)
    )
    keys = ("matches", "won", "lost", "rounds", "dominoes", "average_points", "favourite_preset")
    return {key: stats[key] for key in keys} | {
        "by_preset": sorted((p.preset, p.matches, p.rounds) for p in stats["by_preset"])
    }


def test_a_private_tables_matches_move_no_figure_of_the_profile_for_a_stranger(host_matches):
    """The counts too: a stranger's profile of ``host`` reads as if only the
    public match had been played (a total that moved would tell that a private
    one was); who sat at the private tables sees them counted."""
    stranger = _figures(host_matches, "stranger")
    assert stranger["matches"] == 1 and stranger["rounds"] == 1
    assert stranger["by_preset"] == [("duelo", 1, 1)] and stranger["favourite_preset"] == "duelo"
    friend = _figures(host_matches, "friend")
    assert friend["matches"] == 2  # the finished private duelo too (the partida is in play)
    assert friend["rounds"] == 3 and ("partida_dois", 0, 1) in friend["by_preset"]
    html = _profile(host_matches, "stranger")
    assert re.search(r"<dt>Matches</dt><dd>1</dd>", html)
