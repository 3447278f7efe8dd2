"""Rated tables, experience and the skill rating (docs/site.md, "Accounts, records,
ranking"; records.services).

A table is rated when every seat is a human with an account and no two of them
connect from one address; only rated, finished, not annulled matches move
experience points (the winners share 10 per player at the table, every loser
earns 5) and the rating (openskill, partners as a team), in the transaction that
finishes the match. The numbers below are the ones people see: the conservative
rating (mu - 3 sigma) x 60, which is 0 for a newcomer, and its uncertainty
(sigma x 60, 500 for a newcomer).
"""

from __future__ import annotations

import pytest

from domino_site.client_ip import ip_hash
from games.models import Match
from records import selectors as records
from records.models import ALL_PRESETS, MatchLineup, Rating, RatingChange, RoundPlayer
from rooms import selectors as room_selectors
from rooms import services
from rooms.errors import ServiceError
from rooms.models import Room
from tests.site.helpers import current, fresh, play_round, seat

pytestmark = pytest.mark.django_db

HOME = ip_hash("198.51.100.7")


def address(n: int) -> str:
    return ip_hash(f"203.0.113.{n}")


def _table(users, clock, preset, ips=None, visibility="public", guest_at=None, bot_at=None):
    """A room of ``preset`` with ``users`` seated in order (each from its own
    address unless ``ips`` says otherwise)."""
    ips = ips or [address(i + 1) for i in range(len(users))]
    room = services.room_create(
        user=users[0],
        name="Mesa",
        preset=preset,
        visibility=visibility,
        ip_hash=ips[0],
        now=clock(),
    )
    for index in range(1, room.seat_count):
        if index == guest_at:
            services.seat_take_by_invite(
                token=room.invite_token, guest_token="a-guest", ip_hash=address(90), now=clock()
            )
        elif index == bot_at:
            services.bot_add(room=fresh(room), actor=seat(room, 0), index=index, level="easy")
        else:
            services.seat_take(
                room=fresh(room), index=index, user=users[index], ip_hash=ips[index], now=clock()
            )
    return fresh(room)


def _play_match(room, clock) -> Match:
    before = current(room)
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    if current(room) == before:  # a single-round table: every human accepts the next game
        services.match_start(room=fresh(room), actor=seat(room, 1), now=clock())
    for _ in range(40):
        rnd = play_round(fresh(room), clock())
        if rnd.match.over:
            return Match.objects.get(pk=rnd.match_id)
        services.round_next(room=fresh(room), actor=seat(room, 0), now=clock())
    raise AssertionError("the match did not end")


def _shown(user):
    got = records.shown_rating(user)
    return got.value, got.uncertainty, got.matches, got.xp


def _nothing_moved(users):
    assert not Rating.objects.filter(user__in=users).exists()
    assert not RatingChange.objects.filter(user__in=users).exists()
    assert all(_shown(u) == (0, 500, 0, 0) for u in users)


# ------------------------------------------------------------------ rated matches


