"""The records of the partida de 6 (docs/site.md, "Accounts, records,
ranking"): ratings and statistics per preset, and the carroças, lá-e-lôs and
cruzadas a person made with their own last tile (in parceria, only the partner
who played it), read through the profile and the ranking pages after rounds
played through the rooms' services, as at a real table."""

from __future__ import annotations

import pytest
from django.utils import translation

from domino_site.client_ip import ip_hash
from games import services as games
from games.models import Move, Round
from records.models import Rating
from records.selectors import MADE_KINDS
from rooms import services
from tests.site.helpers import current, fresh, play_round, room_with_bots, seat, set_deal
from tests.site.test_partida_tables import play_match

pytestmark = pytest.mark.django_db


def _play_out(room, clock, plays: dict[int, list[tuple[str, str | None]]]) -> Round:
    """Play the current round with the tiles each seat plays in order (``(tile,
    end)``), passing whenever a seat can do nothing else."""
    for _ in range(40):
        rnd = current(room)
        if rnd.finished_at is not None:
            return rnd
        eng = rnd.engine()
        index = games.acting_seats(eng)[0]
        legal = [a.to_dict() for a in eng.legal_actions(index)]
        if legal == [{"type": "pass"}]:
            action = legal[0]
        else:
            tile, end = plays[index].pop(0)
            action = next(
                a for a in legal if a.get("tile") == tile and (end is None or a.get("end") == end)
            )
        services.action_apply(
            room=fresh(room), seat_index=index, action=action, version=None, now=clock()
        )
    raise AssertionError("the round did not end")


def _deal_and_play(room, clock, hands, plays) -> Round:
    set_deal(fresh(room), hands=hands, opener=0)
    return _play_out(room, clock, plays)


# Four rounds of a partida de 6 for two (partida_dois, 2 + 3 + 4 ... to 6):
LA_E_LO = (  # ana opens 0-3, bruno 0-5 on A (ends 5 and 3), ana's 3-5 fits either end
    [["0-3", "3-5"], ["0-5", "6-6"]],
    {0: [("0-3", None), ("3-5", "B")], 1: [("0-5", "A")]},
)
CARROCA = (  # ana opens 2-5, bruno 2-6 (ends 6 and 5), ana's 6-6 fits the 6 only
    [["2-5", "6-6"], ["2-6", "1-1"]],
    {0: [("2-5", None), ("6-6", None)], 1: [("2-6", None)]},
)
CRUZADA = (  # bruno 2-6 and 5-6 on ana's 2-5 (ends 6 and 6), then 6-6 on both
    [["2-5", "0-1"], ["2-6", "5-6", "6-6"]],
    {0: [("2-5", None)], 1: [("2-6", None), ("5-6", "B"), ("6-6", None)]},
)


@pytest.fixture
def partida_dois(make_user, clock, settings):
    """A rated partida_dois between ana and bruno played to its end: ana makes a
    lá-e-lô (3), a carroça (2), bruno a cruzada (4), ana another lá-e-lô (3)."""
    settings.RANKING_MIN_MATCHES = 1
    ana, bruno = make_user("ana"), make_user("bruno")
    room = services.room_create(
        user=ana, name="Mesa", preset="partida_dois", ip_hash=ip_hash("203.0.113.1"), now=clock()
    )
    services.seat_take(room=room, index=1, user=bruno, ip_hash=ip_hash("203.0.113.2"), now=clock())
    assert fresh(room).rated
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    hows = []
    for hands, plays in (LA_E_LO, CARROCA, CRUZADA, LA_E_LO):
        if current(room).finished_at is not None:
            for index in (0, 1):
                services.player_ready(room=fresh(room), actor=seat(room, index), now=clock())
        rnd = _deal_and_play(room, clock, hands, {k: list(v) for k, v in plays.items()})
        hows.append(rnd.result["how"])
    assert hows == ["la_e_lo", "carroca", "cruzada", "la_e_lo"]
    match = current(room).match
    assert match.over and match.winner == 0
    return {"ana": ana, "bruno": bruno, "room": fresh(room)}


