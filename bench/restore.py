"""Restore drill: a backup taken while tables play, the database dropped and
restored, the site started again (docs/scaling.md, "Backups").

On the Procfile's production set (two Daphne processes serving
``domino_site.asgi:application``, the Celery worker and beat from the Procfile;
``--analysis`` adds the analysis worker) against a fresh PostgreSQL database
(``--db``, default ``domino_restore``) and a Redis db (``--redis``, default db
11), both emptied first:

1. ``--tables`` public duelo tables with a 10 s move clock, two players (one
   socket on each Daphne) and two watchers each, play through real WebSocket
   clients (``bench.loadbench.clients.DominoTable``: the first legal move, then
   the next round, the next match).
2. Halfway through ``--seconds`` of play, a backup: ``domino_site.backup.backup``
   (what ``make backup`` runs: ``pg_dump --format=custom``) on a snapshot this
   script exported and read first (``pg_export_snapshot``), so what the backup
   holds is known exactly while the play goes on. Moves made after it are what
   a restore loses (the recovery point).
3. Every process stopped, the database dropped (``WITH (FORCE)``), Redis
   flushed; ``domino_site.backup.restore`` (what ``make restore`` runs); every
   room, round and move is compared with what the snapshot held.
4. The set started again; every table's sockets reconnect and must get the
   backed-up version with the backed-up log; every round whose move clock was
   running at the backup must see it fire (a move not by a person, at the seat
   that was to play); each table then plays on; every ended round's deal
   still verifies (its JSON from ``/api/rooms/<code>/rounds/<n>/`` through
   ``games.fairness.verify``, the replay page's script); every round's replay
   equals its snapshot.
5. Timing: the finished rounds are copied (rows, in SQL) until the database
   holds ``--rounds`` rounds; backup, drop, restore again, timed; counts compared.

Prints the figures, writes them as JSON (``--json``), and exits 1 if any check
failed (tests/ops/test_restore_drill.py runs it with ``--quick``). Without
PostgreSQL or Redis it says so and exits 0 (``make bench`` goes on).

    python bench/restore.py                    # 12 tables, 30 s, 5000 rounds
    python bench/restore.py --quick            # 4 tables, 12 s, 400 rounds
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.loadbench.clients import DominoTable  # noqa: E402
from bench.loadbench.common import postgres_problem, redis_problem, say  # noqa: E402
from bench.loadbench.procfile import background_commands  # noqa: E402
from bench.loadbench.servers import Config, Daphne, Proc, django_setup  # noqa: E402
from bench.loadbench.stats import Stats  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
ASGI = "domino_site.asgi:application"
CLOCK_SECONDS = 10
HUMAN = "person"


# ------------------------------------------------------------------ storage


def admin_url(cfg: Config) -> str:
    return cfg.database_url.rsplit("/", 1)[0] + "/postgres"


def drop_database(cfg: Config) -> None:
    import psycopg
    from django.apps import apps

    if apps.ready:  # this process's own connection, before the database goes
        from django.db import connections

        connections.close_all()
    name = cfg.database_url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url(cfg), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def fresh_storage(cfg: Config) -> None:
    import psycopg
    import redis

    drop_database(cfg)
    name = cfg.database_url.rsplit("/", 1)[1]
    with psycopg.connect(admin_url(cfg), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    assert cfg.redis_url
    redis.Redis.from_url(cfg.redis_url).flushdb()
    import subprocess

    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=cfg.server_env(),
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"migrate failed:\n{done.stdout}\n{done.stderr}")


def fingerprint(cursor: Any) -> dict[str, Any]:
    """What the tables are, read through ``cursor``: every room's version and
    status, every round's version, state, clock and deal, every move."""
    rooms = cursor.execute("SELECT code, version, status FROM rooms_room ORDER BY code").fetchall()
    rounds = cursor.execute(
        "SELECT r.id, room.code, r.number, r.version, r.state::text, r.due_at, r.due_kind,"
        " r.commitment, r.server_seed, r.client_seeds::text, r.result::text, r.finished_at"
        " FROM games_round r JOIN rooms_room room ON room.id = r.room_id ORDER BY r.id"
    ).fetchall()
    moves = cursor.execute(
        "SELECT round_id, seq, seat, action::text, by FROM games_move ORDER BY round_id, seq"
    ).fetchall()
    return {
        "rooms": [list(map(str, row)) for row in rooms],
        "rounds": [list(map(str, row)) for row in rounds],
        "moves": [list(map(str, row)) for row in moves],
    }


