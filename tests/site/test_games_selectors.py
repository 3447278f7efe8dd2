"""games.selectors: finished rounds for replays (the JSON endpoint and the admin)."""

from __future__ import annotations

import pytest

from games.selectors import replay_steps, round_replay
from rooms import services
from rooms.errors import ServiceError
from tests.site.helpers import current, fresh, play_round, room_with_bots, seat

pytestmark = pytest.mark.django_db


@pytest.fixture
def room(make_user, clock):
    room = room_with_bots(make_user("ana"), clock(), preset="duelo")
    services.match_start(room=room, actor=seat(room, 0), now=clock())
    return fresh(room)


def test_a_round_in_play_is_not_replayed(room):
    with pytest.raises(ServiceError) as info:
        round_replay(room=room, number=1)
    assert info.value.reason == "round_in_play"
    assert round_replay(room=room, number=9) is None


def test_a_finished_round_gives_its_deal_and_moves(room, clock):
    rnd = play_round(room, clock())
    data = round_replay(room=room, number=1)
    assert data["deal"]["hands"] == rnd.deal["hands"] and data["result"] == rnd.result
    # docs/rules.md rule 10: the boneyard never leaves the server, not even after the round.
    assert "boneyard" not in data["deal"] and "tiebreak_order" not in data["deal"]
    left = set(current(room).state["boneyard"])
    assert left and not left & set(_strings(data))
    drawn = [m for m in data["moves"] if m["type"] == "draw"]
    assert all(m["tile"] not in left for m in drawn)
    assert [m["seq"] for m in data["moves"]] == list(range(1, rnd.moves.count() + 1))
    assert {m["by"] for m in data["moves"]} <= {"person", "bot"}
    assert data["players"][1]["kind"] == "bot"


def test_replay_steps_follow_the_moves_to_the_snapshot(room, clock):
    play_round(room, clock())
    rnd = current(room)
    replay = replay_steps(rnd)
    assert replay["matches_snapshot"] and replay["error"] is None
    assert len(replay["steps"]) == rnd.moves.count() + 1
    first, last = replay["steps"][0], replay["steps"][-1]
    assert first["chain"] == [] and first["hands"] == rnd.deal["hands"]
    assert last["chain"] == [link["tile"] for link in rnd.state["chain"]]


def _strings(value):
    """Every string anywhere in a JSON value."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
