"""The arenas' services, selectors, pages and admin (docs/site.md, "Arenas").

Results are set on the room's match row here (the real games are played over
the sockets in tests/realtime/test_arenas.py): the arena's part is what it
does with a result."""

from __future__ import annotations

import doctest
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from arenas import pairing, services
from arenas.models import Arena, ArenaMatch, ArenaPlayer
from arenas.selectors import arena_frame
from games.models import Match
from games.world import world
from records.models import MatchLineup
from rooms import services as rooms
from rooms.models import Room, Seat
from rooms.selectors import room_state
from tests.site.conftest import T0
from tests.site.helpers import current

pytestmark = pytest.mark.django_db


def _tomorrow():
    return world().now() + timedelta(days=1)


def _users(django_user_model, *names):
    return [django_user_model.objects.create_user(n, password="pw") for n in names]


def _arena(users, preset="duelo", minutes=30, start=T0, **kw):
    arena = services.arena_create(
        name="Noite",
        preset=preset,
        starts_at=start,
        minutes=minutes,
        now=T0 - timedelta(hours=1),
        **kw,
    )
    for i, user in enumerate(users):
        services.arena_join(arena=arena, user=user, ip_hash=f"ip{i}", now=T0 - timedelta(minutes=1))
    return arena


def _open(arena) -> list[ArenaMatch]:
    return list(ArenaMatch.objects.filter(arena=arena, ended_at=None).order_by("pk"))


def _win(am: ArenaMatch, user) -> None:
    """The room's match ends with ``user``'s side the winner."""
    side = am.users.index(user.pk) % 2
    Match.objects.filter(room_id=am.room_id).update(over=True, winner=side)


def _pairs(arena) -> list[set[str]]:
    names = {p.user_id: p.user.username for p in ArenaPlayer.objects.select_related("user")}
    return [{names[u] for u in am.users} for am in _open(arena)]


def _player(arena, user) -> ArenaPlayer:
    return ArenaPlayer.objects.get(arena=arena, user=user)


def test_nobody_is_paired_before_the_start(django_user_model):
    arena = _arena(_users(django_user_model, "a", "b"))
    assert not services.arena_tick(arena=arena, now=T0 - timedelta(seconds=1))
    assert not ArenaMatch.objects.exists()
    assert Arena.objects.get(pk=arena.pk).status == "upcoming"


def test_the_start_pairs_free_players_by_score_and_seats_them_at_a_started_table(django_user_model):
    a, b, c, d = _users(django_user_model, "a", "b", "c", "d")
    arena = _arena([a, b, c, d])
    assert services.arena_tick(arena=arena, now=T0)
    assert Arena.objects.get(pk=arena.pk).status == "running"
    assert _pairs(arena) == [{"a", "b"}, {"c", "d"}]
    for am in _open(arena):
        room = Room.objects.get(pk=am.room_id)
        assert room.status == "playing" and room.preset == "duelo" and room.competitive
        seated = list(
            Seat.objects.filter(room=room).order_by("index").values_list("user_id", flat=True)
        )
        assert seated == am.users
        assert _player(arena, am.users[0]).table_id == room.pk
        # Rated like any rated table: every seat an account, each at its own address.
        assert MatchLineup.objects.get(match__room=room).rated
    # A second tick changes nothing: everyone is at a table.
    assert not services.arena_tick(arena=arena, now=T0 + timedelta(seconds=1))
    assert ArenaMatch.objects.count() == 2


def test_a_third_win_in_a_row_counts_double_until_a_loss(django_user_model):
    a, b, c, d = _users(django_user_model, "a", "b", "c", "d")
    arena = _arena([a, b, c, d])
    services.arena_tick(arena=arena, now=T0)
    ab, cd = _open(arena)
    _win(ab, a)
    _win(cd, c)
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=60))
    assert _pairs(arena) == [{"a", "c"}, {"b", "d"}]  # the leaders meet; never the last opponent
    ac, bd = _open(arena)
    _win(ac, a)
    _win(bd, b)
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=120))
    assert (_player(arena, a).score, _player(arena, a).streak) == (4, 2)
    assert _pairs(arena) == [{"a", "b"}, {"c", "d"}]
    ab, cd = _open(arena)
    _win(ab, a)
    _win(cd, d)
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=180))
    assert (_player(arena, a).score, _player(arena, a).streak) == (8, 3)
    assert ArenaMatch.objects.get(pk=ab.pk).points == {str(a.pk): 4, str(b.pk): 0}
    nxt = next(am for am in _open(arena) if a.pk in am.users)
    loser_side_winner = next(u for u in nxt.users if u != a.pk)
    _win(nxt, django_user_model.objects.get(pk=loser_side_winner))
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=240))
    assert (_player(arena, a).score, _player(arena, a).streak) == (8, 0)


