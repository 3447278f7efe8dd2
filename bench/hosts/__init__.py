"""Many hosts on one box (issue 44): the production set of the Procfile on
network namespaces of this machine, with links that delay, lose and cut.

* `bench.hosts.net` -- the hosts (``db``, ``redis``, ``web1``, ``web2``,
  ``worker``, ``client``), each a network namespace on one /24, joined by
  `bench.hosts.switch` (a user-space switch: this kernel has no ``netem`` and
  no nftables/iptables), and the clean-up of everything a run made, even one
  killed earlier;
* `bench.hosts.site` -- PostgreSQL (a cluster of its own, from a temporary
  data directory), Redis, the Daphnes and the Procfile's background processes
  on those hosts;
* `bench.hosts.store`, `bench.hosts.players` -- the tables (in the database)
  and the players (on ``client``) that the drills use;
* `bench.hosts.drill` -- the fault drills and their checks (run in CI by
  tests/scale/test_hosts.py; ``python -m bench.hosts drill`` runs them in full).

``python -m bench.hosts up 0.5`` brings everything up with 0.5 ms one way on
every link and keeps it up until Ctrl-C. Needs root, ``ip``, /dev/net/tun,
PostgreSQL's server binaries and redis-server. bench/load.py runs on it with
``--hosts DELAY_MS``. Everything stays on this machine: the only addresses
are the namespaces' own (10.44.0.0/24).
"""
