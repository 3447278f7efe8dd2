"""The gauges read at scrape time, from `operations.selectors` (the readings the
admin's "Saúde do site" shows too), added to the counters and histograms every
process keeps (`domino_site.metrics`). Named and described in
docs/scaling.md, "Metrics"."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from domino_site.metrics import GaugeMetricFamily
from operations import selectors

log = logging.getLogger(__name__)

PROCESS_KINDS = ("web", "worker", "analysis", "beat")


class HealthCollector:
    """One `selectors.site_health` a scrape, as gauges."""

    def describe(self) -> list[Any]:
        return []  # read only when collected (no database work at registration)

    def collect(self) -> Iterator[Any]:
        try:
            health = selectors.site_health()
        except Exception:  # noqa: BLE001 - the processes' own metrics still go out
            log.exception("metrics: the site's readings failed")
            return
        yield _gauge(
            "domino_tables_playing",
            "Tables with a match on (a round, or between rounds).",
            health.tables_playing,
        )
        yield _gauge("domino_tables_open", "Tables not closed.", health.tables_open)
        yield _gauge(
            "domino_seats_connected",
            "People at tables: human seats with a socket bound.",
            health.seats_connected,
        )
        yield _gauge(
            "domino_people_online",
            "Accounts with a page open (the people socket).",
            health.people_online,
        )
        yield _gauge(
            "domino_clocks_pending",
            "Rounds of open tables waiting for a due action.",
            health.clocks.pending,
        )
        yield _gauge(
            "domino_clocks_late",
            f"Due actions more than {selectors.LATE_AFTER.total_seconds():g} s past their time, not fired.",
            health.clocks.late,
        )
        yield _gauge(
            "domino_clocks_late_max_seconds",
            "How late the latest of the late due actions is (0: none).",
            health.clocks.oldest_late_seconds,
        )
        yield _gauge(
            "domino_analysis_jobs_waiting",
            "Round analyses queued (the analysis queue's rows).",
            health.analysis_waiting,
        )
        if health.queues is not None:
            depth = GaugeMetricFamily(
                "domino_queue_depth",
                "Messages waiting in a Celery queue (Redis LLEN at scrape time).",
                labels=["queue"],
            )
            for queue, count in health.queues.items():
                depth.add_metric([queue], count)
            yield depth
        if health.sweep_age is not None:
            yield _gauge(
                "domino_sweep_age_seconds",
                "Seconds since the sweeper last finished a pass.",
                health.sweep_age,
            )
        if health.processes is not None:
            alive = GaugeMetricFamily(
                "domino_heartbeats",
                "Processes whose heartbeat lives in Redis, by kind (web: the channel "
                "layer's liveness keys; worker, analysis, beat: their own).",
                labels=["kind"],
            )
            for kind in PROCESS_KINDS:
                alive.add_metric([kind], health.alive(kind))
            yield alive


def _gauge(name: str, documentation: str, value: float) -> GaugeMetricFamily:
    return GaugeMetricFamily(name, documentation, value=value)
