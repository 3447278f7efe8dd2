"""Load: many real WebSocket clients against servers this script starts itself.

Each table is a public ``duelo`` room (two seats, no move clock) with two
logged-in players and two logged-in watchers, four sockets of the ``websockets``
package. The seat whose snapshot has legal actions sends one of them (with the
snapshot's ``version``); between matches the host sends ``new_match``. A move's
latency runs from sending it until each of the table's four sockets holds a
``room`` snapshot newer than the version the move was sent on. Like the browser
(static/js/table.js), a socket that gets ``stale`` sends ``refresh``; so do the
sockets of a move still unseen after 30 s (counted as lost, with which sockets
missed it: a server that drops messages shows here).

Configurations (each in its own child process, one after the other):

* ``embedded``: ``make run``'s set-up: a SQLite file (fresh, in a temporary
  folder), the in-memory channel layer, the in-process scheduler, one Daphne.
* ``production``: PostgreSQL (database ``domino_bench``, dropped and migrated
  afresh), the Redis channel layer (db 14, flushed), a Celery worker, two Daphne
  processes with every table's sockets spread over both (two on each).

Both run with ``DEBUG=0`` and ``BOT_DELAY_SECONDS=0``. Runs, all in the same
servers, tables being opened incrementally and kept open:

* paced: 25, 100 and 250 tables, one move a table every 2 s (offered: tables/2
  moves a second). A table whose last move has not yet reached its four sockets
  moves as soon as it has (so sustained < offered means the server fell behind);
* saturation: closed loop (a table moves again as soon as its four sockets saw
  its last move) on ``--sat-tables`` tables, spread over all Daphne processes;
  in production also on as many tables all on one Daphne process;
* the floor, in turns with each: a bare relay consumer mounted only by the
  bench (``bench/_relay_asgi.py``: same process, same channel layer) that
  sends each frame it gets to a group of four sockets; "tables" of four
  sockets spread like the tables', the same pacing, frames padded to the
  tables' median snapshot size. In a paced run the relay and the tables take
  turns (``--slices``, 3: relay, tables, relay, tables, relay, tables; each
  figure is over all its slices), so that the machine drifting during a run
  weighs on both sides. Our p50 and p99 are printed as ratios to the relay's.

Before each run the bench waits (up to 30 s) for the Daphne processes to go
idle and, with Redis, for their layer inboxes to empty.

Figures: p50/p95/p99 latency (moves only; the between-match commands count for
pacing and throughput), moves/s sustained (every command that changed a table,
completed within the measured window), server-side database queries per move
(every SQL statement of the Daphne processes in the window, divided by those
commands) and the round trips they took (``domino_site.infra.django`` sends a
move's reads as one message and its writes as another; BEGIN and COMMIT are
not counted),
and milliseconds per move inside ``rooms.services.action_apply``, resident
memory per open table (VmRSS growth of the Daphne processes while the tables
were opened and started, divided by the tables), and the CPU used by the
servers, by this client and by the whole machine (other people's work
included); with Redis, the largest per-process inbox of the layer seen during
a run (channels-redis' ``capacity`` applies to it: past it messages are dropped).
Nothing is asserted: this prints numbers and ratios measured side by side in
one run. One client process is enough: it uses a few % of a core at 250 tables.

    python bench/load.py                      # both configurations, ~10 min
    python bench/load.py --quick              # 25 tables, short runs (smoke test)
    python bench/load.py --config embedded --tables 25,100 --seconds 30
    python bench/load.py --json /tmp/load.json

Without PostgreSQL or Redis the production configuration is skipped (and says
why). PostgreSQL and Redis addresses: ``--pg``, ``--redis``.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import contextlib
import dataclasses
import json
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent  # the venv's bin (daphne, celery next to python)
ASGI_MODULE = "bench._relay_asgi:application"
PG_DATABASE = "domino_bench"
PERIOD = 2.0  # seconds between two moves of a table (paced runs)
DRAIN = 15.0  # after a window, how long outstanding moves may still finish
MOVE_TIMEOUT = 30.0  # a move not seen by all four sockets by then was lost
CONNECT_BATCH = 8  # tables opened at a time (four sockets each)
CLIENT_PACE = 15  # at most this many frames a second per socket (the server allows 20)


# ------------------------------------------------------------------ small helpers


def say(*parts: Any) -> None:
    print(*parts, flush=True)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def rss_kb(pid: int | str) -> int:
    """Resident memory of a process (``"self"``: this one), from /proc; 0 if gone."""
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def process_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process, from /proc."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu() -> tuple[int, int]:
    """(total, idle) jiffies of the whole machine."""
    with open("/proc/stat") as stat:
        values = [int(v) for v in stat.readline().split()[1:9]]
    return sum(values), values[3] + values[4]


def client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def percentile(sorted_values: list[float], q: float) -> float | None:
    if not sorted_values:
        return None
    k = (len(sorted_values) - 1) * q
    low = int(k)
    high = min(low + 1, len(sorted_values) - 1)
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * (k - low)


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 65536
    if soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def postgres_problem(dsn: str) -> str | None:
    try:
        import psycopg

        with psycopg.connect(dsn, connect_timeout=3):
            return None
    except Exception as exc:  # noqa: BLE001 - reported as the reason to skip
        reason = " ".join(str(exc).split())
        return f"PostgreSQL at {dsn} does not answer ({type(exc).__name__}: {reason})"


def redis_problem(url: str) -> str | None:
    try:
        import redis

        redis.Redis.from_url(url, socket_timeout=3, socket_connect_timeout=3).ping()
        return None
    except Exception as exc:  # noqa: BLE001 - reported as the reason to skip
        return f"Redis at {url} does not answer ({type(exc).__name__}: {exc})"


# ------------------------------------------------------------------ server processes


class Proc:
    """A subprocess of ours, its output in a log file."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str], logdir: Path) -> None:
        self.name = name
        self.cmd = cmd
        self.env = env
        self.log_path = logdir / f"{name}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> Proc:
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            self.cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def problems(self) -> list[str]:
        """Lines of the log that look like server-side failures."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return []
        keys = ("Traceback", "ERROR", "Error:", "Exception")
        return [line for line in lines if any(k in line for k in keys)]


class Daphne(Proc):
    def __init__(self, env: dict[str, str], logdir: Path) -> None:
        self.port = free_port()
        cmd = [
            str(BIN / "daphne"),
            "-v",
            "0",
            "-b",
            "127.0.0.1",
            "-p",
            str(self.port),
            ASGI_MODULE,
        ]
        super().__init__(f"daphne-{self.port}", cmd, env, logdir)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"{self.name} exited:\n{self.tail()}")
            try:
                with urllib.request.urlopen(self.url("/healthz"), timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer /healthz:\n{self.tail()}")

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url("/bench/stats"), timeout=20) as response:
            return json.loads(response.read())


# ------------------------------------------------------------------ configurations


@dataclass
class Config:
    name: str
    database_url: str
    redis_url: str | None
    daphnes: int
    variant: str = "today"
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(40))
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="domino-load-")))

    @property
    def label(self) -> str:
        """The configuration's name, with the ablation's variant when not today's."""
        return self.name if self.variant == "today" else f"{self.name}/{self.variant}"

    def server_env(self) -> dict[str, str]:
        drop = {"DATABASE_URL", "REDIS_URL", "DOMINO_SCHEDULER", "DJANGO_SETTINGS_MODULE"}
        env = {k: v for k, v in os.environ.items() if k not in drop}
        env.update(
            DJANGO_SETTINGS_MODULE="domino_site.settings",
            DATABASE_URL=self.database_url,
            DEBUG="0",
            SECRET_KEY=self.secret_key,
            ALLOWED_HOSTS="127.0.0.1,localhost",
            BOT_DELAY_SECONDS="0",
            DOMINO_HTTPS="0",  # plain HTTP on 127.0.0.1: no redirect to https
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
        )
        for key in ("DOMINO_OFF", "DOMINO_LAYER"):
            env.pop(key, None)
        env.update(variant_env(self.variant))
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
            env["DOMINO_SCHEDULER"] = "celery"
        else:
            env["DOMINO_SCHEDULER"] = "inprocess"
        return env


