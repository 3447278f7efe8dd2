"""docs/engine.md names everything the engine exports: a name in
``games.engine.__all__`` that the page never mentions (in backticks) is a
name a reader of the contract cannot find."""

from __future__ import annotations

import re
from pathlib import Path

import games.engine

ENGINE_MD = Path(__file__).resolve().parents[2] / "docs/engine.md"


def test_every_exported_name_is_in_docs_engine_md() -> None:
    text = ENGINE_MD.read_text(encoding="utf-8")
    # A name counts right after a backtick: `DRAW`, `Pick(index)`, `Round.view(seat)`.
    named = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)", text))
    missing = sorted(set(games.engine.__all__) - named)
    assert not missing, f"docs/engine.md does not name {missing}"
