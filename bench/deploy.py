"""The deploy drill (issue 52; docs/scaling.md, "Deploying"): paced tables play on
the Procfile's whole set while the code is switched to a newer build with a new
migration, the web processes restarted one after another through the runner
(``python -m domino_site.serve``: SIGTERM, wait for it to exit, start the new
build on the same port), then the workers and beat.

    python bench/deploy.py [--tables 150] [--clock-tables 20] [--before 60] [--after 60]

* The code: two copies of this checkout's HEAD (``git archive``, in a temporary
  folder; nothing is committed), "old" and "new"; "new" has one more migration,
  harmless to the old code (a nullable column on ``rooms_room``), and its own
  ``BUILD_VERSION``. The release (``migrate``) runs from "new" while "old" serves.
* The set: PostgreSQL database ``domino_deploy`` (dropped and created) and Redis
  db 12 (flushed); two web processes (the Procfile's web line, on two ports),
  and every background process of the Procfile (bench/loadbench/procfile.py).
* The tables (bench/loadbench/tables.py): public duelos, two players and two
  watchers each, one move every 2 s a table (``--period``); ``--clock-tables``
  of them have a 10 s move clock and each player lets it run out on every other
  turn of theirs (so the Celery worker's clocks fire through the deploy).
* The clients behave like the page (static/js/socket_client.js): a socket closed
  with 4013 comes back at once, any other close after the page's backoff; a
  refused connection tries the other web process at once (a proxy's next
  upstream); the server sends its snapshot on every connect, and a ``stale``
  refusal is answered with ``refresh``, as the page does.

Reported: moves lost (sent, never refused, not in the database), moves applied
twice (a person's move in the database that no send explains, or one send
matched twice), sockets that did not come back, the clocks' lateness (a timeout
move's time against its turn's start + the clock) and move latency (until all
four sockets saw the move) before, during and after the deploy.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.loadbench.clients import DominoTable, open_socket  # noqa: E402
from bench.loadbench.common import ROOT, free_port, percentile, raise_fd_limit, say  # noqa: E402
from bench.loadbench.procfile import background_commands  # noqa: E402
from bench.loadbench.servers import Config, Proc, django_setup  # noqa: E402

PG_DATABASE = "domino_deploy"
REDIS_DB = 12
CLOCK_SECONDS = 10
MIGRATION = '''from django.db import migrations, models


class Migration(migrations.Migration):
    """The deploy drill's new release (bench/deploy.py): a nullable column the old
    code does not know, harmless to it while it still serves."""

    dependencies = [("rooms", "{last}")]

    operations = [
        migrations.AddField(
            model_name="room",
            name="deploy_drill_note",
            field=models.CharField(max_length=32, null=True, blank=True),
        ),
    ]
'''


# ------------------------------------------------------------------ the code


def checkout(dest: Path) -> Path:
    """This checkout's HEAD, as files (``git archive``): no repository touched."""
    dest.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest


