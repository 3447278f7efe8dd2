"""The server processes (Daphne, the Celery worker), the configurations and
their storage."""

from __future__ import annotations

import argparse
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.loadbench.common import ASGI_MODULE, BIN, PG_DATABASE, ROOT, free_port


class Proc:
    """A subprocess of ours, its output in a log file."""

    def __init__(
        self, name: str, cmd: list[str], env: dict[str, str], logdir: Path, netns: str = ""
    ) -> None:
        self.name = name
        # In a network namespace (--hosts): ``ip netns exec`` replaces itself
        # with the program, so the pid (CPU, memory) is still the program's.
        self.cmd = ["ip", "netns", "exec", netns, *cmd] if netns else cmd
        self.env = env
        self.log_path = logdir / f"{name}.log"
        self.proc: subprocess.Popen | None = None

    def start(self) -> Proc:
        log = open(self.log_path, "ab")  # noqa: SIM115 - closed with the process
        self.proc = subprocess.Popen(
            self.cmd, cwd=ROOT, env=self.env, stdout=log, stderr=subprocess.STDOUT
        )
        log.close()
        return self

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def tail(self, chars: int = 3000) -> str:
        try:
            return self.log_path.read_text(errors="replace")[-chars:]
        except OSError:
            return ""

    def problems(self) -> list[str]:
        """Lines of the log that look like server-side failures."""
        try:
            lines = self.log_path.read_text(errors="replace").splitlines()
        except OSError:
            return []
        keys = ("Traceback", "ERROR", "Error:", "Exception")
        return [line for line in lines if any(k in line for k in keys)]


class Daphne(Proc):
    """A Daphne process on a free port, serving ``asgi`` (by default the bench's
    relay application, which wraps the site's)."""

    def __init__(
        self,
        env: dict[str, str],
        logdir: Path,
        asgi: str = ASGI_MODULE,
        host: tuple[str, str, int] | None = None,
    ) -> None:
        """``host``: (namespace, its address, port) of a host of --hosts;
        else a free port on the loopback."""
        netns, self.address, self.port = host or ("", "127.0.0.1", free_port())
        cmd = [str(BIN / "daphne"), "-v", "0", "-b", self.address, "-p", str(self.port), asgi]
        super().__init__(f"daphne-{self.address}-{self.port}", cmd, env, logdir, netns)

    def url(self, path: str) -> str:
        return f"http://{self.address}:{self.port}{path}"

    def wait_healthy(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.alive():
                raise RuntimeError(f"{self.name} exited:\n{self.tail()}")
            try:
                with urllib.request.urlopen(self.url("/healthz"), timeout=2) as response:
                    if response.status == 200:
                        return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"{self.name} did not answer /healthz:\n{self.tail()}")

    def stats(self) -> dict[str, Any]:
        with urllib.request.urlopen(self.url("/bench/stats"), timeout=20) as response:
            return json.loads(response.read())


# ------------------------------------------------------------------ configurations


