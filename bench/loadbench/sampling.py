"""What the soak (``bench/soak.py``) reads every minute, from outside the servers.

* a process (and each process of its tree: a Celery worker's pool): resident
  memory (``VmRSS``), open file descriptors (``/proc/<pid>/fd``), how many of
  them are sockets, and of those how many are TCP connections to PostgreSQL and
  to Redis (the socket's inode looked up in ``/proc/net/tcp`` and ``tcp6``);
* a PostgreSQL database: its connections (``pg_stat_activity``, by state, the
  sampler's own left out) and the rows of every table of its ``public`` schema
  (exact ``count(*)``, one query);
* a Redis database: its keys, and how many of them are channel-layer groups.

Nothing here imports Django: the sampler reads the servers as an operator would.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from bench.loadbench.common import rss_kb

PG_PORT = 5432
REDIS_PORT = 6379


def children(pid: int) -> list[int]:
    """The direct children of ``pid`` (every thread's), sorted; [] if it is gone."""
    found: set[int] = set()
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as f:
                found.update(int(c) for c in f.read().split())
        except OSError:
            continue
    return sorted(found)


def process_tree(name: str, pid: int) -> dict[str, int]:
    """``{label: pid}`` for ``pid`` (``name``) and its descendants
    (``name.1``, ``name.2``, ... in pid order, depth first)."""
    tree = {name: pid}
    for i, child in enumerate(children(pid), 1):
        tree.update(process_tree(f"{name}.{i}", child))
    return tree


def tcp_peers() -> dict[int, int]:
    """``{socket inode: remote port}`` of every TCP socket of this network namespace."""
    peers: dict[int, int] = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as f:
                next(f)
                for line in f:
                    fields = line.split()
                    remote_port = int(fields[2].rsplit(":", 1)[1], 16)
                    peers[int(fields[9])] = remote_port
        except (OSError, StopIteration):
            continue
    return peers


def fd_figures(pid: int, peers: dict[int, int] | None = None) -> dict[str, Any]:
    """One process: ``rss_kb``, ``fds``, ``sockets``, ``pg`` and ``redis``
    (TCP connections to those ports); ``None`` values if it is gone."""
    peers = tcp_peers() if peers is None else peers
    fds = sockets = pg = redis = 0
    try:
        names = os.listdir(f"/proc/{pid}/fd")
    except OSError:
        return {"pid": pid, "rss_kb": None, "fds": None, "sockets": None, "pg": None, "redis": None}
    for fd in names:
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue  # closed meanwhile
        fds += 1
        if target.startswith("socket:["):
            sockets += 1
            port = peers.get(int(target[8:-1]))
            pg += port == PG_PORT
            redis += port == REDIS_PORT
    return {
        "pid": pid,
        "rss_kb": rss_kb(pid),
        "fds": fds,
        "sockets": sockets,
        "pg": pg,
        "redis": redis,
    }


def processes_sample(roots: dict[str, int]) -> dict[str, dict[str, Any]]:
    """`fd_figures` of every process of every tree of ``roots`` (``{name: pid}``)."""
    peers = tcp_peers()
    out: dict[str, dict[str, Any]] = {}
    for name, pid in roots.items():
        for label, member in process_tree(name, pid).items():
            out[label] = fd_figures(member, peers)
    return out


class Database:
    """One connection of our own to the database under test (left out of its
    connection count)."""

    def __init__(self, url: str) -> None:
        import psycopg

        self.conn = psycopg.connect(url, autocommit=True)

    def close(self) -> None:
        self.conn.close()

    def connections(self) -> dict[str, int]:
        """The database's connections other than ours: ``total`` and by state."""
        rows = self.conn.execute(
            "SELECT coalesce(state, 'unknown'), count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            " GROUP BY 1"
        ).fetchall()
        by_state = {state: n for state, n in rows}
        return {"total": sum(by_state.values()), **by_state}

    def tables(self) -> list[str]:
        rows = self.conn.execute(
            "SELECT table_name FROM information_schema.tables"
            " WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1"
        ).fetchall()
        return [name for (name,) in rows]

    def row_counts(self) -> dict[str, int]:
        """``{table: rows}`` of every table, exact, in one statement."""
        from psycopg import sql

        names = self.tables()
        if not names:
            return {}
        query = sql.SQL(" UNION ALL ").join(
            sql.SQL("SELECT {}, count(*) FROM {}").format(sql.Literal(n), sql.Identifier(n))
            for n in names
        )
        return {name: n for name, n in self.conn.execute(query).fetchall()}

    def grouped(self, table: str, column: str) -> dict[str, int]:
        """``{value: rows}`` of one column (e.g. the analysis jobs by state); {} if
        there is no such table."""
        from psycopg import sql

        if table not in self.tables():
            return {}
        query = sql.SQL("SELECT {c}::text, count(*) FROM {t} GROUP BY 1").format(
            c=sql.Identifier(column), t=sql.Identifier(table)
        )
        return {value: n for value, n in self.conn.execute(query).fetchall()}


#: Celery's queues (kombu keeps each in a Redis list of its name) and the
#: messages delivered to a worker and not yet acknowledged (a hash).
BROKER_LISTS = ("celery", "analysis")


def redis_figures(url: str, queues: tuple[str, ...] = BROKER_LISTS) -> dict[str, int]:
    """Keys of the Redis database, channel-layer groups (``*group:*``) among them,
    the messages waiting in each of Celery's queues (``queue_<name>``) and
    delivered but unacknowledged (``unacked``), and the server's memory (shared
    with other databases on the same server)."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=10)
    try:
        groups = sum(1 for _ in client.scan_iter(match="*:group:*", count=1000))
        figures = {
            "keys": int(client.dbsize()),
            "groups": groups,
            "used_memory_kb": int(client.info("memory")["used_memory"]) // 1024,
            "unacked": int(client.hlen("unacked")),
        }
        for name in queues:
            figures[f"queue_{name}"] = int(client.llen(name))
        return figures
    finally:
        client.close()


def trace_sitecustomize(folder: Path) -> Path:
    """A ``sitecustomize.py`` in ``folder`` (put it first on PYTHONPATH) that, in a
    process started with ``SOAK_TRACE_DIR`` set, starts tracemalloc on the first
    SIGUSR2 (so that start-up runs at full speed and only what is allocated after
    it is traced) and on each later one dumps a snapshot to
    ``$SOAK_TRACE_DIR/<pid>-<n>.snap``."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "sitecustomize.py"
    path.write_text(
        "import os\n"
        "if os.environ.get('SOAK_TRACE_DIR'):\n"
        "    import itertools, signal, tracemalloc\n"
        "    _n = itertools.count(1)\n"
        "    def _dump(signum, frame):\n"
        "        if not tracemalloc.is_tracing():\n"
        "            tracemalloc.start(int(os.environ.get('SOAK_TRACE_FRAMES', '12')))\n"
        "            return\n"
        "        out = os.path.join(os.environ['SOAK_TRACE_DIR'],"
        " f'{os.getpid()}-{next(_n):03d}.snap')\n"
        "        tracemalloc.take_snapshot().dump(out + '.part')\n"
        "        os.replace(out + '.part', out)\n"
        "    signal.signal(signal.SIGUSR2, _dump)\n"
    )
    return path


def compare_snapshots(first: str, last: str, top: int = 25) -> list[str]:
    """The ``top`` allocation sites that grew most from ``first`` to ``last``
    (tracemalloc snapshots of one process), grouped by traceback."""
    import tracemalloc

    old = tracemalloc.Snapshot.load(first)
    new = tracemalloc.Snapshot.load(last)
    skip = [tracemalloc.Filter(False, tracemalloc.__file__), tracemalloc.Filter(False, "<frozen*")]
    old, new = old.filter_traces(skip), new.filter_traces(skip)
    lines = []
    for stat in new.compare_to(old, "traceback")[:top]:
        lines.append(f"{stat.size_diff / 1024:+9.1f} KiB {stat.count_diff:+7d} blocks")
        lines.extend(f"      {line}" for line in stat.traceback.format()[-8:])
    return lines
