"""Tables in known positions for the browser tests of the rules texts at the table (docs/table-rules.md),
built in the test server's database by the real services, like real_rooms.py.

``python -m tests.browser.rules_tables KIND`` prints, as JSON, the room's code and
the signed guest cookies of its two people (``cookies``; seat 0 first). Every
table is a private room of two guests; seat 1 never opened the page, so a
private duel waits for it. Kinds:

* ``draw``: duelo; seat 1 opened with 6-6 and seat 0 holds no 6: seat 0 draws.
* ``waiting``: duelo; seat 0 opened, seat 1 to play and away for five minutes.
* ``bend``: sem_monte; four tiles on one side of the line, seat 0 to play.
* ``pickoff``: arena; a blocked tie and a pick-off picked twice (a tie, then not).
* ``spinner``: pontos for two; seat 0 opened 5-5 (the spinner), 4-5, 0-5 and 2-4
  followed on ends B, A and B, so the spinner's sides C and D are open (5) while
  A and B show 0 and 2; seat 0 holds 3-5 alone, which fits C or D only and
  scores 5 there (0 + 2 + 3).

``python -m tests.browser.rules_tables layout CODE`` prints the current round's
stored bends.
"""

from __future__ import annotations

import json
import secrets
import sys
from datetime import timedelta
from typing import Any

from domino_site.guests import GUEST_COOKIE, GUEST_SALT


def _room(preset: str, options: dict | None = None) -> tuple[Any, list[str]]:
    from rooms import services

    tokens = [secrets.token_urlsafe(18) for _ in range(2)]
    room = services.room_create(
        user=None,
        guest_token=tokens[0],
        name="Mesa",
        preset=preset,
        options=options,
        visibility="private",
    )
    services.seat_take(room=room, index=1, guest_token=tokens[1], name="Bia")
    # Seat 0 connected meanwhile (a channel its page replaces): the test
    # server's sweeper pauses a game nobody is connected to, and the plays
    # below would be refused as paused if a sweep came between them.
    services.seat_connected(room=room, index=0, channel_name="held!0")
    return room, tokens


def _start(room: Any, hands: list[list[str]], opener: int, **kw: Any) -> None:
    from rooms import services
    from rooms.services.base import seats_of
    from tests.site.helpers import fresh, set_deal

    services.match_start(room=room, actor=seats_of(room)[0])
    set_deal(fresh(room), hands=hands, opener=opener, **kw)


def _act(room: Any, index: int, action: dict) -> None:
    from rooms import services
    from tests.site.helpers import fresh

    services.action_apply(room=fresh(room), seat_index=index, action=action, version=None)


def build(kind: str) -> dict[str, Any]:
    from django.core import signing
    from django.utils import timezone

    from rooms import services

    if kind == "draw":
        room, tokens = _room("duelo")
        boneyard = ["3-4", "1-6", "2-2", "1-3", "1-5", "4-4", "0-3", "2-4", "2-5", "3-3"]
        _start(room, [["0-1", "0-2"], ["6-6", "5-5"]], 1, boneyard=boneyard)
        _act(room, 1, {"type": "play", "tile": "6-6"})
    elif kind == "waiting":
        room, tokens = _room("duelo")
        _start(room, [["6-6", "0-1"], ["5-5", "2-6"]], 0, boneyard=["3-4", "1-6", "2-2"])
        _act(room, 0, {"type": "play", "tile": "6-6"})
        away = timezone.now() - timedelta(minutes=5)
        services.seat_connected(room=room, index=0, channel_name="held!0", now=away)
        services.seat_connected(room=room, index=1, channel_name="gone!1", now=away)
        services.seat_disconnected(room=room, index=1, channel_name="gone!1", now=away)
    elif kind == "bend":
        room, tokens = _room("sem_monte")
        _start(room, [["1-2", "3-5", "4-6", "0-0"], ["2-3", "4-5", "0-6", "1-1"]], 0)
        for index, tile, end in (
            (0, "1-2", None),
            (1, "2-3", "B"),
            (0, "3-5", "B"),
            (1, "4-5", "B"),
        ):
            _act(room, index, {"type": "play", "tile": tile, "end": end})
    elif kind == "pickoff":
        room, tokens = _room("arena")
        from games.engine import ALL_TILES

        # Positions 0 and 1 hold 0-3 and 1-2 (a tie: pick again), 2 and 3 hold 0-0, 0-1.
        first = ["0-3", "1-2", "0-0", "0-1"]
        order = first + [str(t) for t in ALL_TILES if str(t) not in first]
        _start(room, [["6-6", "2-3"], ["1-4"]], 0, tiebreak_order=order)
        _act(room, 0, {"type": "play", "tile": "6-6"})
        _act(room, 1, {"type": "pass"})
        _act(room, 0, {"type": "pass"})
        for index, position in ((0, 0), (1, 1), (0, 2), (1, 3)):
            _act(room, index, {"type": "pick", "index": position})
    elif kind == "spinner":
        room, tokens = _room("pontos", {"seats": 2})
        hands = [["5-5", "0-5", "3-5"], ["4-5", "2-4", "1-1"]]
        _start(room, hands, 0, boneyard=["0-0", "6-6", "1-6"])
        for index, tile, end in (
            (0, "5-5", None),
            (1, "4-5", "B"),
            (0, "0-5", "A"),
            (1, "2-4", "B"),
        ):
            _act(room, index, {"type": "play", "tile": tile, "end": end})
    else:
        raise SystemExit(f"unknown kind {kind}")
    signer = signing.get_cookie_signer(salt=GUEST_COOKIE + GUEST_SALT)
    cookies = [{"name": GUEST_COOKIE, "value": signer.sign(token)} for token in tokens]
    return {"code": room.code, "cookies": cookies}


def layout(code: str) -> dict[str, str]:
    from rooms.selectors import current_round, room_for_code

    rnd = current_round(room_for_code(code))
    return dict(rnd.layout) if rnd is not None else {}


if __name__ == "__main__":
    import django

    django.setup()
    if sys.argv[1] == "layout":
        print(json.dumps(layout(sys.argv[2])))
    else:
        print(json.dumps(build(sys.argv[1])))
