"""DEBUG-only sample pages: the table page fed with a made-up snapshot built by
the engine, to look at the drawing without a server game (screenshots, CSS).

``/dev/table-sample/?preset=parceria&moves=17&seat=1&seed=5&end=1&host=1``
"""

import random
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from games.engine import PRESETS, Match

from .views import table_context

NAMES = ["Ana", "Bruno", "Carla", "Davi"]


def _int(request: HttpRequest, name: str, default: int) -> int:
    try:
        return int(request.GET.get(name, default))
    except ValueError:
        return default


def sample_snapshot(
    *, preset: str, moves: int, seat: int | None, seed: int, to_end: bool, host: bool
) -> dict[str, Any]:
    rules = PRESETS.get(preset) or PRESETS["parceria"]
    match = Match(rules)
    rnd = match.new_round(random.Random(seed))
    rng = random.Random(seed + 1)
    count = 0
    while not rnd.is_over and (to_end or count < moves):
        actor = rnd.turn
        if actor is None:  # pick-off: every pending picker picks
            actor = sorted(rnd.pending_picks)[0]
        rnd.apply(actor, rng.choice(rnd.legal_actions(actor)))
        count += 1
    if rnd.is_over:
        match.finish_round(rnd.result)
    view = rnd.view(seat if seat is not None else 0)
    status = "between_rounds" if rnd.is_over else "playing"
    seats = []
    for i in range(rules.seats):
        bot = i not in (0, seat)
        seats.append(
            {
                "index": i,
                "side": rules.side_of(i),
                "kind": "bot" if bot else "human",
                "name": NAMES[i] if not bot else f"Bot {NAMES[i]}",
                "connected": i != 0 or seat == 0,
                "bot_level": ["easy", "medium", "hard"][i % 3] if bot else None,
                "tile_count": view["tile_counts"][i],
                "reserved_for": None,
                "leaving": False,
                "ready": False,
            }
        )
    log = [
        dict(entry, seq=n + 1, by="timeout" if n == 3 else "person")
        for n, entry in enumerate(view["history"])
    ]
    round_view = {
        key: view[key]
        for key in (
            "turn",
            "opener",
            "chain",
            "ends",
            "boneyard_count",
            "passes_in_row",
            "legal",
            "mandatory_tile",
            "pick_off",
            "result",
        )
    }
    round_view.update(number=1, deadline=None, hand=view["hand"] if seat is not None else [])
    if seat is None:
        round_view["legal"] = []
    return {
        "type": "room",
        "version": 57,
        "room": {
            "code": "SAMPLE",
            "name": "Mesa da Ana",
            "visibility": "private",
            "preset": rules.preset_key,
            "rules": rules.to_dict(),
            "move_seconds": 30,
            "status": status,
            "paused": False,
            "host_seat": 0,
            "invite_url": "/i/sample-invite-token/",
        },
        "you": {
            "seat": seat,
            "is_host": host and seat == 0,
            "side": rules.side_of(seat) if seat is not None else None,
        },
        "seats": seats,
        "match": {
            "number": 1,
            "scores": list(match.scores),
            "goal": rules.goal,
            "target": rules.target,
            "over": match.is_over,
            "winner": match.winner,
        },
        "round": round_view,
        "log": log,
    }


def table_sample(request: HttpRequest) -> HttpResponse:
    from django.conf import settings

    if not settings.DEBUG:
        raise Http404
    seat_param = request.GET.get("seat", "0")
    seat = None if seat_param == "none" else _int(request, "seat", 0)
    snapshot = sample_snapshot(
        preset=request.GET.get("preset", "parceria"),
        moves=_int(request, "moves", 12),
        seat=seat,
        seed=_int(request, "seed", 5),
        to_end=request.GET.get("end") == "1",
        host=request.GET.get("host", "1") == "1",
    )
    context = table_context(
        code="SAMPLE",
        name=snapshot["room"]["name"],
        preset=snapshot["room"]["preset"],
        visibility="private",
        snapshot=snapshot,
        sample=True,
    )
    return render(request, "rooms/table.html", context)
