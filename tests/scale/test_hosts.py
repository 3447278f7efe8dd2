"""The fault drills of issue 44 on many hosts on one box (`bench.hosts`): the
Procfile's set on network namespaces (``db``, ``redis``, ``web1``, ``web2``,
``worker``, ``client``), 0.5 ms one way on every link, tables playing from
``client`` while a link is cut, a host killed, a link loses packets or
PostgreSQL restarts. After each, `bench.hosts.drill.check`: every move a socket
saw stored is in PostgreSQL once, none applied twice (replays match, no more
person moves than sent), every socket shows the stored version, no due time
left behind, no traceback, and the tables on the host the fault did not hit
never waited more than 3 s for a move.

One site serves every drill of this module (each drill opens tables of its
own); the drills take about four and a half minutes together. The 5 % loss between
``client`` and ``web2`` lasts 20 s here (``DOMINO_HOSTS_LOSS_SECONDS``, 60 for
the issue's full minute, as ``python -m bench.hosts drill`` does).

Needs root, ``ip`` and /dev/net/tun, PostgreSQL's server binaries and
redis-server (the ``hosts`` marker: skipped without them, failed with
``DOMINO_REQUIRE_SERVICES=1``). The machine's own PostgreSQL and Redis are not
used."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from bench.hosts import net as hostnet
from bench.hosts.drill import Drills, faults

pytestmark = [pytest.mark.hosts, pytest.mark.slow]

LOSS_SECONDS = float(os.environ.get("DOMINO_HOSTS_LOSS_SECONDS") or 20)


@pytest.fixture(scope="module")
def drills():
    site = Drills(delay_ms=0.5)
    yield site
    site.close()
    assert not [ns for ns in hostnet._namespaces() if ns.startswith(site.net.id)]


@pytest.mark.parametrize(
    "name",
    ["web1-redis", "web1-db", "worker-redis", "loss-client-web2", "web1-killed", "db-restart"],
)
def test_a_fault_while_tables_play_loses_no_move_and_doubles_none(drills, name):
    clocks = 3 if name == "worker-redis" else 0
    # After a 30 s cut the worker's and beat's connections to Redis come back
    # at TCP's next retransmission: 10-25 s after the heal (docs/scaling.md):
    # the players stay long enough to see the clocks fire.
    tail = 50.0 if name == "worker-redis" else 12.0
    outcome = drills.run(faults(LOSS_SECONDS)[name], clock_tables=clocks, tail=tail)
    print("\n" + json.dumps(outcome.summary))
    assert outcome.problems == [], outcome.problems
    assert outcome.summary["moves_checked"] > 20  # the tables did play
    if name == "worker-redis":  # every clock that fell due during the cut fired after it
        assert len(outcome.summary["clock_fired_after_heal_s"]) == clocks
    if name == "web1-killed":  # web1's players went on on web2
        for table in outcome.tables:
            assert table["final_hosts"] == ["web2"] * 3, table["final_hosts"]
    if name in ("web1-redis", "web1-db", "web1-killed"):
        assert outcome.summary["stall_s"]["web2"]["max"] <= 3.0


def test_a_cut_link_passes_nothing_until_healed_and_a_killed_run_is_cleaned_up():
    """The harness itself: a cut stops a TCP connection between two hosts and
    a heal lets it through again; a run killed with SIGKILL leaves namespaces
    behind, and the next run's `clean_leftovers` removes them and its folder."""
    owner = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom bench.hosts.net import Net\n"
         "net = Net(delay_ms=0.5)\nprint(net.id, flush=True)\ntime.sleep(120)"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    run_id = owner.stdout.readline().strip()
    assert run_id.startswith(hostnet.PREFIX), run_id
    made = [ns for ns in hostnet._namespaces() if ns.startswith(run_id)]
    assert len(made) == len(hostnet.HOSTS), made
    owner.send_signal(signal.SIGKILL)
    owner.wait(10)
    assert [ns for ns in hostnet._namespaces() if ns.startswith(run_id)] == made
    assert run_id in hostnet.clean_leftovers()
    assert [ns for ns in hostnet._namespaces() if ns.startswith(run_id)] == []
    assert not (hostnet.STATE / run_id).exists()

    net = hostnet.Net(delay_ms=0.5)
    try:
        listen = "import socket, time\ns = socket.create_server(('0.0.0.0', 7000))\ntime.sleep(60)"
        server = subprocess.Popen(net.exec_argv("web1", [sys.executable, "-c", listen]))
        hostnet.wait_port(net, "web1", 7000, timeout=20)
        probe = (
            f"import socket\nsocket.create_connection(('{net.address('web1')}', 7000), 2).close()"
        )

        def connects() -> bool:
            argv = net.exec_argv("client", [sys.executable, "-c", probe])
            return subprocess.run(argv, capture_output=True).returncode == 0

        net.cut("client", "web1")
        started = time.monotonic()
        assert not connects()
        assert time.monotonic() - started >= 1.5  # silently dropped, not refused
        net.heal("client", "web1")
        assert connects()
        server.kill()
    finally:
        net.close()
    assert [ns for ns in hostnet._namespaces() if ns.startswith(net.id)] == []
