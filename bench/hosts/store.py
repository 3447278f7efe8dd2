"""What the drills read and write in the site's database, through Django (run
on a host with the site's environment):

    python -m bench.hosts.store tables N [CLOCK_SECONDS]   # JSON: the new tables
    python -m bench.hosts.store facts                       # JSON: what is stored

``tables``: N public duelos, two seated players and two watchers each, logged
in (bench.loadbench.tables), with a move clock if given. ``facts``: per room its
version and every stored move (match, round, seq, seat, type, tile, by), the
rounds whose replay differs from their stored state, and the rounds whose due
time passed more than a second ago.
"""

from __future__ import annotations

import json
import sys


def tables(count: int, clock: int | None) -> list[dict]:
    from bench.loadbench.tables import create_tables
    from rooms.models import Room

    specs = create_tables(count)
    if clock:  # the harness's set-up, before anyone plays (the host's setting)
        Room.objects.filter(code__in=[s.code for s in specs]).update(move_seconds=clock)
    return [{"code": s.code, "cookies": s.cookies} for s in specs]


def facts() -> dict:
    from django.utils import timezone

    from games.models import Move, Round
    from rooms.models import Room

    rooms = {r.pk: {"code": r.code, "version": r.version, "moves": {}} for r in Room.objects.all()}
    rows = Move.objects.values_list(
        "round__room_id", "round__match__number", "round__number", "seq", "seat", "action", "by"
    )
    for room_id, match, number, seq, seat, action, by in rows:
        key = f"{match}.{number}.{seq}"
        moves = rooms[room_id]["moves"]
        assert key not in moves, f"two moves stored as {key} of room {room_id}"
        moves[key] = [seat, action.get("type"), action.get("tile"), by]
    rounds = list(Round.objects.all())
    late = timezone.now() - timezone.timedelta(seconds=1)
    return {
        "rooms": {r["code"]: r for r in rooms.values()},
        "rounds": len(rounds),
        "replays_differ": [r.pk for r in rounds if not r.replay_matches_snapshot()],
        "overdue": [
            [r.room.code, r.due_kind, r.due_at.isoformat()]
            for r in rounds
            if r.due_at is not None and r.due_at < late and r.result is None
        ],
    }


if __name__ == "__main__":
    import django

    django.setup()
    if sys.argv[1] == "tables":
        clock = int(sys.argv[3]) if len(sys.argv) > 3 else None
        print(json.dumps(tables(int(sys.argv[2]), clock)))
    else:
        print(json.dumps(facts()))
