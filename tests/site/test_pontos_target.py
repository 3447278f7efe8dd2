"""The game of points is won by the first side to reach the target, at the play
that takes it there (docs/rules.md, "The game of points"): played through the
services, a pontos match at 140-140 ends when seat 0 opens 5-5 for 10, won
150-140, never level; the table's payload, the replay page and the panel's
words (the page's modules in node, in Portuguese) say so."""

from __future__ import annotations

import json

import pytest
from django.utils import translation

from rooms import services
from rooms.page_strings import TABLE, translated
from rooms.selectors import room_state
from tests.node import BROWSER, module, needs_node, run
from tests.site.helpers import current, fresh, play_round, room_with_bots, seat, set_deal

pytestmark = pytest.mark.django_db

HANDS = [
    ["5-5", "0-0", "1-1", "2-2", "3-3"],
    ["0-5", "1-6", "2-6", "3-6", "4-6"],
    ["0-1", "1-2", "1-3", "1-4", "2-3"],
    ["2-4", "3-4", "4-4", "0-6", "6-6"],
]


def at_140_all(make_user, clock):
    """A pontos table (Ana at seat 0, three bots) whose match stands at 140-140
    when its next round is dealt by the services; that round's hands are HANDS."""
    room = room_with_bots(make_user("ana"), clock(), preset="pontos")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    match = play_round(room, clock()).match
    assert not match.over
    match.state = {**match.state, "scores": [140, 140]}
    match.save(update_fields=["state"])
    services.player_ready(room=fresh(room), actor=seat(room, 0), now=clock())
    dealt = current(room)
    assert dealt.number == 2 and dealt.deal["scores"] == [140, 140]  # dealt with the scores
    set_deal(fresh(room), hands=HANDS, opener=0, scores=dealt.deal["scores"])
    return fresh(room)


def test_a_pontos_match_at_140_all_ends_at_the_play_that_reaches_150(make_user, clock, client):
    room = at_140_all(make_user, clock)
    room = fresh(room)
    services.action_apply(
        room=room,
        seat_index=0,
        action={"type": "play", "tile": "5-5", "end": None},
        version=room.version,
        now=clock(),
    )
    rnd = current(room)
    assert rnd.finished_at is not None and len(rnd.moves.all()) == 1
    match = rnd.match
    assert match.over and match.winner == 0 and match.scores == [150, 140]
    result = room_state(room=fresh(room), viewer=seat(room, 0))["round"]["result"]
    assert (result["reason"], result["winner"], result["points"]) == ("target", 0, [10, 0])
    client.force_login(seat(room, 0).user)
    page = client.get(f"/r/{room.code}/rounds/2/?match=1")
    assert page.status_code == 200
    assert page.context["boot"]["positions"][-1]["result"] == result


@needs_node
def test_the_panel_says_the_target_was_reached_at_that_play(make_user, clock, client):
    room = at_140_all(make_user, clock)
    room = fresh(room)
    services.action_apply(
        room=room,
        seat_index=0,
        action={"type": "play", "tile": "5-5", "end": None},
        version=room.version,
        now=clock(),
    )
    state = room_state(room=fresh(room), viewer=seat(room, 0))
    with translation.override("pt-br"):
        strings = translated(TABLE)
    script = (
        BROWSER
        + f"const state = await import({module('table', 'state.js')});\n"
        + f"const util = await import({module('util.js')});\n"
        + f"const moves = await import({module('table', 'moves.js')});\n"
        + f"const panels = await import({module('table', 'panels.js')});\n"
        + f"const t = util.makeT({json.dumps(strings)});\n"
        + "state.page.t = t;\n"
        + f"state.setState({{snap: {json.dumps(state)}}});\n"
        + f"const res = {json.dumps(state['round']['result'])};\n"
        + f"const rules = {json.dumps(state['room']['rules'])};\n"
        + "process.stdout.write(JSON.stringify([moves.reasonText(res, t), "
        + "panels.explain(res, rules)]));\n"
    )
    reason, lines = run(script)
    assert reason == "A meta da partida foi alcançada!"
    assert lines[-1].endswith(
        "chegou primeiro à meta da partida: a rodada termina nessa jogada, e as mãos não "
        "são contadas."
    )
    assert not any("arredondados" in line for line in lines)  # no count of the hands
