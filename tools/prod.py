"""``make prod``: the Procfile's production set on one machine (README.md, "Production").

1. Refuses, with a message and exit status 2, unless ``DATABASE_URL`` and
   ``REDIS_URL`` are set (the production set needs PostgreSQL and Redis: the
   embedded SQLite and in-memory layer serve one process only).
2. Runs the Procfile's ``release`` line once (``migrate``, ``collectstatic``)
   and stops there if it fails.
3. Replaces itself with ``honcho start``, given every other process type of
   the Procfile in its order (``web``, ``worker``, ``analysis``, ``beat``, and
   any added later), ``web`` on ``PORT`` (8000). honcho prefixes each line with
   the time and the process (``web.1 |``): the processes' own lines after it are
   the JSON of their logs. ``PROD_ARGS`` passes options to ``honcho start``,
   e.g. ``PROD_ARGS="-c web=2"`` (two Daphnes, on 8000 and 8001, behind your
   proxy). Ctrl-C (or SIGTERM) stops every process: honcho sends SIGTERM, and
   SIGKILL to what still runs 5 seconds later.
4. Gives the set one metrics folder (``PROMETHEUS_MULTIPROC_DIR``: yours if
   set, else a new one under the temporary folder), emptied first, so that
   ``/metrics`` adds up this set's processes only (docs/scaling.md, "Metrics").

The programs the Procfile names (``python``, ``daphne``, ``celery``) are this
virtual environment's. docs/decisions.md says why honcho.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REQUIRED = ("DATABASE_URL", "REDIS_URL")


def procfile_entries(procfile: Path) -> dict[str, str]:
    """``{process type: command}``, in file order."""
    entries: dict[str, str] = {}
    for raw in procfile.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or ":" not in line:
            continue
        name, command = line.split(":", 1)
        entries[name.strip()] = command.strip()
    return entries


def missing(env: dict[str, str]) -> list[str]:
    return [name for name in REQUIRED if not env.get(name, "").strip()]


def fresh_metrics_dir(env: dict[str, str]) -> str:
    """The set's metrics folder, without the files of processes gone (a
    previous run's counters would add up with this one's)."""
    folder = env.get("PROMETHEUS_MULTIPROC_DIR", "").strip()
    if not folder:
        folder = tempfile.mkdtemp(prefix="domino-metrics-prod-")
    Path(folder).mkdir(parents=True, exist_ok=True)
    for old in Path(folder).glob("*.db"):
        old.unlink()
    return folder


def main() -> int:
    env = dict(os.environ)
    absent = missing(env)
    if absent:
        print(
            f"make prod: {' and '.join(absent)} {'is' if len(absent) == 1 else 'are'} not set."
            " The production set needs PostgreSQL and Redis, e.g.\n"
            "  DATABASE_URL=postgres://user:pass@127.0.0.1:5432/domino"
            " REDIS_URL=redis://127.0.0.1:6379/0 SECRET_KEY=... make prod\n"
            '(README.md, "Production").',
            file=sys.stderr,
        )
        return 2
    bin_dir = Path(sys.executable).parent
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    env["PROMETHEUS_MULTIPROC_DIR"] = fresh_metrics_dir(env)
    procfile = ROOT / "Procfile"
    entries = procfile_entries(procfile)
    release = entries.pop("release", None)
    if release:
        print(f"make prod: release: {release}", file=sys.stderr, flush=True)
        done = subprocess.run(release, shell=True, cwd=ROOT, env=env)
        if done.returncode != 0:
            print(f"make prod: the release failed ({done.returncode})", file=sys.stderr)
            return done.returncode
    port = env.get("PORT", "").strip() or "8000"
    honcho = [
        sys.executable,
        "-m",
        "honcho",
        "start",
        "-f",
        str(procfile),
        "-d",
        str(ROOT),
        "-p",
        port,
        *shlex.split(env.get("PROD_ARGS", "")),
        *entries,
    ]
    os.chdir(ROOT)
    os.execve(honcho[0], honcho, env)
    return 0  # not reached


if __name__ == "__main__":
    sys.exit(main())
