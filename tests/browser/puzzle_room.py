"""Published puzzles in the test server's database: the planted round
(tests/analysis/planted.py) played to its end at a public table of two
accounts by the real services, analysed (its planted decision then stored
as clearly the best), cut into puzzles, and every candidate published (a deeper check that agrees: the real one has its own
tests, tests/site/test_puzzles.py).

Run inside a subprocess with the server's environment:
``python -m tests.browser.puzzle_room`` prints, as JSON, each published
puzzle's id with its solution and one wrong legal answer, the source
players' and room's names (which no puzzle page may show), the room's code,
and the credentials of seat 0's player (who made the planted blunder).
"""

from __future__ import annotations

import json
import secrets
from typing import Any


def build() -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    from analysis.services import round_analyse  # (models: after django.setup() in __main__)
    from games.engine import action_from_dict  # (as above)
    from puzzles import cutting  # (as above)
    from puzzles import services as puzzles
    from puzzles.models import Puzzle  # (as above)
    from rooms import services  # (as above)
    from tests.analysis.planted import BEST, DECISION_SEQ  # (as above)
    from tests.browser.analysed_room import play_planted_round
    from tests.site.helpers import current  # (as above)

    tag = secrets.token_hex(3)
    password = secrets.token_urlsafe(12)
    users = [
        get_user_model().objects.create_user(f"fonte{tag}{i}", password=password) for i in range(2)
    ]
    room = services.room_create(
        user=users[0], name=f"Mesa de origem {tag}", preset="sem_monte", visibility="public"
    )
    services.seat_take(room=room, index=1, user=users[1])
    play_planted_round(room)
    analysis = round_analyse(round_id=current(room).pk, work=300)
    assert analysis is not None
    # The planted decision made clearly the best (its stored values: 5-5 on B
    # far ahead), so that every run cuts that one whatever its seed drew.
    for d in analysis.decisions:
        if d["seq"] == DECISION_SEQ:
            for o in d["options"]:
                o["value"] = 10.0 if (o["tile"], o["end"]) == (str(BEST.tile), BEST.end) else -8.0
            d["best"] = next(i for i, o in enumerate(d["options"]) if o["value"] == 10.0)
    analysis.save(update_fields=["decisions"])
    puzzles.puzzles_cut()

    def keep(*_args: Any, **kwargs: Any) -> cutting.Verdict:
        return cutting.Verdict(True, "", [{**kwargs["solution"], "value": 9.0}], 9.0, 1)

    while puzzles.puzzle_check_next(checker=keep) is not None:
        pass
    found = []
    for puzzle in Puzzle.objects.filter(round=current(room), state=Puzzle.State.PUBLISHED):
        legal = puzzle.view["legal"]
        wrong = next(a for a in legal if not puzzles.is_solution(puzzle, action_from_dict(a)))
        found.append({"id": puzzle.pk, "solution": puzzle.solution, "wrong": wrong})
    return {
        "puzzles": found,
        "code": room.code,
        "blunderer": {"username": users[0].username, "password": password},
        "secrets": [u.username for u in users] + [room.name, room.code],
    }


if __name__ == "__main__":
    import django

    django.setup()
    print(json.dumps(build()))
