"""The fault drills on the hosts: tables play from the ``client`` host while a
fault hits, then the check.

`Drills` holds one `Site` for several drills (each drill opens tables of its
own). `Drills.run` plays ``tables`` (``PLAY_TABLES`` playing, two on each Daphne
with every socket on it; ``clock_tables`` started but never moved, their move
clock playing for them) for ``lead`` seconds, applies the fault, undoes it
after its duration, plays on for ``tail`` seconds, lets every table go quiet,
and checks (`Outcome.problems`, empty when all is well):

* every move a socket saw stored (every ``log`` entry of every snapshot) is in
  PostgreSQL once, as seen; no two sockets saw one move differently;
* none applied twice: every round replays to its stored state, and no room
  has more person moves stored than its players sent;
* every socket converges: once the table is quiet, each socket shows the
  version stored; none was closed for good (4001, 4003, 4004);
* no due time left behind: no unfinished round is more than a second overdue;
* no process logged a traceback.

`Outcome.summary` says how long play stalled on each host's tables (the
longest time between two moves a table's player saw stored, from the fault on),
what the players saw (closes by code, failed reconnects, errors) and, for the
clock tables, how long after the heal each due clock fired.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.hosts.net import Net
from bench.hosts.site import WEB_PORT, WEBS, Site

CLOCK = 10  # seconds: the shortest move clock
#: What the exception line of a lost connection holds (redis-py, psycopg, the OS).
CONNECTION_ERRORS = (
    "ConnectionError", "BrokenPipeError", "ConnectionRefusedError", "ConnectionResetError",
    "OperationalError", "InterfaceError", "TimeoutError", "AdminShutdown",
    "server closed the connection", "consuming input failed",
)  # fmt: skip
PLAY_TABLES = 4  # two on each Daphne


@dataclass
class Fault:
    """``apply`` at the fault's start; ``undo`` (if any) ``duration`` s later."""

    name: str
    apply: Callable[[Drills], None]
    duration: float = 0.0
    undo: Callable[[Drills], None] | None = None
    hit: tuple[str, ...] = ()  # the Daphnes whose tables the fault may stall


def cut(a: str, b: str, seconds: float, hit: tuple[str, ...]) -> Fault:
    return Fault(
        f"{a} cut from {b} {seconds:g} s",
        lambda d: d.net.cut(a, b),
        seconds,
        lambda d: d.net.heal(a, b),
        hit,
    )


def loss(a: str, b: str, rate: float, seconds: float) -> Fault:
    return Fault(
        f"{rate:.0%} loss {a}-{b} {seconds:g} s",
        lambda d: d.net.link(a, b, d.delay_ms, rate),
        seconds,
        lambda d: d.net.link(a, b, d.delay_ms, 0.0),
        (b,),
    )


def web1_killed() -> Fault:
    return Fault(
        "everything on web1 killed", lambda d: d.net.kill_host("web1"), 0.0, None, ("web1",)
    )


def db_restarted() -> Fault:
    return Fault("db restarted", lambda d: d.site.restart_db(), 0.0, None, WEBS)


def faults(loss_seconds: float = 60.0) -> dict[str, Fault]:
    return {
        "web1-redis": cut("web1", "redis", 10, ("web1",)),
        "web1-db": cut("web1", "db", 10, ("web1",)),
        "worker-redis": cut("worker", "redis", 30, ()),
        "web1-killed": web1_killed(),
        "loss-client-web2": loss("client", "web2", 0.05, loss_seconds),
        "db-restart": db_restarted(),
    }


@dataclass
class Outcome:
    fault: str
    window: tuple[float, float]  # the fault's start and end (epoch seconds)
    tables: list[dict]
    facts: dict
    exceptions: dict  # log name -> the exceptions its process logged during the drill
    problems: list[str] = field(default_factory=list)
    summary: dict = field(default_factory=dict)


class Drills:
    def __init__(self, delay_ms: float = 0.5, env: dict[str, str] | None = None) -> None:
        self.delay_ms = delay_ms
        self.net = Net(delay_ms=delay_ms)
        try:
            self.site = Site(self.net, env).up()
        except BaseException:
            self.net.close()
            raise

    def close(self) -> None:
        self.net.close()

    def store(self, *args: str) -> object:
        return json.loads(
            self.site.run("client", [sys.executable, "-m", "bench.hosts.store", *args])
        )

    def ensure_webs(self) -> None:
        """A Daphne killed by an earlier drill comes back (a new process)."""
        for host in WEBS:
            if not self.net.pids(host):
                self.site.start_web(host)

    def run(self, fault: Fault, *, lead: float = 3.0, tail: float = 12.0,
            clock_tables: int = 0, period: float = 0.4) -> Outcome:  # fmt: skip
        self.ensure_webs()
        logs = self.site.log_sizes()
        play = self.store("tables", str(PLAY_TABLES))
        clocks = self.store("tables", str(clock_tables), str(CLOCK)) if clock_tables else []
        specs = []
        for i, t in enumerate(play):  # all of a table's sockets on one Daphne
            home = WEBS[i % 2]
            specs.append({"code": t["code"], "cookies": t["cookies"][:3], "homes": [home] * 3})
        for i, t in enumerate(clocks):
            home = WEBS[i % 2]
            specs.append({"code": t["code"], "cookies": t["cookies"][:3], "homes": [home] * 3,
                          "play": False})  # fmt: skip
        seconds = lead + fault.duration + tail
        spec = {"seconds": seconds, "period": period, "tables": specs,
                "urls": {h: f"ws://{self.net.address(h)}:{WEB_PORT}" for h in WEBS}}  # fmt: skip
        name = fault.name.split()[0] + str(int(time.time()))
        spec_path, out_path = self.net.dir / f"{name}.json", self.net.dir / f"{name}.out.json"
        spec_path.write_text(json.dumps(spec))
        players = subprocess.Popen(
            self.net.exec_argv("client", [sys.executable, "-m", "bench.hosts.players",
                                          str(spec_path), str(out_path)]),
            cwd=self.site.dir, env=self.site.env,
            stdout=open(self.site.log(f"players-{name}"), "ab"), stderr=subprocess.STDOUT,
        )  # fmt: skip
        time.sleep(lead)
        start = time.time()
        fault.apply(self)
        if fault.undo is not None:
            time.sleep(fault.duration)
            fault.undo(self)
        end = time.time()
        try:
            players.wait(seconds + 150)
        except subprocess.TimeoutExpired:
            players.kill()
            raise
        if players.returncode != 0:
            raise RuntimeError(f"the players failed:\n{self.site.tail(f'players-{name}')}")
        played = json.loads(out_path.read_text())["tables"]
        time.sleep(2)  # a due time that is just passing is not "left behind"
        facts = self.store("facts")
        outcome = Outcome(fault.name, (start, end), played, facts, self.site.exceptions(logs))
        check(outcome, clock_codes={t["code"] for t in clocks}, hit=fault.hit)
        return outcome


