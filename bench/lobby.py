"""Lobby sockets at a thousand tables: bytes and messages per socket per second,
the whole list on every change (before) against the changed rows of each
viewer's page (after), from the same change stream in the same run.

The script builds the public list in a fresh SQLite file through the project's
services (``--tables`` open public rooms, each with its creator connected;
``--playing`` of them full of bots with the match started), then runs
``--seconds`` of simulated time in windows of ``rooms.events.LOBBY_EVERY`` (the
lobby's news of a server goes out at most that often). In every window:

* each playing table moves every ``--move-every`` seconds, and every move
  changes its row (the worst case: as if rows carried the scores; today a row
  changes at a round's end, a seat change, a pause), written to the database
  with a new version as a service would;
* ``--churn`` rooms a second close and as many open (through the services);
* before: the old notice, ``selectors.public_rooms()`` (every row), which each
  socket sent whole as ``rooms`` when it differed from its last;
* after: ``rooms.events.lobby_notice`` (the changed rows only, one query), which
  each socket's ``lobby.listing.Page`` sorts out in memory, sending
  ``rooms_changed`` (``lobby.listing.changes_message``) only when its page changed,
  and reading its page again (counted) only when its spare rows ran out.

``--sockets`` viewers look at a mix of views: the first page of everything,
a free seat, one preset, one clock, rated tables, the second page. Bytes are the
JSON texts the consumers send (``json.dumps``, as ``send_json`` does).

Run: ``.venv/bin/python bench/lobby.py`` (``--help`` for the knobs). It prints,
never asserts; the figures go to bench/RESULTS.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BUDGET = 2048  # bytes a second a lobby socket may receive after (issue 26)


def setup_django(db: Path) -> None:
    os.environ.setdefault("DEBUG", "1")
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.pop("REDIS_URL", None)
    os.environ["DJANGO_SETTINGS_MODULE"] = "domino_site.settings"
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def build(tables: int, playing: int, rated_every: int, rng: random.Random) -> list[int]:
    """The public rooms; the ids of the playing ones."""
    from django.contrib.auth import get_user_model

    from games.engine import PRESETS
    from rooms import services
    from rooms.models import MOVE_SECONDS_CHOICES, Room, Seat

    presets = sorted(PRESETS)
    clocks = [None, *MOVE_SECONDS_CHOICES]
    users = get_user_model().objects
    ids = []
    for i in range(tables):
        room = open_room(services, users, i, presets[i % len(presets)], clocks[i % len(clocks)])
        ids.append(room.pk)
    for pk in rng.sample(ids, playing):
        room = Room.objects.get(pk=pk)
        host = Seat.objects.get(room=room, index=0)
        for index in range(1, room.seat_count):
            services.bot_add(room=room, actor=host, index=index, level="easy")
        services.match_start(room=room, actor=Seat.objects.get(room=room, index=0))
    Room.objects.filter(pk__in=ids[::rated_every]).update(rated=True)
    return [pk for pk in ids if Room.objects.get(pk=pk).status != "waiting"]


_opened = iter(range(10**9))


def open_room(services, users, i: int, preset: str, clock):
    user = users.create_user(f"bench{next(_opened)}", password=None)  # (no hashing)
    room = services.room_create(
        user=user, name=f"Mesa {i}", preset=preset, move_seconds=clock, competitive=True
    )
    services.seat_connected(room=room, index=0, channel_name=f"bench.{room.code}")
    return room


def views(sockets: int, second_cursor: str | None):
    """The viewers' views, a mix of what people look at."""
    from lobby.listing import View

    mix = [
        View(),
        View(),
        View(),
        View(),
        View(free=True),
        View(free=True),
        View(preset="parceria"),
        View(move_seconds=30),
        View(rated=True),
        View(cursor=int(second_cursor) if second_cursor else None),
    ]
    return [mix[i % len(mix)] for i in range(sockets)]


def move(pk: int) -> tuple[int, tuple[str, int]]:
    """A move that changes the table's row: a new version, as a service writes it."""
    from django.db.models import F

    from rooms.models import Room

    room = Room.objects.only("status", "code", "version").get(pk=pk)
    status = "between_rounds" if room.status == "playing" else "playing"
    Room.objects.filter(pk=pk).update(status=status, version=F("version") + 1)
    return pk, (room.code, room.version + 1)


