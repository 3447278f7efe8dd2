"""A move's path through our modules: which of them one person's move enters,
from the service's call to the frames built after commit (docs/architecture.md,
"A move, step by step").

Two people sit at a duelo in an SQLite database of its own; the host's first
legal move is traced (``sys.setprofile``) while ``rooms.services.action_apply``
runs and commits (its after-commit work included: the frames are built and
handed to the in-memory channel layer). Prints the modules entered in order of
first entry and three counts: the product modules entered, the calls that
cross from one product module into another (and their distinct edges), and the
entries into
``rooms.services`` from outside it.

    python bench/move_path.py [--tree PATH]   (PATH: another checkout, to compare)
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections import Counter
from typing import Any

PRODUCT = (
    "games", "rooms", "records", "arenas", "quick", "replays", "analysis", "timers",
    "bots", "domino_site",
)  # fmt: skip


def _module_of(frame: Any, root: str) -> str | None:
    path = frame.f_code.co_filename
    if not path.startswith(root) or "/migrations/" in path or "/.venv" in path:
        return None
    name = os.path.relpath(path, root)[:-3].replace(os.sep, ".")
    return name.removesuffix(".__init__") if name.split(".")[0] in PRODUCT else None


def trace(root: str) -> tuple[list[str], Counter[str], int]:
    """The modules entered (first entry order), the calls from one product
    module into another (per edge), the entries into rooms.services from
    outside it."""
    from django.contrib.auth import get_user_model

    from rooms import services
    from rooms.models import Room

    users = get_user_model()
    ana = users.objects.create_user("ana", password="x")
    bruno = users.objects.create_user("bruno", password="x")
    room = services.room_create(user=ana, name="Duelo", preset="duelo")
    services.seat_take(room=room, index=1, user=bruno)
    host = room.seats.get(index=0)
    services.match_start(room=room, actor=host)
    room = Room.objects.get(pk=room.pk)
    play = room.rounds.order_by("-id").first().engine()
    action = play.legal_actions()[0].to_dict()  # the first legal move of whoever's turn it is
    seat = room.seats.get(index=play.turn)

    order: list[str] = []
    crossings = Counter[str]()
    into_services = 0

    def profile(frame: Any, event: str, arg: Any) -> None:
        nonlocal into_services
        if event != "call":
            return
        callee = _module_of(frame, root)
        if callee is None:
            return
        if callee not in order:
            order.append(callee)
        caller = frame.f_back and _module_of(frame.f_back, root)
        if caller and caller != callee:
            crossings[f"{caller} -> {callee}"] += 1
            if callee.startswith("rooms.services") and not caller.startswith("rooms.services"):
                into_services += 1

    sys.setprofile(profile)
    try:
        services.action_apply(
            room=room.pk, seat_index=seat.index, action=action, version=room.version,
            player=(seat.user, None),
        )  # fmt: skip
    finally:
        sys.setprofile(None)
    return order, crossings, into_services


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--tree", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    )
    args = parser.parse_args()
    root = os.path.abspath(args.tree) + os.sep
    sys.path.insert(0, root)
    os.chdir(root)
    db = tempfile.NamedTemporaryFile(suffix=".sqlite3", delete=False)
    os.environ.update(DATABASE_URL=f"sqlite:///{db.name}", DEBUG="1")
    os.environ.pop("REDIS_URL", None)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    order, crossings, into_services = trace(root)
    print("modules entered, in order:")
    for name in order:
        print("  ", name)
    print(f"product modules entered: {len(order)}")
    print(
        f"calls crossing between product modules: {sum(crossings.values())}"
        f" along {len(crossings)} distinct edges"
    )
    print(f"entries into rooms.services from outside it: {into_services}")
    os.unlink(db.name)


if __name__ == "__main__":
    main()
