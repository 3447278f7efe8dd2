"""The page's ES modules run in node, as the browser would load them, for the
tests of what a script says or decides without a browser (the words of the
log and the panels, the plurals, the store, the socket client).

``run(script)`` runs an ES module ``script`` and returns what it printed, as
JSON when ``parsed``; `module(*parts)` is the ``import()`` URL of a file of
static/js; `BROWSER` is just enough of a browser for the page modules to load
(they draw nothing here). Node is required where the services are
(``DOMINO_REQUIRE_SERVICES=1``, CI): there a missing node fails, never skips.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

JS = Path(__file__).resolve().parents[1] / "static" / "js"

BROWSER = """
globalThis.window = globalThis;
globalThis.localStorage = { getItem() { return null; }, setItem() {}, removeItem() {} };
globalThis.document = {
  readyState: "loading", addEventListener() {}, querySelector() { return null; },
  createTreeWalker() { return {}; }, createComment() { return {}; }, documentElement: { dataset: {} },
};
"""

needs_node = pytest.mark.skipif(
    shutil.which("node") is None and not os.environ.get("DOMINO_REQUIRE_SERVICES"),
    reason="needs node",
)


def module(*parts: str) -> str:
    """``import(...)``'s argument for static/js/<parts>, as a JS string literal."""
    return json.dumps(JS.joinpath(*parts).as_uri())


def run(script: str, *, parsed: bool = True) -> Any:
    done = subprocess.run(
        ["node", "--input-type=module", "-e", script], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout) if parsed else done.stdout
