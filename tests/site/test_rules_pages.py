"""The rules pages (docs/site.md, "Rules pages"): generated from each preset's
RuleSet, with a worked example scored by the engine, in pt-BR and English."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import translation

from games.engine import PRESETS, RuleSet
from games.rules_pages import sections, worked_example
from tests.rules_sections import RULES_SECTIONS

pytestmark = pytest.mark.django_db


def page(path: str, lang: str = "pt-br") -> str:
    response = Client(HTTP_ACCEPT_LANGUAGE=lang).get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def test_the_index_lists_every_table_with_a_link():
    html = page("/regras/")
    for key in PRESETS:
        assert f'href="/regras/{key}/"' in html
    assert "Regras do jogo" in html


@pytest.mark.parametrize("key", list(PRESETS))
def test_every_preset_has_a_page_with_every_section_and_an_example(key):
    html = page(f"/regras/{key}/")
    for section in RULES_SECTIONS:
        assert f'data-section="{section}"' in html, section
    assert "Exemplo" in html


def test_an_unknown_table_is_404():
    assert Client().get("/regras/xadrez/").status_code == 404


def test_english_when_asked():
    html = page("/regras/parceria/", lang="en")
    assert "A worked example" in html and "Four players in two fixed pairs" in html


def text(rules: RuleSet) -> str:
    """The page's lines, in English (the source texts these tests quote)."""
    with translation.override("en"):
        return " ".join(str(line) for s in sections(rules) for line in s["lines"])


def test_the_pages_follow_the_knobs_not_a_copy():
    # The same preset with another option says something else.
    assert "100 points" in text(RuleSet.preset("classico"))
    assert "150 points" in text(RuleSet.preset("classico", target=150))
    assert "boneyard to draw from" in text(RuleSet.preset("classico", seats=3))
    assert "boneyard to draw from" not in text(RuleSet.preset("classico", seats=4))
    assert "loses the match" in text(PRESETS["goat"])
    assert "walkover" in text(PRESETS["arena"])
    assert "all seven tiles" in text(PRESETS["arena"]) and "all seven tiles" not in text(
        PRESETS["duelo"]
    )
    assert "difference" in text(PRESETS["duelo"])


@pytest.mark.parametrize(
    "key, points",
    [
        (
            "parceria",
            [20, 0],
        ),  # opponents: 16 (seat 2) + 4 (seat 4); the partner's 4-4 does not count
        ("classico", [28, 0]),  # every hand: 16 + 8 + 4
        ("duelo", [16, 0]),  # the play-with-a-friend guide's example: 6-5 and 2-3 = 16
        ("arena", [1, 0]),  # series: one point a round
        ("goat", [0, 20]),  # penalty: the losers score their own hands (16 + 4)
    ],
)
def test_the_worked_example_is_scored_by_the_engine(key, points):
    example = worked_example(PRESETS[key])
    assert [row["points"] for row in example["scores"]] == points


def test_the_game_of_points_page_says_the_target_wins_at_the_play_that_reaches_it():
    # docs/rules.md, "The game of points": the first side to reach the target wins.
    reached = "a play that takes a side there ends the round, and the hands are not counted"
    assert reached in text(PRESETS["pontos"])
    assert reached not in text(PRESETS["parceria"])
    assert "O primeiro lado a chegar à meta da partida vence na hora" in page("/regras/pontos/")
