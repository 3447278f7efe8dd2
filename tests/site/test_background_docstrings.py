"""The docstring examples of the capacity work stay true: the process below
play's budget, the analysis' evidence, and the bench's Procfile reading."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["domino_site.below_play", "analysis.scoring", "bench.loadbench.procfile"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    failures, tried = doctest.testmod(importlib.import_module(name))
    assert failures == 0 and tried > 0


def test_the_bench_deploys_every_background_process_of_the_procfile(tmp_path):
    """bench/load.py's production configuration runs what the Procfile lists
    (docs/architecture.md, "The processes of a deployment")."""
    from bench.loadbench.common import ROOT
    from bench.loadbench.procfile import background_commands, procfile_entries

    commands = background_commands(ROOT, {}, tmp_path)
    assert set(commands) == set(procfile_entries(ROOT)) - {"release", "web"}
    assert {"worker", "analysis", "beat"} <= set(commands)
    assert commands["analysis"][0].endswith("celery")
    assert commands["analysis"][commands["analysis"].index("-Q") + 1] == "analysis"
    assert any(str(tmp_path) in arg for arg in commands["beat"])  # not the shared /tmp