def test_a_draw_is_one_point_and_ends_the_streak(django_user_model):
    a, b = _users(django_user_model, "a", "b")
    arena = _arena([a, b])
    services.arena_tick(arena=arena, now=T0)
    (am,) = _open(arena)
    Match.objects.filter(room_id=am.room_id).update(over=True, winner=None)
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=30))
    assert [_player(arena, u).score for u in (a, b)] == [1, 1]


def test_the_same_two_wait_for_someone_else_then_meet_again(django_user_model, settings):
    settings.ARENA_REMATCH_SECONDS = 20
    a, b = _users(django_user_model, "a", "b")
    arena = _arena([a, b])
    services.arena_tick(arena=arena, now=T0)
    (am,) = _open(arena)
    _win(am, a)
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=60))
    assert not _open(arena), "not the same opponent twice in a row"
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=81))
    assert _pairs(arena) == [{"a", "b"}], "alone together for a while: they meet again"


def test_a_player_who_left_is_not_paired_and_keeps_the_score(django_user_model):
    a, b, c = _users(django_user_model, "a", "b", "c")
    arena = _arena([a, b, c])
    services.arena_leave(arena=arena, user=a, now=T0 - timedelta(seconds=5))
    services.arena_tick(arena=arena, now=T0)
    assert _pairs(arena) == [{"b", "c"}]
    rows = arena_frame(Arena.objects.get(pk=arena.pk))["standings"]
    assert [r["player"] for r in rows] == ["b", "c"]  # nobody shows who never played and left


def test_the_end_pairs_nobody_and_a_match_started_before_it_counts(django_user_model):
    a, b, c, d = _users(django_user_model, "a", "b", "c", "d")
    arena = _arena([a, b, c, d], minutes=10)
    services.arena_tick(arena=arena, now=T0)
    ab, cd = _open(arena)
    _win(ab, a)
    end = T0 + timedelta(minutes=10)
    services.arena_tick(arena=arena, now=end)
    assert Arena.objects.get(pk=arena.pk).status == "finished"
    assert len(_open(arena)) == 1 and not _player(arena, a).table_id  # a and b wait for nothing
    frame = arena_frame(Arena.objects.get(pk=arena.pk))
    assert frame["status"] == "finished" and frame["podium"] == []  # c-d still playing
    _win(cd, d)
    services.arena_tick(arena=arena, now=end + timedelta(minutes=2))
    assert ArenaMatch.objects.count() == 2
    ranks = {p.user.username: p.rank for p in ArenaPlayer.objects.select_related("user")}
    assert ranks["a"] in (1, 2) and ranks["d"] in (1, 2) and {ranks["b"], ranks["c"]} == {3, 4}
    frame = arena_frame(Arena.objects.get(pk=arena.pk))
    assert [r["player"] for r in frame["podium"]] == [r["player"] for r in frame["standings"][:3]]


def test_ties_are_broken_by_performance_then_fewer_matches(django_user_model):
    from arenas.scoring import rank_players

    a, b, c = (
        ArenaPlayer(user_id=i, score=4, matches=m, perf_sum=p, joined_at=T0)
        for i, m, p in ((1, 2, 3000.0), (2, 2, 3400.0), (3, 3, 4500.0))
    )
    assert [p.user_id for p in rank_players([a, b, c])] == [2, 1, 3]
    c.perf_sum = 3 * 1600.0  # the same performance as b, in more matches
    assert [p.user_id for p in rank_players([a, b, c])] == [2, 3, 1]
    b.perf_sum = c.perf_sum = 0.0
    b.matches, c.matches = 3, 2
    assert [p.user_id for p in rank_players([a, b, c])][:2] == [1, 3]