def test_a_rated_duelo_moves_xp_and_rating_of_winner_and_loser(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _table([ana, bruno], clock, "duelo")
    assert room.rated  # the lobby's and the table's "competitive" marker
    assert (_shown(ana), _shown(bruno)) == ((0, 500, 0, 0), (0, 500, 0, 0))

    match = _play_match(room, clock)
    winner, loser = (ana, bruno) if match.winner == 0 else (bruno, ana)
    # 10 points per player at the table (2) to the single winner, 5 to the loser;
    # the rating moves from 0 +- 500 (mu 25, sigma 8.333) by openskill's update.
    assert _shown(winner) == (206, 484, 1, 20)
    assert _shown(loser) == (-110, 484, 1, 5)
    # The same numbers for the preset's own rating, and one history row each.
    duelo = Rating.objects.get(user=winner, preset="duelo")
    assert (duelo.matches, duelo.xp, round(duelo.mu, 4)) == (1, 20, 27.6354)
    assert RatingChange.objects.filter(match=match, preset=ALL_PRESETS).count() == 2
    assert records.match_rating_changes(match) == [
        {"seat": i, "before": 0, "after": 206 if won else -110, "xp": 20 if won else 5}
        for i, won in enumerate(u == winner for u in (ana, bruno))
    ]


def test_a_rated_parceria_moves_partners_as_a_team(make_user, clock):
    users = [make_user(f"p{i}") for i in range(4)]
    room = _table(users, clock, "parceria")
    assert room.rated
    match = _play_match(room, clock)
    winners = [u for i, u in enumerate(users) if i % 2 == match.winner]
    losers = [u for u in users if u not in winners]
    # The winning pair shares 10 x 4 players: 20 each; every loser earns 5.
    # Partners move together, by the same amount.
    assert {_shown(u) for u in winners} == {(146, 491, 1, 20)}
    assert {_shown(u) for u in losers} == {(-90, 491, 1, 5)}
    changes = RatingChange.objects.filter(match=match, preset=ALL_PRESETS)
    assert sorted((c.seat, c.side, c.won) for c in changes) == [
        (i, i % 2, i % 2 == match.winner) for i in range(4)
    ]


def test_a_second_rated_match_builds_on_the_first(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _table([ana, bruno], clock, "duelo")
    first = _play_match(room, clock)
    second = _play_match(fresh(room), clock)
    assert fresh(room).rated
    for user in (ana, bruno):
        value, uncertainty, matches, xp = _shown(user)
        wins = [first.winner, second.winner].count(0 if user == ana else 1)
        assert matches == 2 and xp == 20 * wins + 5 * (2 - wins)
        assert uncertainty < 484  # each match makes the estimate surer
    history = records.rating_chart(ana)
    assert history["matches"] == 2 and len(history["points"]) == 3
    assert history["first"] == 0 and history["last"] == _shown(ana)[0]


# ------------------------------------------------------------------ no rating


def test_two_accounts_at_one_address_earn_nothing(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _table([ana, bruno], clock, "duelo", ips=[HOME, HOME])
    assert not room.rated
    match = _play_match(room, clock)
    assert match.over and MatchLineup.objects.get(match=match).reason == "shared_ip"
    _nothing_moved([ana, bruno])


def test_ipv6_addresses_of_one_household_count_as_one(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    ips = [ip_hash("2001:db8:1:2::10"), ip_hash("2001:db8:1:2:aaaa::99")]
    assert not _table([ana, bruno], clock, "duelo", ips=ips).rated


def test_a_guest_at_the_table_makes_it_unrated(make_user, clock):
    host = make_user("host")
    room = _table([host, None], clock, "duelo", visibility="private", guest_at=1)
    assert not room.rated
    match = _play_match(room, clock)
    assert MatchLineup.objects.get(match=match).reason == "guest"
    _nothing_moved([host])


def test_a_bot_at_the_table_makes_it_unrated(make_user, clock):
    users = [make_user(f"p{i}") for i in range(4)]
    room = _table(users, clock, "parceria", bot_at=3)
    assert not room.rated
    _play_match(room, clock)
    _nothing_moved(users[:3])


def test_an_unknown_address_makes_it_unrated(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _table([ana, bruno], clock, "duelo", ips=[address(1), ""])
    assert not room.rated
    _play_match(room, clock)
    _nothing_moved([ana, bruno])


def test_an_annulled_match_counts_for_nobody(make_user, clock):
    users = [make_user(f"p{i}") for i in range(4)]
    room = _table(users, clock, "parceria")
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    for index in range(4):
        services.annul_vote(room=fresh(room), actor=seat(room, index), now=clock())
    match = Match.objects.get(room=room)
    assert match.over and match.annulled
    _nothing_moved(users)


def test_leaving_a_rated_match_midway_is_a_forfeit_and_the_next_match_is_rated(make_user, clock):
    """Nobody changes who plays a rated match: leaving it before its end loses it
    for the leaver's side (docs/rated-play.md, "Forfeits"), in the ratings too."""
    users = [make_user(f"p{i}") for i in range(5)]
    room = _table(users[:4], clock, "parceria")
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    rnd = play_round(fresh(room), clock())
    assert not rnd.match.over
    services.seat_leave(room=fresh(room), index=3, actor=seat(room, 3), now=clock())
    match = Match.objects.get(pk=rnd.match_id)
    assert match.over and match.ended_by == "abandono" and match.winner == 0
    won = dict(
        RatingChange.objects.filter(match=match, preset=ALL_PRESETS).values_list(
            "user__username", "won"
        )
    )
    assert won == {"p0": True, "p2": True, "p1": False, "p3": False}
    services.seat_take(room=fresh(room), index=3, user=users[4], ip_hash=address(5), now=clock())
    assert fresh(room).rated  # the next match, with these five's four, would be rated


def test_two_players_who_come_to_share_an_address_stop_the_rating(make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = _table([ana, bruno], clock, "duelo")
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    # Bruno's socket now comes from Ana's address.
    services.seat_connected(
        room=fresh(room), index=1, channel_name="specific.x!1", ip_hash=address(1), now=clock()
    )
    assert not fresh(room).rated
    match = Match.objects.get(pk=play_round(fresh(room), clock()).match_id)
    assert match.over
    _nothing_moved([ana, bruno])


# ------------------------------------------------------------------ round players


def test_every_round_remembers_its_humans(make_user, clock):
    host = make_user("host")
    room = _table([host, None], clock, "duelo", visibility="private", guest_at=1)
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    rnd = current(room)
    people = {
        (p.index, p.user_id, bool(p.guest_key)) for p in RoundPlayer.objects.filter(round=rnd)
    }
    assert people == {(0, host.pk, False), (1, None, True)}
    assert room_selectors.sat_at(room=room, guest_token="a-guest")
    assert not room_selectors.sat_at(room=room, guest_token="another-guest")


def test_public_rooms_have_no_invite_and_no_guest_seat(make_user, clock):
    room = services.room_create(user=make_user(), name="Mesa", preset="duelo", now=clock())
    with pytest.raises(ServiceError) as info:
        services.seat_take_by_invite(token=room.invite_token, guest_token="g", now=clock())
    assert info.value.reason == "not_found"
    with pytest.raises(ServiceError) as info:
        services.seat_take(room=room, index=1, guest_token="g", now=clock())
    assert info.value.reason == "login_required"
    assert Room.objects.get(pk=room.pk).seats.filter(guest_token__isnull=False).count() == 0


def test_a_reserved_seat_keeps_its_address_until_the_result(make_user, clock):
    users = [make_user(f"p{i}") for i in range(4)]
    room = _table(users[:3], clock, "parceria", bot_at=3)
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    services.seat_take(room=fresh(room), index=3, user=users[3], ip_hash=address(4), now=clock())
    assert seat(room, 3).kind == "bot" and seat(room, 3).reserved_ip_hash == address(4)
    play_round(fresh(room), clock())  # the reservation is honoured at the result
    taken = seat(room, 3)
    assert (taken.user, taken.ip_hash, taken.reserved_ip_hash) == (users[3], address(4), "")
    # Four accounts now, but the match in progress started with a bot: the marker
    # comes back only with the next match.
    assert fresh(room).rated is current(room).match.over
