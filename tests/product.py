"""The product's packages, as `make lint` type-checks them: the list is
pyproject.toml's ``[tool.mypy] files``, so a new app is in every test that
walks the product's code (doctests, the protocol's documents) once lint sees
it, without naming it again."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

with (ROOT / "pyproject.toml").open("rb") as config:
    PACKAGES: list[str] = tomllib.load(config)["tool"]["mypy"]["files"]
