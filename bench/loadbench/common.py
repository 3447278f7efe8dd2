"""Constants and stdlib-only helpers (``bench/_relay_asgi.py`` imports `rss_kb`
from here inside the servers: no Django set-up here)."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
ENTRY = ROOT / "bench" / "load.py"  # the script the bench runs again for each configuration
BIN = Path(sys.executable).parent  # the venv's bin (daphne, celery next to python)
ASGI_MODULE = "bench._relay_asgi:application"
PG_DATABASE = "domino_bench"
PERIOD = 2.0  # seconds between two moves of a table (paced runs)
DRAIN = 15.0  # after a window, how long outstanding moves may still finish
MOVE_TIMEOUT = 30.0  # a move not seen by all four sockets by then was lost
CONNECT_BATCH = 8  # tables opened at a time (four sockets each)
CLIENT_PACE = 15  # at most this many frames a second per socket (the server allows 20)


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