def table_at(cursor: Any, code: str) -> dict[str, Any]:
    """A table as its current round stands: the room's version, the round's
    number, its moves (seq, seat, by), whose clock runs."""
    room_version = cursor.execute(
        "SELECT version FROM rooms_room WHERE code = %s", [code]
    ).fetchone()[0]
    row = cursor.execute(
        "SELECT r.id, r.number, r.due_kind, r.state->>'turn', r.result IS NULL"
        " FROM games_round r JOIN rooms_room room ON room.id = r.room_id"
        " WHERE room.code = %s ORDER BY r.started_at DESC, r.id DESC LIMIT 1",
        [code],
    ).fetchone()
    if row is None:
        return {"version": room_version, "round": None}
    round_id, number, due_kind, turn, running = row
    moves = cursor.execute(
        "SELECT seq, seat, by FROM games_move WHERE round_id = %s ORDER BY seq", [round_id]
    ).fetchall()
    return {
        "version": room_version,
        "round": number,
        "moves": [list(m) for m in moves],
        "clock_running": bool(running and due_kind == "clock"),
        "turn": None if turn is None else int(turn),
    }


# ------------------------------------------------------------------ processes


class ProductionSet:
    """The Procfile's processes but ``release``: two Daphnes, the worker and
    beat (and the analysis worker if asked)."""

    def __init__(self, cfg: Config, analysis: bool, logdir: Path) -> None:
        self.cfg, self.logdir = cfg, logdir
        env = {k: v for k, v in cfg.server_env().items() if k != "DJANGO_ALLOW_ASYNC_UNSAFE"}
        self.env = {**env, "DOMINO_SWEEP_SECONDS": "1"}
        self.skip = () if analysis else ("analysis",)
        self.daphnes: list[Daphne] = []
        self.background: list[Proc] = []
        self.starts = 0

    def start(self) -> ProductionSet:
        self.starts += 1
        self.daphnes = [Daphne(self.env, self.logdir, asgi=ASGI) for _ in range(2)]
        commands = background_commands(ROOT, self.env, self.cfg.tmp)
        self.background = [
            Proc(f"{name}-{self.starts}", argv, self.env, self.logdir)
            for name, argv in commands.items()
            if name not in self.skip
        ]
        for proc in (*self.daphnes, *self.background):
            proc.start()
        for daphne in self.daphnes:
            daphne.wait_healthy()
        return self

    def stop(self) -> None:
        for proc in (*self.daphnes, *self.background):
            proc.stop()

    def problems(self) -> list[str]:
        return [f"{p.name}: {line}" for p in self.daphnes for line in p.problems()]


# ------------------------------------------------------------------ play


async def play(tables: list[DominoTable], until: float, pause: float = 0.25) -> int:
    """Every table steps until ``until`` (monotonic); returns the commands that
    changed a table."""
    done = 0

    async def one(table: DominoTable) -> None:
        nonlocal done
        while time.monotonic() < until:
            step = await table.step(until + 20)
            if step is not None and step[3] == "ok":
                done += 1
            await asyncio.sleep(pause * random.uniform(0.5, 1.5))

    await asyncio.gather(*(one(t) for t in tables))
    return done


async def open_tables(specs: list, servers: list[Daphne], stats: Stats) -> list[DominoTable]:
    tables = [DominoTable(i, stats, spec, random.Random(i)) for i, spec in enumerate(specs)]
    await asyncio.gather(*(t.open(servers, i % 2) for i, t in enumerate(tables)))
    return tables


def log_of(state: dict[str, Any]) -> list[list[Any]]:
    """The moves of the current round in a ``room`` snapshot: (seq, seat, by)."""
    return [
        [e["seq"], e["seat"], e["by"]]
        for e in state.get("log") or []
        if e.get("type") != "adjust" and "seq" in e
    ]


# ------------------------------------------------------------------ history


