"""The replay's what-if (docs/site.md, "What if, on the replay"; docs/protocol.md,
"The round's what-if"): another legal action's expected points, the chain it
would have left and what it does, with the replay's visibility, a person's
limit, a cache per position, and refusals that change nothing."""

from __future__ import annotations

import json
import os
import signal
import time

import pytest
from django.core.cache import cache

from analysis import whatif_child
from analysis.models import AnalysisJob, RoundAnalysis
from analysis.services import round_analyse
from games.engine import Tile
from games.models import Move
from tests.analysis.planted import BEST, BLUNDER, DECISION_SEQ, HANDS
from tests.site.helpers import current
from tests.site.test_analysis import _blunder_and_finish, _play_to_the_blunder, _table

pytestmark = pytest.mark.django_db

PASS_SEQ = DECISION_SEQ - 1  # seat 1's forced pass


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()
    yield
    cache.clear()


def _finished(make_user, clock, visibility="public", analysed=True):
    room, ana, bruno = _table(make_user, clock, visibility=visibility)
    _play_to_the_blunder(room, clock)
    _blunder_and_finish(room, clock)
    if analysed:
        round_analyse(round_id=current(room).pk, work=2000)
    return room, ana, bruno


def _ask(client, room, body, raw=None):
    return client.post(
        f"/api/rooms/{room.code}/rounds/1/whatif/",
        data=raw if raw is not None else json.dumps(body),
        content_type="application/json",
    )


def test_another_tile_and_the_other_end_from_the_stored_analysis(make_user, clock, client):
    room, ana, _ = _finished(make_user, clock)
    client.force_login(ana)
    stored = next(d for d in RoundAnalysis.objects.get().decisions if d["seq"] == DECISION_SEQ)
    tile = _ask(client, room, {"seq": DECISION_SEQ, "action": BEST.to_dict()})
    assert tile.status_code == 200, tile.content
    body = tile.json()
    assert body["source"] == "analysis" and body["seat"] == 0
    values = [o["value"] for o in stored["options"]]
    assert [c["value"] for c in body["choices"]] == values
    assert body["played_value"] == values[stored["chosen"]]
    assert body["best_value"] == values[stored["best"]] and body["value"] > body["played_value"]
    assert body["choices"][body["played"]]["tile"] == str(BLUNDER.tile)
    assert body["chain"][-1]["tile"] in ("5-5",) and body["ends"] == {"A": 6, "B": 5}
    assert any("5" in note for note in body["notes"])
    # The other end of the tile played: 6-5 on A leaves 5 at both ends.
    end = _ask(client, room, {"seq": DECISION_SEQ, "action": {**BLUNDER.to_dict(), "end": "A"}})
    assert end.status_code == 200
    assert end.json()["ends"] == {"A": 5, "B": 5} and end.json()["picked"] != body["played"]
    # The blunder itself locks the game: its words say so.
    played = _ask(client, room, {"seq": DECISION_SEQ, "action": BLUNDER.to_dict()}).json()
    assert played["picked"] == played["played"] and played["facts"][0]["code"] == "locks"


def test_a_position_not_scored_is_computed_then_cached(make_user, clock, client, settings):
    room, ana, _ = _finished(make_user, clock, analysed=False)
    client.force_login(ana)
    first = _ask(client, room, {"seq": PASS_SEQ, "action": {"type": "pass"}})
    assert first.status_code == 200, first.content
    body = first.json()
    assert body["source"] == "computed" and len(body["choices"]) == 1
    assert body["facts"] == [{"code": "pass"}] and body["value"] == body["played_value"]
    again = _ask(client, room, {"seq": PASS_SEQ, "action": {"type": "pass"}}).json()
    assert again["source"] == "cache" and again["value"] == body["value"]
    # Computed and stored values of a scored position agree (same seed, same work).
    computed = _ask(client, room, {"seq": DECISION_SEQ, "action": BEST.to_dict()}).json()
    assert computed["source"] == "computed" and computed["best_value"] > computed["played_value"]


def test_a_persons_limit_counts_computations_only(make_user, clock, client, settings):
    settings.DOMINO_WHATIF_PER_MINUTE = 1
    room, ana, bruno = _finished(make_user, clock, analysed=False)
    client.force_login(ana)
    assert _ask(client, room, {"seq": PASS_SEQ, "action": {"type": "pass"}}).status_code == 200
    assert _ask(client, room, {"seq": PASS_SEQ, "action": {"type": "pass"}}).status_code == 200
    refused = _ask(client, room, {"seq": DECISION_SEQ, "action": BEST.to_dict()})
    assert refused.status_code == 429 and refused.json()["error"] == "whatif_limit"
    client.force_login(bruno)  # another person's limit is their own
    assert _ask(client, room, {"seq": DECISION_SEQ, "action": BEST.to_dict()}).status_code == 200


