"""Fixtures of the privacy tests (docs/site.md, "Your data (LGPD)"): those of
tests/site (a seeded world, the rounds' replay check, a clock, ``make_user``)
and ``played``: two accounts with a finished rated duelo and a partida still
in play between them, and a match between two others."""

from __future__ import annotations

from typing import Any

import pytest

from domino_site.client_ip import ip_hash
from rooms import services
from tests.realtime.conftest import live  # noqa: F401  (the sockets' fixture)
from tests.site.conftest import (  # noqa: F401  (the services' fixtures)
    clock,
    make_user,
    rounds_replay_to_snapshot,
    seeded_world,
)
from tests.site.helpers import current, fresh, play_round, seat

# Names found nowhere else on the pages, so that a hit means the name is shown.
LEAVER, OPPONENT = "anastacia", "bonifacio"


def _duel(host: Any, guest: Any, now: Any, name: str, preset: str, addresses: tuple) -> Any:
    room = services.room_create(
        user=host, name=name, preset=preset, ip_hash=ip_hash(addresses[0]), now=now()
    )
    services.seat_take(room=room, index=1, user=guest, ip_hash=ip_hash(addresses[1]), now=now())
    services.match_start(room=fresh(room), actor=seat(room, 0), now=now())
    return fresh(room)


def _next_round(room: Any, now: Any) -> None:
    """Deal the next round: each player says ready (or the host deals it)."""
    if room.ruleset.next_round == "all_ready":
        for index in (0, 1):
            services.player_ready(room=fresh(room), actor=seat(room, index), now=now())
    else:
        services.round_next(room=fresh(room), actor=seat(room, 0), now=now())
    assert current(room).finished_at is None


@pytest.fixture
def played(make_user, clock) -> dict[str, Any]:  # noqa: F811  (the fixtures above)
    leaver, opponent = make_user(LEAVER), make_user(OPPONENT)
    # Named by default after its host ("anastacia's table"): a name to erase too.
    finished = _duel(leaver, opponent, clock, "", "duelo", ("203.0.113.1", "203.0.113.2"))
    assert play_round(finished, clock()).match.over
    playing = _duel(
        leaver, opponent, clock, "Mesa em jogo", "partida_dois", ("203.0.113.1", "203.0.113.2")
    )
    first = play_round(playing, clock())
    assert first.finished_at is not None and not first.match.over
    _next_round(fresh(playing), clock)
    others = _duel(
        make_user("carlota"),
        make_user("dagoberto"),
        clock,
        "Mesa alheia",
        "duelo",
        ("203.0.113.3", "203.0.113.4"),
    )
    assert play_round(others, clock()).match.over
    return {
        "leaver": leaver,
        "opponent": opponent,
        "finished": fresh(finished),
        "playing": fresh(playing),
        "others": fresh(others),
        "current": current(playing),
    }
