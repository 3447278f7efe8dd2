"""A side as the subject of a sentence (docs/site.md, "Names at the table"): the
verb agrees with the side's people, one or a partnership of two, and the points
take their own plural, both through the catalogs (static/js/table/sides.js,
/jsi18n/); zero is plural in Portuguese. Run in node with the catalog and the
table's strings the page would get."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from rooms.page_strings import TABLE, translated
from tests.node import BROWSER, module, needs_node, run

pytestmark = [needs_node, pytest.mark.django_db]

PORTUGUESE, ENGLISH = "pt-br", "en"


def _say(client, language: str, expression: str):
    """``expression`` over ``sides`` (static/js/table/sides.js) and the page's
    ``t``, with the catalog and the strings of ``language``."""
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override(language):
        strings = translated(TABLE)
    script = (
        BROWSER
        + f"new Function({json.dumps(catalog)}).call(globalThis);\n"
        + f"const util = await import({module('util.js')});\n"
        + f"const sides = await import({module('table', 'sides.js')});\n"
        + f"const t = util.makeT({json.dumps(strings)});\n"
        + f"process.stdout.write(JSON.stringify({expression}));\n"
    )
    return run(script)


SCORES = (
    '[["Ana"], ["Ana", "Dona Cida"]]'
    ".flatMap((names) => [0, 1, 2].map((n) => sides.sideScores(names, n, t)))"
)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            PORTUGUESE,
            [
                "Ana marca 0 pontos.",
                "Ana marca 1 ponto.",
                "Ana marca 2 pontos.",
                "Ana e Dona Cida marcam 0 pontos.",
                "Ana e Dona Cida marcam 1 ponto.",
                "Ana e Dona Cida marcam 2 pontos.",
            ],
        ),
        (
            ENGLISH,
            [
                "Ana scores 0 points.",
                "Ana scores 1 point.",
                "Ana scores 2 points.",
                "Ana and Dona Cida score 0 points.",
                "Ana and Dona Cida score 1 point.",
                "Ana and Dona Cida score 2 points.",
            ],
        ),
    ],
)
def test_a_sides_points_agree_with_its_people_and_its_points(client, language, words):
    assert _say(client, language, SCORES) == words


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        (
            PORTUGUESE,
            ["Ana venceu a rodada", "Ana também marca os pontos", "Ana vence a série por W.O."],
            [
                "Ana e Bia venceram a rodada",
                "Ana e Bia também marcam os pontos",
                "Ana e Bia vencem a série por W.O.",
            ],
        ),
        (
            ENGLISH,
            ["Ana won the round", "Ana also scores the opponents", "Ana wins the series"],
            [
                "Ana and Bia won the round",
                "Ana and Bia also score the opponents",
                "Ana and Bia win the series",
            ],
        ),
    ],
)
def test_every_sentence_whose_subject_is_a_side_agrees_with_it(client, language, one, two):
    said = _say(
        client,
        language,
        "[['Ana'], ['Ana', 'Bia']].map((names) => [sides.sideWonRound(names, t), "
        "sides.sideAlsoScores(names, 20, t), sides.sideWinsWalkover(names, t)])",
    )
    for sentences, starts in zip(said, (one, two), strict=True):
        for sentence, start in zip(sentences, starts, strict=True):
            assert sentence.startswith(start), (sentence, start)