#: The ablation's server set-ups (``--variants``): today's code, each part of
#: the live path switched off alone (domino_site.ablation), and the stock parts
#: only (channels' and channels-redis' own layers, plain Django transactions).
_PLAIN = "read_ahead,prepared,begin_ride,pool_check"
VARIANTS: dict[str, dict[str, str]] = {
    "today": {},
    "no-read-ahead": {"DOMINO_OFF": "read_ahead"},
    "no-prepared": {"DOMINO_OFF": "prepared"},  # (the read ahead stands on it)
    "no-begin-ride": {"DOMINO_OFF": "begin_ride"},
    "no-pool-check": {"DOMINO_OFF": "pool_check"},
    "no-inbox-reader": {"DOMINO_OFF": "inbox_reader"},  # (local delivery stands on it)
    "no-local-delivery": {"DOMINO_OFF": "local_delivery"},
    "no-lua-send": {"DOMINO_OFF": "lua_send"},
    "our-layer-plain-db": {"DOMINO_OFF": _PLAIN},
    "stock": {"DOMINO_OFF": _PLAIN, "DOMINO_LAYER": "stock"},
    "stock-pubsub": {"DOMINO_OFF": _PLAIN, "DOMINO_LAYER": "pubsub"},
    # Only the channel layer stock (channels-redis' or channels' own).
    "layer-stock": {"DOMINO_OFF": "read_ahead", "DOMINO_LAYER": "stock"},
    "layer-pubsub": {"DOMINO_OFF": "read_ahead", "DOMINO_LAYER": "pubsub"},
}
#: The variants that change something on the embedded server (SQLite has no
#: BEGIN to carry and no pool; the in-memory layer has no inbox or scripts).
EMBEDDED_VARIANTS = ("today", "no-read-ahead", "no-prepared", "stock", "layer-stock")


def embedded_config(args: argparse.Namespace) -> Config:
    cfg = Config(name="embedded", database_url="", redis_url=None, daphnes=1)
    cfg.database_url = f"sqlite:///{cfg.tmp / 'bench.sqlite3'}"
    return cfg


def production_config(args: argparse.Namespace) -> Config:
    base = args.pg.rstrip("/")
    return Config(
        name="production",
        database_url=f"{base}/{PG_DATABASE}",
        redis_url=args.redis,
        daphnes=2,
    )


def prepare_storage(cfg: Config) -> None:
    """A fresh database (and Redis db), migrated by ``manage.py migrate``."""
    if cfg.redis_url:
        import psycopg
        import redis

        admin = cfg.database_url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {PG_DATABASE} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {PG_DATABASE}")
        redis.Redis.from_url(cfg.redis_url).flushdb()
    env = cfg.server_env()
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"migrate failed:\n{done.stdout}\n{done.stderr}")