def run(args: argparse.Namespace) -> dict:
    from django.contrib.auth import get_user_model

    from lobby.listing import Page, changes_message, rooms_message
    from lobby.selectors import lobby_entries
    from rooms import events, selectors, services
    from rooms.models import Room

    rng = random.Random(args.seed)
    started = time.process_time()
    playing = build(args.tables, args.playing, args.rated_every, rng)
    print(f"built {args.tables} public rooms, {len(playing)} playing, "
          f"in {time.process_time() - started:.1f} s of CPU")  # fmt: skip

    # after: every socket's page, read at connect as the consumer reads it
    first = lobby_entries(views(1, None)[0], 51)
    pages = []
    connect_bytes = []
    second = str(first[49][0]) if len(first) > 50 else None  # (a short list has one page)
    for view in views(args.sockets, second):
        page = Page(view, [], complete=True)
        entries = lobby_entries(view, page.want)
        page.refill(entries, len(entries) < page.want)
        connect_bytes.append(len(json.dumps(rooms_message(page))))
        pages.append(page)
    # before: every socket holds the whole list
    old_rows = selectors.public_rooms()
    old_connect = len(json.dumps({"type": "rooms", "rooms": old_rows}))

    window = events.LOBBY_EVERY
    windows = int(args.seconds / window)
    per_window = args.playing * window / args.move_every
    churn_per_window = args.churn * window
    users = get_user_model().objects
    old = {"bytes": 0, "messages": 0, "read_s": 0.0, "encode_s": 0.0}
    new = {"bytes": [0] * len(pages), "messages": [0] * len(pages), "reads": 0,
           "refills": 0, "read_s": 0.0, "apply_s": 0.0}  # fmt: skip
    debt = churn_debt = 0.0
    for _ in range(windows):
        changed: dict[int, tuple[str, int]] = {}
        debt += per_window
        while debt >= 1:
            debt -= 1
            pk, told = move(rng.choice(playing))
            changed[pk] = told
        churn_debt += churn_per_window
        while churn_debt >= 1:
            churn_debt -= 1
            gone = Room.objects.filter(status="waiting").order_by("?").first()
            services.room_close(room=gone, reason="bench")
            changed[gone.pk] = (gone.code, gone.version + 1)
            room = open_room(services, users, 0, "duelo", 30)
            room.refresh_from_db()
            changed[room.pk] = (room.code, room.version)
        if not changed:
            continue
        # before: the whole list, read once, sent whole to every socket whose list changed
        t0 = time.process_time()
        rows = selectors.public_rooms()
        t1 = time.process_time()
        if rows != old_rows:
            text = json.dumps({"type": "rooms", "rooms": rows})
            old["encode_s"] += time.process_time() - t1  # once here; once a socket in the consumer
            old["bytes"] += len(text)
            old["messages"] += 1
            old_rows = rows
        old["read_s"] += t1 - t0
        # after: the changed rows, read once; each socket's page in memory
        t0 = time.process_time()
        notice = json.loads(json.dumps(events.lobby_notice(changed)))  # as a layer carries it
        new["reads"] += 1
        t1 = time.process_time()
        new["read_s"] += t1 - t0
        entries = [tuple(entry) for entry in notice["rows"]]
        shared: dict[tuple, tuple[list, bool]] = {}  # consumers.SharedReads: one read a view
        for i, page in enumerate(pages):
            if not page.apply(entries, notice["gone"]):
                key = page.view.share_key()
                if key not in shared:
                    read = lobby_entries(page.view, page.want)
                    shared[key] = (read, len(read) < page.want)
                    new["refills"] += 1
                page.refill(*shared[key])
            diff = page.diff()
            if diff:
                new["bytes"][i] += len(json.dumps(changes_message(page, diff)))
                new["messages"][i] += 1
        new["apply_s"] += time.process_time() - t1
    return report(args, windows * window, old, new, old_connect, connect_bytes, pages)


def report(args, seconds, old, new, old_connect, connect_bytes, pages) -> dict:
    old_bps = old["bytes"] / seconds
    old_mps = old["messages"] / seconds
    new_bps = [b / seconds for b in new["bytes"]]
    new_mps = [m / seconds for m in new["messages"]]
    by_view: dict[str, list[float]] = {}
    for page, bps in zip(pages, new_bps, strict=True):
        by_view.setdefault(label(page.view), []).append(bps)
    mean_bps, worst_bps = statistics.mean(new_bps), max(new_bps)
    print(f"\n{args.tables} public tables, {args.playing} playing (a move each every "
          f"{args.move_every:g} s, every move changes its row), churn {args.churn:g}/s, "
          f"{args.sockets} lobby sockets, {seconds:g} s simulated")  # fmt: skip
    print(f"{'':28}{'before':>14}{'after':>14}{'ratio':>10}")
    rows = [
        ("bytes/s a socket (mean)", old_bps, mean_bps),
        ("bytes/s a socket (worst)", old_bps, worst_bps),
        ("messages/s a socket (mean)", old_mps, statistics.mean(new_mps)),
        ("connect message (bytes)", old_connect, statistics.mean(connect_bytes)),
    ]
    for name, before, after in rows:
        ratio = f"{before / after:,.0f}x" if after else "-"
        print(f"{name:28}{before:>14,.1f}{after:>14,.1f}{ratio:>10}")
    windows = seconds / 0.5
    print(f"server reads a window: before 1 whole list ({old['read_s'] / windows * 1000:.1f} ms), "
          f"after 1 changed-rows read ({new['read_s'] / windows * 1000:.1f} ms) + "
          f"{new['refills'] / windows:.2f} page re-reads")  # fmt: skip
    print(f"before, encoding the list: {old['encode_s'] / max(old['messages'], 1) * 1000:.1f} ms "
          f"a message, once a socket; after, all {args.sockets} pages sorted in memory: "
          f"{new['apply_s'] / windows * 1000:.1f} ms a window")  # fmt: skip
    for name, values in by_view.items():
        print(f"  after, {name:24} {statistics.mean(values):8.1f} B/s (worst {max(values):.1f})")
    verdict = "under" if worst_bps < BUDGET else "OVER"
    print(f"after: worst socket {worst_bps:,.0f} B/s, {verdict} the {BUDGET} B/s budget")
    return {"before_bps": old_bps, "after_mean_bps": mean_bps, "after_worst_bps": worst_bps,
            "before_mps": old_mps, "after_mps": statistics.mean(new_mps),
            "refills_per_window": new["refills"] / windows}  # fmt: skip


def label(view) -> str:
    parts = [f"{k}={v}" for k, v in view.as_json().items() if v not in (None, False, 50)]
    return ", ".join(parts).replace("cursor=", "page 2, cursor=") or "first page"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--playing", type=int, default=100)
    parser.add_argument("--sockets", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--move-every", type=float, default=2.0, help="seconds (default 2)")
    parser.add_argument("--churn", type=float, default=0.5, help="rooms closed and opened a second")
    parser.add_argument("--rated-every", type=int, default=10, help="one rated room in N")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--json", help="also write the figures to this file")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        setup_django(Path(tmp) / "lobby.sqlite3")
        figures = run(args)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
