"""The engine imports the standard library and itself only (docs/engine.md).

An allow-list, read from the source with ``ast``: a new module of the site or
an installed package imported by the engine fails here, whatever its name.
lint-imports checks the same rule (tests/import_contracts.py).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "games" / "engine"


def _imports(path: Path) -> list[tuple[int, str]]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
    return found


def _allowed(module: str) -> bool:
    top = module.split(".")[0]
    return (
        top in sys.stdlib_module_names
        or module == "games.engine"
        or module.startswith("games.engine.")
    )


def test_the_engine_imports_the_standard_library_and_itself_only():
    outside = [
        f"{path.relative_to(ENGINE.parents[1])}:{line} imports {module}"
        for path in sorted(ENGINE.rglob("*.py"))
        for line, module in _imports(path)
        if not _allowed(module)
    ]
    assert not outside, "\n".join(outside)


def test_the_check_refuses_a_site_module_and_a_package():
    assert not _allowed("games.models")
    assert not _allowed("django.db")
    assert _allowed("games.engine.tiles") and _allowed("dataclasses")


def test_the_deal_checker_script_imports_the_standard_library_and_the_engine_only():
    """``python -m games.fairness`` runs on any Python, with no Django (docs/rules.md)."""
    script = ENGINE.parent / "fairness.py"
    outside = [module for _line, module in _imports(script) if not _allowed(module)]
    assert not outside
