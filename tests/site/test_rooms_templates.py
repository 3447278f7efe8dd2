"""No template of the rooms loads a tag library of the arenas above them: the
arenas' parts of the rooms' pages come through `rooms.signals.page_parts`
(docs/architecture.md, "Layers and their import contracts")."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOAD = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")


def test_no_template_of_the_rooms_loads_the_arenas_tags():
    arenas = {p.stem for p in (ROOT / "arenas" / "templatetags").glob("*.py")} - {"__init__"}
    assert "arena_rules" in arenas
    found = {}
    for path in (ROOT / "templates" / "rooms").rglob("*.html"):
        libraries = {lib for load in LOAD.findall(path.read_text()) for lib in load.split()}
        if libraries & arenas:
            found[path.name] = libraries & arenas
    assert found == {}
