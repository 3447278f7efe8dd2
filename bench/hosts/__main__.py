"""``python -m bench.hosts drill [--loss-seconds S] [NAME...]``: the fault drills
(`bench.hosts.drill.faults`, all by default), each one's summary and problems
as JSON lines;
``python -m bench.hosts up [DELAY_MS]``: the hosts and the site, kept up until
Ctrl-C (prints each host's namespace and address, and the site's URLs);
``python -m bench.hosts clean``: remove what killed runs left behind."""

from __future__ import annotations

import sys
import time

from bench.hosts.net import HOSTS, Net, clean_leftovers
from bench.hosts.site import Site


def main(argv: list[str]) -> int:
    if argv and argv[0] == "drill":
        return drill(argv[1:])
    if not argv or argv[0] not in ("up", "clean"):
        print(__doc__)
        return 2
    if argv[0] == "clean":
        print("removed:", clean_leftovers() or "nothing")
        return 0
    net = Net(delay_ms=float(argv[1]) if len(argv) > 1 else 0.0)
    try:
        site = Site(net).up()
        for host, address in HOSTS.items():
            print(f"{host:7} {address:12} ip netns exec {net.ns(host)} ...")
        print(f"database {site.database_url}\nredis    {site.redis_url}\nlogs     {net.dir}")
        print("up; Ctrl-C to take everything down", flush=True)
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        return 0
    finally:
        net.close()


def drill(argv: list[str]) -> int:
    import json

    from bench.hosts.drill import Drills, faults

    loss_seconds = 60.0
    if argv[:1] == ["--loss-seconds"]:
        loss_seconds, argv = float(argv[1]), argv[2:]
    chosen = faults(loss_seconds)
    names = argv or list(chosen)
    drills = Drills()
    failed = 0
    try:
        for name in names:
            clocks = 4 if name == "worker-redis" else 0
            tail = 50.0 if name == "worker-redis" else 12.0  # see tests/scale/test_hosts.py
            outcome = drills.run(chosen[name], clock_tables=clocks, tail=tail)
            print(json.dumps({**outcome.summary, "problems": outcome.problems}), flush=True)
            failed += bool(outcome.problems)
    finally:
        drills.close()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
