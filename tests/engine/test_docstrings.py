"""The engine's docstring examples are tested: they must stay true."""

import doctest
import importlib

import pytest

MODULES = [
    "tiles", "rules", "actions", "pickoff", "round", "result", "match", "fairness", "__init__",
]  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(
        "games.engine" if name == "__init__" else f"games.engine.{name}"
    )
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
