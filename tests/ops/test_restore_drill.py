"""The restore drill (bench/restore.py), run as an operator runs it, small: on
the Procfile's production set (two Daphnes, the Celery worker and beat) against
a PostgreSQL database of its own and this test's Redis db, tables play through
real WebSocket clients, a backup is taken during play (`make backup`'s code),
everything stops, the database is dropped and restored (`make restore`'s code),
Redis emptied, and the set starts again. Each of the drill's checks is asserted
here by name, so a failure says which one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def drill_database():
    """A database name of the drill's own (it drops and creates it), dropped after."""
    db = settings.DATABASES["default"]
    server = f"postgres://{db.get('USER') or 'postgres'}@{db.get('HOST') or '127.0.0.1'}"
    server += f":{db.get('PORT') or 5432}"
    name = f"domino_restore_t{os.getpid()}"
    yield server, name
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def test_a_backup_taken_during_play_restores_the_tables_as_they_were(drill_database, tmp_path):
    server, name = drill_database
    out = tmp_path / "restore.json"
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [
            sys.executable,
            "bench/restore.py",
            "--quick",
            "--pg",
            server,
            "--db",
            name,
            "--redis",
            os.environ["REDIS_URL"],
            "--json",
            str(out),
        ],  # fmt: skip
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert out.exists(), f"the drill stopped:\n{done.stdout[-3000:]}\n{done.stderr[-5000:]}"
    report = json.loads(out.read_text())
    checks = report["checks"]
    # What the backup held came back, row for row (rooms, rounds with their
    # versions, states, clocks and deals; every move).
    assert checks["restored_equals_backup"], report
    assert report["backup_held"]["moves"] > 0, report
    # Moves made after the backup are what the restore loses (the recovery point).
    assert report["lost_by_restore"]["moves"] > 0, report
    # Every table's sockets came back to the backed-up round: its moves, each once.
    assert checks["sockets_reconnect_to_the_backup"], report
    # The move clocks running at the backup fired after the restart (the sweeper:
    # their Celery wake-ups went with Redis).
    assert report["clocks"]["running_at_backup"] > 0, report
    assert checks["clocks_fire"], report["clocks"]
    assert checks["tables_play_on"], report
    assert checks["deals_verify"], report["deals"]
    assert checks["replays_match"], report["replays"]
    assert checks["no_server_exception"], report["server_problems"]
    assert checks["timed_restore_complete"], report["timing"]
    assert report["failed"] == [] and done.returncode == 0, done.stdout[-3000:]
