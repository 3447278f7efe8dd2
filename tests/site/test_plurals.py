"""Counts in words take the reader's plural (docs/site.md, "The interface speaks
Brazilian Portuguese"): Portuguese says the plural at zero ("0 pontos", "0 pedras",
"0 partidas"), and the lobby row counts people and bots apart ("1 pessoa, 0 bots").
The page scripts' words are run in node with the page's own catalog (/jsi18n/);
the pages rendered by the server go through the test client."""

from __future__ import annotations

import json
import re

import pytest

from records.models import Rating
from rooms import services
from tests.node import BROWSER, needs_node, run
from tests.node import module as js_module
from tests.site.helpers import fresh, seat

pytestmark = pytest.mark.django_db


def _in_node(client, language: str, module: str, expression: str):
    """``expression`` (over the imported ``module`` as ``m``) in node, with the
    catalog the page would load for ``language``."""
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    script = (
        BROWSER
        + f"new Function({json.dumps(catalog)}).call(globalThis);\n"
        + f"const m = await import({js_module(*module.split('/'))});\n"
        + f"process.stdout.write(JSON.stringify({expression}));\n"
    )
    return run(script)


PORTUGUESE, ENGLISH = "pt-br", "en"


# ------------------------------------------------------------------ the page scripts


@needs_node
@pytest.mark.parametrize(
    ("language", "words"),
    [(PORTUGUESE, ["0 pontos", "1 ponto", "2 pontos"]), (ENGLISH, ["0 pips", "1 pip", "2 pips"])],
)
def test_the_result_panels_points_say_the_plural_at_zero(client, language, words):
    assert _in_node(client, language, "table/panels.js", "[0, 1, 2].map(m.pipsText)") == words


@needs_node
@pytest.mark.parametrize(
    ("language", "words"),
    [
        (PORTUGUESE, ["0 pedras", "1 pedra", "2 pedras", ""]),
        (ENGLISH, ["0 tiles", "1 tile", "2 tiles", ""]),
    ],
)
def test_a_seats_tile_count_says_the_plural_at_zero(client, language, words):
    # Before the deal a taken seat has no tiles: "0 pedras"; an empty seat says nothing.
    seats = '[{kind: "human"}, {kind: "bot", tile_count: 1}, {kind: "human", tile_count: 2}, {kind: "empty"}]'
    assert _in_node(client, language, "table/seats.js", f"{seats}.map(m.tileCountText)") == words


@needs_node
@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            PORTUGUESE,
            ["0 pessoas, 0 bots", "1 pessoa, 0 bots", "1 pessoa, 1 bot", "2 pessoas, 2 bots"],
        ),
        (ENGLISH, ["0 people, 0 bots", "1 person, 0 bots", "1 person, 1 bot", "2 people, 2 bots"]),
    ],
)
def test_the_live_lobby_row_counts_people_and_bots_apart(client, language, words):
    rooms = json.dumps([{"humans": h, "bots": b} for h, b in ((0, 0), (1, 0), (1, 1), (2, 2))])
    assert _in_node(client, language, "lobby.js", f"{rooms}.map(m.peopleText)") == words


@needs_node
@pytest.mark.parametrize(
    ("language", "words"),
    [
        (PORTUGUESE, ["Partida até 1 ponto", "Partida até 2 pontos", "Quem chega a 1 ponto perde"]),
        (ENGLISH, ["Match to 1 point", "Match to 2 points", "Whoever reaches 1 point loses"]),
    ],
)
def test_the_scoreboards_target_takes_the_plural(client, language, words):
    expression = (
        '[m.targetText(1, "opponents"), m.targetText(2, "opponents"), m.targetText(1, "goat")]'
    )
    assert _in_node(client, language, "table/panels.js", expression) == words


# ------------------------------------------------------------------ pages from the server


