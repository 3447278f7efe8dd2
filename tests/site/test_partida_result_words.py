"""The partida's result says what the rules page counts (docs/rules.md, "How a
round is won"): a round won after a blocked game shows the win's own points and
the carried points apart ("Lá-e-lô! +3, mais 1 do jogo fechado"), on the table's
panel and log (the round-end snapshot), on the replay page, with the rules page
saying 3 and 1; and the partida's panel lists no pips ("30 pontos"), which do
not count there. A round is played through the services; its result is said by
the page's own modules in node, with the page's strings and plural catalog."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import translation

from rooms import services
from rooms.page_strings import TABLE, translated
from rooms.selectors import room_state
from tests.node import BROWSER, module, needs_node, run
from tests.site.helpers import fresh, set_deal, two_humans

pytestmark = [pytest.mark.django_db, needs_node]

PORTUGUESE = "pt-br"


def won_after_a_blocked_round(make_user, clock):
    """A partida_dois round worth 1 more (one blocked round before it), won by
    seat 0 with a lá-e-lô: 2-3, 2-5 on A, then 3-5 against ends 5 and 3."""
    room, ana, _ = two_humans(make_user, clock(), preset="partida_dois")
    services.match_start(room=room, actor=ana, now=clock())
    set_deal(fresh(room), hands=[["2-3", "3-5"], ["2-5", "6-6"]], opener=0, bonus=1)
    for index, action in (
        (0, {"type": "play", "tile": "2-3", "end": None}),
        (1, {"type": "play", "tile": "2-5", "end": "A"}),
        (0, {"type": "play", "tile": "3-5", "end": "A"}),
    ):
        room = fresh(room)
        services.action_apply(
            room=room, seat_index=index, action=action, version=room.version, now=clock()
        )
    return fresh(room), ana


def said(client, expression: str, values: dict, language: str = PORTUGUESE):
    """``expression`` over table/moves.js (``moves``), table/panels.js (``panels``)
    and ``values`` in node, with the page's strings (``t``) and plural catalog."""
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    with translation.override("pt-br" if language == PORTUGUESE else "en"):
        strings = translated(TABLE)
    script = (
        BROWSER
        + f"new Function({json.dumps(catalog)}).call(globalThis);\n"
        + f"const util = await import({module('util.js')});\n"
        + f"const moves = await import({module('table', 'moves.js')});\n"
        + f"const panels = await import({module('table', 'panels.js')});\n"
        + f"const t = util.makeT({json.dumps(strings)});\n"
        + f"const v = {json.dumps(values)};\n"
        + f"process.stdout.write(JSON.stringify({expression}));\n"
    )
    return run(script)


def test_a_win_after_a_blocked_round_says_its_own_points_and_the_carried_one_apart(
    make_user, clock, client
):
    room, ana = won_after_a_blocked_round(make_user, clock)
    result = room_state(room=room, viewer=ana)["round"]["result"]  # the round-end payload
    assert (result["how"], result["points"], result["carried"]) == ("la_e_lo", [4, 0], 1)
    words = said(client, "moves.howText(v.result, t)", {"result": result})
    assert words == "Lá-e-lô! +3, mais 1 do jogo fechado"
    # The replay page's last position carries the same result, said the same way.
    client.force_login(ana.user)
    page = client.get(f"/r/{room.code}/rounds/1/?match=1", HTTP_ACCEPT_LANGUAGE=PORTUGUESE)
    final = page.context["boot"]["positions"][-1]["result"]
    assert final == result
    assert said(client, "moves.reasonText(v.result, t)", {"result": final}) == words
    # The rules page counts the same: a lá-e-lô is 3 points, a blocked game 1 more.
    rules = client.get("/regras/partida_dois/", HTTP_ACCEPT_LANGUAGE=PORTUGUESE)
    text = re.sub(r"\s+", " ", rules.content.decode())
    assert re.search(r"Lá-e-lô: [^<]*3 pontos\.", text)
    assert "Jogo fechado não vale pontos: a próxima rodada vale 1 ponto a mais" in text


def test_two_blocked_rounds_carried_say_the_plural_and_a_plain_win_says_no_carry(client):
    result = {"how": "carroca", "winner": 1, "points": [0, 4], "carried": 2}
    assert said(client, "moves.howText(v.result, t)", {"result": result}) == (
        "Batida de carroça! +2, mais 2 dos jogos fechados"
    )
    english = said(client, "moves.howText(v.result, t)", {"result": result}, language="en")
    assert english == "Domino with a double (carroça)! +2, plus 2 from the closed games"
    plain = {"how": "la_e_lo", "winner": 0, "points": [3, 0]}
    assert said(client, "moves.howText(v.result, t)", {"result": plain}) == "Lá-e-lô! +3"


def test_the_partidas_panel_lists_no_pips_where_they_do_not_count(make_user, clock, client):
    room, ana = won_after_a_blocked_round(make_user, clock)
    state = room_state(room=room, viewer=ana)
    values = {"result": state["round"]["result"], "rules": state["room"]["rules"]}
    assert said(client, "panels.pipsCount(v.result, v.rules)", values) is False
    # A blocked round scored to the lower hand reads them; other tables always do.
    blocked = {"reason": "blocked", "how": "fechado", "winner": 0, "points": [1, 0]}
    lower = {**values["rules"], "closed_round": "lower_hand"}
    assert said(client, "panels.pipsCount(v.result, v.rules)", {"result": blocked, "rules": lower})
    duelo = {"scoring": "opponents"}
    assert said(client, "panels.pipsCount(v.result, v.rules)", {"result": blocked, "rules": duelo})
