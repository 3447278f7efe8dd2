"""The site's health, read now: what the admin's "Saúde do site" shows and what
``/metrics`` turns into gauges (`operations.metrics`), one reading each.

Database readings are counts on indexed columns (a few queries a scrape);
Redis readings (queue depths, the processes' heartbeats) are asked only when
``REDIS_URL`` is set, and a Redis that does not answer gives no reading
(None) rather than an error page.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Min, Q

from analysis.models import AnalysisJob
from domino_site import heartbeats
from domino_site.realtime import liveness
from games.models import Round
from games.world import now_or
from people.models import Presence
from rooms.models import Room, Seat

log = logging.getLogger(__name__)

#: A due action whose time passed this long ago and that has not fired is late.
LATE_AFTER = timedelta(seconds=5)
#: The Celery queues (Redis lists named after them): clocks, bot turns and the
#: sweeper on ``celery``; analyses, puzzles and mail on ``analysis``.
QUEUES = ("celery", "analysis")
IN_PLAY = (Room.Status.PLAYING, Room.Status.BETWEEN_ROUNDS)


@dataclass(frozen=True)
class Clocks:
    pending: int  # rounds of open tables waiting for a due action
    late: int  # of them, due more than LATE_AFTER ago and not fired
    oldest_late_seconds: float  # how late the latest of those is (0 if none)


@dataclass(frozen=True)
class Process:
    kind: str  # web, worker, analysis, beat
    host: str
    pid: str
    expires_in: float  # seconds until its heartbeat key expires


@dataclass(frozen=True)
class Health:
    at: float  # when read (seconds since the epoch)
    tables_playing: int
    tables_open: int
    seats_connected: int
    people_online: int
    clocks: Clocks
    queues: dict[str, int] | None  # None: no Redis, or it did not answer
    analysis_waiting: int
    last_sweep: float | None
    processes: list[Process] | None = field(default=None)  # None: no Redis, or no answer
    scheduler: str = "inprocess"

    @property
    def sweep_age(self) -> float | None:
        return None if self.last_sweep is None else max(0.0, self.at - self.last_sweep)

    def alive(self, kind: str) -> int:
        return sum(1 for p in self.processes or () if p.kind == kind)


def tables() -> tuple[int, int]:
    """(tables playing: a round on or between rounds, tables open: not closed)."""
    counts = Room.objects.exclude(status=Room.Status.CLOSED).values_list("status", flat=True)
    statuses = list(counts)
    return sum(1 for s in statuses if s in IN_PLAY), len(statuses)


def seats_connected() -> int:
    """People at tables: human seats with a socket bound now."""
    return Seat.objects.filter(kind=Seat.Kind.HUMAN, connected=True).count()


def people_online() -> int:
    """Accounts with a page open (their ``ws/people/`` socket: `people.models.Presence`)."""
    return Presence.objects.values("user_id").distinct().count()


def clocks(now: datetime | None = None) -> Clocks:
    """The rounds of open tables with a due action (as the sweeper reads them:
    not paused, unless it is the pause that lapses), and those late."""
    now = now_or(now)
    due = Round.objects.filter(due_at__isnull=False, room__status__in=IN_PLAY).filter(
        Q(room__paused=False) | Q(due_kind=Round.DueKind.RESUME)
    )
    late_before = now - LATE_AFTER
    agg = due.aggregate(
        pending=Count("id"),
        late=Count("id", filter=Q(due_at__lte=late_before)),
        oldest=Min("due_at", filter=Q(due_at__lte=late_before)),
    )
    oldest = agg["oldest"]
    return Clocks(
        pending=agg["pending"] or 0,
        late=agg["late"] or 0,
        oldest_late_seconds=(now - oldest).total_seconds() if oldest is not None else 0.0,
    )


def analysis_waiting() -> int:
    """Analysis jobs queued (`analysis.queue`)."""
    return AnalysisJob.objects.filter(state=AnalysisJob.State.QUEUED).count()


def queue_depths() -> dict[str, int] | None:
    """Messages waiting in each Celery queue (LLEN of its Redis list; tasks a
    worker has taken, ETA ones included, are not there). None without Redis."""
    client = heartbeats.redis_client()
    if client is None:
        return None
    try:
        pipe = client.pipeline(transaction=False)
        for queue in QUEUES:
            pipe.llen(queue)
        return dict(zip(QUEUES, (int(n) for n in pipe.execute()), strict=True))
    except Exception:  # noqa: BLE001 - no answer, no reading
        log.warning("could not read the queues' depths", exc_info=True)
        return None


def processes() -> list[Process] | None:
    """The processes whose heartbeat lives: the web processes' (the channel
    layer's liveness keys, `domino_site.realtime.liveness`) and the Celery
    processes' (`domino_site.heartbeats`). None without Redis."""
    client = heartbeats.redis_client()
    if client is None:
        return None
    found: list[Process] = []
    try:
        web = [k for k in client.scan_iter(match=liveness.KEY.format("*"), count=200)]
        web = [k for k in web if k.decode() != liveness.EPOCH_KEY]
        celery = list(client.scan_iter(match=heartbeats.PROC_PATTERN, count=200))
        pipe = client.pipeline(transaction=False)
        for key in (*web, *celery):
            pipe.get(key)
            pipe.pttl(key)
        answers = pipe.execute()
    except Exception:  # noqa: BLE001 - no answer, no reading
        log.warning("could not read the processes' heartbeats", exc_info=True)
        return None
    for i, key in enumerate((*web, *celery)):
        value, ttl = answers[2 * i], answers[2 * i + 1]
        if value is None:  # expired meanwhile
            continue
        expires_in = max(0.0, (ttl or 0) / 1000)
        text = value.decode(errors="replace")
        if i < len(web):
            host, _, pid = text.partition(" ")  # liveness.who(); "1" from older processes
            found.append(Process("web", host if pid else "?", pid or "?", expires_in))
        else:
            kind = key.decode().split(":")[2]
            try:
                who = json.loads(text)
            except ValueError:
                who = {}
            host, pid = str(who.get("host", "?")), str(who.get("pid", "?"))
            found.append(Process(kind, host, pid, expires_in))
    return sorted(found, key=lambda p: (p.kind, p.host, p.pid))


def site_health(now: datetime | None = None) -> Health:
    """Every reading at once (the admin page)."""
    playing, open_ = tables()
    return Health(
        at=time.time(),
        tables_playing=playing,
        tables_open=open_,
        seats_connected=seats_connected(),
        people_online=people_online(),
        clocks=clocks(now),
        queues=queue_depths(),
        analysis_waiting=analysis_waiting(),
        last_sweep=heartbeats.last_sweep(),
        processes=processes(),
        scheduler=getattr(settings, "DOMINO_SCHEDULER", "inprocess"),
    )
