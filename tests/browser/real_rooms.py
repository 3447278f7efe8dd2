"""Real rooms for the browser tests, built in the test server's database by the
real services and seen through the real ``room_state``: no hand-made snapshot.

Run inside a subprocess that has the server's environment (its DATABASE_URL):
``python -m tests.browser.real_rooms ROOMS SEED [MOVES]`` prints, as JSON, one entry per
room: its code, the seat to play (``turn``), and the signed guest cookies of the
four people (``cookies``; ``cookie``: seat 0's).
"""

from __future__ import annotations

import json
import random
import secrets
import sys
from typing import Any

from domino_site.guests import GUEST_COOKIE, GUEST_SALT
from rooms.errors import ServiceError


def build(
    rooms: int, seed: int, *, moves: int | None = None, preset: str = "parceria"
) -> list[dict[str, Any]]:
    """``rooms`` private tables of four guests, each round played by random legal
    moves to its end (or for ``moves`` moves). No move clock: nothing changes them
    afterwards."""
    from django.core import signing

    from rooms import services  # (models: imported before django.setup() in __main__)
    from rooms.selectors import room_state  # (as above)
    from rooms.services.base import seats_of  # (as above)

    rng = random.Random(seed)
    out = []
    for n in range(rooms):
        tokens = [secrets.token_urlsafe(18) for _ in range(4)]
        room = services.room_create(
            user=None,
            guest_token=tokens[0],
            name=f"Mesa {n + 1}",
            preset=preset,
            visibility="private",
        )
        for index in range(1, 4):
            services.seat_take(
                room=room, index=index, guest_token=tokens[index], name=f"P{index + 1}"
            )
        seats = seats_of(room)
        services.match_start(room=room, actor=seats[0])
        played = 0
        while moves is None or played < moves:
            room.refresh_from_db()
            seats = seats_of(room)
            views = [room_state(room=room, viewer=seat) for seat in seats]
            if views[0]["round"] is None or views[0]["round"]["result"]:
                break
            # Whoever may act (the turn, or every pending picker of a tie-break).
            acting = [i for i, view in enumerate(views) if view["round"]["legal"]]
            index = rng.choice(acting)
            action = rng.choice(views[index]["round"]["legal"])
            if room.paused:
                # The server's sweeper pauses a table where nobody is connected.
                services.room_resume(room=room, actor=seats[0])
                continue
            try:
                services.action_apply(room=room, seat_index=index, action=action, version=None)
            except ServiceError as exc:
                if exc.code != "paused":
                    raise
                continue
            played += 1
        signer = signing.get_cookie_signer(salt=GUEST_COOKIE + GUEST_SALT)
        cookies = [{"name": GUEST_COOKIE, "value": signer.sign(token)} for token in tokens]
        turn = room_state(room=room, viewer=None)["round"]["turn"]
        out.append({"code": room.code, "cookie": cookies[0], "cookies": cookies, "turn": turn})
    return out


if __name__ == "__main__":
    import django

    django.setup()
    count, seed, *more = (int(arg) for arg in sys.argv[1:])
    print(json.dumps(build(count, seed, moves=more[0] if more else None)))
