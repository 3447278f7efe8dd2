"""The command line: one configuration in this process, or each in a child."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import bench.loadbench
from bench.loadbench.bench import _interrupt, run_config
from bench.loadbench.common import ENTRY, PERIOD, ROOT, say
from bench.loadbench.report import summary
from bench.loadbench.servers import EMBEDDED_VARIANTS, VARIANTS
from bench.loadbench.stats import Run


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(bench.loadbench.__doc__ or "").split("\n\n")[0])
    parser.add_argument("--config", choices=("embedded", "production", "all"), default="all")
    parser.add_argument("--quick", action="store_true", help="25 tables, short runs")
    parser.add_argument("--tables", help="paced runs, comma-separated (default 25,100,250)")
    parser.add_argument("--seconds", type=float, help="measured seconds a run (default 20)")
    parser.add_argument("--warmup", type=float, help="seconds before measuring (default 5)")
    parser.add_argument("--sat-tables", type=int, help="tables in the saturation runs (100)")
    parser.add_argument("--sat-seconds", type=float, help="measured seconds (default --seconds)")
    parser.add_argument("--relay-seconds", type=float, help="relay runs (default 10)")
    parser.add_argument("--relay-warmup", type=float, help="default 3")
    parser.add_argument("--relay-bytes", type=int, help="relay frame size (default: snapshots')")
    parser.add_argument(
        "--slices",
        type=int,
        help="paced runs: relay and tables take turns this many times (default 3)",
    )
    parser.add_argument(
        "--variants",
        help="the ablation: comma-separated server set-ups (or 'all') run one after the"
        f" other, each in its own servers ({', '.join(VARIANTS)})",
    )
    parser.add_argument("--variant", default="today", help=argparse.SUPPRESS)
    parser.add_argument(
        "--before",
        metavar="DIR",
        help="first run the same with another checkout's servers and bench (e.g. a"
        " `git worktree` of the code before a change), labelled '/before'",
    )
    parser.add_argument("--embedded-tables", help="with --variants: the embedded paced runs")
    parser.add_argument("--no-relay", action="store_true", help="skip the relay runs")
    parser.add_argument(
        "--no-one-daphne", action="store_true", help="skip the saturation on one Daphne"
    )
    parser.add_argument(
        "--without",
        default="",
        help="production: Procfile process types not to start, comma-separated (e.g."
        " 'analysis', to measure play without the analysis worker)",
    )
    parser.add_argument(
        "--lobby", type=int, default=4, help="lobby sockets beside the tables (default 4)"
    )
    parser.add_argument(
        "--lobby-bare",
        type=int,
        default=2,
        help="lobby sockets that never send a view (their page comes whole; default 2)",
    )
    parser.add_argument(
        "--whatif-every",
        type=float,
        default=0.0,
        help="one person asks the replay's what-if every this many seconds (0: never)",
    )
    parser.add_argument(
        "--open-every",
        type=float,
        default=15.0,
        help="open a finished round's replay every this many seconds (0: never)",
    )
    parser.add_argument(
        "--hosts",
        help="also run the production configuration on many hosts on this box (bench/hosts:"
        " PostgreSQL, Redis, two Daphnes, the worker host and this client each in a network"
        " namespace of their own), once per comma-separated one-way delay in ms between"
        " hosts (e.g. 0,0.5); needs root",
    )
    parser.add_argument(
        "--hosts-only", action="store_true", help="with --hosts: not on the loopback"
    )
    parser.add_argument("--hosts-layout", help=argparse.SUPPRESS)  # (a child's hosts)
    parser.add_argument(
        "--layout",
        choices=("spread", "one"),
        default="spread",
        help="a table's four sockets spread over the Daphnes (two on each of two), or all"
        " on one Daphne (the tables alternating); default spread",
    )
    parser.add_argument(
        "--client",
        choices=("bench", "defaults"),
        default="bench",
        help="the sockets' settings: the bench's (no receive bound, no pings) or the"
        " websockets package's defaults (16-message queue, a ping every 20 s)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/14")
    parser.add_argument(
        "--database",
        default="domino_bench",
        help="PostgreSQL database of the production configuration (dropped and created afresh)",
    )
    parser.add_argument("--json", help="also write every run's figures to this file")
    parser.add_argument("--child-out", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    quick = args.quick
    defaults = {
        "seconds": 8.0 if quick else 20.0,
        "warmup": 2.0 if quick else 5.0,
        "sat_tables": 25 if quick else 100,
        "relay_seconds": 5.0 if quick else 10.0,
        "relay_warmup": 1.0 if quick else 3.0,
        "slices": 2 if quick else 3,
    }
    for key, value in defaults.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.sat_seconds is None:
        args.sat_seconds = args.seconds
    args.tables = [
        int(x) for x in (args.tables or ("25" if quick else "25,100,250")).split(",") if x
    ]
    return args


def child_argv(args: argparse.Namespace, config: str, out: str) -> list[str]:
    argv = [sys.executable, str(ENTRY), "--config", config]
    argv += ["--tables", ",".join(map(str, args.tables)), "--seconds", str(args.seconds)]
    argv += ["--warmup", str(args.warmup), "--sat-tables", str(args.sat_tables)]
    argv += ["--sat-seconds", str(args.sat_seconds), "--relay-seconds", str(args.relay_seconds)]
    argv += ["--relay-warmup", str(args.relay_warmup), "--seed", str(args.seed)]
    argv += ["--slices", str(args.slices), "--variant", args.variant]
    if (args.layout, args.client) != ("spread", "bench"):  # (older benches know neither)
        argv += ["--layout", args.layout, "--client", args.client]
    argv += ["--no-relay"] * args.no_relay + ["--no-one-daphne"] * args.no_one_daphne
    argv += ["--pg", args.pg, "--redis", args.redis, "--database", args.database]
    argv += ["--child-out", out]
    if args.without:
        argv += ["--without", args.without]
    argv += ["--lobby", str(args.lobby), "--lobby-bare", str(args.lobby_bare)]
    argv += ["--open-every", str(args.open_every), "--whatif-every", str(args.whatif_every)]
    if args.relay_bytes is not None:
        argv += ["--relay-bytes", str(args.relay_bytes)]
    if args.hosts_layout:
        argv += ["--hosts", str(args.hosts), "--hosts-layout", args.hosts_layout]
    return argv


def on_hosts(args: argparse.Namespace, delay_ms: float):
    """The hosts of a --hosts run (bench.hosts) with PostgreSQL and Redis up on
    theirs; the bench's own Fleet starts the Daphnes and the background
    processes on the web and worker hosts. Returns (net, the child's args)."""
    from bench.hosts.net import Net
    from bench.hosts.site import PG_PORT, REDIS_PORT, Site

    net = Net(delay_ms=delay_ms)
    try:
        site = Site(net)
        site.init_db()
        site.start_redis()
    except BaseException:
        net.close()
        raise
    layout = {
        "web": [(net.ns(h), net.address(h)) for h in ("web1", "web2")],
        "worker": net.ns("worker"),
        "db": net.ns("db"),
        "redis": net.ns("redis"),
        "client": net.ns("client"),
    }
    one = argparse.Namespace(
        **{
            **vars(args),
            "pg": f"postgres://postgres@{net.address('db')}:{PG_PORT}",
            "redis": f"redis://{net.address('redis')}:{REDIS_PORT}/14",
            "hosts": delay_ms,
            "hosts_layout": json.dumps(layout),
        }
    )
    return net, one


def as_run(figures: dict[str, Any], variant: str) -> Run:
    """A child's figures as a `Run` (another checkout's may name other figures)."""
    known = {f.name for f in dataclasses.fields(Run)}
    run = Run(**{k: v for k, v in figures.items() if k in known})
    if variant == "before":
        run.config = f"{run.config}/before"
    return run


def children(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The ``(configuration, variant)`` pairs to run, each in a child process;
    with ``--before``, another checkout's servers first."""
    configs = ("embedded", "production") if args.config == "all" else (args.config,)
    if args.hosts and not args.hosts_layout:
        delays = [f"hosts:{d}" for d in args.hosts.split(",") if d]
        loopback = [] if args.hosts_only else ["production"]
        return [(name, "today") for name in [*loopback, *delays]]
    before = [(name, "before") for name in configs] if args.before else []
    if not args.variants:
        return before + [(name, "today") for name in configs]
    names = list(VARIANTS) if args.variants == "all" else args.variants.split(",")
    unknown = [n for n in names if n not in VARIANTS and not n.startswith("off:")]
    if unknown:
        raise SystemExit(f"unknown variants {unknown}: {', '.join(VARIANTS)}")
    return before + [
        (config, name)
        for config in configs
        for name in names
        if config == "production" or name in EMBEDDED_VARIANTS
    ]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if not args.child_out:
        say(
            f"load: tables {args.tables}, {args.seconds:g} s measured after {args.warmup:g} s"
            f" (relay {args.relay_seconds:g}+{args.relay_warmup:g} s), saturation"
            f" {args.sat_tables} tables; one move a table every {PERIOD:g} s;"
            f" {os.cpu_count()} cores, shared with whatever else runs"
        )
    runs: list[Run] = []
    if args.config == "all" or args.variants or args.before or (args.hosts and not args.child_out):
        signal.signal(signal.SIGTERM, _interrupt)
        for name, variant in children(args):
            with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
                path = out.name
            one = argparse.Namespace(**{**vars(args), "variant": variant})
            if name == "embedded" and args.embedded_tables:
                one.tables = [int(x) for x in args.embedded_tables.split(",") if x]
            code = ROOT
            if variant == "before":  # the servers, and this bench, of another checkout
                code, one.variant = Path(args.before).resolve(), "today"
            net = None
            if name.startswith("hosts:"):  # this client runs on the client host
                net, one = on_hosts(one, float(name[6:]))
                name = "production"
            argv = child_argv(one, name, path)
            argv[1] = str(code / "bench" / "load.py")
            if net is not None:
                argv = net.exec_argv("client", argv)
            child = subprocess.Popen(argv, cwd=code)
            try:
                child.wait()
            except KeyboardInterrupt:
                # The child got the same Ctrl-C (or gets this SIGTERM): it stops
                # its servers; wait for it.
                signal.signal(signal.SIGINT, signal.SIG_IGN)
                child.send_signal(signal.SIGTERM)
                child.wait()
                with contextlib.suppress(OSError):
                    os.unlink(path)
                say("interrupted")
                return 130
            if net is not None:
                net.close()
            try:
                runs += [as_run(r, variant) for r in json.loads(Path(path).read_text() or "[]")]
            except (OSError, ValueError):
                say(f"== {name}: no figures (exit status {child.returncode})")
            finally:
                with contextlib.suppress(OSError):
                    os.unlink(path)
    else:
        try:
            runs = run_config(args.config, args)
        except KeyboardInterrupt:
            say("interrupted")
            return 130
        if args.child_out:
            Path(args.child_out).write_text(json.dumps([r.figures() for r in runs]))
            return 0
    if runs:
        say("")
        say(summary(runs))
    if args.json:
        Path(args.json).write_text(json.dumps([r.figures() for r in runs], indent=1))
    return 0