def grow_history(cursor: Any, rounds: int) -> int:
    """Copy the ended rounds (and their moves) until the database holds about
    ``rounds`` rounds; returns how many it holds."""
    have = cursor.execute("SELECT count(*) FROM games_round").fetchone()[0]
    ended = cursor.execute(
        "SELECT count(*) FROM games_round WHERE finished_at IS NOT NULL"
    ).fetchone()[0]
    if have >= rounds or ended == 0:
        return have
    copies = -(-(rounds - have) // ended)
    columns = [
        row[0]
        for row in cursor.execute(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_name = 'games_round' AND column_name NOT IN ('id', 'number')"
            " ORDER BY ordinal_position"
        ).fetchall()
    ]
    listed = ", ".join(columns)
    cursor.execute(
        f"INSERT INTO games_round ({listed}, number)"
        f" SELECT {listed}, number + g * 100000 FROM games_round,"
        " generate_series(1, %s) g WHERE finished_at IS NOT NULL AND number < 100000",
        [copies],
    )
    cursor.execute(
        "INSERT INTO games_move (round_id, seq, seat, action, by, created_at)"
        " SELECT n.id, m.seq, m.seat, m.action, m.by, m.created_at FROM games_round n"
        " JOIN games_round s ON s.match_id = n.match_id AND s.number = n.number % 100000"
        " JOIN games_move m ON m.round_id = s.id WHERE n.number >= 100000"
    )
    return cursor.execute("SELECT count(*) FROM games_round").fetchone()[0]


def counts(cursor: Any) -> dict[str, int]:
    return {
        table: cursor.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
        for table in ("rooms_room", "games_round", "games_move", "auth_user", "django_session")
    }


# ------------------------------------------------------------------ the drill


def verify_deals(servers: list[Daphne], specs: list, limit: int = 30) -> dict[str, Any]:
    """Every ended round's JSON, from the replay API, through the replay page's
    verification script (``games.fairness.verify``)."""
    from games.fairness import verify
    from games.models import Round

    cookie_of = {spec.code: spec.cookies[0] for spec in specs}
    ended = list(
        Round.objects.filter(finished_at__isnull=False, room__code__in=cookie_of)
        .exclude(fair_version="")
        .values_list("room__code", "number", "match__number")
        .order_by("id")[:limit]
    )
    failed: list[str] = []
    with tempfile.TemporaryDirectory() as folder:
        for i, (code, number, match) in enumerate(ended):
            server = servers[i % len(servers)]
            request = urllib.request.Request(
                server.url(f"/api/rooms/{code}/rounds/{number}/?match={match}"),
                headers={"Cookie": cookie_of[code]},
            )
            with urllib.request.urlopen(request, timeout=20) as response:
                body = response.read()
            path = Path(folder) / f"{code}-{match}-{number}.json"
            path.write_bytes(body)
            status, problems = verify(str(path))
            if status != 0:
                failed.append(f"{code}/{match}/{number}: {problems}")
    return {"checked": len(ended), "failed": failed}


async def drill(args: argparse.Namespace, cfg: Config) -> dict[str, Any]:
    import psycopg
    import redis

    from bench.loadbench.tables import create_tables
    from domino_site.backup import backup, restore

    report: dict[str, Any] = {"tables": args.tables, "checks": {}}
    checks = report["checks"]
    logdir = Path(tempfile.mkdtemp(prefix="domino-restore-logs-"))
    fresh_storage(cfg)
    django_setup(cfg)
    # This script's own short reads and writes (users, rooms, the replays) run on
    # its event loop's thread, between the clients' steps; not the servers'.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    specs = create_tables(args.tables, move_seconds=CLOCK_SECONDS)
    site = ProductionSet(cfg, args.analysis, logdir).start()
    stats = Stats()
    dump = cfg.tmp / "drill.dump"
    try:
        tables = await open_tables(specs, site.daphnes, stats)
        await asyncio.gather(*(t.start() for t in tables))
        half = time.monotonic() + args.seconds / 2
        before = await play(tables, half)

        # The backup, on a snapshot read first: what it holds is known exactly.
        def take_backup() -> tuple[dict, dict, float, str]:
            with psycopg.connect(cfg.database_url) as conn:
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ")
                snapshot = conn.execute("SELECT pg_export_snapshot()").fetchone()[0]
                held = fingerprint(conn)
                at = {spec.code: table_at(conn, spec.code) for spec in specs}
                started = time.monotonic()
                backup(cfg.database_url, dump, snapshot=snapshot)
                took = time.monotonic() - started
                stamp = conn.execute("SELECT now()").fetchone()[0].isoformat()
            return held, at, took, stamp

        backup_task = asyncio.create_task(asyncio.to_thread(take_backup))
        after = await play(tables, time.monotonic() + args.seconds / 2)
        held, at, backup_seconds, _stamp = await backup_task
        report["play"] = {"commands_before_backup": before, "commands_after_backup": after}
        report["backup_seconds_during_play"] = round(backup_seconds, 2)
        with psycopg.connect(cfg.database_url) as conn:
            report["lost_by_restore"] = {
                "moves": conn.execute("SELECT count(*) FROM games_move").fetchone()[0]
                - len(held["moves"]),
            }
        for table in tables:
            await table.close()
    finally:
        site.stop()

    # Everything gone: the database dropped, Redis emptied.
    drop_database(cfg)
    assert cfg.redis_url
    redis.Redis.from_url(cfg.redis_url).flushdb()
    started = time.monotonic()
    restore(cfg.database_url, dump)
    report["restore_seconds_drill"] = round(time.monotonic() - started, 2)
    with psycopg.connect(cfg.database_url) as conn:
        restored = fingerprint(conn)
    checks["restored_equals_backup"] = restored == held
    report["backup_held"] = {k: len(v) for k, v in held.items()}

    # The site again: the sockets reconnect to what the backup held.
    site = ProductionSet(cfg, args.analysis, logdir)
    site.starts = 1
    site.start()
    stats = Stats()
    try:
        tables = await open_tables(specs, site.daphnes, stats)
        first: dict[str, dict] = {}
        for table in tables:
            code = table.spec.code
            states = [s.state for s in table.socks]
            first[code] = {
                "versions": sorted({st["version"] for st in states}),
                "logs": [log_of(st) for st in states],
            }
        reconnect = {}
        for code, seen in first.items():
            want = at[code]
            prefix = want.get("moves") or []
            reconnect[code] = min(seen["versions"]) >= want["version"] and all(
                log[: len(prefix)] == prefix
                and all(by != HUMAN for _seq, _seat, by in log[len(prefix) :])
                for log in seen["logs"]
            )
        checks["sockets_reconnect_to_the_backup"] = all(reconnect.values())
        report["reconnected_exactly_at_backup_version"] = sum(
            first[c]["versions"] == [at[c]["version"]] for c in first
        )

        # The clocks that ran at the backup fire (the sweeper finds them).
        clocks = [t for t in tables if at[t.spec.code].get("clock_running")]
        fired: dict[str, bool] = {}

        async def clock_fires(table: DominoTable) -> None:
            want = at[table.spec.code]
            prefix = want["moves"]

            def fired_now() -> bool:
                state = table.socks[2].state  # a watcher's view
                if (
                    state is None
                    or (state["round"] or {}).get("number", want["round"]) != want["round"]
                ):
                    return state is not None  # the clock ended the round: it fired
                log = log_of(state)
                return len(log) > len(prefix) and log[len(prefix)][1] == want["turn"]

            try:
                await table.until(fired_now, CLOCK_SECONDS + 40)
                state = table.socks[2].state
                log = log_of(state)
                fired[table.spec.code] = len(log) <= len(prefix) or log[len(prefix)][2] != HUMAN
            except (TimeoutError, RuntimeError):
                fired[table.spec.code] = False

        started = time.monotonic()
        await asyncio.gather(*(clock_fires(t) for t in clocks))
        report["clocks"] = {
            "running_at_backup": len(clocks),
            "fired_after_restore": sum(fired.values()),
            "seconds_until_all_fired": round(time.monotonic() - started, 1),
        }
        checks["clocks_fire"] = all(fired.values())

        # The tables play on.
        moved = await play(tables, time.monotonic() + args.after)
        report["commands_after_restore"] = moved
        checks["tables_play_on"] = moved >= len(tables)
        deals = await asyncio.to_thread(verify_deals, site.daphnes, specs)
        report["deals"] = deals
        checks["deals_verify"] = deals["checked"] > 0 and not deals["failed"]
        for table in tables:
            await table.close()
    finally:
        site.stop()
    from games.models import Round

    rounds = list(Round.objects.all())
    differ = [r.pk for r in rounds if not r.replay_matches_snapshot()]
    checks["replays_match"] = not differ
    report["replays"] = {"rounds": len(rounds), "differ": differ}
    report["server_problems"] = site.problems()[:20]
    checks["no_server_exception"] = not any("Exception inside application" in line
                                            for line in report["server_problems"])  # fmt: skip
    report["client_errors"] = dict(stats.errors)

    # Timing: a database of ``--rounds`` rounds backed up and restored.
    with psycopg.connect(cfg.database_url, autocommit=True) as conn:
        with conn.transaction():
            grow_history(conn, args.rounds)
        conn.execute("VACUUM ANALYZE")
        grown = counts(conn)
        size = conn.execute("SELECT pg_database_size(current_database())").fetchone()[0]
    started = time.monotonic()
    backup(cfg.database_url, dump)
    backup_seconds = time.monotonic() - started
    drop_database(cfg)
    started = time.monotonic()
    restore(cfg.database_url, dump)
    restore_seconds = time.monotonic() - started
    with psycopg.connect(cfg.database_url) as conn:
        again = counts(conn)
    checks["timed_restore_complete"] = again == grown
    report["timing"] = {
        **grown,
        "database_mb": round(size / 1e6, 1),
        "dump_mb": round(dump.stat().st_size / 1e6, 1),
        "backup_seconds": round(backup_seconds, 2),
        "restore_seconds": round(restore_seconds, 2),
    }
    dump.unlink(missing_ok=True)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/test")
    parser.add_argument("--pg", default=base.rsplit("/", 1)[0], help="PostgreSQL server URL")
    parser.add_argument("--db", default="domino_restore", help="database (dropped, created)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/11", help="(flushed)")
    parser.add_argument("--tables", type=int, default=12)
    parser.add_argument("--seconds", type=float, default=30, help="play around the backup")
    parser.add_argument("--after", type=float, default=8, help="play after the restore")
    parser.add_argument("--rounds", type=int, default=5000, help="rounds in the timed restore")
    parser.add_argument("--analysis", action="store_true", help="also the analysis worker")
    parser.add_argument("--quick", action="store_true", help="4 tables, 12 s, 400 rounds")
    parser.add_argument("--json", help="write the report here")
    args = parser.parse_args(argv)
    if args.quick:
        args.tables, args.seconds, args.after, args.rounds = 4, 12, 5, 400
    if not args.db.startswith("domino_restore"):
        parser.error("--db must start with domino_restore (it is dropped)")
    cfg = Config(
        name="restore",
        database_url=f"{args.pg.rstrip('/')}/{args.db}",
        redis_url=args.redis,
        daphnes=2,
    )
    problem = postgres_problem(f"{args.pg.rstrip('/')}/postgres") or redis_problem(args.redis)
    if problem:  # as bench/load.py: `make bench` goes on without it
        say(f"restore drill skipped: {problem}")
        return 0
    report = asyncio.run(drill(args, cfg))
    failed = [name for name, ok in report["checks"].items() if not ok]
    report["failed"] = failed
    say(json.dumps(report, indent=2, default=str))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=2, default=str))
    t = report["timing"]
    say(
        f"\nrestore drill: {report['tables']} tables; backup during play"
        f" {report['backup_seconds_during_play']} s; moves lost to the restore"
        f" {report['lost_by_restore']['moves']}; clocks fired"
        f" {report['clocks']['fired_after_restore']}/{report['clocks']['running_at_backup']};"
        f" deals verified {report['deals']['checked']}; timed: {t['games_round']} rounds,"
        f" {t['games_move']} moves, {t['database_mb']} MB database, {t['dump_mb']} MB dump:"
        f" backup {t['backup_seconds']} s, restore {t['restore_seconds']} s;"
        f" {'every check passed' if not failed else 'FAILED: ' + ', '.join(failed)}"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