def _lobby_people(client, language: str) -> str:
    html = client.get("/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = re.search(r'<li class="room-row".*?</li>', html, re.S).group(0)
    return re.search(r"<span[^>]*data-people>\(([^<]*)\)</span>", row).group(1)


def test_the_lobby_row_without_javascript_counts_people_and_bots_apart(make_user, clock, client):
    ana = make_user("ana")
    room = services.room_create(user=ana, name="Mesa da Ana", preset="parceria", now=clock())
    services.seat_connected(room=room, index=0, channel_name="c0", now=clock())
    client.force_login(ana)
    said = [(_lobby_people(client, PORTUGUESE), _lobby_people(client, ENGLISH))]
    for index in (1, 2):
        services.bot_add(
            room=fresh(room), actor=seat(room, 0), index=index, level="easy", now=clock()
        )
        said.append((_lobby_people(client, PORTUGUESE), _lobby_people(client, ENGLISH)))
    services.seat_take(room=fresh(room), index=3, user=make_user("bruno"), now=clock())
    said.append((_lobby_people(client, PORTUGUESE), _lobby_people(client, ENGLISH)))
    assert said == [
        ("1 pessoa, 0 bots", "1 person, 0 bots"),
        ("1 pessoa, 1 bot", "1 person, 1 bot"),
        ("1 pessoa, 2 bots", "1 person, 2 bots"),
        ("2 pessoas, 2 bots", "2 people, 2 bots"),
    ]


@pytest.mark.parametrize(
    ("matches", "portuguese", "english"),
    [
        (0, "de 0 partidas valendo rating", "from 0 rated matches"),
        (1, "de 1 partida valendo rating", "from 1 rated match:"),
        (2, "de 2 partidas valendo rating", "from 2 rated matches"),
    ],
)
def test_the_profile_counts_rated_matches_with_the_plural_at_zero(
    make_user, client, matches, portuguese, english
):
    ana = make_user("ana")
    if matches:
        Rating.objects.create(
            user=ana, preset="", mu=25, sigma=25 / 3, ordinal=0, matches=matches, wins=0, xp=0
        )
    page = f"/players/{ana.username}/"
    assert portuguese in client.get(page, HTTP_ACCEPT_LANGUAGE=PORTUGUESE).content.decode()
    assert english in client.get(page, HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()


@pytest.mark.parametrize(
    ("query", "portuguese", "english"),
    [
        (
            "com_monte/?seats=3&hand_size=9",
            "A outra pedra forma o monte",
            "The other tile forms the boneyard",
        ),
        (
            "com_monte/?seats=3&hand_size=8",
            "As outras 4 pedras formam o monte",
            "The other 4 tiles form the boneyard",
        ),
        (
            "sem_monte/?seats=3&hand_size=9",
            "A outra pedra dorme virada para baixo",
            "The other tile sleeps face down",
        ),
    ],
)
def test_the_rules_say_one_tile_left_over_in_the_singular(client, query, portuguese, english):
    # Three players with nine tiles each leave one of the 28 undealt.
    page = f"/regras/{query}"
    assert portuguese in client.get(page, HTTP_ACCEPT_LANGUAGE=PORTUGUESE).content.decode()
    assert english in client.get(page, HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()


@pytest.mark.parametrize(
    ("matches", "portuguese", "english"),
    [(1, "pelo menos 1 partida valendo rating.", "at least 1 rated match."),
     (2, "pelo menos 2 partidas valendo rating.", "at least 2 rated matches.")],
)  # fmt: skip
def test_the_rankings_minimum_of_matches_takes_the_plural(
    client, settings, matches, portuguese, english
):
    settings.RANKING_MIN_MATCHES = matches
    assert portuguese in client.get("/ranking/", HTTP_ACCEPT_LANGUAGE=PORTUGUESE).content.decode()
    assert english in client.get("/ranking/", HTTP_ACCEPT_LANGUAGE=ENGLISH).content.decode()


@needs_node
@pytest.mark.parametrize(
    ("language", "words"),
    [
        (PORTUGUESE, ["Anulação: 1 de 1 pessoa concorda.", "Anulação: 1 de 2 pessoas concordam."]),
        (ENGLISH, ["Annulment: 1 of 1 person agrees.", "Annulment: 1 of 2 people agree."]),
    ],
)
def test_the_annulment_note_counts_people_in_the_plural(client, language, words):
    assert (
        _in_node(client, language, "table/panels.js", "[1, 2].map((n) => m.annulText(1, n))")
        == words
    )
