"""What the soak (bench/soak.py) reads every minute, read from real processes
and a real database (bench/loadbench/sampling.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc

import pytest

from bench.loadbench import sampling
from tests.waiting import wait_for

# A child that, on each line it reads, does the next step: 1) allocate 60 MB and
# open 20 files and 3 sockets, 2) start a grandchild; it answers each with "ok".
CHILD = """
import os, socket, subprocess, sys
held = []
for line in sys.stdin:
    if line.strip() == "grow":
        held.append(bytearray(os.urandom(1)) * (60 * 1024 * 1024))
        held += [open(os.devnull) for _ in range(20)]
        held += [socket.socket() for _ in range(3)]
    elif line.strip() == "spawn":
        held.append(subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                                     stdin=subprocess.PIPE))
    print("ok", flush=True)
"""


@pytest.fixture
def child():
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )

    def ask(word: str) -> None:
        proc.stdin.write(word + "\n")
        proc.stdin.flush()
        assert proc.stdout.readline().strip() == "ok"

    proc.ask = ask
    yield proc
    proc.kill()
    proc.wait(5)


def test_the_sampler_reads_a_child_process_memory_fds_sockets_and_its_tree(child):
    child.ask("ready")
    before = sampling.fd_figures(child.pid)
    child.ask("grow")
    after = sampling.fd_figures(child.pid)
    assert after["pid"] == child.pid
    assert after["fds"] - before["fds"] == 23
    assert after["sockets"] - before["sockets"] == 3
    assert after["rss_kb"] - before["rss_kb"] >= 55 * 1024

    assert sampling.process_tree("child", child.pid) == {"child": child.pid}
    child.ask("spawn")
    tree = wait_for(
        lambda: (
            len(sampling.process_tree("child", child.pid)) == 2
            and sampling.process_tree("child", child.pid)
        ),
        timeout=10,
        message="the grandchild in the child's tree",
    )
    assert tree["child"] == child.pid
    assert set(tree) == {"child", "child.1"}
    figures = sampling.processes_sample({"child": child.pid})
    assert set(figures) == {"child", "child.1"}
    assert figures["child.1"]["rss_kb"] > 0


def test_a_process_that_is_gone_reads_as_none(child):
    pid = child.pid
    child.kill()
    child.wait(5)
    assert sampling.fd_figures(pid)["rss_kb"] is None
    assert sampling.process_tree("gone", pid) == {"gone": pid}
    assert sampling.children(pid) == []


def test_a_tracemalloc_snapshot_comparison_names_the_line_that_grew(tmp_path):
    tracemalloc.start(5)
    try:
        first = tmp_path / "a.snap"
        tracemalloc.take_snapshot().dump(str(first))
        kept = [bytes(1000) + bytes([i % 256]) for i in range(2000)]  # ~2 MB, this line
        last = tmp_path / "b.snap"
        tracemalloc.take_snapshot().dump(str(last))
    finally:
        tracemalloc.stop()
    lines = sampling.compare_snapshots(str(first), str(last), top=3)
    assert "test_soak_sampling.py" in "\n".join(lines[:9])
    assert float(lines[0].split()[0]) > 1500  # KiB
    assert kept


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_sampler_reads_a_real_database_rows_and_connections():
    from django.contrib.auth import get_user_model
    from django.db import connection

    settings = connection.settings_dict
    url = (
        f"postgresql://{settings['USER']}@{settings['HOST'] or '127.0.0.1'}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
    )
    db = sampling.Database(url)
    try:
        before = db.row_counts()
        get_user_model().objects.create(username="soak-a")
        get_user_model().objects.create(username="soak-b")
        after = db.row_counts()
        assert after["auth_user"] - before["auth_user"] == 2
        assert set(after) == set(db.tables())
        assert "games_move" in after
        # Django's connection of this test is one of the database's; ours is left out.
        counts = db.connections()
        assert counts["total"] >= 1
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (django_pid,) = cursor.fetchone()
        others = db.conn.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid()"
        ).fetchall()
        assert django_pid in {pid for (pid,) in others}
        # This process' sockets to PostgreSQL: Django's and the sampler's.
        assert sampling.fd_figures(os.getpid())["pg"] >= 2
        states = db.grouped("auth_user", "username")
        assert states["soak-a"] == 1
        assert db.grouped("no_such_table", "x") == {}
    finally:
        db.close()


@pytest.mark.redis
def test_the_sampler_reads_a_real_redis_db_keys_groups_and_queues():
    import redis

    url = os.environ["REDIS_URL"]
    client = redis.Redis.from_url(url)
    keys = ["soak-test:asgi:group:room.X", "soak-test-queue"]
    client.delete(*keys)
    try:
        before = sampling.redis_figures(url, queues=("soak-test-queue",))
        client.zadd(keys[0], {"specific.a!b": 1})
        client.rpush(keys[1], "m1", "m2", "m3")
        after = sampling.redis_figures(url, queues=("soak-test-queue",))
        assert before["queue_soak-test-queue"] == 0
        assert after["queue_soak-test-queue"] == 3
        # (the db may be shared with a running site: only what this test added is exact)
        assert after["groups"] >= 1 and after["keys"] >= 2
        assert after["used_memory_kb"] > 0 and after["unacked"] >= 0
    finally:
        client.delete(*keys)