def test_the_profile_counts_what_each_made_with_their_own_last_tile(client, partida_dois):
    with translation.override("en"):
        response = client.get("/players/ana/", HTTP_ACCEPT_LANGUAGE="en")
    stats = response.context["stats"]
    assert stats["made"] == {"carroca": 1, "la_e_lo": 2, "cruzada": 0}
    (row,) = stats["by_preset"]
    assert (row.preset, row.matches, row.won, row.lost, row.rounds, row.dominoes) == (
        "partida_dois", 1, 1, 0, 4, 3,
    )  # fmt: skip
    assert row.made == stats["made"]
    # The preset's own rating, the same one the ranking filtered by it shows.
    own = Rating.objects.get(user=partida_dois["ana"], preset="partida_dois")
    assert (row.rating.matches, row.rating.wins, row.rating.xp) == (1, 1, own.xp)
    html = response.content.decode()
    assert "Carroças" in html and "Lá-e-lôs" in html and "Cruzadas" in html
    assert 'data-preset="partida_dois"' in html and "/ranking/?preset=partida_dois" in html
    bruno = client.get("/players/bruno/").context["stats"]
    assert bruno["made"] == {"carroca": 0, "la_e_lo": 0, "cruzada": 1}
    assert bruno["by_preset"][0].lost == 1


def test_the_ranking_of_the_preset_lists_its_rated_players(client, partida_dois):
    rows = client.get("/ranking/?preset=partida_dois").context["rows"]
    assert [r["username"] for r in rows] == ["ana", "bruno"]
    assert [r["wins"] for r in rows] == [1, 0]
    assert client.get("/ranking/?preset=partida").context["rows"] == []
    profile = client.get("/players/ana/").context["stats"]["by_preset"][0]
    assert profile.rating.value == rows[0]["rating"]


def test_a_partner_s_last_tile_is_theirs_alone(client, make_user, clock):
    """A partida in parceria played to its end with bots (ana at seat 0, her
    partner the bot at seat 2): the profile counts exactly the rounds whose last
    tile ana played, as an independent count from the move log says."""
    room = room_with_bots(make_user("ana"), clock(), preset="partida")
    played = play_match(room, clock)
    expected = dict.fromkeys(MADE_KINDS, 0)
    for rnd in played:
        last = Move.objects.filter(round=rnd, action__type="play").order_by("-seq").first()
        how = rnd.result.get("how")
        if how in MADE_KINDS:
            tile = last.action["tile"]
            assert (tile[0] == tile[-1]) == (how in ("carroca", "cruzada"))  # a double or not
            if last.seat == 0:  # not 2, her partner's
                expected[how] += 1
    stats = client.get("/players/ana/").context["stats"]
    assert stats["made"] == expected
    assert stats["by_preset"][0].rating is None  # bots at the table: never rated
    assert stats["rounds"] == len(played)


def test_made_is_shown_only_to_who_played_a_partida(client, make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    while not play_round(fresh(room), clock()).match.over:
        services.round_next(room=fresh(room), actor=seat(room, 0), now=clock())
    with translation.override("en"):
        response = client.get("/players/ana/", HTTP_ACCEPT_LANGUAGE="en")
    stats = response.context["stats"]
    assert stats["made"] is None
    assert [(r.preset, r.made) for r in stats["by_preset"]] == [("duelo", None)]
    html = response.content.decode()
    assert "Carroças" not in html and "data-made" not in html
    assert 'data-preset="duelo"' in html


def test_an_annulled_partida_counts_in_no_statistic(client, make_user, clock):
    ana, bruno = make_user("ana"), make_user("bruno")
    room = services.room_create(user=ana, name="Mesa", preset="partida_dois", now=clock())
    services.seat_take(room=room, index=1, user=bruno, now=clock())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=clock())
    hands, plays = LA_E_LO
    assert _deal_and_play(room, clock, hands, {k: list(v) for k, v in plays.items()}).result
    for index in (0, 1):
        services.annul_vote(room=fresh(room), actor=seat(room, index), now=clock())
    assert current(room).match.annulled
    stats = client.get("/players/ana/").context["stats"]
    assert (stats["made"], stats["by_preset"], stats["rounds"]) == (None, [], 0)
