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
"""

from __future__ import annotations

import asyncio
import contextlib
import statistics
import time
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

    def __init__(self, servers: list[Daphne], cookie: str | None, open_every: float) -> None:
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
        from django.utils import timezone

        self.since = timezone.now()

    async def watch(self, until: float) -> None:
        """Sample once a second, and open a replay every ``open_every`` s, until
        ``until`` (perf_counter)."""
        opens: list[asyncio.Task] = []
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
                self.unanswered += 1
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