def test_a_parceria_arena_seats_four_with_partners_changing(django_user_model):
    users = _users(django_user_model, "a", "b", "c", "d", "e")
    arena = _arena(users, preset="parceria")
    services.arena_tick(arena=arena, now=T0)
    (first,) = _open(arena)
    assert len(first.users) == 4
    partners = {frozenset(first.users[0::2]), frozenset(first.users[1::2])}
    Match.objects.filter(room_id=first.room_id).update(over=True, winner=0)
    services.arena_tick(arena=arena, now=T0 + timedelta(minutes=5))
    points = ArenaMatch.objects.get(pk=first.pk).points
    assert points == {
        str(first.users[0]): 2,
        str(first.users[2]): 2,
        str(first.users[1]): 0,
        str(first.users[3]): 0,
    }
    (second,) = _open(arena)
    again = {frozenset(second.users[0::2]), frozenset(second.users[1::2])}
    assert not partners & again or len(set(second.users) - set(first.users)) > 0


def test_cancel_stops_pairing_and_scores_nothing(django_user_model):
    a, b, c, d = _users(django_user_model, "a", "b", "c", "d")
    arena = _arena([a, b, c, d])
    services.arena_tick(arena=arena, now=T0)
    services.arena_cancel(arena=arena)
    ab, cd = _open(arena)
    _win(ab, a)
    services.arena_tick(arena=arena, now=T0 + timedelta(minutes=1))
    assert _player(arena, a).score == 0
    assert arena_frame(Arena.objects.get(pk=arena.pk))["status"] == "finished"


# ---------------------------------------------------------------------- pages


def test_the_list_shows_public_arenas_and_the_page_joins_and_leaves(django_user_model):
    (ana,) = _users(django_user_model, "ana")
    public = services.arena_create(name="Aberta", preset="duelo", starts_at=_tomorrow(), minutes=30)
    services.arena_create(
        name="Fechada",
        preset="duelo",
        starts_at=_tomorrow(),
        minutes=30,
        visibility="private",
    )
    client = Client(enforce_csrf_checks=True)
    page = client.get("/torneios/").content.decode()
    assert "Aberta" in page and "Fechada" not in page
    detail = client.get(f"/torneios/{public.pk}/")
    assert detail.status_code == 200 and "data-arena-rules" in detail.content.decode()
    client.force_login(ana)
    page = client.get(f"/torneios/{public.pk}/")
    token = page.cookies["csrftoken"].value
    assert client.post(f"/torneios/{public.pk}/join/").status_code == 403  # no CSRF token
    response = client.post(f"/torneios/{public.pk}/join/", HTTP_X_CSRFTOKEN=token)
    assert response.status_code == 302
    assert ArenaPlayer.objects.get(arena=public, user=ana).active
    assert 'data-action="leave-arena"' in client.get(f"/torneios/{public.pk}/").content.decode()
    client.post(f"/torneios/{public.pk}/leave/", HTTP_X_CSRFTOKEN=token)
    assert not ArenaPlayer.objects.get(arena=public, user=ana).active


