"""Migrations that would break the code still running while they are applied.

A deploy (its procedure: docs/scaling.md) runs ``manage.py migrate`` first and then
restarts the processes one after another: for a while the release before reads
and writes the migrated database. A migration is safe when that older code keeps
working on it. This module reads every migration's operations (Django's
``MigrationLoader``, no database connection) and reports those that are not:

* ``RemoveField`` / ``DeleteModel``: the older code still selects the column or
  the table; drop it in a release after the one whose code stopped using it.
* ``RenameField`` / ``RenameModel`` / ``AlterModelTable`` / an ``AlterField``
  that changes the column's name: the older code asks for the old name.
* ``AddField`` of a column that is ``NOT NULL`` without ``db_default``: the
  older code's ``INSERT`` leaves the column out, and Django removes the default
  it used to fill existing rows (``default=`` lives in Python only), so the
  insert fails. Add it nullable, or with ``db_default``.
* ``AlterField`` from nullable to ``NOT NULL``: the older code may still write
  ``NULL``.
* ``RunSQL``: nothing can be said of it; accept it by name once read.

Operations inside ``SeparateDatabaseAndState`` count by their
``database_operations`` only (the state-only half changes no table); a new
table's own fields (``CreateModel``) and many-to-many fields (no column) are
never unsafe.

Migrations released before this check, each on its own with the site stopped,
are listed in ``ACCEPTED`` with why each is safe; a new unsafe operation is
either split over two releases or added there with its reason.

    DEBUG=1 python -m domino_site.migration_safety   # `make lint` runs this
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

#: ``(app label, migration name)`` -> why its flagged operations hurt no running
#: code. Every migration here was released alone, the site stopped while it ran
#: (there was no rolling deploy before issue 52), and the code of its release is
#: the only one that ever ran against it.
ACCEPTED: dict[tuple[str, str], str] = {
    # Each adds NOT NULL columns with a Python ``default=`` only: existing rows
    # were filled while migrating, and the only code that inserted rows afterwards
    # was its own release's, which sets the column. Safe because nothing older
    # ran once it had been applied (the site was stopped for each release).
    ("arenas", "0002_arenaplayer_toggles"): "released alone, site stopped; toggles set by its code",
    (
        "games",
        "0002_auto_pass_adjustments",
    ): "released alone, site stopped; adjustments set by its code",
    ("games", "0003_round_movers"): "released alone, site stopped; movers set by its code",
    ("games", "0006_round_fair"): "released alone, site stopped; the deal's seeds set by its code",
    ("people", "0006_challenge_invites"): "released alone, site stopped; invites set by its code",
    ("people", "0007_report_sent"): "released alone, site stopped; report.sent set by its code",
    (
        "puzzles",
        "0002_tries_of_guests_and_addresses",
    ): "released alone, site stopped; tries' keys set by its code",
    (
        "records",
        "0007_cooldown_name",
    ): "released alone, site stopped; cooldown.name set by its code",
    (
        "rooms",
        "0002_room_rated_seat_ip_hash_seat_reserved_ip_hash",
    ): "released alone, site stopped; set by its code",
    ("rooms", "0003_watchers"): "released alone, site stopped; room.watchers set by its code",
    ("rooms", "0004_competitive_and_automatic"): "released alone, site stopped; set by its code",
    (
        "rooms",
        "0005_room_created_ip_hash",
    ): "released alone, site stopped; room.created_ip_hash set by its code",
    ("rooms", "0007_fair_seeds"): "released alone, site stopped; the seeds set by its code",
    (
        "rooms",
        "0009_start_on_seeds",
    ): "released alone, site stopped; room.start_on_seeds set by its code",
    (
        "rooms",
        "0010_rated_rulebook",
    ): "released alone, site stopped; seat.pause_used_ms set by its code",
    ("rooms", "0011_room_opened_by_arena"): "released alone, site stopped; set by its code",
    # The one rename (issue 39): opened_by_arena became seated_by_pairing in the
    # release whose code stopped using the old name. It was deployed with the site
    # stopped, so no older code ever asked for opened_by_arena after it; under a
    # rolling deploy it would have been two releases (add, copy, then drop).
    ("rooms", "0013_room_seated_by_pairing"): "released alone, site stopped (issue 39)",
}


@dataclass(frozen=True)
class Finding:
    app: str
    migration: str
    operation: str
    problem: str

    def __str__(self) -> str:
        return f"{self.app}.{self.migration}: {self.operation}: {self.problem}"


def _describe(operation: Any) -> str:
    name = type(operation).__name__
    model = getattr(operation, "model_name", None) or getattr(operation, "name", "")
    field = getattr(operation, "name", "") if hasattr(operation, "model_name") else ""
    if name in ("RenameField",):
        return f"{name} {operation.model_name}.{operation.old_name} -> {operation.new_name}"
    if name in ("RenameModel",):
        return f"{name} {operation.old_name} -> {operation.new_name}"
    return f"{name} {model}.{field}" if field else f"{name} {model}"


def _database_operations(operations: Iterable[Any]) -> Iterable[Any]:
    from django.db import migrations

    for operation in operations:
        if isinstance(operation, migrations.SeparateDatabaseAndState):
            yield from _database_operations(operation.database_operations)
        else:
            yield operation


def _not_null_without_db_default(field: Any) -> bool:
    from django.db.models import NOT_PROVIDED

    if field.many_to_many:  # a table of its own, no column
        return False
    return not field.null and field.db_default is NOT_PROVIDED


def operation_problems(app: str, operation: Any, state: Any) -> list[str]:
    """Why ``operation`` (of a migration of ``app``, on the project ``state``
    before it) breaks the code of the release before; empty if it does not."""
    from django.db import migrations

    later = "the code still running (the release before) "
    split = (
        "; do it in a release after the one whose code stopped using it"
        " (docs/scaling.md, 'Deploying')"
    )
    if isinstance(operation, migrations.RemoveField):
        return [f"drops a column {later}still selects{split}"]
    if isinstance(operation, migrations.DeleteModel):
        return [f"drops a table {later}may still use{split}"]
    if isinstance(operation, migrations.RenameField):
        old = state.models[app, operation.model_name_lower].fields[operation.old_name]
        if old.db_column:
            return []  # the column keeps its name
        return [f"renames a column {later}still asks for by its old name{split}"]
    if isinstance(operation, migrations.RenameModel | migrations.AlterModelTable):
        return [f"renames a table {later}still asks for by its old name{split}"]
    if isinstance(operation, migrations.AddField):
        if _not_null_without_db_default(operation.field):
            return [
                f"adds a NOT NULL column without db_default: {later}inserts rows without it"
                " and they fail; add it null=True, or with db_default="
            ]
        return []
    if isinstance(operation, migrations.AlterField):
        old = state.models[app, operation.model_name_lower].fields[operation.name]
        new = operation.field
        problems = []
        old_column = old.db_column or operation.name
        new_column = new.db_column or operation.name
        if old_column != new_column:
            problems.append(f"renames a column {later}still asks for by its old name{split}")
        if old.null and not new.null:
            problems.append(f"makes a column NOT NULL: {later}may still write NULL in it{split}")
        return problems
    if isinstance(operation, migrations.RunSQL):
        return [
            "raw SQL: its effect on the running code cannot be checked; read it, then accept it"
        ]
    return []


def findings(loader: Any = None, apps: Iterable[str] | None = None) -> list[Finding]:
    """Every unsafe operation of the project's migrations (of ``apps``, or of
    every app that is not Django's or a third party's)."""
    from django.apps import apps as registry
    from django.db import migrations
    from django.db.migrations.loader import MigrationLoader

    loader = loader or MigrationLoader(None, ignore_no_migrations=True)
    if apps is None:  # the project's own: not Django's nor an installed package's
        installed = {
            os.path.realpath(path) + os.sep
            for path in (*site.getsitepackages(), sysconfig.get_paths()["purelib"])
        }
        apps = {
            config.label
            for config in registry.get_app_configs()
            if not os.path.realpath(config.path).startswith(tuple(installed))
        }
    apps = set(apps)
    found: list[Finding] = []
    for key in loader.graph.nodes:
        app, name = key
        if app not in apps:
            continue
        migration = loader.graph.nodes[key]
        state = None
        created: set[str] = set()  # tables new in this migration: no older code uses them
        for top in migration.operations:
            for operation in _database_operations([top]):
                if isinstance(operation, migrations.CreateModel):
                    created.add(operation.name_lower)
                if getattr(operation, "model_name_lower", None) in created:
                    continue
                if state is None:  # built only when needed (it takes a while)
                    state = loader.project_state(key, at_end=False)
                for problem in operation_problems(app, operation, state):
                    found.append(Finding(app, name, _describe(operation), problem))
            if state is not None:
                top.state_forwards(app, state)
    return sorted(found, key=lambda f: (f.app, f.migration))


def check(accepted: dict[tuple[str, str], str] | None = None) -> tuple[list[Finding], list[str]]:
    """(findings not accepted, accepted entries that match no migration's finding)."""
    accepted = ACCEPTED if accepted is None else accepted
    found = findings()
    flagged = {(f.app, f.migration) for f in found}
    return (
        [f for f in found if (f.app, f.migration) not in accepted],
        [f"{app}.{name}" for app, name in accepted if (app, name) not in flagged],
    )


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "domino_site.settings")
    import django

    django.setup()
    unsafe, stale = check()
    for finding in unsafe:
        print(f"unsafe migration {finding}", file=sys.stderr)
    for name in stale:
        print(
            f"domino_site/migration_safety.py ACCEPTED lists {name}, which has nothing unsafe:"
            " remove it",
            file=sys.stderr,
        )
    if unsafe or stale:
        print(
            f"{len(unsafe)} unsafe migration operation(s): the release before still runs while"
            " `migrate` does (docs/scaling.md, 'Deploying').",
            file=sys.stderr,
        )
        return 1
    print("migrations: safe for the code still running")
    return 0


if __name__ == "__main__":
    sys.exit(main())
