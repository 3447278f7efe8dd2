"""Tables whose round (or match) is over, for the browser tests of the result
panel's layout (tests/browser/test_result_layout.py), built in the test
server's database by the real services and played by random legal moves, like
real_rooms.py: the panel a player sees is the real one.

``python -m tests.browser.result_tables PRESET SEED [round|match|moves:N] [accounts]``
prints, as JSON, the room's code, seat 0's signed guest cookie (``cookie``) or,
with ``accounts``, the usernames and password of the accounts seated (seat 0
first; no guest then). ``round``: the first round played to its end (the
default); ``match``: rounds played, and dealt, until the match is over;
``moves:N``: N moves of the first round.

``python -m tests.browser.result_tables hand PRESET SIZE`` prints a private
table of two guests where seat 0 holds SIZE tiles (the whole boneyard drawn,
say) and is to play.
"""

from __future__ import annotations

import json
import random
import secrets
import sys
from typing import Any

from domino_site.guests import GUEST_COOKIE, GUEST_SALT

PASSWORD = "dominó-secreto-42"


def _guest_cookie(token: str) -> dict[str, str]:
    from django.core import signing

    signer = signing.get_cookie_signer(salt=GUEST_COOKIE + GUEST_SALT)
    return {"name": GUEST_COOKIE, "value": signer.sign(token)}


def _room(preset: str, seed: int, accounts: bool) -> tuple[Any, dict[str, Any]]:
    """A private room of ``preset`` with every seat taken (guests or accounts)."""
    from django.contrib.auth import get_user_model

    from rooms import services
    from rooms.services.base import seats_of

    users: list[Any] = []
    tokens: list[str] = []
    tag = f"{seed}{secrets.token_hex(3)}"

    def who(index: int) -> dict[str, Any]:
        if accounts:
            name = f"res{index}_{tag}"
            users.append(get_user_model().objects.create_user(name, password=PASSWORD))
            return {"user": users[-1]}
        tokens.append(secrets.token_urlsafe(18))
        # (the creator's guest name is the room's default one)
        return (
            {"user": None, "guest_token": tokens[-1]}
            if index == 0
            else {"guest_token": tokens[-1], "name": f"P{index + 1}"}
        )

    room = services.room_create(name="Mesa", preset=preset, visibility="private", **who(0))
    for index in range(1, len(seats_of(room))):
        services.seat_take(room=room, index=index, **who(index))
    out: dict[str, Any] = {"code": room.code}
    if accounts:
        out.update(usernames=[u.username for u in users], password=PASSWORD)
    else:
        out["cookie"] = _guest_cookie(tokens[0])
    return room, out


def _play_round(room: Any, rng: random.Random, moves: int | None = None) -> None:
    """Random legal moves until the round's result (or ``moves`` of them)."""
    from rooms import services
    from rooms.errors import ServiceError
    from rooms.selectors import room_state
    from rooms.services.base import seats_of

    played = 0
    while moves is None or played < moves:
        room.refresh_from_db()
        seats = seats_of(room)
        if room.paused:  # the server's sweeper pauses a table nobody is connected to
            services.room_resume(room=room, actor=seats[0])
            continue
        views = [room_state(room=room, viewer=seat) for seat in seats]
        if views[0]["round"] is None or views[0]["round"]["result"]:
            return
        acting = [i for i, view in enumerate(views) if view["round"]["legal"]]
        index = rng.choice(acting)
        action = rng.choice(views[index]["round"]["legal"])
        try:
            services.action_apply(room=room, seat_index=index, action=action, version=None)
        except ServiceError as exc:
            if exc.code != "paused":
                raise
            continue
        played += 1


def build(preset: str, seed: int, until: str = "round", accounts: bool = False) -> dict[str, Any]:
    from rooms import services
    from rooms.selectors import room_state
    from rooms.services.base import seats_of

    rng = random.Random(seed)
    room, out = _room(preset, seed, accounts)
    services.match_start(room=room, actor=seats_of(room)[0])
    if until.startswith("moves:"):
        _play_round(room, rng, moves=int(until.split(":", 1)[1]))
        return out
    for _ in range(200):
        _play_round(room, rng)
        room.refresh_from_db()
        if until == "round" or room_state(room=room, viewer=None)["match"]["over"]:
            return out
        seats = seats_of(room)
        if room.ruleset.next_round == "host":
            services.round_next(room=room, actor=seats[0])
        else:
            for seat in seats:
                services.player_ready(room=room, actor=seat)
    raise SystemExit("the match never ended")


def long_hand(preset: str, size: int) -> dict[str, Any]:
    """Seat 0 holds ``size`` tiles, none of which fits the 6-6 seat 1 opened
    with: at seat 0's turn, a hand as long as the rules allow."""
    from games.engine import ALL_TILES
    from rooms import services
    from rooms.services.base import seats_of
    from tests.site.helpers import fresh, set_deal

    room, out = _room(preset, 0, accounts=False)
    services.match_start(room=room, actor=seats_of(room)[0])
    sixes = [str(t) for t in ALL_TILES if "6" in str(t)]
    rest = [str(t) for t in ALL_TILES if "6" not in str(t)]
    hands = [rest[:size], ["6-6", *[t for t in sixes if t != "6-6"][:6]]]
    set_deal(fresh(room), hands=hands, boneyard=rest[size:], opener=1)
    services.action_apply(
        room=fresh(room), seat_index=1, action={"type": "play", "tile": "6-6"}, version=None
    )
    return out


if __name__ == "__main__":
    import django

    django.setup()
    if sys.argv[1] == "hand":
        print(json.dumps(long_hand(sys.argv[2], int(sys.argv[3]))))
    else:
        preset, seed, *rest = sys.argv[1:]
        until = next((a for a in rest if a != "accounts"), "round")
        print(json.dumps(build(preset, int(seed), until, accounts="accounts" in rest)))