@dataclass
class Config:
    name: str
    database_url: str
    redis_url: str | None
    daphnes: int
    variant: str = "today"
    without: tuple[str, ...] = ()  # Procfile process types not started (--without)
    # PostgreSQL database (dropped and created afresh) and the Daphnes' ASGI module
    # (bench/soak.py: its own database, the site's application itself)
    database: str = PG_DATABASE
    asgi: str = ASGI_MODULE
    # --hosts: {"web": [(namespace, address), ...], "worker": namespace,
    # "db": namespace, "redis": namespace} (bench.hosts); None on the loopback
    hosts: dict | None = None
    secret_key: str = field(default_factory=lambda: secrets.token_urlsafe(40))
    tmp: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="domino-load-")))

    @property
    def label(self) -> str:
        """The configuration's name, with the ablation's variant when not today's."""
        label = self.name if self.variant == "today" else f"{self.name}/{self.variant}"
        return label + "".join(f"-{name}" for name in self.without)

    def server_env(self) -> dict[str, str]:
        drop = {"DATABASE_URL", "REDIS_URL", "DOMINO_SCHEDULER", "DJANGO_SETTINGS_MODULE"}
        env = {k: v for k, v in os.environ.items() if k not in drop}
        env.update(
            DJANGO_SETTINGS_MODULE="domino_site.settings",
            DATABASE_URL=self.database_url,
            DEBUG="0",
            SECRET_KEY=self.secret_key,
            ALLOWED_HOSTS=",".join(
                ["127.0.0.1", "localhost"] + [a for _, a in (self.hosts or {}).get("web", [])]
            ),
            BOT_DELAY_SECONDS="0",
            DOMINO_HTTPS="0",  # plain HTTP on 127.0.0.1: no redirect to https
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
        )
        for key in ("DOMINO_OFF", "DOMINO_LAYER"):
            env.pop(key, None)
        if self.redis_url:
            # Every server process of the run writes its metrics here, and a Daphne's
            # /metrics adds them up (the run's own folder: nothing of an earlier run).
            env["PROMETHEUS_MULTIPROC_DIR"] = str(self.tmp / "metrics")
        env.update(variant_env(self.variant))
        if self.redis_url:
            env["REDIS_URL"] = self.redis_url
            env["DOMINO_SCHEDULER"] = "celery"
        else:
            env["DOMINO_SCHEDULER"] = "inprocess"
        return env


#: Server set-ups (``--variants``), each an environment for the servers. The
#: ablation of 2026-12-01 (bench/RESULTS.md) ran this bench at the commits it
#: names, whose code had switches for every part of the live path; the parts
#: that did not pay were then deleted with their switches. An ``off:a+b``
#: variant sets ``DOMINO_OFF=a,b`` for code that has such switches again.
VARIANTS: dict[str, dict[str, str]] = {"today": {}}
#: The variants that change something on the embedded server.
EMBEDDED_VARIANTS = ("today",)


def embedded_config(args: argparse.Namespace) -> Config:
    cfg = Config(name="embedded", database_url="", redis_url=None, daphnes=1)
    cfg.database_url = f"sqlite:///{cfg.tmp / 'bench.sqlite3'}"
    return cfg


def production_config(args: argparse.Namespace) -> Config:
    base = args.pg.rstrip("/")
    hosts = json.loads(args.hosts_layout) if getattr(args, "hosts_layout", None) else None
    database = getattr(args, "database", None) or PG_DATABASE
    return Config(
        name=f"production@hosts-{float(args.hosts):g}ms" if hosts else "production",
        hosts=hosts,
        database_url=f"{base}/{database}",
        redis_url=args.redis,
        daphnes=2,
        without=tuple(name for name in args.without.split(",") if name),
        database=database,
    )


def prepare_storage(cfg: Config) -> None:
    """A fresh database (and Redis db), migrated by ``manage.py migrate``."""
    if cfg.redis_url:
        import psycopg
        import redis

        admin = cfg.database_url.rsplit("/", 1)[0] + "/postgres"
        with psycopg.connect(admin, autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {cfg.database} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {cfg.database}")
        redis.Redis.from_url(cfg.redis_url).flushdb()
    env = cfg.server_env()
    done = subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise RuntimeError(f"migrate failed:\n{done.stdout}\n{done.stderr}")


def django_setup(cfg: Config) -> None:
    """This process talks to the same database through the project's services (to
    create users, sessions and rooms), never to the channel layer."""
    for key in ("REDIS_URL", "DOMINO_SCHEDULER"):
        os.environ.pop(key, None)
    os.environ.update(
        DJANGO_SETTINGS_MODULE="domino_site.settings",
        DATABASE_URL=cfg.database_url,
        DEBUG="0",
        SECRET_KEY=cfg.secret_key,  # the servers must read our sessions
        BOT_DELAY_SECONDS="0",
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def variant_env(name: str) -> dict[str, str]:
    """A variant's server environment: one of `VARIANTS`, or ``off:a+b`` for
    the parts ``a`` and ``b`` switched off together."""
    if name.startswith("off:"):
        return {"DOMINO_OFF": name[4:].replace("+", ",")}
    return VARIANTS[name]
