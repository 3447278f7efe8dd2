"""Rating passed between two accounts (docs/rated-play.md, "Rated results
between the same two people"): two accounts on different addresses trading
rated challenges and rematches, one losing on purpose. Their rated results
change ratings at most `rulebook.PAIR_RATED_LIMIT` times within
`rulebook.PAIR_WINDOW`, whoever challenged and whoever sat where; the next
table is not rated and says so before its match starts (the lobby's marker,
the table page, the snapshot's ``room.unrated``). Ten rated matches within a
week, one of them winning 80 % or more, make one entry in the moderators'
queue, "possible win trading", with the matches linked.

Everything goes through the real parts: the challenge and rematch forms, the
accept, the table's moves (`rooms.services.action_apply`), the page."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.admin.sites import site as admin_site
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext

from arenas import services as arenas
from arenas.models import ArenaMatch, ArenaPlayer
from domino_site.client_ip import ip_hash
from games.world import world
from people.challenges import challenge_frame
from people.models import Challenge, Report
from records import rulebook
from records.models import ALL_PRESETS, MatchLineup, RatingChange
from rooms import services as rooms
from rooms.models import Room, Seat
from rooms.selectors import room_state
from tests.site.helpers import current, fresh, set_deal
from tests.staff import sign_in_verified

ANA_IP, BRUNO_IP = "203.0.113.10", "198.51.100.20"
UNRATED = (
    "Not rated: two players here already had their rated matches against each other"
    " for the last 24 hours."
)


def _client(user, address: str) -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def _accept(user, address: str) -> Room:
    """``user`` accepts the challenge waiting for them: the table opens."""
    challenge = Challenge.objects.get(challenged=user, status=Challenge.Status.PENDING)
    answer = _client(user, address).post(f"/challenges/{challenge.pk}/accept/")
    assert answer.status_code == 302, answer
    room = Room.objects.get(code=answer["Location"].strip("/").split("/")[-1])
    assert answer["Location"] == f"/r/{room.code}/"
    return room


def _challenge(challenger, challenger_ip, challenged, challenged_ip) -> Room:
    sent = _client(challenger, challenger_ip).post(
        f"/friends/{challenged.username}/challenge/",
        {"preset": "duelo", "move_seconds": "20", "rated": "1"},
    )
    assert sent.status_code == 302
    return _accept(challenged, challenged_ip)


def _rematch(room, offerer, offerer_ip, other, other_ip) -> Room:
    offered = _client(offerer, offerer_ip).post(f"/rematch/{room.code}/")
    assert offered.status_code == 302
    return _accept(other, other_ip)


def _play(room, index: int, tile: str) -> None:
    rnd = current(room)
    legal = rnd.engine().legal_actions(index)
    (action,) = [a for a in legal if a.to_dict().get("tile") == tile][:1]
    table = fresh(room)
    rooms.action_apply(
        room=table,
        seat_index=index,
        action=action.to_dict(),
        version=table.version,
        now=world().now(),
    )


def _lose_on_purpose(room, winner) -> None:
    """The duelo's deal is one the winner wins in three moves, each person
    making theirs: the other plays along and loses."""
    w = Seat.objects.get(room=room, user=winner).index
    loser = 1 - w
    hands = [[], []]
    hands[w], hands[loser] = ["6-6", "5-6"], ["4-6", "0-0"]
    set_deal(fresh(room), hands=hands, opener=w)
    _play(room, w, "6-6")
    _play(room, loser, "4-6")
    _play(room, w, "5-6")
    match = current(room).match
    match.refresh_from_db()
    assert match.over and match.winner == w


def _rated_between(a, b) -> int:
    """How many matches changed both accounts' ratings."""
    theirs = RatingChange.objects.filter(preset=ALL_PRESETS)
    return len(
        set(theirs.filter(user=a).values_list("match", flat=True))
        & set(theirs.filter(user=b).values_list("match", flat=True))
    )


def _page(user, address: str, room) -> str:
    return _client(user, address).get(f"/r/{room.code}/").content.decode()