def test_who_may_not_see_the_round_is_refused(make_user, clock, client):
    room, ana, bruno = _finished(make_user, clock, visibility="private")
    body = {"seq": DECISION_SEQ, "action": BEST.to_dict()}
    client.force_login(make_user("stranger"))
    refused = _ask(client, room, body)
    assert refused.status_code == 404 and refused.json() == {"error": "not_found"}
    assert b"replay-whatif" not in client.get(f"/r/{room.code}/rounds/1/").content
    client.logout()
    assert _ask(client, room, body).status_code == 404
    client.force_login(bruno)
    assert _ask(client, room, body).status_code == 200
    assert 'id="replay-whatif"' in client.get(f"/r/{room.code}/rounds/1/").content.decode()


def test_a_round_in_play_is_refused(make_user, clock, client):
    room, ana, _ = _table(make_user, clock)
    _play_to_the_blunder(room, clock)
    client.force_login(ana)
    refused = _ask(client, room, {"seq": 1, "action": {"type": "play", "tile": "6-6"}})
    assert refused.status_code == 403 and refused.json()["error"] == "round_in_play"


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("{not json", "bad_request"),
        ("[1, 2]", "bad_request"),
        (json.dumps({"seq": "11", "action": {"type": "pass"}}), "bad_request"),
        (json.dumps({"seq": DECISION_SEQ}), "illegal_action"),
        (
            json.dumps({"seq": DECISION_SEQ, "action": {"type": "play", "tile": "9-9"}}),
            "illegal_action",
        ),
        (
            json.dumps({"seq": DECISION_SEQ, "action": {"type": "play", "tile": "6-6"}}),
            "illegal_action",
        ),
        (json.dumps({"seq": DECISION_SEQ, "action": {"type": "pass"}}), "illegal_action"),
        (
            json.dumps({"seq": DECISION_SEQ, "action": {"type": "pick", "index": 1}}),
            "illegal_action",
        ),
        (json.dumps({"seq": 0, "action": {"type": "pass"}}), "seq_out_of_range"),
        (json.dumps({"seq": 99, "action": {"type": "pass"}}), "seq_out_of_range"),
    ],
)
def test_bad_input_gets_a_clear_error_and_changes_nothing(make_user, clock, client, raw, code):
    room, ana, _ = _finished(make_user, clock, analysed=False)
    client.force_login(ana)
    moves, jobs = list(Move.objects.values()), list(AnalysisJob.objects.values())
    refused = _ask(client, room, None, raw=raw)
    assert refused.status_code == 400 and refused.json()["error"] == code
    assert refused.json()["message"]
    assert list(Move.objects.values()) == moves and list(AnalysisJob.objects.values()) == jobs
    assert not RoundAnalysis.objects.exists()


def test_the_answer_shows_no_tile_the_replay_does_not(make_user, clock, client, settings):
    """sem_monte deals 14 of the 28 tiles: the other 14 sleep, never shown,
    not even after the round; no what-if at any move names one."""
    settings.DOMINO_WHATIF_PER_MINUTE = 1000
    room, ana, _ = _finished(make_user, clock, analysed=False)
    client.force_login(ana)
    dealt = {str(Tile.parse(t)) for hand in HANDS for t in hand}
    replay = client.get(f"/r/{room.code}/rounds/1/").content.decode()
    boot = json.loads(
        replay.split('id="replay-whatif" type="application/json">')[1].split("</script>")[0]
    )
    for seq, move in boot["moves"].items():
        for action in move["choices"]:
            answer = _ask(client, room, {"seq": int(seq), "action": action}).json()
            text = json.dumps(answer)
            shown = {link["tile"] for link in answer["chain"]}
            assert shown <= dealt, text
            for tile in _all_tiles() - dealt:
                assert f'"{tile}"' not in text


def _all_tiles() -> set[str]:
    return {f"{a}-{b}" for a in range(7) for b in range(a, 7)}


def test_get_is_not_allowed(make_user, clock, client):
    room, ana, _ = _finished(make_user, clock)
    client.force_login(ana)
    assert client.get(f"/api/rooms/{room.code}/rounds/1/whatif/").status_code == 405


def test_a_child_that_died_is_replaced(make_user, clock, client, settings):
    """The scoring's child killed: the request then gets 503 ``whatif_busy``
    at worst, and the next one a new child's answer."""
    settings.DOMINO_WHATIF_PER_MINUTE = 100
    room, ana, _ = _finished(make_user, clock, analysed=False)
    client.force_login(ana)
    assert _ask(client, room, {"seq": PASS_SEQ, "action": {"type": "pass"}}).status_code == 200
    pid = whatif_child.CHILD.get().submit(os.getpid).result()
    os.kill(pid, signal.SIGKILL)
    time.sleep(0.5)
    body = {"seq": DECISION_SEQ, "action": BEST.to_dict()}
    first = _ask(client, room, body)
    assert first.status_code in (200, 503), first.content
    if first.status_code == 503:
        assert first.json()["error"] == "whatif_busy"
    again = _ask(client, room, body)
    assert again.status_code == 200 and again.json()["source"] in ("computed", "cache")
