"""`make backup` / `make restore`'s program (`python -m domino_site.backup`), run
as the Makefile runs it: it refuses without DATABASE_URL and says how to back up
the embedded default's SQLite file; with a sqlite:/// URL it copies the file
through SQLite's backup API and copies it back. (PostgreSQL's pg_dump and
pg_restore: tests/ops/test_restore_drill.py.)"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, database_url: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    if database_url is not None:
        env["DATABASE_URL"] = database_url
    return subprocess.run(
        [sys.executable, "-m", "domino_site.backup", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_without_database_url_it_refuses_and_says_how_to_copy_the_sqlite_file(tmp_path):
    done = run("backup", str(tmp_path / "x.dump"), database_url=None)
    assert done.returncode == 1
    assert "DATABASE_URL is not set" in done.stderr
    assert "make backup DATABASE_URL=sqlite:///$PWD/db.sqlite3" in done.stderr
    assert not (tmp_path / "x.dump").exists()
    done = run("restore", str(tmp_path / "x.dump"), database_url=None)
    assert done.returncode == 1 and "DATABASE_URL is not set" in done.stderr


def test_an_unknown_database_or_a_missing_file_is_refused(tmp_path):
    done = run("backup", database_url="mysql://u@h/db")
    assert done.returncode == 1 and "only postgres:// and sqlite://" in done.stderr
    done = run("restore", str(tmp_path / "none.sqlite3"), database_url=f"sqlite:///{tmp_path}/a")
    assert done.returncode == 1 and "is not a file" in done.stderr
    done = run("restore", database_url=f"sqlite:///{tmp_path}/a")
    assert done.returncode == 1 and "make restore FILE=" in done.stderr


def test_a_sqlite_database_is_copied_while_open_and_restored(tmp_path):
    live = tmp_path / "site.sqlite3"
    url = f"sqlite:///{live}"
    writer = sqlite3.connect(live)
    writer.execute("PRAGMA journal_mode=WAL")  # as the embedded set-up runs it
    writer.execute("CREATE TABLE moves (seq INTEGER)")
    writer.executemany("INSERT INTO moves VALUES (?)", [(i,) for i in range(1, 6)])
    writer.commit()
    # A transaction still open holds a sixth move: not in the backup.
    writer.execute("INSERT INTO moves VALUES (6)")
    saved = tmp_path / "backups" / "one.sqlite3"
    done = run("backup", str(saved), database_url=url)
    assert done.returncode == 0, done.stderr
    assert f"backup: {saved}" in done.stdout
    writer.commit()
    writer.execute("DELETE FROM moves WHERE seq > 2")
    writer.commit()
    writer.close()

    done = run("restore", str(saved), database_url=url)
    assert done.returncode == 0, done.stderr
    with sqlite3.connect(live) as check:
        rows = [seq for (seq,) in check.execute("SELECT seq FROM moves ORDER BY seq")]
    assert rows == [1, 2, 3, 4, 5]