def django_setup(cfg: Config) -> None:
    """This process talks to the same database through the project's services (to
    create users, sessions and rooms), never to the channel layer."""
    for key in ("REDIS_URL", "DOMINO_SCHEDULER"):
        os.environ.pop(key, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="domino_site.settings",
        DATABASE_URL=cfg.database_url,
        DEBUG="0",
        SECRET_KEY=cfg.secret_key,  # the servers must read our sessions
        BOT_DELAY_SECONDS="0",
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


# ------------------------------------------------------------------ tables in the database


@dataclass
class TableSpec:
    code: str
    cookies: list[str]  # players of seats 0 and 1, then two watchers


_batch = 0


def create_tables(count: int) -> list[TableSpec]:
    """``count`` public duelo rooms, two seated players each, and two watchers,
    all logged in (sessions created directly in the session store)."""
    global _batch
    from datetime import timedelta

    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore
    from django.contrib.sessions.models import Session
    from django.db import connections, transaction
    from django.utils import timezone
    from django.utils.crypto import get_random_string

    from rooms import services  # (after django_setup(): the settings are chosen at run time)

    _batch += 1
    prefix = f"b{os.getpid()}x{_batch}u"
    user_model = get_user_model()
    password = make_password(None)  # unusable: nobody logs in with a password
    with transaction.atomic():
        user_model.objects.bulk_create(
            [user_model(username=f"{prefix}{i}", password=password) for i in range(4 * count)]
        )
    users = {u.username: u for u in user_model.objects.filter(username__startswith=prefix)}
    store = SessionStore()
    expire = timezone.now() + timedelta(days=1)
    sessions, cookies = [], {}
    backend = "django.contrib.auth.backends.ModelBackend"
    for name, user in users.items():
        key = get_random_string(32, "abcdefghijklmnopqrstuvwxyz0123456789")
        data = {
            SESSION_KEY: str(user.pk),
            BACKEND_SESSION_KEY: backend,
            HASH_SESSION_KEY: user.get_session_auth_hash(),
        }
        sessions.append(
            Session(session_key=key, session_data=store.encode(data), expire_date=expire)
        )
        cookies[name] = f"{settings.SESSION_COOKIE_NAME}={key}"
    with transaction.atomic():
        Session.objects.bulk_create(sessions)
    specs = []
    for t in range(count):
        names = [f"{prefix}{4 * t + j}" for j in range(4)]
        room = services.room_create(
            user=users[names[0]],
            name=f"Bench {_batch}.{t}",
            preset="duelo",
            visibility="public",
            move_seconds=None,
        )
        services.seat_take(room=room, index=1, user=users[names[1]])
        specs.append(TableSpec(code=room.code, cookies=[cookies[n] for n in names]))
    connections.close_all()
    return specs


# ------------------------------------------------------------------ the client


class Sock:
    __slots__ = ("ws", "table", "version", "state", "frames", "last_n", "size", "sent", "closed")

    def __init__(self, ws: Any, table: Any) -> None:
        self.ws = ws
        self.table = table
        self.version = -1
        self.state: dict[str, Any] | None = None
        self.frames = 0  # room snapshots received, newer or not
        self.last_n = 0
        self.size = 0
        self.sent: collections.deque[float] = collections.deque()
        self.closed: str | None = None

    async def send(self, text: str, stats: Stats, pace: bool = True) -> float:
        """Send, staying under the table socket's flood limit (counted when it makes
        us wait; the relay has none); returns the moment the frame was handed to
        the socket."""
        if pace:
            loop = asyncio.get_running_loop()
            now = loop.time()
            while self.sent and self.sent[0] < now - 1.0:
                self.sent.popleft()
            if len(self.sent) >= CLIENT_PACE:
                stats.pace_waits += 1
                await asyncio.sleep(self.sent[0] + 1.0 - now)
            self.sent.append(loop.time())
        start = time.perf_counter()
        await self.ws.send(text)
        return start


@dataclass
class Stats:
    """What the client saw, whatever the run."""

    closed: collections.Counter = field(default_factory=collections.Counter)
    errors: collections.Counter = field(default_factory=collections.Counter)
    samples: dict = field(default_factory=dict)  # error code -> first message seen
    stuck: collections.Counter = field(default_factory=collections.Counter)
    refreshes: int = 0
    pace_waits: int = 0

    def error(self, msg: dict) -> None:
        code = msg.get("code")
        self.errors[code] += 1
        self.samples.setdefault(code, str(msg.get("message"))[:160])


async def open_socket(url: str, origin: str, cookie: str | None) -> Any:
    from websockets.asyncio.client import connect

    return await connect(
        url,
        origin=origin,
        additional_headers={"Cookie": cookie} if cookie else None,
        compression=None,
        max_size=2**24,
        max_queue=None,
        open_timeout=60,
        ping_interval=None,
        close_timeout=2,
        proxy=None,
    )


class Table:
    """Four sockets and at most one command in flight."""

    kind = "table"

    def __init__(self, index: int, stats: Stats) -> None:
        self.index = index
        self.stats = stats
        self.socks: list[Sock] = []
        self.waiting: tuple[Any, asyncio.Future] | None = None  # (target, future)
        self.changed = asyncio.Event()
        self.tasks: list[asyncio.Task] = []
        self.servers: list[Daphne] = []
        self.closing = False

    async def reader(self, sock: Sock) -> None:
        from websockets.exceptions import ConnectionClosed

        perf = time.perf_counter
        loads = json.loads
        try:
            async for raw in sock.ws:
                self.on_frame(sock, loads(raw), perf(), len(raw))
        except ConnectionClosed:
            pass
        except Exception as exc:  # noqa: BLE001 - reported, the table stops
            sock.closed = f"client error {type(exc).__name__}"
        finally:
            code = getattr(sock.ws, "close_code", None)
            sock.closed = sock.closed or f"closed {code if code is not None else 'abnormally'}"
            if not self.closing:  # not our own close at the end
                self.stats.closed[sock.closed] += 1
            if self.waiting is not None and not self.waiting[1].done():
                self.waiting[1].set_result(("closed", perf()))
            self.changed.set()

    def on_frame(self, sock: Sock, msg: dict, now: float, size: int) -> None:
        raise NotImplementedError

    async def connect(
        self, servers: list[Daphne], first: int, path: str, cookies: list[str | None]
    ) -> None:
        """Four sockets on ``path``, each with its reader: socket ``j`` goes to
        ``servers[(first + j) % len(servers)]`` with ``cookies[j]``."""
        self.servers = [servers[(first + j) % len(servers)] for j in range(4)]
        wss = await asyncio.gather(
            *(
                open_socket(
                    f"ws://127.0.0.1:{srv.port}{path}",
                    f"http://127.0.0.1:{srv.port}",
                    cookie,
                )
                for srv, cookie in zip(self.servers, cookies, strict=True)
            )
        )
        self.socks = [Sock(ws, self) for ws in wss]
        self.tasks = [asyncio.create_task(self.reader(s)) for s in self.socks]

    async def close(self) -> None:
        self.closing = True
        for sock in self.socks:
            with contextlib.suppress(Exception):
                await sock.ws.close()
        for task in self.tasks:
            task.cancel()


class DominoTable(Table):
    kind = "table"

    def __init__(self, index: int, stats: Stats, spec: TableSpec, rng: random.Random) -> None:
        super().__init__(index, stats)
        self.spec = spec
        self.rng = rng
        self.ref = 0

    async def open(self, servers: list[Daphne], first: int) -> None:
        """Sockets ``j`` go to ``servers[(first + j) % len(servers)]``."""
        await self.connect(servers, first, f"/ws/rooms/{self.spec.code}/", self.spec.cookies)
        await self.until(lambda: all(s.state is not None for s in self.socks), 60)

    async def start(self) -> None:
        host = next(s for s in self.socks[:2] if s.state["you"]["is_host"])
        if host.state["round"] is None:
            await host.send(json.dumps({"type": "start", "ref": "start"}), self.stats)
        await self.until(lambda: all(s.state["round"] is not None for s in self.socks), 60)

    async def until(self, predicate, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while not predicate():
            if any(s.closed for s in self.socks):
                raise RuntimeError(f"table {self.spec.code}: a socket closed")
            self.changed.clear()
            remaining = end - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"table {self.spec.code}: no snapshot in {timeout} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), remaining)

    def on_frame(self, sock: Sock, msg: dict, now: float, size: int) -> None:
        kind = msg.get("type")
        if kind == "room":
            version = msg["version"]
            sock.frames += 1
            if version > sock.version:
                sock.version = version
                sock.state = msg
                sock.size = size
                waiting = self.waiting
                if waiting is not None and all(s.version > waiting[0] for s in self.socks):
                    if not waiting[1].done():
                        waiting[1].set_result(("ok", now))
            self.changed.set()
        elif kind == "error":
            self.stats.error(msg)
            waiting = self.waiting
            if waiting is not None and msg.get("ref") == f"m{self.ref}" and not waiting[1].done():
                waiting[1].set_result((f"error {msg.get('code')}", now))
        elif kind == "replaced":
            self.stats.errors["replaced"] += 1

    def next_command(self) -> tuple[Sock, dict, str, int] | None:
        """(socket, message, kind, version it is decided on) or None (nothing to do)."""
        players = self.socks[:2]
        for sock in players:
            state = sock.state
            rnd = state["round"] if state else None
            if rnd and rnd.get("legal") and rnd.get("result") is None:
                action = self.rng.choice(rnd["legal"])
                msg = {k: v for k, v in action.items() if v is not None}
                msg["version"] = state["version"]
                return sock, msg, "move", state["version"]
        host = next((s for s in players if s.state and s.state["you"]["is_host"]), None)
        if host is None:
            return None
        state = host.state
        room, rnd, match = state["room"], state["round"], state["match"]
        if room["paused"]:
            return None
        if rnd is None or room["status"] == "waiting":
            return host, {"type": "start"}, "between", state["version"]
        if match and match.get("over"):
            # The host asks for a new match; where every player must accept it
            # (the duelo: docs/contract.md) the others then accept in turn.
            for sock in sorted(players, key=lambda p: p is not host):
                seat = sock.state["you"]["seat"]
                if seat is not None and not sock.state["seats"][seat]["ready"]:
                    return sock, {"type": "new_match"}, "between", sock.state["version"]
            return None
        if room["status"] == "between_rounds":
            if (room.get("rules") or {}).get("next_round") == "all_ready":
                for sock in players:
                    seat = sock.state["you"]["seat"]
                    if seat is not None and not sock.state["seats"][seat]["ready"]:
                        return sock, {"type": "ready"}, "between", sock.state["version"]
                return None
            return host, {"type": "next_round"}, "between", state["version"]
        return None

    async def step(self, deadline: float) -> tuple[str, float, float, str] | None:
        """One command; waits until every socket saw its effect (or it failed)."""
        command = self.next_command()
        if command is None:
            return None
        sock, msg, kind, version = command
        self.ref += 1
        msg["ref"] = f"m{self.ref}"
        future = asyncio.get_running_loop().create_future()
        self.waiting = (version, future)
        text = json.dumps(msg)
        try:
            start = await sock.send(text, self.stats)
            try:
                status, done = await asyncio.wait_for(future, max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                status, done = "timeout", time.perf_counter()
                self.note_stuck(sock, version)
        finally:
            self.waiting = None
        if status == "timeout":
            await self.recover([s for s in self.socks if s.version <= version])
        elif status == "error stale":
            await self.recover([sock])
        return kind, start, done, status

    async def recover(self, socks: list[Sock]) -> None:
        """What the browser does on ``stale`` (static/js/table.js): ask for a fresh
        snapshot (``refresh``), here also for sockets that never saw a move."""
        before = {id(s): s.frames for s in socks}
        for sock in socks:
            self.stats.refreshes += 1
            with contextlib.suppress(Exception):
                await sock.send(json.dumps({"type": "refresh"}), self.stats)
        with contextlib.suppress(Exception):
            await self.until(lambda: all(s.frames > before[id(s)] for s in socks), 5)

    def note_stuck(self, mover: Sock, version: int) -> None:
        """Which sockets never got past ``version`` (for the report)."""
        mover_server = self.servers[self.socks.index(mover)]
        for j, sock in enumerate(self.socks):
            if sock.version <= version:
                role = ("player", "player", "watcher", "watcher")[j]
                where = "mover's" if self.servers[j] is mover_server else "other"
                self.stats.stuck[f"{role} on the {where} daphne"] += 1


class RelayTable(Table):
    kind = "relay"

    def __init__(self, index: int, stats: Stats, group: str) -> None:
        super().__init__(index, stats)
        self.group = group
        self.seq = 0
        self.pad = ""

    async def open(self, servers: list[Daphne], first: int) -> None:
        # The consumer joins the group before it accepts: usable at once.
        await self.connect(servers, first, f"/ws/relay/{self.group}/", [None] * 4)

    def on_frame(self, sock: Sock, msg: dict, now: float, size: int) -> None:
        n = msg["n"]
        if n > sock.last_n:
            sock.last_n = n
            sock.size = size
            waiting = self.waiting
            if waiting is not None and all(s.last_n >= waiting[0] for s in self.socks):
                if not waiting[1].done():
                    waiting[1].set_result(("ok", now))

    async def step(self, deadline: float) -> tuple[str, float, float, str] | None:
        self.seq += 1
        future = asyncio.get_running_loop().create_future()
        self.waiting = (self.seq, future)
        text = json.dumps({"n": self.seq, "t": self.index, "p": self.pad})
        try:
            start = await self.socks[0].send(text, self.stats, pace=False)
            try:
                status, done = await asyncio.wait_for(future, max(0.1, deadline - time.monotonic()))
            except TimeoutError:
                status, done = "timeout", time.perf_counter()
        finally:
            self.waiting = None
        return "move", start, done, status


async def open_tables(tables: list[Table], servers: list[Daphne], offset: int) -> list[Table]:
    """Open (and for domino tables start) ``tables`` a few at a time; returns those
    that made it (the others are reported and closed)."""
    sem = asyncio.Semaphore(CONNECT_BATCH)
    good: list[Table] = []
    failures: collections.Counter = collections.Counter()

    async def one(table: Table) -> None:
        async with sem:
            try:
                await table.open(servers, offset + table.index)
                if isinstance(table, DominoTable):
                    await table.start()
                good.append(table)
            except Exception as exc:  # noqa: BLE001 - counted and reported
                failures[f"{type(exc).__name__}: {str(exc)[:120]}"] += 1
                await table.close()

    await asyncio.gather(*(one(t) for t in tables))
    for reason, n in failures.items():
        say(f"    ! {n} {tables[0].kind}(s) failed to open: {reason}")
    good.sort(key=lambda t: t.index)
    return good


# ------------------------------------------------------------------ one run


@dataclass
class Run:
    config: str
    mode: str  # paced | saturation
    target: str  # table | relay
    daphnes: int
    tables: int
    seconds: float
    offered: float | None = None
    sustained: float = 0.0
    moves: int = 0
    p50: float | None = None
    p95: float | None = None
    p99: float | None = None
    between: int = 0  # between-match commands measured (new_match, ready, ...)
    between_p50: float | None = None
    unfinished: int = 0
    errors: dict = field(default_factory=dict)
    queries_per_move: float | None = None
    trips_per_move: float | None = None
    ms_per_move: float | None = None
    server_cpu: float | None = None
    client_cpu: float | None = None
    machine_cpu: float | None = None
    rss_per_table_kb: float | None = None
    frame_bytes: float | None = None
    relay_p50: float | None = None
    relay_p99: float | None = None
    relay_sustained: float | None = None
    inbox_max: int | None = None  # most messages waiting in one Daphne's Redis inbox
    # The servers' event loops: wake-ups more than 50 ms late (all servers), and
    # the milliseconds a second lost to lateness beyond 5 ms (summed over servers).
    stalls_50ms: int | None = None
    stalled_ms_per_s: float | None = None
    # The raw latencies (seconds), to merge the slices of one run (not written out).
    samples: list = field(default_factory=list, repr=False)
    between_samples: list = field(default_factory=list, repr=False)

    def figures(self) -> dict:
        """What the JSON output holds: every figure, not the raw samples."""
        return {k: v for k, v in self.__dict__.items() if k not in _RAW}


_RAW = ("samples", "between_samples")


def server_stats(servers: list[Daphne]) -> list[dict] | None:
    try:
        return [s.stats() for s in servers]
    except Exception as exc:  # noqa: BLE001 - figures missing, the run goes on
        say(f"    ! /bench/stats failed: {type(exc).__name__}: {exc}")
        return None


async def run_load(
    tables: list[Table],
    *,
    servers: list[Daphne],
    mode: str,
    warmup: float,
    seconds: float,
    label: Run,
) -> Run:
    perf0 = time.perf_counter()
    mono0 = time.monotonic()
    t_measure = perf0 + warmup
    t_end = t_measure + seconds
    deadline_end = mono0 + warmup + seconds + DRAIN
    latencies: list[float] = []
    between: list[float] = []
    completed = 0
    unfinished = 0
    errors: collections.Counter = collections.Counter()
    marks: dict[str, Any] = {}

    async def mark(name: str, at: float) -> None:
        await asyncio.sleep(max(0.0, at - time.perf_counter()))
        marks[name] = (
            time.perf_counter(),
            client_cpu(),
            machine_cpu(),
            await asyncio.to_thread(server_stats, servers),
        )

    async def drive(table: Table, phase: float) -> None:
        nonlocal completed, unfinished
        next_at = perf0 + phase
        while True:
            if mode == "paced":
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
            if time.perf_counter() >= t_end:
                return
            deadline = min(time.monotonic() + MOVE_TIMEOUT, deadline_end)
            outcome = await table.step(deadline)
            if outcome is None:  # nothing to do yet (should not happen for long)
                await asyncio.sleep(0.05)
                if mode == "paced":
                    next_at = time.perf_counter()
                continue
            kind, start, done, status = outcome
            in_window = t_measure <= start < t_end
            if status == "ok":
                if t_measure <= done < t_end:
                    completed += 1
                if in_window:
                    (latencies if kind == "move" else between).append(done - start)
            else:  # lost moves and errors count from the warm-up on: a lost move
                # stalls its table for MOVE_TIMEOUT, which lightens the load after
                if status == "timeout":
                    unfinished += 1
                    if in_window and kind == "move":  # censored: at least this long
                        latencies.append(done - start)
                else:
                    errors[status] += 1
            if status == "closed":
                return
            if mode == "paced":
                next_at = max(next_at + PERIOD, time.perf_counter())

    n = len(tables)
    drivers = [drive(t, PERIOD * i / n if mode == "paced" else 0.0) for i, t in enumerate(tables)]
    await asyncio.gather(
        *drivers, mark("start", t_measure), mark("end", t_end), return_exceptions=False
    )
    await asyncio.sleep(0.5)

    run = label
    run.seconds = seconds
    run.tables = n
    run.offered = n / PERIOD if mode == "paced" else None
    latencies.sort()
    run.samples, run.between_samples = latencies, between
    run.moves = len(latencies)
    run.p50, run.p95, run.p99 = (_ms(percentile(latencies, q)) for q in (0.50, 0.95, 0.99))
    between.sort()
    run.between = len(between)
    run.between_p50 = _ms(percentile(between, 0.5))
    run.unfinished = unfinished
    run.errors = dict(errors)
    if "start" in marks and "end" in marks:
        (t0, c0, m0, s0), (t1, c1, m1, s1) = marks["start"], marks["end"]
        wall = t1 - t0
        run.sustained = completed / wall if wall > 0 else 0.0
        run.client_cpu = 100 * (c1 - c0) / wall
        total = m1[0] - m0[0]
        run.machine_cpu = 100 * (1 - (m1[1] - m0[1]) / total) * os.cpu_count() if total else None
        if s0 and s1:
            # Rates over each server's own clock (a busy server answers /bench/stats
            # late), so that queries per move is not skewed by when it answered.
            pairs = list(zip(s0, s1, strict=True))
            spans = [max(1e-3, b["time"] - a["time"]) for a, b in pairs]
            run.server_cpu = 100 * sum(
                (b["cpu_seconds"] - a["cpu_seconds"]) / dt
                for (a, b), dt in zip(pairs, spans, strict=True)
            )
            query_rate, trip_rate = (
                sum((b[key] - a[key]) / dt for (a, b), dt in zip(pairs, spans, strict=True))
                for key in ("queries", "trips")
            )
            if "stalls" in s0[0]:
                run.stalls_50ms = sum(b["stalls"]["50"] - a["stalls"]["50"] for a, b in pairs)
                run.stalled_ms_per_s = 1000 * sum(
                    (b["stalled_seconds"] - a["stalled_seconds"]) / dt
                    for (a, b), dt in zip(pairs, spans, strict=True)
                )
            moves = sum(b["moves"] - a["moves"] for a, b in pairs)
            move_s = sum(b["move_seconds"] - a["move_seconds"] for a, b in pairs)
            if run.target == "table" and run.sustained:
                run.queries_per_move = query_rate / run.sustained
                run.trips_per_move = trip_rate / run.sustained
            if moves:
                run.ms_per_move = 1000 * move_s / moves
    sizes = [s.size for t in tables for s in t.socks if s.size]
    run.frame_bytes = statistics.median(sizes) if sizes else None
    return run


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else 1000 * seconds


def merged(parts: list[Run]) -> Run:
    """One run from its slices (measured one after the other on the same tables):
    percentiles over all their samples, rates and CPU weighted by each slice's
    length, per-move figures by its moves."""
    run = dataclasses.replace(parts[0])
    run.seconds = sum(p.seconds for p in parts)
    run.samples = sorted(x for p in parts for x in p.samples)
    run.between_samples = sorted(x for p in parts for x in p.between_samples)
    run.moves = len(run.samples)
    run.p50, run.p95, run.p99 = (_ms(percentile(run.samples, q)) for q in (0.50, 0.95, 0.99))
    run.between = len(run.between_samples)
    run.between_p50 = _ms(percentile(run.between_samples, 0.5))
    run.unfinished = sum(p.unfinished for p in parts)
    run.errors = dict(sum((collections.Counter(p.errors) for p in parts), collections.Counter()))

    def weighted(name: str, weight) -> float | None:
        pairs = [(getattr(p, name), weight(p)) for p in parts if getattr(p, name) is not None]
        total = sum(w for _, w in pairs)
        return sum(v * w for v, w in pairs) / total if pairs and total else None

    run.sustained = weighted("sustained", lambda p: p.seconds) or 0.0
    for name in ("server_cpu", "client_cpu", "machine_cpu", "stalled_ms_per_s"):
        setattr(run, name, weighted(name, lambda p: p.seconds))
    stalls = [p.stalls_50ms for p in parts if p.stalls_50ms is not None]
    run.stalls_50ms = sum(stalls) if stalls else None
    for name in ("queries_per_move", "trips_per_move", "ms_per_move"):
        setattr(run, name, weighted(name, lambda p: p.sustained * p.seconds))
    sizes = [p.frame_bytes for p in parts if p.frame_bytes]
    run.frame_bytes = statistics.median(sizes) if sizes else None
    inboxes = [p.inbox_max for p in parts if p.inbox_max is not None]
    run.inbox_max = max(inboxes) if inboxes else None
    return run


# ------------------------------------------------------------------ printing


def fmt(value: Any, digits: int = 0, unit: str = "") -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        if digits == 0 and abs(value) >= 10000:
            return f"{value / 1000:.1f}k{unit}"
        return f"{value:.{digits}f}{unit}"
    return f"{value}{unit}"


def ratio(a: float | None, b: float | None) -> str:
    if a is None or not b:
        return "-"
    return f"{a / b:.1f}x"


def describe(run: Run) -> str:
    what = f"{run.config} {run.mode} {run.target}: {run.tables} x4 sockets on {run.daphnes} daphne"
    parts = [what]
    if run.offered is not None:
        parts.append(f"offered {run.offered:.1f}/s")
    parts.append(f"sustained {run.sustained:.1f}/s")
    extra = f", {run.between} between matches" if run.between else ""
    parts.append(
        f"p50 {fmt(run.p50)} p95 {fmt(run.p95)} p99 {fmt(run.p99)} ms ({run.moves} moves{extra})"
    )
    if run.target == "table":
        if run.relay_p50 is not None and run.mode == "paced":
            parts.append(
                f"relay p50 {fmt(run.relay_p50, 1)} p99 {fmt(run.relay_p99, 1)} ms"
                f" -> {ratio(run.p50, run.relay_p50)} / {ratio(run.p99, run.relay_p99)}"
            )
        elif run.relay_sustained is not None:
            parts.append(f"relay sustained {run.relay_sustained:.0f}/s")
        parts.append(
            f"{fmt(run.queries_per_move, 1)} queries/move in {fmt(run.trips_per_move, 1)} trips,"
            f" {fmt(run.ms_per_move, 1)} ms/move"
        )
        if run.rss_per_table_kb is not None:
            parts.append(f"RSS {run.rss_per_table_kb:.0f} KB/table")
    parts.append(
        f"CPU server {fmt(run.server_cpu)}% client {fmt(run.client_cpu)}%"
        f" machine {fmt(run.machine_cpu)}%"
    )
    if run.stalls_50ms is not None:
        parts.append(
            f"server loops late {fmt(run.stalled_ms_per_s, 1)} ms/s, {run.stalls_50ms} waits > 50 ms"
        )
    if run.frame_bytes:
        parts.append(f"frames ~{run.frame_bytes:.0f} B")
    if run.inbox_max is not None:
        parts.append(f"largest layer inbox {run.inbox_max} msgs")
    if run.unfinished:
        parts.append(f"{run.unfinished} lost (not on all four sockets in {MOVE_TIMEOUT:g} s)")
    if run.errors:
        parts.append(f"errors {run.errors}")
    return "  " + " | ".join(parts)


COLUMNS = [
    ("config", 32),
    ("run", 10),
    ("daphne", 6),
    ("tables", 6),
    ("offered/s", 9),
    ("moves/s", 7),
    ("p50 ms", 7),
    ("p95 ms", 7),
    ("p99 ms", 7),
    ("relay/s", 7),
    ("relay p50", 9),
    ("relay p99", 9),
    ("p50/relay", 9),
    ("p99/relay", 9),
    ("queries/move", 12),
    ("trips/move", 10),
    ("ms/move", 7),
    ("RSS/table", 9),
    ("srv CPU", 7),
    ("cli CPU", 7),
    ("machine", 7),
    ("lost", 4),
    ("errors", 6),
]


def summary(runs: list[Run]) -> str:
    head = " | ".join(name.rjust(width) for name, width in COLUMNS)
    lines = [head, "-" * len(head)]
    for run in runs:
        if run.target != "table":
            continue
        paced = run.mode == "paced"
        cells = [
            run.config,
            run.mode,
            str(run.daphnes),
            str(run.tables),
            fmt(run.offered, 1),
            fmt(run.sustained, 1),
            fmt(run.p50),
            fmt(run.p95),
            fmt(run.p99),
            fmt(run.relay_sustained, 0 if run.relay_sustained and run.relay_sustained > 99 else 1),
            fmt(run.relay_p50, 1),
            fmt(run.relay_p99, 1),
            ratio(run.p50, run.relay_p50) if paced else "",
            ratio(run.p99, run.relay_p99) if paced else "",
            fmt(run.queries_per_move, 1),
            fmt(run.trips_per_move, 1),
            fmt(run.ms_per_move, 1),
            fmt(run.rss_per_table_kb, 0, " KB"),
            fmt(run.server_cpu, 0, "%"),
            fmt(run.client_cpu, 0, "%"),
            fmt(run.machine_cpu, 0, "%"),
            str(run.unfinished),
            str(sum(run.errors.values())),
        ]
        lines.append(
            " | ".join(cell.rjust(width) for cell, (_n, width) in zip(cells, COLUMNS, strict=True))
        )
    lines += [
        "Latencies: moves only, until all four sockets of the table hold a newer snapshot;"
        " moves/s: every command that changed a table (moves and new_match), completed in"
        " the window; relay: the bare relay of the same process(es) and layer, same tables"
        " and pacing (saturation: closed loop, so its latencies are not a floor and no ratio"
        " is printed); CPU: % of one core (servers: the Daphne processes; machine: everything,"
        " other people's work included); lost: moves some socket of the table had not"
        f" seen {MOVE_TIMEOUT:g} s later (then refreshed), warm-up included; errors: error"
        " replies (e.g. stale), warm-up included.",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------ one configuration


class Bench:
    def __init__(self, cfg: Config, args: argparse.Namespace) -> None:
        self.cfg = cfg
        self.args = args
        self.stats = Stats()
        self.rng = random.Random(args.seed)
        self.procs: list[Proc] = []
        self.daphnes: list[Daphne] = []
        self.runs: list[Run] = []
        self.domino: list[DominoTable] = []
        self.relay: list[RelayTable] = []
        self.rss_growth = 0  # KB, summed over the Daphne processes
        self.relay_seq = 0
        self.opened: list[Table] = []  # every table of ours, to close at the end
        self.frame_bytes: float | None = None  # median snapshot size of the last run
        self.redis: Any = None  # a client for the inbox probe (production)

    # -- processes
    def start_servers(self) -> None:
        env = self.cfg.server_env()
        logdir = self.cfg.tmp
        if self.cfg.redis_url:
            worker = Proc(
                "celery",
                [
                    str(BIN / "celery"),
                    "-A",
                    "domino_site",
                    "worker",
                    "-l",
                    "warning",
                    "-P",
                    "solo",
                    "--without-gossip",
                    "--without-mingle",
                ],
                env,
                logdir,
            )
            self.procs.append(worker.start())
        for _ in range(self.cfg.daphnes):
            daphne = Daphne(env, logdir)
            self.procs.append(daphne.start())
            self.daphnes.append(daphne)
        for daphne in self.daphnes:
            daphne.wait_healthy()

    def stop_servers(self) -> None:
        for proc in reversed(self.procs):
            with contextlib.suppress(Exception):
                proc.stop()

    def report_server_logs(self) -> None:
        for proc in self.procs:
            problems = proc.problems()
            if problems:
                say(f"  {proc.name}: {len(problems)} error line(s) in its log, e.g.:")
                for line in problems[:5]:
                    say(f"    {line[:200]}")

    def rss(self, daphnes: list[Daphne] | None = None) -> int:
        return sum(rss_kb(d.pid) for d in (daphnes or self.daphnes))

    # -- tables
    async def add_domino(self, count: int, servers: list[Daphne]) -> tuple[list[DominoTable], int]:
        t0 = time.monotonic()
        specs = await asyncio.to_thread(create_tables, count)
        t1 = time.monotonic()
        first = len(self.domino)
        tables = [
            DominoTable(first + i, self.stats, spec, random.Random(self.rng.random()))
            for i, spec in enumerate(specs)
        ]
        before = self.rss(servers)
        opened = await open_tables(tables, servers, 0)
        self.opened += opened
        await asyncio.sleep(1.0)
        growth = self.rss(servers) - before
        say(
            f"  opened {len(opened)} tables on {len(servers)} daphne"
            f" (rooms {t1 - t0:.1f} s, sockets and starts {time.monotonic() - t1:.1f} s,"
            f" RSS +{growth / 1024:.1f} MB)"
        )
        return opened, growth

    async def add_relay(self, count: int, servers: list[Daphne]) -> list[RelayTable]:
        if self.args.no_relay:
            return []
        tables = []
        for _ in range(count):
            self.relay_seq += 1
            tables.append(RelayTable(self.relay_seq, self.stats, f"g{self.relay_seq}"))
        opened = await open_tables(tables, servers, 0)
        self.opened += opened
        return opened

    def pad_relay(self, relays: list[RelayTable]) -> None:
        """Relay frames as big as the table snapshots: those of the last table run,
        or before any, those the open tables hold."""
        target = self.frame_bytes
        if target is None:
            sizes = [s.size for t in self.domino for s in t.socks if s.size]
            target = statistics.median(sizes) if sizes else 2000
        if self.args.relay_bytes is not None:
            target = self.args.relay_bytes
        for table in relays:
            table.pad = "x" * max(0, int(target) - 40)

    async def settle(self, servers: list[Daphne], limit: float = 30.0) -> None:
        """Wait (up to ``limit``) until the Daphne processes are nearly idle and
        their layer inboxes empty, so that a run does not inherit the backlog of
        the one before."""
        started = time.monotonic()
        while time.monotonic() - started < limit:
            before = sum(process_cpu(d.pid) for d in servers)
            await asyncio.sleep(0.5)
            busy = (sum(process_cpu(d.pid) for d in servers) - before) / 0.5
            if busy < 0.1 * len(servers) and await asyncio.to_thread(self.inbox_size) == 0:
                break
        waited = time.monotonic() - started
        if waited > 2:
            say(f"  (waited {waited:.0f} s for the servers to go idle)")

    def inbox_size(self) -> int:
        """With Redis: the biggest per-process inbox of the layer (the sorted set
        ``asgi:specific.<process>!`` that all the sockets of one Daphne share;
        channels-redis' ``capacity`` applies to it, not to each socket); else 0."""
        if not self.cfg.redis_url:
            return 0
        import redis

        try:
            if self.redis is None:
                self.redis = redis.Redis.from_url(self.cfg.redis_url, socket_timeout=5)
            keys = list(self.redis.scan_iter(match="*specific.*!", count=1000))
            return max((self.redis.zcard(k) for k in keys), default=0)
        except Exception:  # noqa: BLE001 - a diagnostic only
            return 0

    async def watch_inboxes(self, run: Run) -> None:
        """Sample `inbox_size` while the run lasts."""
        run.inbox_max = 0
        while True:
            run.inbox_max = max(run.inbox_max, await asyncio.to_thread(self.inbox_size))
            await asyncio.sleep(0.5)

    async def run(self, tables, *, servers, mode, target, warmup, seconds) -> Run:
        await self.settle(servers)
        label = Run(
            config=self.cfg.label,
            mode=mode,
            target=target,
            daphnes=len(servers),
            tables=len(tables),
            seconds=seconds,
        )
        probe = asyncio.create_task(self.watch_inboxes(label)) if self.cfg.redis_url else None
        try:
            run = await run_load(
                tables, servers=servers, mode=mode, warmup=warmup, seconds=seconds, label=label
            )
        finally:
            if probe is not None:
                probe.cancel()
                with contextlib.suppress(BaseException):
                    await probe
        await asyncio.sleep(1.0)  # let stragglers land before the next run
        return run

    async def main(self) -> None:
        args = self.args
        say(
            f"== {self.cfg.name}: {self.cfg.daphnes} daphne, database {self.cfg.database_url}"
            f", channel layer {'redis ' + self.cfg.redis_url if self.cfg.redis_url else 'in-memory'}"
            f", scheduler {'celery worker' if self.cfg.redis_url else 'in-process'}"
        )
        servers = self.daphnes
        for count in sorted(set(args.tables)):
            more = count - len(self.domino)
            if more > 0:
                self.relay += await self.add_relay(count - len(self.relay), servers)
                opened, growth = await self.add_domino(more, servers)
                self.domino += opened
                self.rss_growth += growth
            run = await self.run_pair(
                self.domino[:count],
                self.relay[:count],
                servers=servers,
                mode="paced",
                seconds=args.seconds,
                rss_per_table_kb=self.rss_growth / len(self.domino) if self.domino else None,
            )
            self.frame_bytes = run.frame_bytes
        if args.sat_tables:
            await self.saturation(servers, self.domino, self.relay)
            if len(servers) > 1 and not args.no_one_daphne:
                one = servers[:1]
                say(
                    f"  saturation on one daphne: {args.sat_tables} more tables, all on :{one[0].port}"
                )
                relays = await self.add_relay(args.sat_tables, one)
                opened, growth = await self.add_domino(args.sat_tables, one)
                await self.saturation(one, opened, relays, rss=growth)

    async def saturation(self, servers, domino, relays, rss: int | None = None) -> None:
        args = self.args
        k = args.sat_tables
        if len(domino) < k:
            more = k - len(domino)
            self.relay += await self.add_relay(max(0, k - len(self.relay)), servers)
            opened, growth = await self.add_domino(more, servers)
            self.domino += opened
            self.rss_growth += growth
            domino, relays = self.domino, self.relay
        tables = domino[:k]
        await self.run_pair(
            tables,
            relays[:k],
            servers=servers,
            mode="saturation",
            seconds=args.sat_seconds,
            rss_per_table_kb=rss / len(tables) if rss is not None and tables else None,
        )

    async def run_pair(
        self, tables, relays, *, servers, mode, seconds, rss_per_table_kb=None
    ) -> Run:
        """A relay run on `relays` (padded like the snapshots), then a table run on
        `tables` for `seconds`, in one mode on the same servers: each said as it ends
        and both kept; the table run, which carries the relay's figures, is returned."""
        args = self.args

        def measure(group, target, warmup, length):
            return self.run(
                group, servers=servers, mode=mode, target=target, warmup=warmup, seconds=length
            )

        # Paced, the relay and the tables take turns in slices, so that a drift of
        # the machine (other work, the host) weighs on both sides of the ratio.
        slices = max(1, args.slices) if mode == "paced" else 1
        relay_parts: list[Run] = []
        table_parts: list[Run] = []
        for i in range(slices):
            again = i > 0  # warm already: only the pacing starts again
            if again and table_parts[-1].frame_bytes:
                self.frame_bytes = table_parts[-1].frame_bytes  # the frames just seen
            if args.no_relay:
                table_parts.append(
                    await measure(
                        tables, "table", PERIOD if again else args.warmup, seconds / slices
                    )
                )
                continue
            self.pad_relay(relays)
            relay_parts.append(
                await measure(
                    relays,
                    "relay",
                    PERIOD if again else args.relay_warmup,
                    args.relay_seconds / slices,
                )
            )
            table_parts.append(
                await measure(tables, "table", PERIOD if again else args.warmup, seconds / slices)
            )
        run = merged(table_parts)
        if relay_parts:
            relay = merged(relay_parts)
            say(describe(relay))
            run.relay_p50, run.relay_p99 = relay.p50, relay.p99
            run.relay_sustained = relay.sustained
            self.runs.append(relay)
        run.rss_per_table_kb = rss_per_table_kb
        say(describe(run))
        self.runs.append(run)
        return run

    async def close_all(self) -> None:
        tables = self.opened
        for i in range(0, len(tables), 100):
            await asyncio.gather(*(t.close() for t in tables[i : i + 100]))


def _interrupt(signum, frame):
    raise KeyboardInterrupt


def run_config(name: str, args: argparse.Namespace) -> list[Run]:
    raise_fd_limit()
    if name == "production":
        problem = postgres_problem(f"{args.pg.rstrip('/')}/postgres") or redis_problem(args.redis)
        if problem:
            say(f"== production: skipped: {problem}")
            return []
        cfg = production_config(args)
    else:
        cfg = embedded_config(args)
    cfg.variant = args.variant
    bench = Bench(cfg, args)

    signal.signal(signal.SIGTERM, _interrupt)  # a kill of the bench still stops its servers
    started = time.monotonic()
    interrupted = False
    try:
        prepare_storage(cfg)
        django_setup(cfg)
        bench.start_servers()

        async def go() -> None:
            try:
                await bench.main()
            finally:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(bench.close_all(), 20)
                    # the servers' disconnect work ends before they are stopped
                    await bench.settle(bench.daphnes, limit=20)

        asyncio.run(go())
    except KeyboardInterrupt:
        interrupted = True
        raise
    finally:
        # A second Ctrl-C must not cut the clean-up short.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        for daphne in bench.daphnes:
            if not daphne.alive() and not interrupted:
                say(f"  ! {daphne.name} died during the run:\n{daphne.tail()}")
        bench.stop_servers()
        bench.report_server_logs()
        if bench.stats.closed:
            say(f"  sockets closed by the server or the network: {dict(bench.stats.closed)}")
        if bench.stats.errors:
            say(f"  error frames received: {dict(bench.stats.errors)}")
            for code, message in bench.stats.samples.items():
                say(f"    {code}: {message}")
        if bench.stats.stuck:
            say(f"  sockets that never saw a move: {dict(bench.stats.stuck)}")
        if bench.stats.refreshes:
            say(f"  refreshes sent (after 'stale' or a lost move): {bench.stats.refreshes}")
        if bench.stats.pace_waits:
            say(f"  the client held back {bench.stats.pace_waits} frames (flood limit)")
        if any(proc.problems() for proc in bench.procs):
            for path in cfg.tmp.glob("*.sqlite3*"):
                path.unlink()
            say(f"  server logs kept in {cfg.tmp}")
        else:
            shutil.rmtree(cfg.tmp, ignore_errors=True)
        say(f"== {cfg.name}: {time.monotonic() - started:.0f} s")
    return bench.runs


# ------------------------------------------------------------------ entry point


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", choices=("embedded", "production", "all"), default="all")
    parser.add_argument("--quick", action="store_true", help="25 tables, short runs")
    parser.add_argument("--tables", help="paced runs, comma-separated (default 25,100,250)")
    parser.add_argument("--seconds", type=float, help="measured seconds a run (default 20)")
    parser.add_argument("--warmup", type=float, help="seconds before measuring (default 5)")
    parser.add_argument("--sat-tables", type=int, help="tables in the saturation runs (100)")
    parser.add_argument("--sat-seconds", type=float, help="measured seconds (default --seconds)")
    parser.add_argument("--relay-seconds", type=float, help="relay runs (default 10)")
    parser.add_argument("--relay-warmup", type=float, help="default 3")
    parser.add_argument("--relay-bytes", type=int, help="relay frame size (default: snapshots')")
    parser.add_argument(
        "--slices",
        type=int,
        help="paced runs: relay and tables take turns this many times (default 3)",
    )
    parser.add_argument(
        "--variants",
        help="the ablation: comma-separated server set-ups (or 'all') run one after the"
        f" other, each in its own servers ({', '.join(VARIANTS)})",
    )
    parser.add_argument("--variant", default="today", help=argparse.SUPPRESS)
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="first run the same with another checkout's servers and bench (e.g. a"
        " `git worktree` of the code before a change), labelled '/before'",
    )
    parser.add_argument("--embedded-tables", help="with --variants: the embedded paced runs")
    parser.add_argument("--no-relay", action="store_true", help="skip the relay runs")
    parser.add_argument(
        "--no-one-daphne", action="store_true", help="skip the saturation on one Daphne"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--json", help="also write every run's figures to this file")
    parser.add_argument("--child-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {
        "seconds": 8.0 if quick else 20.0,
        "warmup": 2.0 if quick else 5.0,
        "sat_tables": 25 if quick else 100,
        "relay_seconds": 5.0 if quick else 10.0,
        "relay_warmup": 1.0 if quick else 3.0,
        "slices": 2 if quick else 3,
    }
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.sat_seconds is None:
        args.sat_seconds = args.seconds
    args.tables = [
        int(x) for x in (args.tables or ("25" if quick else "25,100,250")).split(",") if x
    ]
    return args


def child_argv(args: argparse.Namespace, config: str, out: str) -> list[str]:
    argv = [sys.executable, str(Path(__file__).resolve()), "--config", config]
    argv += ["--tables", ",".join(map(str, args.tables)), "--seconds", str(args.seconds)]
    argv += ["--warmup", str(args.warmup), "--sat-tables", str(args.sat_tables)]
    argv += ["--sat-seconds", str(args.sat_seconds), "--relay-seconds", str(args.relay_seconds)]
    argv += ["--relay-warmup", str(args.relay_warmup), "--seed", str(args.seed)]
    argv += ["--slices", str(args.slices), "--variant", args.variant]
    argv += ["--no-relay"] * args.no_relay + ["--no-one-daphne"] * args.no_one_daphne
    argv += ["--pg", args.pg, "--redis", args.redis, "--child-out", out]
    if args.relay_bytes is not None:
        argv += ["--relay-bytes", str(args.relay_bytes)]
    return argv


def variant_env(name: str) -> dict[str, str]:
    """A variant's server environment: one of `VARIANTS`, or ``off:a+b`` for
    the parts ``a`` and ``b`` switched off together."""
    if name.startswith("off:"):
        return {"DOMINO_OFF": name[4:].replace("+", ",")}
    return VARIANTS[name]


def as_run(figures: dict[str, Any], variant: str) -> Run:
    """A child's figures as a `Run` (another checkout's may name other figures)."""
    known = {f.name for f in dataclasses.fields(Run)}
    run = Run(**{k: v for k, v in figures.items() if k in known})
    if variant == "before":
        run.config = f"{run.config}/before"
    return run


def children(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The ``(configuration, variant)`` pairs to run, each in a child process;
    with ``--before``, another checkout's servers first."""
    configs = ("embedded", "production") if args.config == "all" else (args.config,)
    before = [(name, "before") for name in configs] if args.before else []
    if not args.variants:
        return before + [(name, "today") for name in configs]
    names = list(VARIANTS) if args.variants == "all" else args.variants.split(",")
    unknown = [n for n in names if n not in VARIANTS and not n.startswith("off:")]
    if unknown:
        raise SystemExit(f"unknown variants {unknown}: {', '.join(VARIANTS)}")
    return before + [
        (config, name)
        for config in configs
        for name in names
        if config == "production" or name in EMBEDDED_VARIANTS
    ]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.child_out:
        say(
            f"load: tables {args.tables}, {args.seconds:g} s measured after {args.warmup:g} s"
            f" (relay {args.relay_seconds:g}+{args.relay_warmup:g} s), saturation"
            f" {args.sat_tables} tables; one move a table every {PERIOD:g} s;"
            f" {os.cpu_count()} cores, shared with whatever else runs"
        )
    runs: list[Run] = []
    if args.config == "all" or args.variants or args.before:
        signal.signal(signal.SIGTERM, _interrupt)
        for name, variant in children(args):
            with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
                path = out.name
            one = argparse.Namespace(**{**vars(args), "variant": variant})
            if name == "embedded" and args.embedded_tables:
                one.tables = [int(x) for x in args.embedded_tables.split(",") if x]
            code = ROOT
            if variant == "before":  # the servers, and this bench, of another checkout
                code, one.variant = Path(args.before).resolve(), "today"
            argv = child_argv(one, name, path)
            argv[1] = str(code / "bench" / "load.py")
            child = subprocess.Popen(argv, cwd=code)
            try:
                child.wait()
            except KeyboardInterrupt:
                # The child got the same Ctrl-C (or gets this SIGTERM): it stops
                # its servers; wait for it.
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                child.send_signal(signal.SIGTERM)
                child.wait()
                with contextlib.suppress(OSError):
                    os.unlink(path)
                say("interrupted")
                return 130
            try:
                runs += [as_run(r, variant) for r in json.loads(Path(path).read_text() or "[]")]
            except (OSError, ValueError):
                say(f"== {name}: no figures (exit status {child.returncode})")
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(path)
    else:
        try:
            runs = run_config(args.config, args)
        except KeyboardInterrupt:
            say("interrupted")
            return 130
        if args.child_out:
            Path(args.child_out).write_text(json.dumps([r.figures() for r in runs]))
            return 0
    if runs:
        say("")
        say(summary(runs))
    if args.json:
        Path(args.json).write_text(json.dumps([r.figures() for r in runs], indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
