"""What a run measured: the client's counters, one run's figures, slices merged."""

from __future__ import annotations

import collections
import dataclasses
import statistics
from dataclasses import dataclass, field

from bench.loadbench.common import percentile, say
from bench.loadbench.servers import Daphne


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
    cpu_ms_per_move: float | None = None
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
    # Lobby sockets beside the tables (first page of everything): bytes a second each.
    lobby_sockets: int | None = None
    lobby_bytes_per_s: float | None = None
    lobby_bare_bytes_per_s: float | None = None  # sockets that never sent a view
    # The analysis queue over the run (bench/loadbench/observers.py).
    analysis_depth_max: int | None = None
    analysis_depth_end: int | None = None
    analysis_done: int | None = None
    analysis_lag_p50: float | None = None
    analysis_lag_max: float | None = None
    replay_to_analysis_p50: float | None = None
    replay_to_analysis_max: float | None = None
    replays_opened: int | None = None
    replays_unanswered: int | None = None
    whatif_asked: int | None = None  # the replay's what-if asked by one person (--whatif-every)
    whatif_statuses: dict | None = None
    whatif_p50_ms: float | None = None
    whatif_p95_ms: float | None = None
    analysis_drained_s: float | None = None  # after the run, until the queue was empty
    # CPU (% of one core) of each background process of the Procfile.
    background_cpu: dict = field(default_factory=dict)
    # --hosts: per second, Redis' commands and PostgreSQL's commits and rows
    # written (inserted + updated + deleted), read from the servers themselves.
    storage_rates: dict = field(default_factory=dict)
    # The server's own figure for the same moves: its histogram domino_move_seconds
    # (from a move's frame to the frame of its change sent back on that socket),
    # read from /metrics at the window's ends (every process of the host, added
    # up): its buckets' growth over the window, and the quantiles they give.
    server_buckets: dict = field(default_factory=dict)
    server_moves: int | None = None
    server_p50: float | None = None
    server_p99: float | None = None
    # The raw latencies (seconds), to merge the slices of one run (not written out).
    samples: list = field(default_factory=list, repr=False)
    between_samples: list = field(default_factory=list, repr=False)

    def figures(self) -> dict:
        """What the JSON output holds: every figure, not the raw samples."""
        return {k: v for k, v in self.__dict__.items() if k not in _RAW}


_RAW = ("samples", "between_samples")
ANALYSIS_FIGURES = (
    "analysis_depth_max",
    "analysis_depth_end",
    "analysis_done",
    "analysis_lag_p50",
    "analysis_lag_max",
    "replay_to_analysis_p50",
    "replay_to_analysis_max",
    "replays_opened",
    "replays_unanswered",
    "whatif_asked",
    "whatif_statuses",
    "whatif_p50_ms",
    "whatif_p95_ms",
)


def move_histogram(servers: list[Daphne]) -> dict[str, float] | None:
    """The cumulative buckets of ``domino_move_seconds`` (``le`` -> count) from
    the first server's ``/metrics`` (it adds up every process of the host)."""
    import urllib.request

    from prometheus_client.parser import text_string_to_metric_families

    try:
        with urllib.request.urlopen(servers[0].url("/metrics"), timeout=10) as answer:
            text = answer.read().decode()
    except Exception as exc:  # noqa: BLE001 - figures missing, the run goes on
        say(f"    ! /metrics failed: {type(exc).__name__}: {exc}")
        return None
    buckets: dict[str, float] = {}
    for family in text_string_to_metric_families(text):
        if family.name != "domino_move_seconds":
            continue
        for sample in family.samples:
            if sample.name == "domino_move_seconds_bucket":
                buckets[sample.labels["le"]] = buckets.get(sample.labels["le"], 0.0) + sample.value
    return buckets


def histogram_quantile(q: float, buckets: dict[str, float]) -> float | None:
    """Prometheus' ``histogram_quantile`` of cumulative ``buckets`` (``le`` ->
    count), in seconds: linear within the bucket the rank falls in.

    >>> histogram_quantile(0.5, {"0.01": 10, "0.02": 30, "+Inf": 30})
    0.0125
    """
    bounds = sorted((float(le), n) for le, n in buckets.items())
    total = bounds[-1][1] if bounds else 0
    if not total:
        return None
    rank = q * total
    lower, below = 0.0, 0.0
    for upper, count in bounds:
        if count >= rank:
            if upper == float("inf"):
                return lower
            inside = count - below
            return lower + (upper - lower) * ((rank - below) / inside if inside else 1.0)
        lower, below = upper, count
    return lower


def histogram_figures(run: Run) -> None:
    """``server_p50``/``server_p99`` (ms) and ``server_moves`` from ``server_buckets``."""
    if not run.server_buckets:
        return
    run.server_moves = int(max(run.server_buckets.values()))
    run.server_p50 = _ms(histogram_quantile(0.50, run.server_buckets))
    run.server_p99 = _ms(histogram_quantile(0.99, run.server_buckets))


def server_stats(servers: list[Daphne]) -> list[dict] | None:
    try:
        return [s.stats() for s in servers]
    except Exception as exc:  # noqa: BLE001 - figures missing, the run goes on
        say(f"    ! /bench/stats failed: {type(exc).__name__}: {exc}")
        return None


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
    buckets: collections.Counter = collections.Counter()
    for p in parts:
        buckets.update(p.server_buckets)
    run.server_buckets = dict(buckets)
    histogram_figures(run)
    for name in ("server_cpu", "client_cpu", "machine_cpu", "stalled_ms_per_s"):
        setattr(run, name, weighted(name, lambda p: p.seconds))
    stalls = [p.stalls_50ms for p in parts if p.stalls_50ms is not None]
    run.stalls_50ms = sum(stalls) if stalls else None
    for name in ("queries_per_move", "trips_per_move", "cpu_ms_per_move"):
        setattr(run, name, weighted(name, lambda p: p.sustained * p.seconds))
    sizes = [p.frame_bytes for p in parts if p.frame_bytes]
    run.frame_bytes = statistics.median(sizes) if sizes else None
    run.lobby_bytes_per_s = weighted("lobby_bytes_per_s", lambda p: p.seconds)
    run.lobby_bare_bytes_per_s = weighted("lobby_bare_bytes_per_s", lambda p: p.seconds)
    for name in ANALYSIS_FIGURES:  # one probe over each slice: the last slice's
        setattr(run, name, getattr(parts[-1], name))
    cpu = collections.defaultdict(float)
    for p in parts:
        for proc, value in p.background_cpu.items():
            cpu[proc] += value * p.seconds / run.seconds
    run.background_cpu = dict(cpu)
    rates = collections.defaultdict(float)
    for p in parts:
        for name, value in p.storage_rates.items():
            rates[name] += value * p.seconds / run.seconds
    run.storage_rates = dict(rates)
    inboxes = [p.inbox_max for p in parts if p.inbox_max is not None]
    run.inbox_max = max(inboxes) if inboxes else None
    return run
