"""The table socket's message parser and rate limiter (rooms/messages.py)."""

import pytest

from domino_site.realtime.frames import RateLimiter
from rooms.messages import BadMessage, parse_message


def test_a_play_keeps_its_tile_end_ref_and_version():
    cmd = parse_message({"type": "play", "tile": "3-5", "end": "B", "ref": "r1", "version": 7})
    assert (cmd.type, cmd.ref, cmd.version) == ("play", "r1", 7)
    assert cmd.fields == {"tile": "3-5", "end": "B"}


def test_end_is_optional():
    assert parse_message({"type": "play", "tile": "6-6"}).fields == {"tile": "6-6", "end": None}


@pytest.mark.parametrize(
    "msg",
    [
        [],
        "play",
        {"type": "dance"},
        {"tile": "3-5"},
        {"type": "play"},
        {"type": "play", "tile": "3-7"},
        {"type": "play", "tile": 35},
        {"type": "play", "tile": "3-5", "end": "E"},
        {"type": "play", "tile": "3-5", "end": "c"},
        {"type": "play", "tile": "3-5", "version": "7"},
        {"type": "play", "tile": "3-5", "version": True},
        {"type": "pick", "index": -1},
        {"type": "sit", "seat": "1"},
        {"type": "add_bot", "seat": 1, "level": "genius"},
        {"type": "adjust", "at": 2, "bend": "up"},
        {"type": "settings", "move_seconds": "fast"},
        {"type": "settings", "target": [1, 2]},
        {"type": "ping", "ref": "x" * 65},
    ],
)
def test_malformed_messages_are_refused(msg):
    with pytest.raises(BadMessage):
        parse_message(msg)


def test_a_play_may_name_a_spinners_side():
    """Ends C and D exist at a spinner table only: the engine refuses them elsewhere."""
    for end in "ABCD":
        assert parse_message({"type": "play", "tile": "3-5", "end": end}).fields["end"] == end


def test_the_ref_is_kept_on_a_refusal():
    with pytest.raises(BadMessage) as info:
        parse_message({"type": "play", "ref": 12})
    assert info.value.ref == 12


def test_settings_take_knobs_at_the_top_level_or_in_options():
    top = parse_message({"type": "settings", "move_seconds": None, "target": 100, "ref": "s"})
    assert top.fields == {"move_seconds": None, "options": {"target": 100}}
    nested = parse_message({"type": "settings", "options": {"target": 100}})
    assert nested.fields == {"options": {"target": 100}}


def test_host_commands_carry_seat_and_level():
    cmd = parse_message({"type": "add_bot", "seat": 2, "level": "hard"})
    assert cmd.fields == {"seat": 2, "level": "hard"}


def test_rate_limiter_refuses_over_twenty_a_second_and_closes_on_a_flood():
    now = [0.0]
    limiter = RateLimiter(clock=lambda: now[0])
    verdicts = [limiter.hit() for _ in range(41)]
    assert verdicts[:20] == ["ok"] * 20
    assert verdicts[20:40] == ["limited"] * 20
    assert verdicts[40] == "flood"


def test_rate_limiter_forgets_after_a_second():
    now = [0.0]
    limiter = RateLimiter(clock=lambda: now[0])
    for _ in range(20):
        assert limiter.hit() == "ok"
    now[0] = 1.01
    assert limiter.hit() == "ok"
