"""Back up and restore the site's database (``make backup`` / ``make restore``).

PostgreSQL (``DATABASE_URL=postgres://...``): ``pg_dump --format=custom`` into
one file, and ``pg_restore`` from it into the database of ``DATABASE_URL``
(created if missing; what it holds is replaced). ``pg_dump`` reads one snapshot
in a single transaction without blocking the moves being written meanwhile: a
backup taken while tables play is a consistent moment of the site.

SQLite (``DATABASE_URL=sqlite:///path``, the embedded set-up of ``make run``):
a copy through SQLite's own backup API (Python's ``sqlite3.Connection.backup``),
consistent while the server writes; restoring copies it back the same way
(stop the server first).

Redis holds nothing to back up (docs/scaling.md, "Backups").

    DATABASE_URL=postgres://... python -m domino_site.backup backup [FILE]
    DATABASE_URL=postgres://... python -m domino_site.backup restore FILE
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import unquote, urlsplit, urlunsplit

#: Where ``make backup`` writes when no file is named.
DEFAULT_DIR = "backups"


class BackupError(Exception):
    """What the operator is told, instead of a traceback."""


def _database_url() -> str:
    url = os.environ.get("DATABASE_URL", "").strip()
    if not url:
        raise BackupError(
            "DATABASE_URL is not set. The embedded default (make run) keeps everything in the"
            " SQLite file db.sqlite3 at the project's root; copy it with SQLite's backup API,"
            " safe while the server runs:\n"
            "    make backup DATABASE_URL=sqlite:///$PWD/db.sqlite3\n"
            "In production set DATABASE_URL to the PostgreSQL database (postgres://...)."
        )
    return url


def _kind(url: str) -> str:
    scheme = urlsplit(url).scheme
    if scheme in ("postgres", "postgresql", "pgsql"):
        return "postgres"
    if scheme == "sqlite":
        return "sqlite"
    raise BackupError(f"DATABASE_URL's scheme {scheme!r}: only postgres:// and sqlite:// are known")


def _sqlite_path(url: str) -> Path:
    """The file of a ``sqlite://`` URL, read as the settings read it."""
    import dj_database_url

    name = str(dj_database_url.parse(url)["NAME"] or "")
    if not name or name == ":memory:":
        raise BackupError("an in-memory SQLite database has nothing to back up")
    return Path(name)


def _pg_url(url: str) -> str:
    """libpq's spelling (``postgresql://``) of a ``postgres://`` URL."""
    parts = urlsplit(url)
    return urlunsplit(("postgresql", *parts[1:]))


def _pg_command_line(url: str) -> tuple[str, dict[str, str]]:
    """The URL for pg_dump's or pg_restore's command line, without its password
    (a command line is visible to every user of the machine), and the
    environment that gives libpq the password instead (``PGPASSWORD``).

    >>> url, env = _pg_command_line("postgres://ana:p%40ss@db:5433/domino")
    >>> url, env["PGPASSWORD"]
    ('postgresql://ana@db:5433/domino', 'p@ss')
    """
    parts = urlsplit(_pg_url(url))
    env = dict(os.environ)
    if parts.password is None:
        return urlunsplit(parts), env
    env["PGPASSWORD"] = unquote(parts.password)
    user = parts.username or ""
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    netloc = f"{user}@{host}" if user else host
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=netloc)), env


def _tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        raise BackupError(f"{name} is not on the PATH (Debian: apt-get install postgresql-client)")
    return found


def default_file(url: str, folder: str | os.PathLike[str] = DEFAULT_DIR) -> Path:
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    suffix = ".dump" if _kind(url) == "postgres" else ".sqlite3"
    return Path(folder) / f"domino-{stamp}{suffix}"


def backup(url: str, target: Path, snapshot: str | None = None) -> Path:
    """Write a backup of the database at ``url`` to ``target``. ``snapshot``:
    a PostgreSQL snapshot exported by a transaction still open
    (``pg_export_snapshot()``), to dump exactly what that transaction sees (the
    restore drill, bench/restore.py, reads the tables in it)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".partial")
    if _kind(url) == "postgres":
        extra = [f"--snapshot={snapshot}"] if snapshot else []
        dbname, env = _pg_command_line(url)
        done = subprocess.run(
            [
                _tool("pg_dump"),
                "--format=custom",
                "--no-owner",
                "--no-privileges",
                *extra,
                f"--file={partial}",
                dbname,
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        if done.returncode != 0:
            partial.unlink(missing_ok=True)
            raise BackupError(f"pg_dump failed:\n{done.stderr}")
    else:
        source = _sqlite_path(url)
        if not source.exists():
            raise BackupError(f"{source} does not exist")
        with sqlite3.connect(source) as src, sqlite3.connect(partial) as dst:
            src.backup(dst)
        dst.close()
        src.close()
    partial.replace(target)  # a file named like a backup is a whole one
    return target


def _ensure_database(url: str) -> None:
    """Create the database of ``url`` if it does not exist (a restore after the
    database was dropped, or onto a new server)."""
    import psycopg
    from psycopg import sql

    parts = urlsplit(_pg_url(url))
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))


def restore(url: str, source: Path) -> None:
    """Replace what the database at ``url`` holds with the backup ``source``."""
    if not source.is_file():
        raise BackupError(f"{source} is not a file")
    if _kind(url) == "postgres":
        _ensure_database(url)
        dbname, env = _pg_command_line(url)
        done = subprocess.run(
            [
                _tool("pg_restore"),
                "--clean",
                "--if-exists",
                "--no-owner",
                "--no-privileges",
                "--single-transaction",
                "--exit-on-error",
                f"--dbname={dbname}",
                str(source),
            ],
            capture_output=True,
            text=True,
            env=env,
        )
        if done.returncode != 0:
            raise BackupError(f"pg_restore failed (nothing was changed):\n{done.stderr}")
    else:
        target = _sqlite_path(url)
        with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
            src.backup(dst)
        dst.close()
        src.close()


def main(argv: list[str]) -> int:
    usage = "usage: python -m domino_site.backup backup [FILE] | restore FILE"
    if not argv or argv[0] not in ("backup", "restore"):
        print(usage, file=sys.stderr)
        return 2
    try:
        url = _database_url()
        started = time.monotonic()
        if argv[0] == "backup":
            name = argv[1] if len(argv) > 1 and argv[1] else None
            target = backup(url, Path(name) if name else default_file(url))
            size = target.stat().st_size
            took = time.monotonic() - started
            print(f"backup: {target} ({size / 1e6:.1f} MB, {took:.1f} s)")
        else:
            if len(argv) < 2 or not argv[1]:
                raise BackupError("name the backup to restore: make restore FILE=backups/....dump")
            restore(url, Path(argv[1]))
            print(f"restored {argv[1]} in {time.monotonic() - started:.1f} s")
    except BackupError as exc:
        print(f"{argv[0]}: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
