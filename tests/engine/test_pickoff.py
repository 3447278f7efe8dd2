"""The tie-break pick-off as a value (`PickOff`) and inside a round."""

import dataclasses
import json
from pathlib import Path

import pytest

from games.engine import ALL_TILES, PRESETS, IllegalAction, Pick, PickOff, Reveal, Round, Tile

SNAPSHOT = Path(__file__).parent / "data" / "pickoff_snapshot.json"


def test_a_pick_off_is_frozen_and_each_step_returns_a_new_one():
    start = PickOff.start([1, 0])
    assert start.pickers == (0, 1) and start.pending == {0, 1}
    after = start.choose(1, 7)
    assert start.pending == {0, 1} and start.taken == frozenset()  # unchanged
    assert after.pending == {0} and after.choice_of(1) == 7 and after.choice_of(0) is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.taken = frozenset()  # type: ignore[misc]


@pytest.mark.parametrize(
    ("seat", "index", "code", "message"),
    [
        (2, 4, "not_your_turn", "seat 3 has no pick to make now"),
        (1, 5, "not_your_turn", "seat 2 has no pick to make now"),  # already picked
        (0, 28, "bad_pick", "positions go from 0 to 27, got 28"),
        (0, -1, "bad_pick", "positions go from 0 to 27, got -1"),
        (0, "3", "bad_pick", "positions go from 0 to 27, got '3'"),
        (0, 5, "bad_pick", "position 5 is already taken"),
    ],
)
def test_choose_says_exactly_what_was_wrong(seat, index, code, message):
    pick = PickOff.start([0, 1]).choose(1, 5)
    with pytest.raises(IllegalAction) as refused:
        pick.choose(seat, index)
    assert (refused.value.code, refused.value.message) == (code, message)


def test_reveal_turns_the_choices_up_and_a_shared_lowest_picks_again():
    order = list(ALL_TILES)  # position i holds ALL_TILES[i]
    pick = PickOff.start([0, 1, 2, 3]).choose(0, 3).choose(1, 8).choose(2, 9).choose(3, 18)
    with pytest.raises(ValueError, match="have not picked"):
        PickOff.start([0, 1]).choose(0, 1).reveal(order)
    pick = pick.reveal(order)
    # 0-3 (3 pips), 1-2 (3 pips), 1-3, 3-3: seats 0 and 1 share the lowest
    assert [str(r.tile) for r in pick.rounds[0]] == ["0-3", "1-2", "1-3", "3-3"]
    assert pick.lowest == (0, 1) and pick.current == () and pick.pickers == (0, 1, 2, 3)
    again = pick.again(pick.lowest)
    assert again.pickers == (0, 1) and again.pending == {0, 1}
    assert again.free == tuple(i for i in range(28) if i not in (3, 8, 9, 18))


def test_json_is_the_format_snapshots_were_stored_in():
    pick = PickOff.start([0, 1]).choose(1, 13).choose(0, 15).reveal(list(ALL_TILES))
    pick = pick.again([0, 1]).choose(0, 3)
    data = pick.to_dict()
    assert data == {
        "pickers": [0, 1],
        "current": [[0, 3]],
        "taken": [3, 13, 15],
        "rounds": [
            [{"seat": 0, "index": 15, "tile": "2-4"}, {"seat": 1, "index": 13, "tile": "2-2"}]
        ],
    }
    assert PickOff.from_dict(json.loads(json.dumps(data))) == pick
    assert pick.public_dict(over=False)["pending"] == [1]
    assert pick.public_dict(over=True)["pending"] == []
    assert Reveal.from_dict({"seat": 1, "index": 0, "tile": "0-0"}).tile is Tile(0, 0)


def test_a_snapshot_stored_before_pick_off_loads_and_plays_on_unchanged():
    """The fixture was written by the engine that kept the pick-off in a dict."""
    stored = json.loads(SNAPSHOT.read_text())
    rnd = Round.from_dict(stored["snapshot"])
    assert rnd.to_dict() == stored["snapshot"]
    assert [rnd.view(0), rnd.view(1)] == stored["views"]
    assert rnd.public_view() == stored["public_view"]
    assert rnd.pending_picks == {1} and rnd.pick_off is not None
    assert rnd.pick_off.choice_of(0) == 3 and len(rnd.pick_off.rounds) == 1

    clone = rnd.clone()
    rnd.apply(1, Pick(0))
    after = stored["after_seat_1_picks_0"]
    assert rnd.to_dict() == after["snapshot"]
    assert [rnd.view(0), rnd.view(1)] == after["views"]
    assert rnd.public_view() == after["public_view"]
    assert rnd.result is not None and rnd.result.winner == 1
    assert clone.pending_picks == {1} and clone.to_dict() == stored["snapshot"]


def test_a_clone_picks_independently():
    order = ["0-0"] + [str(t) for t in ALL_TILES if t != Tile(0, 0)]
    rnd = Round.from_hands(
        PRESETS["arena"], hands=[["6-6", "2-3"], ["1-4"]], opener=0, tiebreak_order=order
    )
    rnd.apply(0, rnd.legal_actions()[0])
    rnd.apply(1, rnd.legal_actions()[0])
    rnd.apply(0, rnd.legal_actions()[0])
    assert rnd.pending_picks == {0, 1}
    copy = rnd.clone()
    copy.apply(0, Pick(0))
    assert rnd.pending_picks == {0, 1} and rnd.pick_off == PickOff.start([0, 1])
    assert copy.pending_picks == {1} and copy.view(0)["pick_off"]["mine"] == 0
    assert copy.view(1)["pick_off"]["mine"] is None