def test_joining_needs_an_account_and_a_private_arena_its_link(django_user_model):
    ana, bia = _users(django_user_model, "ana", "bia")
    client = Client()
    client.force_login(ana)
    response = client.post(
        reverse("arenas:new"),
        {"name": "Amigos", "preset": "parceria", "minutes": 30, "starts_in": 5, "move_seconds": ""},
    )
    assert response.status_code == 302
    arena = Arena.objects.get(name="Amigos")
    assert (
        arena.visibility == "private" and ArenaPlayer.objects.filter(arena=arena, user=ana).exists()
    )
    other = Client()
    assert (
        other.post(f"/torneios/{arena.pk}/join/").status_code == 404
    )  # private: not by its number
    other.force_login(bia)
    assert other.get(f"/torneios/{arena.pk}/").status_code == 404
    link = reverse("arenas:invite", args=[arena.invite_token])
    assert other.get(link).status_code == 200
    assert not ArenaPlayer.objects.filter(
        arena=arena, user=bia
    ).exists()  # opening a link joins nobody
    assert other.post(link).status_code == 302
    assert ArenaPlayer.objects.filter(arena=arena, user=bia).exists()
    anonymous = Client()
    public = services.arena_create(name="P", preset="duelo", starts_at=_tomorrow(), minutes=30)
    response = anonymous.post(f"/torneios/{public.pk}/join/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_the_profile_lists_arenas_played_with_rank(django_user_model):
    a, b = _users(django_user_model, "a", "b")
    arena = _arena([a, b], minutes=5)
    services.arena_tick(arena=arena, now=T0)
    (am,) = _open(arena)
    _win(am, b)
    services.arena_tick(arena=arena, now=T0 + timedelta(minutes=6))
    page = Client().get("/players/b/").content.decode()
    assert "data-profile-arenas" in page and f'data-arena-line="{arena.pk}"' in page
    assert "#1" in page.split("data-profile-arenas")[1]


def test_admins_schedule_and_cancel_arenas(django_user_model, admin_client):
    response = admin_client.post(
        "/admin/arenas/arena/add/",
        {
            "name": "Sexta",
            "preset": "duelo",
            "move_seconds": "30",
            "starts_at_0": "2026-12-10",
            "starts_at_1": "20:00:00",
            "minutes": "30",
            "visibility": "public",
            "players-TOTAL_FORMS": "0",
            "players-INITIAL_FORMS": "0",
            "arena_matches-TOTAL_FORMS": "0",
            "arena_matches-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    arena = Arena.objects.get(name="Sexta")
    assert admin_client.get(f"/admin/arenas/arena/{arena.pk}/change/").status_code == 200
    admin_client.post(
        "/admin/arenas/arena/", {"action": "cancel_arenas", "_selected_action": [arena.pk]}
    )
    assert Arena.objects.get(pk=arena.pk).status == "cancelled"


def test_the_cool_down_of_play_with_people_stops_pairing_until_it_ends(django_user_model):
    from records.models import Cooldown

    a, b, c = _users(django_user_model, "a", "b", "c")
    arena = _arena([a, b, c])
    Cooldown.objects.create(user=a, reason="left", started_at=T0, until=T0 + timedelta(minutes=10))
    services.arena_tick(arena=arena, now=T0)
    assert _pairs(arena) == [{"b", "c"}]
    (bc,) = _open(arena)
    _win(bc, b)
    services.arena_tick(arena=arena, now=T0 + timedelta(minutes=5))
    assert _pairs(arena) == [], "a still cools down; b and c just met"
    services.arena_tick(arena=arena, now=T0 + timedelta(minutes=11))
    assert "a" in set().union(*_pairs(arena))


def test_an_arena_table_links_back_to_its_arena_even_once_closed(django_user_model):
    a, b = _users(django_user_model, "a", "b")
    arena = _arena([a, b])
    services.arena_tick(arena=arena, now=T0)
    (am,) = _open(arena)
    code = Room.objects.get(pk=am.room_id).code
    client = Client()
    client.force_login(a)
    assert f'data-arena-link="{arena.pk}"' in client.get(f"/r/{code}/").content.decode()
    _win(am, a)
    services.arena_tick(arena=arena, now=T0 + timedelta(minutes=1))
    closed = client.get(f"/r/{code}/")
    assert closed.status_code == 410 and f'data-arena-link="{arena.pk}"' in closed.content.decode()


# ------------------------------------------------------- joining and leaving often


def _member(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _toggle(client: Client, arena, what: str):
    return client.post(f"/torneios/{arena.pk}/{what}/", HTTP_ACCEPT_LANGUAGE="en")


def test_a_join_after_six_joins_and_leaves_within_a_minute_waits_and_changes_nothing(
    django_user_model,
):
    """Each join or leave sends the standings to every watcher."""
    (ana,) = _users(django_user_model, "ana")
    arena = services.arena_create(name="Aberta", preset="duelo", starts_at=_tomorrow(), minutes=30)
    client = _member(ana)
    for what in ("join", "leave") * 3:
        assert _toggle(client, arena, what).status_code == 302
        world().advance(5)
    version = Arena.objects.get(pk=arena.pk).version
    refused = _toggle(client, arena, "join")  # 30 s after the first of the six
    assert refused.status_code == 429
    assert (
        "You joined and left this arena too often: wait 30 seconds before joining again."
        in refused.content.decode()
    )
    assert not _player(arena, ana).active
    assert Arena.objects.get(pk=arena.pk).version == version  # nothing told to the watchers
    world().advance(30)  # the first of the six is a minute old
    assert _toggle(client, arena, "join").status_code == 302
    assert _player(arena, ana).active


def test_a_leave_is_never_refused_but_counts(django_user_model):
    (ana,) = _users(django_user_model, "ana")
    arena = services.arena_create(name="Aberta", preset="duelo", starts_at=_tomorrow(), minutes=30)
    client = _member(ana)
    _toggle(client, arena, "join")
    world().advance(61)
    for what in ("leave", "join") * 3:
        assert _toggle(client, arena, what).status_code == 302
    assert _toggle(client, arena, "leave").status_code == 302  # the seventh: still out
    assert not _player(arena, ana).active
    assert _toggle(client, arena, "join").status_code == 429


def test_the_limit_is_per_person_and_arena(django_user_model):
    ana, bia = _users(django_user_model, "ana", "bia")
    arenas = [
        services.arena_create(name=n, preset="duelo", starts_at=_tomorrow(), minutes=30)
        for n in ("Uma", "Outra")
    ]
    ana_client = _member(ana)
    for what in ("join", "leave") * 3:
        _toggle(ana_client, arenas[0], what)
    assert _toggle(ana_client, arenas[0], "join").status_code == 429
    assert _toggle(ana_client, arenas[1], "join").status_code == 302
    assert _toggle(_member(bia), arenas[0], "join").status_code == 302


# ------------------------------------------- issue 40: on time, new opponents, quiet ticks


def _room_of(am: ArenaMatch) -> Room:
    return Room.objects.get(pk=am.room_id)


def _connect(am: ArenaMatch, index: int, now, ip_hash: str = "") -> None:
    rooms.seat_connected(
        room=_room_of(am), index=index, channel_name=f"chan-{index}", ip_hash=ip_hash, now=now
    )


def _disconnect(am: ArenaMatch, index: int, now) -> None:
    rooms.seat_disconnected(room=_room_of(am), index=index, channel_name=f"chan-{index}", now=now)


def _to_act(am: ArenaMatch) -> int:
    return current(_room_of(am)).engine().turn


def _podium(arena) -> list[str]:
    return [r["player"] for r in arena_frame(Arena.objects.get(pk=arena.pk))["podium"]]


def test_a_private_arena_table_does_not_wait_for_the_absent_player(django_user_model):
    """A private two-seat room waits for both, but not an arena's: two minutes
    away, the absent player's seat is given up (a forfeit) and the arena scores
    the match."""
    a, b = _users(django_user_model, "a", "b")
    arena = _arena([a, b], visibility="private", created_by=a)
    services.arena_tick(arena=arena, now=T0)
    (am,) = _open(arena)
    assert _room_of(am).is_private
    _connect(am, 0, T0)
    _connect(am, 1, T0)
    absent = _to_act(am)
    _disconnect(am, absent, T0 + timedelta(seconds=1))
    assert not room_state(room=_room_of(am), viewer=None)["room"]["waits_for_both"]
    assert current(_room_of(am)).due_kind == "auto"  # the public grace, then the automatic move
    rooms.rooms_sweep(now=T0 + timedelta(minutes=2, seconds=2))
    services.arena_tick(arena=arena, now=T0 + timedelta(minutes=2, seconds=3))
    present = (a, b)[1 - absent]
    assert ArenaMatch.objects.get(pk=am.pk).winners == [present.pk]
    assert _player(arena, present).score == 2


def test_a_finished_arena_ends_a_table_both_left_paused_and_stores_its_podium(
    django_user_model,
):
    """Issue 40: the last table of a private arena, paused with both players
    away, held the podium back for as long as the room lived (7 days). Five
    minutes after the end it is ended as it stands: the first to go loses."""
    a, b = _users(django_user_model, "a", "b")
    arena = _arena([a, b], minutes=10, visibility="private", created_by=a)
    services.arena_tick(arena=arena, now=T0)
    (am,) = _open(arena)
    # Both now play from one address: the match is no longer at stake, so the
    # empty room pauses and the absences stop running.
    _connect(am, 0, T0, ip_hash="home")
    _connect(am, 1, T0, ip_hash="home")
    first, last = _to_act(am), 1 - _to_act(am)
    _disconnect(am, first, T0 + timedelta(minutes=1))
    _disconnect(am, last, T0 + timedelta(minutes=2))
    assert _room_of(am).paused
    end = T0 + timedelta(minutes=10)
    for minutes in (0, 4):
        rooms.rooms_sweep(now=end + timedelta(minutes=minutes))
        services.arenas_sweep(now=end + timedelta(minutes=minutes))
        assert _open(arena) and _podium(arena) == []  # its people may still come back
    assert services.arenas_sweep(now=end + timedelta(minutes=5)) == 1
    assert not _open(arena) and _room_of(am).status == "closed"
    winner = (a, b)[last]
    assert ArenaMatch.objects.get(pk=am.pk).winners == [winner.pk]
    assert _podium(arena) == [winner.username, (a, b)[first].username]
    assert [_player(arena, u).rank for u in (winner, (a, b)[first])] == [1, 2]


def test_five_minutes_after_the_end_a_match_still_played_ends_as_it_stands(django_user_model):
    """Both still there: the side ahead on the match's points wins; level, a draw."""
    a, b, c, d = _users(django_user_model, "a", "b", "c", "d")
    arena = _arena([a, b, c, d], minutes=10)
    services.arena_tick(arena=arena, now=T0)
    ab, cd = _open(arena)
    for am in (ab, cd):
        _connect(am, 0, T0)
        _connect(am, 1, T0)
    match = Match.objects.get(room_id=ab.room_id)
    match.state = {**match.state, "scores": [3, 12]}  # seat 1's side leads
    match.save()
    end = T0 + timedelta(minutes=10)
    services.arenas_sweep(now=end + timedelta(minutes=4, seconds=59))
    assert len(_open(arena)) == 2
    services.arenas_sweep(now=end + timedelta(minutes=5))
    assert ArenaMatch.objects.get(pk=ab.pk).winners == [ab.users[1]]
    assert ArenaMatch.objects.get(pk=cd.pk).points == {str(u): 1 for u in cd.users}  # a draw
    assert len(_podium(arena)) == 3


def test_two_who_just_met_are_not_paired_again_while_someone_is_free_for_one_of_them(
    django_user_model, settings
):
    """The page says a new opponent whenever anyone else is free: here d (who
    plays from a's address, so never meets a) is free for b."""
    settings.ARENA_REMATCH_SECONDS = 20
    a, b, d = _users(django_user_model, "a", "b", "d")
    arena = _arena([a, b])
    services.arena_tick(arena=arena, now=T0)
    (ab,) = _open(arena)
    _win(ab, a)
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=60))
    assert _pairs(arena) == []
    later = T0 + timedelta(seconds=90)  # a and b have waited long enough to meet again
    services.arena_join(arena=arena, user=d, ip_hash="ip0", now=later)
    services.arena_tick(arena=arena, now=later)
    assert _pairs(arena) == [{"b", "d"}]
    assert _player(arena, a).table_id is None


def test_the_pairing_docstring_examples():
    assert doctest.testmod(pairing).failed == 0


def test_a_tick_with_nothing_to_do_leaves_the_version_as_it_was(django_user_model):
    a, b = _users(django_user_model, "a", "b")
    arena = _arena([a, b], minutes=10)
    services.arena_tick(arena=arena, now=T0)
    version = Arena.objects.get(pk=arena.pk).version
    for seconds in (1, 20, 45):
        assert not services.arena_tick(arena=arena, now=T0 + timedelta(seconds=seconds))
        assert services.arenas_sweep(now=T0 + timedelta(seconds=seconds)) == 0
    assert Arena.objects.get(pk=arena.pk).version == version
    (am,) = _open(arena)
    _win(am, a)
    assert services.arena_tick(arena=arena, now=T0 + timedelta(seconds=60))
    assert Arena.objects.get(pk=arena.pk).version == version + 1


def test_the_arena_page_states_the_rematch_rule_and_the_overtime_it_plays_by(settings):
    settings.ARENA_REMATCH_SECONDS = 45
    settings.ARENA_OVERTIME = timedelta(minutes=7)
    arena = services.arena_create(name="Aberta", preset="duelo", starts_at=_tomorrow(), minutes=30)
    page = Client().get(f"/torneios/{arena.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-arena-rematch="45"' in page and 'data-arena-overtime="7"' in page
    assert "never the same opponent twice in a row" not in page
    assert (
        "the two of you meet again only when nobody else can, once both have waited 45 seconds"
        in page
    )


def test_a_private_arenas_table_shows_no_invite_link(django_user_model):
    from rooms.selectors import room_state

    a, b = _users(django_user_model, "a", "b")
    arena = _arena([a, b], visibility="private", created_by=a)
    services.arena_tick(arena=arena, now=T0)
    (am,) = _open(arena)
    room = Room.objects.get(pk=am.room_id)
    assert room.visibility == "private"
    seated = Seat.objects.get(room=room, index=0)
    assert room_state(room=room, viewer=seated)["room"]["invite_url"] is None
