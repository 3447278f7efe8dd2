"""A private table of two guests whose round is the planted one
(tests/analysis/planted.py), played to its end by the real services and
analysed, in the test server's database.

Run inside a subprocess with the server's environment:
``python -m tests.browser.analysed_room [--dropped]`` prints, as JSON, the
room's code and seat 0's signed guest cookie (``--dropped``: not analysed, out
of the analysis queue).
"""

from __future__ import annotations

import json
import secrets
import sys
from typing import Any


def build(analysed: bool = True) -> dict[str, Any]:
    """The room; with ``analysed`` False its round is left out of the analysis
    queue (a dropped job), for a player to ask for it on the replay page."""
    from django.core import signing

    from analysis.models import AnalysisJob  # (models: after django.setup() in __main__)
    from analysis.services import round_analyse  # (as above)
    from domino_site.guests import GUEST_COOKIE, GUEST_SALT  # (as above)
    from rooms import services  # (as above)
    from tests.site.helpers import current  # (as above)

    tokens = [secrets.token_urlsafe(18) for _ in range(2)]
    room = services.room_create(
        user=None, guest_token=tokens[0], name="Análise", preset="sem_monte", visibility="private"
    )
    services.seat_take(room=room, index=1, guest_token=tokens[1], name="P2")
    play_planted_round(room)
    if analysed:
        assert round_analyse(round_id=current(room).pk, work=2000) is not None
    else:  # the queue dropped it (its end's job may have been made, or not yet)
        AnalysisJob.objects.update_or_create(
            round=current(room),
            defaults={"state": AnalysisJob.State.DROPPED, "priority": AnalysisJob.Priority.IDLE},
        )
    signer = signing.get_cookie_signer(salt=GUEST_COOKIE + GUEST_SALT)
    return {"code": room.code, "cookie": {"name": GUEST_COOKIE, "value": signer.sign(tokens[0])}}


def play_planted_round(room: Any) -> None:
    """Start the match of ``room`` (two seats taken), deal the planted hands and
    play the planted round to its end, seat 0's blunder included."""
    from games.engine import PASS
    from rooms import services
    from rooms.errors import ServiceError
    from rooms.services.base import seats_of
    from tests.analysis.planted import BLUNDER, HANDS, SCRIPT
    from tests.site.helpers import current, set_deal

    # Seat 0 connected meanwhile (a channel its page replaces): the test
    # server's sweeper pauses a game nobody is connected to, and the plays
    # below would be refused as paused if a sweep came between them.
    services.seat_connected(room=room, index=0, channel_name="held!0")
    services.match_start(room=room, actor=seats_of(room)[0])
    set_deal(room, HANDS, opener=0)
    planned = [(i, {"type": "play", "tile": t, "end": e}) for i, t, e in SCRIPT]
    planned.append((0, BLUNDER.to_dict()))
    while (rnd := current(room)).finished_at is None:
        eng = rnd.engine()
        turn = eng.turn
        if eng.legal_actions(turn) == [PASS]:
            action = PASS.to_dict()  # the server's ticker may pass first: then it is stale
        else:
            index, action = planned.pop(0)
            assert index == turn
        try:
            services.action_apply(room=room, seat_index=turn, action=action, version=None)
        except ServiceError:
            if action["type"] != "pass":
                raise


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(build(analysed="--dropped" not in sys.argv)))
