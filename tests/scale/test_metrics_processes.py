"""``/metrics`` of a web process adds up every process of its host
(prometheus-client's multiprocess mode, docs/scaling.md "Metrics"): the
Procfile's set as real processes (a Daphne, a Celery worker, the analysis
worker, beat) on a Redis of the test's own, sharing one metrics folder. A move
made on the Daphne grows its move histogram; the worker's sweeps, run for
beat, show as tasks; every process counts itself, beats in Redis, and a
worker killed with SIGKILL drops out of the live gauges at the next scrape
while what it counted stays."""

from __future__ import annotations

import asyncio
import subprocess
import urllib.request

import pytest

from domino_site.realtime.asyncdb import db_async
from tests.operations.scraping import Samples, parse, total, value
from tests.scale.drills import BIN, ROOT, CeleryProcess, process_env
from tests.scale.players import duelo, first_legal, my_turn, seated
from tests.waiting import async_wait_for

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
]


class AnalysisWorker(CeleryProcess):
    """The Procfile's ``analysis``: a worker of the ``analysis`` queue alone."""

    def start(self) -> AnalysisWorker:
        cmd = [str(BIN / "celery"), "-A", "domino_site", "worker", "-Q", "analysis",
               "--concurrency=1", "--without-gossip", "--without-mingle",
               "-n", "analysis-metrics@%h", "--loglevel", "INFO"]  # fmt: skip
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT
        )
        return self


def _scrape(port: int) -> Samples:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as answer:
        return parse(answer.read().decode())


async def _until(port: int, what: str, check, timeout: float = 60) -> Samples:
    async def seen():
        samples = await asyncio.to_thread(_scrape, port)
        return samples if check(samples) else None

    return await async_wait_for(seen, timeout=timeout, message=what, every=0.2)


async def test_the_web_process_serves_every_process_metrics(
    servers, django_user_model, settings, own_redis, tmp_path
):
    settings.DOMINO_SCHEDULER = "inprocess"  # this process schedules nothing
    folder = str(tmp_path / "metrics")
    extra = {"REDIS_URL": own_redis.url(), "PROMETHEUS_MULTIPROC_DIR": folder}
    env = process_env(DOMINO_SWEEP_SECONDS="1", **extra)
    room, ana, bruno = await db_async(duelo)(django_user_model)
    worker = CeleryProcess("worker", env).start()
    analysis = AnalysisWorker("worker", env).start()
    beat = CeleryProcess("beat", env).start()
    try:
        server = await asyncio.to_thread(servers, redis=True, scheduler="celery", env=extra)
        host, guest = await seated(room, ana, bruno, server)
        await host.send({"type": "start"})
        state = await host.until(lambda s: s["round"] is not None)
        mover = host if my_turn(state) else guest
        state = await mover.until(my_turn)
        before = await asyncio.to_thread(_scrape, server.port)
        version = state["version"]
        await mover.send({**first_legal(state), "version": version})
        await mover.until(lambda s: s["version"] > version)

        def everyone(samples: Samples) -> bool:
            kinds = ("web", "worker", "analysis", "beat")
            return (
                value(samples, "domino_move_seconds_count")
                > value(before, "domino_move_seconds_count")
                and total(samples, "domino_tasks_total", task="rooms.sweep", state="SUCCESS") >= 1
                and all(value(samples, "domino_processes", kind=k) >= 1 for k in kinds)
                and all(value(samples, "domino_heartbeats", kind=k) >= 1 for k in kinds)
            )

        seen = await _until(server.port, "every process's metrics on the Daphne", everyone)
        assert total(seen, "domino_moves_applied_total", by="person", preset="duelo") >= 1
        assert value(seen, "domino_queue_depth", queue="analysis") >= 0
        assert value(seen, "domino_sweep_age_seconds") < 30
        assert value(seen, "domino_tables_playing") == 1
        assert value(seen, "domino_sockets_open", kind="table") == 2
        tasks = total(seen, "domino_tasks_total", task="rooms.sweep")

        worker.kill()  # no goodbye: its live gauges are forgotten, its counts stay
        gone = await _until(
            server.port,
            "the killed worker out of domino_processes",
            lambda s: value(s, "domino_processes", kind="worker") == 0,
        )
        assert total(gone, "domino_tasks_total", task="rooms.sweep") >= tasks
        assert value(gone, "domino_processes", kind="beat") == 1
        await host.close()
        await guest.close()
    finally:
        for process in (worker, analysis, beat):
            process.stop()