def _stall(acks: list[float], start: float) -> float:
    """The longest wait for the next stored move from ``start`` on."""
    times = [t for t in sorted(acks) if t >= start - 5]
    longest, last = 0.0, None
    for t in times:
        if last is not None and t > start:
            longest = max(longest, t - max(last, start))
        last = t
    return longest


def _moves_per_round(tables: list[dict]) -> float | None:
    """Moves a round, over the rounds every socket saw start and a later one
    begin (so they ended)."""
    counts = []
    for table in tables:
        rounds: dict[str, int] = {}
        for key in table["seen"]:
            match, number, _ = key.split(".")
            rounds[f"{match}.{number}"] = rounds.get(f"{match}.{number}", 0) + 1
        keys = sorted(rounds, key=lambda k: tuple(map(int, k.split("."))))
        counts += [rounds[k] for k in keys[:-1]]  # the last may be unfinished
    return round(statistics.mean(counts), 1) if counts else None


def check(out: Outcome, clock_codes: set[str], hit: tuple[str, ...]) -> None:
    problems, rooms = out.problems, out.facts["rooms"]
    start, end = out.window
    stalls: dict[str, list[float]] = {}
    closes: Counter = Counter()
    refused = 0
    errors: Counter = Counter()
    fired_after_heal = []
    for table in out.tables:
        code = table["code"]
        stored = rooms[code]["moves"]
        if table["conflicts"]:
            problems.append(f"{code}: sockets saw one move differently: {table['conflicts'][:3]}")
        for key, (*value, _seen_at) in table["seen"].items():
            if key not in stored:
                problems.append(f"{code}: move {key} {value} was seen stored and is not")
            elif stored[key] != value:
                problems.append(f"{code}: move {key} seen as {value}, stored as {stored[key]}")
        sent = sum(1 for m in table["moves"] if m["type"] in ("play", "pass", "draw"))
        persons = sum(1 for v in stored.values() if v[3] == "person")
        if persons > sent:
            problems.append(f"{code}: {persons} person moves stored, {sent} sent")
        if any(table["final_codes"]):
            problems.append(f"{code}: sockets closed for good: {table['final_codes']}")
        if any(v != table["stored"] for v in table["final"]):
            problems.append(f"{code}: sockets at {table['final']}, stored {table['stored']}")
        for events in table["events"]:
            closes.update(str(e[2]) for e in events if e[1] == "close" and e[0] >= start - 1)
            refused += sum(1 for e in events if e[1] == "refused")
        for errs in table["errors"]:
            errors.update(e["code"] for e in errs)
        if code in clock_codes:
            timeouts = [v[4] for v in table["seen"].values() if v[3] == "timeout" and v[4] > end]
            if timeouts:
                fired_after_heal.append(round(min(timeouts) - end, 1))
            continue
        acks = [m["acked"] for m in table["moves"] if m["acked"]]
        stalls.setdefault(table["homes"][0], []).append(round(_stall(acks, start), 1))
    if out.facts["replays_differ"]:
        problems.append(f"rounds whose replay differs: {out.facts['replays_differ']}")
    ours = {t["code"] for t in out.tables}
    overdue = [o for o in out.facts["overdue"] if o[0] in ours]
    if overdue:
        problems.append(f"due times left behind: {overdue}")
    # A process that logs a lost connection while its link is cut or its
    # database restarts is doing its job; any other exception is a problem.
    logged = {}
    for log, ends in out.exceptions.items():
        unexpected = [e for e in ends if not any(k in e for k in CONNECTION_ERRORS)]
        if unexpected:
            problems.append(f"{log} logged {unexpected[:3]}")
        logged[log] = len(ends)
    for host, values in stalls.items():
        if host not in hit and max(values) > 3.0:
            problems.append(f"tables on {host} (not hit) stalled {values} s")
    if clock_codes and len(fired_after_heal) < len(clock_codes):
        problems.append(f"clocks that never fired after the heal: {fired_after_heal}")
    out.summary = {
        "fault": out.fault,
        "stall_s": {h: {"max": max(v), "median": statistics.median(v)} for h, v in stalls.items()},
        "closes": dict(closes),
        "failed_connects": refused,
        "errors": dict(errors),
        "clock_fired_after_heal_s": fired_after_heal,
        "moves_checked": sum(len(t["seen"]) for t in out.tables),
        # rounds seen (a match and round number) that ended, and their moves
        "moves_per_finished_round": _moves_per_round(out.tables),
        "connection_errors_logged": logged,
    }
