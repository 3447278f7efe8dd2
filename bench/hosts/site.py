"""The production set of the Procfile on the hosts of `bench.hosts.net.Net`:

* ``db``: a PostgreSQL cluster of its own (``initdb`` into the run's folder,
  run as the ``postgres`` user, listening on the host's address only);
* ``redis``: a ``redis-server`` of its own (no persistence, as the drills'
  own Redis in tests/scale);
* ``web1``, ``web2``: the Procfile's ``web`` (Daphne on port 8000);
* ``worker``: the Procfile's other processes but ``release`` (the Celery
  worker, the analysis worker, beat), as `bench.loadbench.procfile` reads them;
* ``client``: nothing of the site (the players, the bench).

``release`` (migrate) runs once from ``worker``. The machine's own PostgreSQL
and Redis are never touched: every address is a namespace's.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from bench.hosts.net import HOSTS, Net, wait_port
from bench.loadbench.procfile import background_commands, procfile_entries

ROOT = Path(__file__).resolve().parents[2]
PG_PORT = 5432
REDIS_PORT = 6379
WEB_PORT = 8000
DATABASE = "domino"
WEBS = ("web1", "web2")


def pg_bin() -> Path | None:
    """The newest PostgreSQL server binaries of the machine (Debian's layout)."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    return Path(found[-1]).parent if found else None


def why_no_services() -> str | None:
    if pg_bin() is None:
        return "needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin)"
    if shutil.which("redis-server") is None:
        return "needs redis-server on the PATH"
    import pwd

    try:
        pwd.getpwnam("postgres")
    except KeyError:
        return "needs the postgres user (to run PostgreSQL)"
    return None


class Site:
    """The processes of the site on ``net``'s hosts. ``env``: extra settings
    for every process of the site (e.g. ``DOMINO_SWEEP_SECONDS``)."""

    def __init__(self, net: Net, env: dict[str, str] | None = None) -> None:
        self.net = net
        self.dir = net.dir
        self.pgdata = self.dir / "pgdata"
        self.procs: dict[str, list[subprocess.Popen]] = {h: [] for h in HOSTS}
        self.database_url = f"postgres://postgres@{HOSTS['db']}:{PG_PORT}/{DATABASE}"
        self.redis_url = f"redis://{HOSTS['redis']}:{REDIS_PORT}/0"
        base = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DATABASE_URL"}}
        base.update(
            DJANGO_SETTINGS_MODULE="domino_site.settings",
            DATABASE_URL=self.database_url,
            REDIS_URL=self.redis_url,
            DOMINO_SCHEDULER="celery",
            SECRET_KEY=secrets.token_urlsafe(40),
            DEBUG="0",
            ALLOWED_HOSTS="*",
            DOMINO_HTTPS="0",
            BOT_DELAY_SECONDS="0",
            PYTHONPATH=str(ROOT),
            PYTHONUNBUFFERED="1",
            PORT=str(WEB_PORT),
        )
        base.pop("DOMINO_OFF", None)
        base.update(env or {})
        self.env = base

    # -- the processes
    def log(self, name: str) -> Path:
        return self.dir / f"{name}.log"

    def spawn(self, host: str, name: str, argv: list[str], user: str | None = None,
              env: dict[str, str] | None = None) -> subprocess.Popen:  # fmt: skip
        with open(self.log(name), "ab") as out:
            proc = subprocess.Popen(
                self.net.exec_argv(host, argv, user=user),
                cwd=ROOT,
                env=env or self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # a Ctrl-C of the owner's terminal is the owner's
            )
        self.procs[host].append(proc)
        return proc

    def run(self, host: str, argv: list[str], user: str | None = None) -> str:
        done = subprocess.run(
            self.net.exec_argv(host, argv, user=user), cwd=ROOT, env=self.env,
            capture_output=True, text=True,
        )  # fmt: skip
        if done.returncode != 0:
            raise RuntimeError(f"{argv}: {done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        return done.stdout

    # -- PostgreSQL
    def init_db(self) -> None:
        bin_ = pg_bin()
        self.pgdata.mkdir()
        shutil.chown(self.pgdata, "postgres", "postgres")
        os.chmod(self.dir, 0o755)
        subprocess.run(
            ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--",
             str(bin_ / "initdb"), "-D", str(self.pgdata), "--auth=trust", "-U", "postgres",
             "--no-sync", "-E", "UTF8", "--locale=C.UTF-8"],
            check=True, capture_output=True,
        )  # fmt: skip
        with open(self.pgdata / "pg_hba.conf", "a") as hba:
            hba.write(f"host all all {HOSTS['db'].rsplit('.', 1)[0]}.0/24 trust\n")
        self.start_db()
        self.run("db", [str(bin_ / "createdb"), "-h", HOSTS["db"], "-U", "postgres", DATABASE])

    def start_db(self) -> None:
        bin_ = pg_bin()
        self.spawn("db", "postgres", [
            str(bin_ / "postgres"), "-D", str(self.pgdata), "-p", str(PG_PORT),
            "-c", f"listen_addresses={HOSTS['db']}", "-c", f"unix_socket_directories={self.pgdata}",
            "-c", "max_connections=300",
        ], user="postgres")  # fmt: skip
        wait_port(self.net, "db", PG_PORT)
        for _ in range(100):  # accepting TCP is not yet accepting sessions
            done = subprocess.run(
                self.net.exec_argv("db", [str(bin_ / "pg_isready"), "-h", HOSTS["db"], "-q"]),
                capture_output=True,
            )
            if done.returncode == 0:
                return
            time.sleep(0.1)
        raise RuntimeError("PostgreSQL did not become ready")

    def stop_db(self, mode: signal.Signals = signal.SIGINT) -> None:
        """Stop the cluster: SIGINT is PostgreSQL's fast shutdown (sessions ended,
        a checkpoint), SIGQUIT its immediate one (a crash: recovery at the next start)."""
        postmaster = self.procs["db"][-1]
        postmaster.send_signal(mode)
        postmaster.wait(60)

    def restart_db(self) -> None:
        self.stop_db()
        self.start_db()

    # -- Redis
    def start_redis(self) -> None:
        folder = self.dir / "redis"
        folder.mkdir(exist_ok=True)
        self.spawn("redis", "redis", [
            "redis-server", "--bind", HOSTS["redis"], "--port", str(REDIS_PORT),
            "--save", "", "--appendonly", "no", "--dir", str(folder), "--protected-mode", "no",
        ])  # fmt: skip
        wait_port(self.net, "redis", REDIS_PORT)

    # -- the site
    def release(self) -> None:
        """The Procfile's ``release``, but for collectstatic (the Daphnes serve no
        static files in these runs): migrate, from ``worker``."""
        self.run("worker", [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"])

    def web_argv(self) -> list[str]:
        argv = procfile_entries(ROOT)["web"].replace("${PORT:-8000}", str(WEB_PORT)).split()
        argv[0] = str(Path(sys.executable).with_name(argv[0]))
        return argv

    def start_web(self, host: str, env: dict[str, str] | None = None) -> None:
        self.spawn(host, f"{host}-daphne", self.web_argv(), env={**self.env, **(env or {})})
        wait_port(self.net, host, WEB_PORT, timeout=60)

    def start_background(self) -> None:
        for name, argv in background_commands(ROOT, self.env, self.dir).items():
            self.spawn("worker", f"worker-{name}", argv)

    def up(self, web_env: dict[str, str] | None = None) -> Site:
        """Everything, in order: PostgreSQL, Redis, migrate, the worker host, the webs."""
        self.init_db()
        self.start_redis()
        self.release()
        self.start_background()
        for host in WEBS:
            self.start_web(host, web_env)
        return self

    def web_url(self, host: str, path: str = "") -> str:
        return f"http://{HOSTS[host]}:{WEB_PORT}{path}"

    def log_sizes(self) -> dict[str, int]:
        return {path.stem: path.stat().st_size for path in self.dir.glob("*.log")}

    def exceptions(self, since: dict[str, int] | None = None) -> dict[str, list[str]]:
        """The exceptions logged by every process (from the offsets ``since``, by
        log name), one line a traceback chain: the lines ending its tracebacks,
        the first cause first, joined by " -> " (``{log: [chain, ...]}``)."""
        found: dict[str, list[str]] = {}
        for path in self.dir.glob("*.log"):
            with open(path, "rb") as log:
                log.seek((since or {}).get(path.stem, 0))
                lines = log.read().decode(errors="replace").splitlines()
            if chains := _chains(lines):
                found[path.stem] = chains
        return found

    def tail(self, name: str, chars: int = 3000) -> str:
        with contextlib.suppress(OSError):
            return self.log(name).read_text(errors="replace")[-chars:]
        return ""


def _chains(lines: list[str]) -> list[str]:
    """Each traceback chain's ending lines (a "During handling of the above
    exception" or "The above exception was the direct cause" joins the next
    traceback to the chain before it)."""
    chains: list[list[str]] = []
    inside = joined = False
    for line in lines:
        if line.startswith("Traceback") or "Exception inside application" in line:
            if not joined:
                chains.append([])
            inside, joined = True, False
        elif inside and line and not line[0].isspace():
            chains[-1].append(line[:300])
            inside = False
        elif not inside and line.startswith(("During handling", "The above exception")):
            joined = bool(chains)
    return [" -> ".join(chain) for chain in chains if chain]