def head_commit() -> str:
    return subprocess.run(
        ["git", "rev-parse", "--short=12", "HEAD"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()


def add_migration(tree: Path) -> str:
    folder = tree / "rooms" / "migrations"
    last = sorted(p.stem for p in folder.glob("[0-9][0-9][0-9][0-9]_*.py"))[-1]
    number = int(last[:4]) + 1
    name = f"{number:04d}_deploy_drill_note"
    (folder / f"{name}.py").write_text(MIGRATION.format(last=last))
    return name


class TreeProc(Proc):
    """A process of one code tree (its folder is its working directory and path)."""

    def __init__(self, name: str, cmd: list[str], env: dict[str, str], logdir: Path, tree: Path):
        super().__init__(name, cmd, {**env, "PYTHONPATH": str(tree)}, logdir)
        self.tree = tree

    def start(self) -> TreeProc:
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            self.cmd, cwd=self.tree, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        return self

    def terminate_and_wait(self, timeout: float = 60) -> float:
        """SIGTERM, then wait for the exit: how long it took."""
        assert self.proc is not None
        start = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)
        return time.monotonic() - start


def web(tree: Path, env: dict[str, str], logdir: Path, port: int, build: str) -> TreeProc:
    cmd = [sys.executable, "-m", "domino_site.serve", "-v", "0", "-b", "127.0.0.1", "-p",
           str(port), "domino_site.asgi:application"]  # fmt: skip
    return TreeProc(f"web-{port}-{build}", cmd, {**env, "BUILD_VERSION": build}, logdir, tree)


def wait_healthy(port: int, proc: Proc, timeout: float = 90) -> None:
    import urllib.request

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not proc.alive():
            raise RuntimeError(f"{proc.name} exited:\n{proc.tail()}")
        with contextlib.suppress(OSError):
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as answer:
                if answer.status == 200:
                    return
        time.sleep(0.2)
    raise RuntimeError(f"{proc.name} did not answer /healthz:\n{proc.tail()}")


def wait_ready(proc: Proc, timeout: float = 120) -> None:
    """A Celery worker says ``ready.`` in its log once it consumes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not proc.alive():
            raise RuntimeError(f"{proc.name} exited:\n{proc.tail()}")
        if " ready." in proc.tail(20000):
            return
        time.sleep(0.2)
    raise RuntimeError(f"{proc.name} was not ready in {timeout} s:\n{proc.tail()}")


def migrate(tree: Path, env: dict[str, str]) -> float:
    start = time.monotonic()
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=tree,
        env={**env, "PYTHONPATH": str(tree)},
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"migrate failed:\n{done.stdout}\n{done.stderr}")
    return time.monotonic() - start


# ------------------------------------------------------------------ the clients


@dataclass
class Sent:
    table: int
    seat: int
    match: int
    round: int
    seq: int  # the log entry it would make
    kind: str
    tile: str | None
    phase: str
    at: float
    error: str | None = None
    unsent: bool = False
    resent: bool = False  # the page's copy after a reconnect


@dataclass
class Results:
    phase: str = "before"
    latency: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    sent: list[Sent] = field(default_factory=list)
    closes: Counter = field(default_factory=Counter)
    back_ms: list[float] = field(default_factory=list)
    builds: Counter = field(default_factory=Counter)
    errors: Counter = field(default_factory=Counter)
    refused_connects: int = 0
    connect_errors: Counter = field(default_factory=Counter)
    finals: list = field(default_factory=list)


def moved_on(state: dict, record: Sent) -> bool:
    """Something happened at ``record``'s place since (its round went on, or another)."""
    log = state.get("log") or []
    seq = max((e.get("seq") or 0 for e in log), default=0)
    match = (state.get("match") or {}).get("number", 0)
    rnd = (state.get("round") or {}).get("number")
    return match != record.match or rnd != record.round or seq >= record.seq


class Proxy:
    """The web processes' ports, as a proxy hands them out: round-robin, and the
    next one at once when one refuses."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.turn = 0

    def order(self, first: int | None = None) -> list[int]:
        if first is None:
            self.turn += 1
            first = self.turn
        return [self.ports[(first + i) % len(self.ports)] for i in range(len(self.ports))]


class PageSocket:
    """One socket that comes back like the page's."""

    def __init__(self, table: DeployTable, role: int, cookie: str) -> None:
        self.table = table
        self.role = role
        self.cookie = cookie
        self.ws: Any = None
        self.state: dict[str, Any] | None = None
        self.version = -1
        self.frames = 0
        self.closed: str | None = None  # for DominoTable.until
        self.open = asyncio.Event()
        self.stopping = False
        self.history: list[tuple[float, int]] = []  # (when, port) of each open

    async def run(self, proxy: Proxy, first: int) -> None:
        from websockets.exceptions import ConnectionClosed

        res = self.table.results
        retries = 0
        start_at: int | None = first
        closed_at: float | None = None
        path = f"/ws/rooms/{self.table.spec.code}/"
        while not self.stopping:
            ws = None
            for port in proxy.order(start_at):
                try:
                    ws = await open_socket(
                        f"ws://127.0.0.1:{port}{path}", f"http://127.0.0.1:{port}", self.cookie
                    )
                    break
                except Exception as exc:  # noqa: BLE001 - refused (or dropped in its handshake)
                    res.refused_connects += 1
                    res.connect_errors[type(exc).__name__] += 1
            start_at = None
            if ws is None:
                step = min(1.0 * 2**retries, 10.0)
                retries += 1
                await asyncio.sleep(step / 2 + random.random() * step / 2)
                continue
            retries = 0
            self.ws = ws
            self.history.append((round(time.time(), 3), port))
            first_frame = True
            try:
                async for raw in ws:
                    msg = json.loads(raw)
                    if first_frame:
                        first_frame = False
                        res.builds[msg.get("build")] += 1
                    again = msg.get("type") == "room" and closed_at is not None
                    if again:
                        res.back_ms.append((time.monotonic() - closed_at) * 1000)
                        closed_at = None
                    self.table.on_frame(self, msg)
                    if again:
                        self.table.reopened(self)
                    self.open.set()
            except ConnectionClosed:
                pass
            self.open.clear()
            self.ws = None
            code = ws.close_code
            if self.stopping:
                return
            res.closes[code] += 1
            closed_at = time.monotonic()
            self.table.socket_closed(self)
            if code in (4001, 4003, 4004):
                self.closed = f"final {code}"
                res.finals.append(
                    {"table": self.table.index, "role": self.role, "code": code,
                     "port": port, "at": time.time(), "history": list(self.history)}
                )  # fmt: skip
                return
            if code != 4013:  # the page's backoff; 4013 comes back at once
                step = min(1.0 * 2**retries, 10.0)
                retries += 1
                await asyncio.sleep(step / 2 + random.random() * step / 2)

    async def send(self, text: str, stats: Any = None) -> bool:
        ws = self.ws
        if ws is None:
            return False
        try:
            await ws.send(text)
            return True
        except Exception:  # noqa: BLE001 - closing: the page says "not connected"
            return False


class DeployTable:
    """A table of four page sockets, one command at a time (the choice of command
    is the load bench's, `DominoTable.next_command`)."""

    next_command = DominoTable.next_command

    def __init__(self, index: int, spec: Any, results: Results, clock: bool) -> None:
        self.index = index
        self.spec = spec
        self.results = results
        self.clock = clock
        self.rng = random.Random(index)
        self.socks = [PageSocket(self, j, cookie) for j, cookie in enumerate(spec.cookies)]
        self.waiting: tuple[int, asyncio.Future] | None = None
        self.ref = 0
        self.let_run = [False, False]  # clock tables: this seat lets its clock run next turn
        self.decided_turn: tuple | None = None  # the last turn it decided on
        self.clock_turn: tuple | None = None  # the turn it leaves to the clock
        self.tasks: list[asyncio.Task] = []
        self.deadline = float("inf")  # time.monotonic() when it stops making moves
        # The page's unanswered move (static/js/table/socket.js): sent again after
        # a reconnect when the new snapshot shows nothing happened at its place.
        self.unanswered: tuple[Sent, dict] | None = None
        self.refs: dict[str, Sent] = {}

    def on_frame(self, sock: PageSocket, msg: dict) -> None:
        kind = msg.get("type")
        if kind == "room":
            sock.frames += 1
            if self.unanswered and moved_on(msg, self.unanswered[0]):
                self.unanswered = None
            if msg["version"] > sock.version:
                sock.version = msg["version"]
                sock.state = msg
            waiting = self.waiting
            if (
                waiting
                and all(s.version > waiting[0] for s in self.socks)
                and not waiting[1].done()
            ):
                waiting[1].set_result("ok")
        elif kind == "error":
            self.results.errors[msg.get("code")] += 1
            record = self.refs.get(msg.get("ref"))
            if record is not None:
                record.error = record.error or f"error {msg.get('code')}"
            if self.unanswered and self.unanswered[1].get("ref") == msg.get("ref"):
                self.unanswered = None
            waiting = self.waiting
            if waiting and msg.get("ref") == f"m{self.ref}" and not waiting[1].done():
                waiting[1].set_result(f"error {msg.get('code')}")

    def socket_closed(self, sock: PageSocket) -> None:
        pass  # the move in flight is judged at the end, from the database

    def reopened(self, sock: PageSocket) -> None:
        """The first snapshot after a reconnect: the page's unanswered move again."""
        if self.unanswered is None or sock.state is None:
            return
        record, msg = self.unanswered
        state = sock.state
        if state["you"]["seat"] != record.seat or moved_on(state, record):
            return
        legal = (state.get("round") or {}).get("legal") or []
        if not any(a["type"] == record.kind and a.get("tile") == record.tile for a in legal):
            return
        again = {k: v for k, v in msg.items() if k not in ("ref", "version")}
        self.ref += 1
        again.update(ref=f"m{self.ref}", version=state["version"])
        copy = Sent(**{**record.__dict__, "phase": self.results.phase, "at": time.time()})
        copy.error, copy.unsent, copy.resent = None, False, True
        self.results.sent.append(copy)
        self.refs[again["ref"]] = copy
        self.unanswered = (copy, again)

        async def resend() -> None:
            if not await sock.send(json.dumps(again)):
                copy.unsent = True

        asyncio.get_running_loop().create_task(resend())

    async def play(self, period: float) -> None:
        loop = asyncio.get_running_loop()
        next_at = loop.time() + self.rng.random() * period
        while time.monotonic() < self.deadline:
            await asyncio.sleep(max(0.0, next_at - loop.time()))
            next_at += period
            command = self.next_command()
            if command is None:
                continue
            sock, msg, kind, version = command
            state = sock.state
            assert state is not None
            seat = state["you"]["seat"]
            if kind == "move" and self.clock:
                turn = (
                    (state["match"] or {}).get("number"),
                    state["round"]["number"],
                    max((e.get("seq") or 0 for e in state["log"]), default=0),
                )
                if turn == self.clock_turn:
                    continue  # this turn goes to the clock
                if turn != self.decided_turn:
                    self.decided_turn = turn
                    self.let_run[seat] = not self.let_run[seat]
                    if self.let_run[seat]:
                        self.clock_turn = turn
                        continue
            await self.send(sock, msg, kind, version, state, seat)

    async def send(self, sock, msg, kind, version, state, seat) -> None:
        self.ref += 1
        msg["ref"] = f"m{self.ref}"
        future = asyncio.get_running_loop().create_future()
        self.waiting = (version, future)
        record = None
        if kind == "move":
            rnd, match = state["round"], state["match"] or {}
            record = Sent(
                table=self.index,
                seat=seat,
                match=match.get("number", 0),
                round=rnd["number"],
                seq=max((e.get("seq") or 0 for e in state["log"]), default=0) + 1,
                kind=msg["type"],
                tile=msg.get("tile"),
                phase=self.results.phase,
                at=time.time(),
            )
            self.results.sent.append(record)
        start = time.perf_counter()
        try:
            if record:
                self.refs[msg["ref"]] = record
            if not await sock.send(json.dumps(msg)):
                if record:
                    record.unsent = True
                return
            if record:
                self.unanswered = (record, msg)
            try:
                status = await asyncio.wait_for(future, 30)
            except TimeoutError:
                status = "timeout"
            if status == "error stale":  # as static/js/table.js: ask for the snapshot
                await sock.send(json.dumps({"type": "refresh"}))
            if record is None:
                return
            if status.startswith("error"):
                record.error = status
            elif status == "ok":
                self.results.latency[record.phase].append((time.perf_counter() - start) * 1000)
            else:
                self.results.latency[record.phase].append(30_000.0)
        finally:
            self.waiting = None

    async def stop(self) -> None:
        for sock in self.socks:
            sock.stopping = True
            if sock.ws is not None:
                with contextlib.suppress(Exception):
                    await sock.ws.close()
        for task in self.tasks:
            task.cancel()


# ------------------------------------------------------------------ the drill


def prepare_storage(cfg: Config, old: Path) -> None:
    import psycopg
    import redis

    admin = cfg.database_url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {PG_DATABASE} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {PG_DATABASE}")
    assert cfg.redis_url
    redis.Redis.from_url(cfg.redis_url).flushdb()
    migrate(old, cfg.server_env())


def judge(results: Results, codes: list[str]) -> dict[str, Any]:
    """The moves against the database. A player's intent is a move at one place
    of one round (table, match, round, seq, seat, action); it may have been sent
    twice (a socket that came back showed the move still to make: the page
    would let the player make it again, and the version check refuses the one
    that comes second). An intent is applied when the database has that person's
    move there; refused when it was not and a send got an error; not sent when
    every send found the socket closed (the page says "not connected"); lost
    otherwise. A person's move in the database that no intent explains was
    applied twice (or made up)."""
    from games.models import Move

    intents: dict[tuple, list[Sent]] = defaultdict(list)
    for sent in results.sent:
        key = (sent.table, sent.match, sent.round, sent.seq)
        intents[(*key, sent.seat, sent.kind, sent.tile)].append(sent)
    rows: dict[tuple, tuple] = {}
    for index, code in enumerate(codes):
        for match, rnd, seq, seat, action in Move.objects.filter(
            round__room__code=code, by="person"
        ).values_list("round__match__number", "round__number", "seq", "seat", "action"):
            rows[(index, match, rnd, seq)] = (seat, action.get("type"), action.get("tile"))
    outcome: Counter = Counter()
    lost, twice = [], []
    explained = set()
    for key, sends in intents.items():
        place, intent = key[:4], key[4:]
        if len(sends) > 1:
            outcome["intents sent more than once"] += 1
        if any(s.resent for s in sends):
            outcome["intents sent again after a reconnect (the page's unanswered move)"] += 1
        if rows.get(place) == intent:
            explained.add(place)
            outcome["applied"] += 1
        elif all(s.unsent for s in sends):
            outcome["not sent: socket closed (the page says so)"] += 1
        elif any(s.error for s in sends):
            outcome[f"refused: {next(s.error for s in sends if s.error)}"] += 1
        else:
            outcome["lost"] += 1
            lost.append([s.__dict__ for s in sends])
    for place, row in rows.items():
        if place not in explained:
            twice.append({"place": place, "move": row})
    return {"outcome": dict(outcome), "lost": lost, "twice": twice}


def clock_lateness(codes: list[str], since: float, phases: list[tuple[str, float]]) -> dict:
    """Each timeout move: its time against the previous move's + the clock, by phase."""
    from games.models import Move

    late: dict[str, list[float]] = defaultdict(list)
    for code in codes:
        rows = list(
            Move.objects.filter(round__room__code=code)
            .order_by("round_id", "seq")
            .values_list("round_id", "seq", "by", "created_at")
        )
        for (r0, _s0, _b0, t0), (r1, _s1, by, t1) in zip(rows, rows[1:], strict=False):
            if r0 != r1 or by != "timeout":
                continue
            due = t0.timestamp() + CLOCK_SECONDS
            phase = "before"
            for name, start in phases:
                if due >= start:
                    phase = name
            late[phase].append((t1.timestamp() - due) * 1000)
    return {
        phase: {
            "count": len(v),
            "p50_ms": round(percentile(sorted(v), 0.5) or 0),
            "p99_ms": round(percentile(sorted(v), 0.99) or 0),
            "max_ms": round(max(v)),
            "over_1s": sum(1 for x in v if x > 1000),
        }
        for phase, v in late.items()
        if v
    }


async def drill(args: argparse.Namespace) -> dict[str, Any]:
    raise_fd_limit()
    work = Path(tempfile.mkdtemp(prefix="domino-deploy-"))
    commit = head_commit()
    old = checkout(work / "old")
    new = checkout(work / "new")
    migration = add_migration(new)
    build_old, build_new = commit, f"{commit}+{migration[:4]}"
    cfg = Config(
        name="deploy",
        database_url=f"{args.pg.rstrip('/')}/{PG_DATABASE}",
        redis_url=f"{args.redis.rstrip('/')}/{REDIS_DB}",
        daphnes=2,
        tmp=work / "run",
    )
    cfg.tmp.mkdir()
    env = cfg.server_env()
    say(f"deploy drill: {work}; build {build_old} -> {build_new} (migration {migration})")
    prepare_storage(cfg, old)
    ports = [free_port(), free_port()]
    webs = [web(old, env, cfg.tmp, port, build_old).start() for port in ports]
    background = {
        name: TreeProc(name, argv, {**env, "BUILD_VERSION": build_old}, cfg.tmp, old).start()
        for name, argv in background_commands(old, env, cfg.tmp).items()
    }
    for proc, port in zip(webs, ports, strict=True):
        wait_healthy(port, proc)
    results = Results()
    tables: list[DeployTable] = []
    timeline: list[dict[str, Any]] = []
    try:
        django_setup(cfg)
        from bench.loadbench.tables import create_tables
        from rooms.models import Room

        def make_tables() -> tuple[list, list[str]]:
            specs = create_tables(args.tables)
            clocked = [s.code for s in specs[: args.clock_tables]]
            Room.objects.filter(code__in=clocked).update(move_seconds=CLOCK_SECONDS)
            return specs, clocked

        specs, clocked = await asyncio.to_thread(make_tables)
        proxy = Proxy(ports)
        for i, spec in enumerate(specs):
            table = DeployTable(i, spec, results, spec.code in clocked)
            tables.append(table)
            table.tasks = [
                asyncio.create_task(sock.run(proxy, i + j)) for j, sock in enumerate(table.socks)
            ]
        await asyncio.wait_for(
            asyncio.gather(*(s.open.wait() for t in tables for s in t.socks)), 180
        )
        say(f"{len(tables)} tables open ({len(clocked)} with a {CLOCK_SECONDS} s clock)")
        players = [asyncio.create_task(t.play(args.period)) for t in tables]
        phases = [("before", time.time())]
        await asyncio.sleep(args.before)

        results.phase = "during"
        phases.append(("during", time.time()))
        step_start = time.monotonic()
        took = await asyncio.to_thread(migrate, new, env)
        timeline.append({"step": f"release: migrate {migration} (new code)", "s": round(took, 2)})
        for i, port in enumerate(ports):
            t0 = time.monotonic()
            drained = await asyncio.to_thread(webs[i].terminate_and_wait, 60)
            code = webs[i].proc.returncode if webs[i].proc else None
            webs[i] = web(new, env, cfg.tmp, port, build_new).start()
            await asyncio.to_thread(wait_healthy, port, webs[i])
            timeline.append(
                {
                    "step": f"web :{port}",
                    "exit_s": round(drained, 2),
                    "exit_code": code,
                    "down_s": round(time.monotonic() - t0, 2),
                }
            )
        new_commands = background_commands(new, env, cfg.tmp)
        for name in ("worker", "analysis"):
            # The new worker first (a node name of its own), the old one told
            # to stop once the new one is ready: no moment without a worker.
            if name not in background:
                continue
            t0 = time.monotonic()
            argv = [*new_commands[name], f"--hostname={name}-{build_new.replace('+', '-')}@%h"]
            fresh = TreeProc(
                f"{name}-new", argv, {**env, "BUILD_VERSION": build_new}, cfg.tmp, new
            ).start()
            await asyncio.to_thread(wait_ready, fresh)
            ready = time.monotonic() - t0
            drained = await asyncio.to_thread(background[name].terminate_and_wait, 300)
            background[name] = fresh
            timeline.append(
                {"step": name, "new_ready_s": round(ready, 2), "old_exit_s": round(drained, 2)}
            )
        if "beat" in background:  # exactly one: stop, then start
            t0 = time.monotonic()
            drained = await asyncio.to_thread(background["beat"].terminate_and_wait, 60)
            background["beat"] = TreeProc(
                "beat-new", new_commands["beat"], {**env, "BUILD_VERSION": build_new}, cfg.tmp, new
            ).start()
            timeline.append(
                {
                    "step": "beat",
                    "exit_s": round(drained, 2),
                    "down_s": round(time.monotonic() - t0, 2),
                }
            )
        deploy_s = time.monotonic() - step_start
        results.phase = "after"
        phases.append(("after", time.time()))
        for table in tables:
            table.deadline = time.monotonic() + args.after
        await asyncio.sleep(args.after)
        await asyncio.gather(*players, return_exceptions=True)
        await asyncio.sleep(3)  # the last answers
        not_back = sum(1 for t in tables for s in t.socks if not s.open.is_set())
        on_new = sum(1 for t in tables for s in t.socks if s.state is not None and s.open.is_set())
        codes = [t.spec.code for t in tables]
        verdict = await asyncio.to_thread(judge, results, codes)
        clocks = await asyncio.to_thread(clock_lateness, clocked, phases[0][1], phases)
        latency = {
            phase: {
                "moves": len(v),
                "p50_ms": round(percentile(sorted(v), 0.5) or 0, 1),
                "p99_ms": round(percentile(sorted(v), 0.99) or 0, 1),
                "max_ms": round(max(v), 1),
            }
            for phase, v in results.latency.items()
            if v
        }
        back = sorted(results.back_ms)
        return {
            "build": [build_old, build_new],
            "tables": len(tables),
            "clock_tables": len(clocked),
            "sockets": 4 * len(tables),
            "deploy_s": round(deploy_s, 1),
            "timeline": timeline,
            "moves": verdict["outcome"],
            "lost": verdict["lost"],
            "applied_twice": verdict["twice"],
            "sockets_not_back": not_back,
            "sockets_open_at_end": on_new,
            "closes": {str(k): v for k, v in results.closes.items()},
            "back_ms": {
                "count": len(back),
                "p50": round(percentile(back, 0.5) or 0),
                "p99": round(percentile(back, 0.99) or 0),
                "max": round(back[-1]) if back else 0,
            },
            "refused_connects": results.refused_connects,
            "connect_errors": dict(results.connect_errors),
            "final_closes": results.finals,
            "first_frames_by_build": dict(results.builds),
            "errors": dict(results.errors),
            "latency": latency,
            "clock_lateness": clocks,
            "server_log_problems": {
                p.name: len(p.problems()) for p in [*webs, *background.values()] if p.problems()
            },
            "workdir": str(work),
        }
    finally:
        for table in tables:
            await table.stop()
        for proc in [*webs, *background.values()]:
            with contextlib.suppress(Exception):
                proc.stop()
        if not args.keep:
            shutil.rmtree(old, ignore_errors=True)
            shutil.rmtree(new, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=150)
    parser.add_argument("--clock-tables", type=int, default=20)
    parser.add_argument("--period", type=float, default=2.0, help="seconds between a table's moves")
    parser.add_argument("--before", type=float, default=60.0)
    parser.add_argument("--after", type=float, default=60.0)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379")
    parser.add_argument("--json", type=Path, help="write the report here too")
    parser.add_argument("--keep", action="store_true", help="keep the code copies")
    args = parser.parse_args()
    report = asyncio.run(drill(args))
    text = json.dumps(report, indent=2, default=str)
    print(text)
    if args.json:
        args.json.write_text(text)


if __name__ == "__main__":
    main()