@pytest.mark.django_db(transaction=True)
def test_a_pair_has_three_rated_results_a_day_and_the_table_says_so_before_it_starts(
    make_user,
):
    ana, bruno = make_user("ana"), make_user("bruno")
    assert rulebook.PAIR_RATED_LIMIT == 3 and rulebook.PAIR_WINDOW == timedelta(hours=24)
    # in either order and on either side: a challenge each way, then a rematch
    room = _challenge(ana, ANA_IP, bruno, BRUNO_IP)
    assert challenge_frame(Challenge.objects.get(room=room))["unrated"] is None
    assert fresh(room).rated and 'data-unrated role="note" hidden' in _page(ana, ANA_IP, room)
    _lose_on_purpose(room, winner=bruno)
    room = _challenge(bruno, BRUNO_IP, ana, ANA_IP)
    _lose_on_purpose(room, winner=bruno)
    room = _rematch(room, bruno, BRUNO_IP, ana, ANA_IP)
    assert fresh(room).rated
    _lose_on_purpose(room, winner=bruno)
    assert _rated_between(ana, bruno) == 3
    # the fourth table is not rated, and says so before its match starts: the
    # offer already says it (the challenge frame), then the table
    offered = _client(ana, ANA_IP).post(f"/rematch/{room.code}/")
    assert offered.status_code == 302
    offer = Challenge.objects.get(challenged=bruno, status=Challenge.Status.PENDING)
    assert challenge_frame(offer)["unrated"] == "pair_limit" and offer.competitive
    room = _accept(bruno, BRUNO_IP)
    lineup = MatchLineup.objects.get(match=current(room).match)
    assert not lineup.rated and lineup.reason == "pair_limit"
    assert not fresh(room).rated
    assert room_state(room=fresh(room), viewer=None)["room"]["unrated"] == "pair_limit"
    page = _page(bruno, BRUNO_IP, room)
    assert 'data-unrated role="note">' in page
    assert UNRATED in page
    with translation.override("pt-br"):
        assert gettext(UNRATED).startswith("Sem ranking: dois jogadores desta mesa")
    _lose_on_purpose(room, winner=bruno)
    assert _rated_between(ana, bruno) == 3  # the fourth moved nobody's rating
    # the table before a match: an open seat with the other seated, in the lobby too
    lobby = rooms.room_create(user=ana, name="Mesa", preset="duelo", ip_hash="h-ana")
    rooms.seat_take(room=lobby, index=1, user=bruno, ip_hash="h-bruno")
    assert not fresh(lobby).rated
    assert room_state(room=fresh(lobby), viewer=None)["room"]["unrated"] == "pair_limit"
    # a day after the first, one rated result is free again
    world().advance(24 * 3600 + 60)
    room = _rematch(room, bruno, BRUNO_IP, ana, ANA_IP)
    assert fresh(room).rated
    _lose_on_purpose(room, winner=bruno)
    assert _rated_between(ana, bruno) == 4


@pytest.mark.django_db(transaction=True)
def test_ten_rated_matches_in_a_week_mostly_won_by_one_go_to_the_moderators_once(
    make_user, admin_user
):
    ana, bruno = make_user("ana"), make_user("bruno")
    assert rulebook.WIN_TRADING_MATCHES == 10 and rulebook.WIN_TRADING_PERCENT == 80
    room = None
    played = 0
    winners = [bruno] * 8 + [ana] + [bruno] * 3  # bruno wins 8 of the first 10, 11 of 12
    for _day in range(4):
        for _ in range(rulebook.PAIR_RATED_LIMIT):
            if played == len(winners):
                break
            if room is None:
                room = _challenge(ana, ANA_IP, bruno, BRUNO_IP)
            else:
                room = _rematch(room, ana, ANA_IP, bruno, BRUNO_IP)
            _lose_on_purpose(room, winner=winners[played])
            played += 1
            if played < rulebook.WIN_TRADING_MATCHES:
                assert not Report.objects.exists(), played
        world().advance(24 * 3600 + 60)
    assert _rated_between(ana, bruno) == 12
    (report,) = Report.objects.all()  # one entry for the pair, however many matches follow
    assert report.reason == "win_trading" and report.reporter is None
    assert (report.reported, report.against, report.status) == (bruno, ana, "open")
    assert report.matches.count() == 12  # the rated matches between them in the week
    with translation.override("pt-br"):
        assert str(report.get_reason_display()) == "Possível troca de vitórias"
    # the queue shows it, the matches linked
    links = admin_site._registry[Report].match_links(report)
    assert links.count('href="/admin/games/match/') == 12
    client = Client()
    sign_in_verified(client, admin_user)
    queue = client.get("/admin/people/report/").content.decode()
    assert "Possible win trading" in queue
    detail = client.get(f"/admin/people/report/{report.pk}/change/").content.decode()
    for match in report.matches.all():
        assert f'href="/admin/games/match/{match.pk}/change/">#{match.pk} (' in detail


@pytest.mark.django_db(transaction=True)
def test_an_arena_match_past_the_pair_limit_scores_but_rates_nobody(make_user):
    """The arena may pair the two again (its pairing knows no ratings' limit):
    their match is not rated, and still earns its arena points."""
    ana, bruno = make_user("ana"), make_user("bruno")
    room = None
    for _ in range(rulebook.PAIR_RATED_LIMIT):
        room = (
            _challenge(ana, ANA_IP, bruno, BRUNO_IP)
            if room is None
            else _rematch(room, ana, ANA_IP, bruno, BRUNO_IP)
        )
        _lose_on_purpose(room, winner=ana)
    arena = arenas.arena_create(name="Noite", preset="duelo", starts_at=world().now(), minutes=60)
    for user, address in ((ana, ANA_IP), (bruno, BRUNO_IP)):
        arenas.arena_join(arena=arena, user=user, ip_hash=ip_hash(address))
    arenas.arena_tick(arena=arena, now=world().now())
    am = ArenaMatch.objects.get(arena=arena)
    lineup = MatchLineup.objects.get(match=current(am.room).match)
    assert (lineup.rated, lineup.reason) == (False, "pair_limit")
    assert room_state(room=fresh(am.room), viewer=None)["room"]["unrated"] == "pair_limit"
    _lose_on_purpose(am.room, winner=bruno)
    arenas.arena_tick(arena=arena, now=world().now())
    scores = dict(ArenaPlayer.objects.filter(arena=arena).values_list("user__username", "score"))
    assert scores["bruno"] > 0 and scores["ana"] == 0
    assert _rated_between(ana, bruno) == rulebook.PAIR_RATED_LIMIT
