"""Every product module's docstring examples run and stay true (issue 39).

The modules of the apps and of ``domino_site`` (not their migrations) are
found by their source holding ``>>>``; each is imported after Django is set up
(pytest-django does that) and its examples run with ``doctest``, as
``python -m doctest`` would, ``...`` matching anything. `make test` runs them
all, so an example in a new module is tested without naming it here.
"""

from __future__ import annotations

import doctest
import importlib

import pytest

from tests.product import PACKAGES, ROOT


def _modules_with_examples() -> list[str]:
    names = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if "migrations" in parts or "__pycache__" in parts:
                continue
            if ">>>" in path.read_text(encoding="utf-8"):
                names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules_with_examples()


def run_examples(name: str) -> doctest.TestResults:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(module, name):
        runner.run(test)
    return doctest.TestResults(runner.failures, runner.tries)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_examples_of(name):
    failures, tried = run_examples(name)
    assert tried > 0, f"{name} holds '>>>' but doctest found no example"
    assert failures == 0, f"{failures} of {tried} examples of {name} failed (printed above)"


def test_the_scan_finds_the_modules_issue_39_named():
    """arenas/pairing.py, analysis/scoring.py, bots/* and domino_site/infra/*."""
    assert {
        "arenas.pairing",
        "analysis.scoring",
        "bots.policies",
        "bots.belief",
        "domino_site.infra.psycopg_pool",
        "domino_site.infra.layer_messages",
        "games.engine",
    } <= set(MODULES)
