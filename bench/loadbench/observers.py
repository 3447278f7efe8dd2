"""What a run watches beside its tables: lobby sockets and the analysis queue.

* `LobbyMeter`: ``--lobby`` sockets on ``ws/lobby/`` (spread over the Daphnes),
  each looking at the first page of everything (``{"type": "view"}``), as a
  visitor of the lobby page does, and ``--lobby-bare`` more that never send a
  view (a client that only listens: its page comes whole); they count the
  bytes they receive, so a run reports a lobby socket's bytes per second of
  each kind while the tables play.
* `AnalysisProbe`: every second, the analysis queue's depth (queued jobs; on
  code before the queue, finished rounds with no analysis) and, for the rounds
  analysed meanwhile, the lag from a round's end to its analysis. Every
  ``--open-every`` seconds it opens the replay page of the newest finished
  round without analysis (as a logged-in watcher, over HTTP) and notes how
  long until that round's analysis is written.
* `WhatIfProbe`: every ``--whatif-every`` seconds, one person (the same
  logged-in watcher) asks the replay's what-if (`POST /api/rooms/<code>/rounds/
  <n>/whatif/?match=m`) at a random person's move of a random finished round,
  as the replay page does; most positions are neither analysed nor cached, so
  the server computes them below play, within the person's limit a minute
  (past it: 429). It counts the answers by status and their latency.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import statistics
import time
import urllib.error
import urllib.request
from typing import Any

from bench.loadbench.clients import open_socket
from bench.loadbench.common import percentile
from bench.loadbench.servers import Daphne


class LobbyMeter:
    """Lobby sockets counting what they receive."""

    def __init__(self) -> None:
        self.sockets: list[Any] = []
        self.tasks: list[asyncio.Task] = []
        self.bytes = {"view": 0, "bare": 0}
        self.count = {"view": 0, "bare": 0}

    async def open(self, count: int, bare: int, servers: list[Daphne], cookie: str | None) -> None:
        for i in range(count + bare):
            kind = "view" if i < count else "bare"
            srv = servers[i % len(servers)]
            ws = await open_socket(
                f"ws://{srv.address}:{srv.port}/ws/lobby/",
                f"http://{srv.address}:{srv.port}",
                cookie,
            )
            if kind == "view":
                await ws.send('{"type": "view"}')
            self.count[kind] += 1
            self.sockets.append(ws)
            self.tasks.append(asyncio.create_task(self._read(ws, kind)))

    async def _read(self, ws: Any, kind: str) -> None:
        with contextlib.suppress(Exception):
            async for raw in ws:
                self.bytes[kind] += len(raw)

    def counters(self) -> dict[str, int]:
        return dict(self.bytes)

    async def close(self) -> None:
        for ws in self.sockets:
            with contextlib.suppress(Exception):
                await ws.close()
        for task in self.tasks:
            task.cancel()


class AnalysisProbe:
    """The analysis queue, sampled from the database (the bench's own Django)."""

    def __init__(
        self, servers: list[Daphne], cookie: str | None, open_every: float, whatif_every: float = 0
    ) -> None:
        self.whatif = WhatIfProbe(servers, cookie, whatif_every)
        self.servers = servers
        self.cookie = cookie
        self.open_every = open_every
        self.depths: list[int] = []
        self.lags: list[float] = []  # seconds, round end -> analysis, analysed in the window
        self.opened: list[float] = []  # seconds, replay opened -> analysis written
        self.unanswered = 0  # replays opened whose round was not analysed within 60 s
        self.since = None

    def reset(self) -> None:
        self.depths, self.lags, self.opened, self.unanswered = [], [], [], 0
        self.whatif.reset()
        from django.utils import timezone

        self.since = timezone.now()

    async def watch(self, until: float) -> None:
        """Sample once a second, and open a replay every ``open_every`` s, until
        ``until`` (perf_counter)."""
        opens: list[asyncio.Task] = [asyncio.create_task(self.whatif.watch(until))]
        next_open = time.perf_counter() + self.open_every / 2
        while time.perf_counter() < until:
            self.depths.append(await asyncio.to_thread(queue_depth))
            if self.open_every and time.perf_counter() >= next_open:
                next_open += self.open_every
                opens.append(asyncio.create_task(self._open_one()))
            await asyncio.sleep(1.0)
        if opens:  # the replays opened near the end: their analysis may come after it
            _done, late = await asyncio.wait(opens, timeout=35)
            for task in late:
                task.cancel()
                self.unanswered += task is not opens[0]
        self.lags = await asyncio.to_thread(lags_since, self.since)

    async def _open_one(self) -> None:
        found = await asyncio.to_thread(newest_unanalysed)
        if found is None:
            return
        round_id, path = found
        srv = self.servers[len(self.opened) % len(self.servers)]
        opened_at = time.perf_counter()
        request = urllib.request.Request(srv.url(path), headers={"Cookie": self.cookie or ""})
        with contextlib.suppress(Exception):
            await asyncio.to_thread(lambda: urllib.request.urlopen(request, timeout=30).read())
        while time.perf_counter() - opened_at < 60:
            if await asyncio.to_thread(analysed, round_id):
                self.opened.append(time.perf_counter() - opened_at)
                return
            await asyncio.sleep(0.25)
        self.unanswered += 1

    def figures(self) -> dict[str, Any]:
        lags = sorted(self.lags)
        return {
            "analysis_depth_max": max(self.depths) if self.depths else None,
            "analysis_depth_end": self.depths[-1] if self.depths else None,
            "analysis_done": len(lags),
            "analysis_lag_p50": percentile(lags, 0.5),
            "analysis_lag_max": lags[-1] if lags else None,
            "replay_to_analysis_max": max(self.opened) if self.opened else None,
            "replay_to_analysis_p50": statistics.median(self.opened) if self.opened else None,
            "replays_opened": len(self.opened) + self.unanswered,
            "replays_unanswered": self.unanswered,
            **self.whatif.figures(),
        }


def _job_model() -> Any:
    try:
        from analysis.models import AnalysisJob
    except ImportError:  # code from before the queue
        return None
    return AnalysisJob


def queue_depth() -> int:
    """Queued jobs (the queue), or on code before it the finished rounds with a
    result and no analysis."""
    from django.db import close_old_connections

    close_old_connections()
    job = _job_model()
    if job is not None:
        return job.objects.filter(state="queued").count()
    from games.models import Round

    return Round.objects.filter(
        finished_at__isnull=False, result__isnull=False, analysis__isnull=True
    ).count()


def lags_since(since: Any) -> list[float]:
    """Seconds from a round's end to its analysis, for the analyses written since."""
    from analysis.models import RoundAnalysis

    rows = RoundAnalysis.objects.filter(created_at__gte=since).values_list(
        "created_at", "round__finished_at"
    )
    return [(made - ended).total_seconds() for made, ended in rows if ended]


def newest_unanalysed() -> tuple[int, str] | None:
    from games.models import Round

    rnd = (
        Round.objects.filter(finished_at__isnull=False, result__isnull=False, analysis__isnull=True)
        .select_related("room", "match")
        .order_by("-finished_at")
        .first()
    )
    if rnd is None:
        return None
    return rnd.pk, f"/r/{rnd.room.code}/rounds/{rnd.number}/?match={rnd.match.number}"


def analysed(round_id: int) -> bool:
    from analysis.models import RoundAnalysis

    return RoundAnalysis.objects.filter(round_id=round_id).exists()


class WhatIfProbe:
    """One person asking the replay's what-if while the tables play."""

    def __init__(self, servers: list[Daphne], cookie: str | None, every: float) -> None:
        self.servers, self.cookie, self.every = servers, cookie or "", every
        self.rng = random.Random(7)
        self.reset()

    def reset(self) -> None:
        self.latencies: list[float] = []
        self.statuses: dict[int, int] = {}

    async def watch(self, until: float) -> None:
        if not self.every:
            return
        tasks: list[asyncio.Task] = []
        while time.perf_counter() < until:
            await asyncio.sleep(self.every)
            tasks.append(asyncio.create_task(self._ask()))
        if tasks:
            await asyncio.wait(tasks, timeout=35)

    async def _ask(self) -> None:
        found = await asyncio.to_thread(random_person_move, self.rng)
        if found is None:
            return
        path, body = found
        srv = self.servers[self.rng.randrange(len(self.servers))]
        token = "b" * 32  # a CSRF token of our own, in the cookie and the header
        request = urllib.request.Request(
            srv.url(path),
            data=json.dumps(body).encode(),
            method="POST",
            headers={
                "Cookie": f"{self.cookie}; csrftoken={token}",
                "X-CSRFToken": token,
                "Content-Type": "application/json",
            },
        )
        started = time.perf_counter()
        status = await asyncio.to_thread(_status_of, request)
        self.latencies.append(time.perf_counter() - started)
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def figures(self) -> dict[str, Any]:
        lat = sorted(self.latencies)
        return {
            "whatif_asked": len(lat),
            "whatif_statuses": dict(sorted(self.statuses.items())),
            "whatif_p50_ms": 1000 * percentile(lat, 0.5) if lat else None,
            "whatif_p95_ms": 1000 * percentile(lat, 0.95) if lat else None,
        }


def _status_of(request: urllib.request.Request) -> int:
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            answer.read()
            return answer.status
    except urllib.error.HTTPError as exc:
        return exc.code
    except OSError:
        return 0


def random_person_move(rng: random.Random) -> tuple[str, dict[str, Any]] | None:
    """A finished round's what-if path and a person's move there (asked with
    the action played: the position's every choice is what gets computed)."""
    from django.db import close_old_connections

    from games.models import Move, Round

    close_old_connections()
    ids = list(
        Round.objects.filter(finished_at__isnull=False, result__isnull=False)
        .order_by("-finished_at")
        .values_list("pk", flat=True)[:200]
    )
    if not ids:
        return None
    rnd = Round.objects.select_related("room", "match").get(pk=rng.choice(ids))
    moves = list(Move.objects.filter(round=rnd, by="person").values_list("seq", "action"))
    if not moves:
        return None
    seq, action = rng.choice(moves)
    path = f"/api/rooms/{rnd.room.code}/rounds/{rnd.number}/whatif/?match={rnd.match.number}"
    return path, {"seq": seq, "action": action}
