"""The migration check of `make lint` (domino_site/migration_safety.py), run as
`make lint` runs it (a subprocess, no database), on the project and on a
throwaway app of a temporary folder: a column dropped or renamed while the code
before still runs fails it with a message that says why; a nullable column
added passes."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

INITIAL = """
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [
        migrations.CreateModel(
            name="Thing",
            fields=[
                ("id", models.AutoField(primary_key=True)),
                ("name", models.CharField(max_length=20)),
            ],
        ),
    ]
"""

SECOND = """
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("throwaway", "0001_initial")]
    operations = [{operations}]
"""

CASES = {
    "0002_drop_name": 'migrations.RemoveField("thing", "name")',
    "0002_rename_name": 'migrations.RenameField("thing", "name", "title")',
    "0002_add_count": 'migrations.AddField("thing", "count", models.IntegerField(default=0))',
    "0002_add_note": 'migrations.AddField("thing", "note", models.TextField(null=True))',
    "0002_add_rank": 'migrations.AddField("thing", "rank", models.IntegerField(db_default=0))',
}


def run_check(tmp_path: Path, migration: str) -> subprocess.CompletedProcess[str]:
    """The check with the throwaway app installed beside the project's, its
    migrations 0001 (a new table) and ``migration``."""
    app = tmp_path / "throwaway"
    (app / "migrations").mkdir(parents=True)
    (app / "__init__.py").write_text("")
    (app / "migrations" / "__init__.py").write_text("")
    (app / "migrations" / "0001_initial.py").write_text(INITIAL)
    (app / "migrations" / f"{migration}.py").write_text(SECOND.format(operations=CASES[migration]))
    (tmp_path / "throwaway_settings.py").write_text(
        textwrap.dedent("""
            from domino_site.settings import *  # noqa: F403

            INSTALLED_APPS = [*INSTALLED_APPS, "throwaway"]  # noqa: F405
        """)
    )
    return check(DJANGO_SETTINGS_MODULE="throwaway_settings", PYTHONPATH=f"{tmp_path}:{ROOT}")


def check(**env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "-m", "domino_site.migration_safety"],
        cwd=ROOT,
        env={**base, "DEBUG": "1", **env},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_the_projects_migrations_pass_with_their_accepted_list():
    done = check()
    assert done.returncode == 0, done.stderr
    assert "migrations: safe for the code still running" in done.stdout


@pytest.mark.parametrize(
    ("migration", "says"),
    [
        ("0002_drop_name", "RemoveField thing.name: drops a column the code still running"),
        ("0002_rename_name", "RenameField thing.name -> title: renames a column the code still"),
        ("0002_add_count", "AddField thing.count: adds a NOT NULL column without db_default"),
    ],
)
def test_a_column_dropped_or_renamed_fails_the_check(tmp_path, migration, says):
    done = run_check(tmp_path, migration)
    assert done.returncode == 1, (done.stdout, done.stderr)
    assert f"unsafe migration throwaway.{migration}: {says}" in done.stderr, done.stderr
    if "NOT NULL" not in says:
        assert "do it in a release after the one whose code stopped using it" in done.stderr
    assert "1 unsafe migration operation(s)" in done.stderr


@pytest.mark.parametrize("migration", ["0002_add_note", "0002_add_rank"])
def test_a_nullable_column_or_one_with_a_database_default_passes(tmp_path, migration):
    done = run_check(tmp_path, migration)
    assert done.returncode == 0, done.stderr
    assert "safe for the code still running" in done.stdout
