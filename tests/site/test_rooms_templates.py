"""No template of the rooms or the records loads a tag library of an app above
them, and no template of the records includes one of theirs: the arenas' parts
of the rooms' pages come through `rooms.signals.page_parts`, the profile's parts
(the analysis' accuracy, the arenas played) through
`records.signals.profile_parts` (docs/architecture.md, "Layers and their import
contracts")."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LOAD = re.compile(r"{%\s*load\s+([^%]+?)\s*%}")
INCLUDE = re.compile(r"{%\s*(?:include|extends)\s+[\"']([\w-]+)/")
ABOVE_RECORDS = {"rooms", "analysis", "arenas", "quick", "replays", "lobby", "timers"}


def _tags_above() -> set[str]:
    """The tag libraries of the apps above the rooms (arenas, quick)."""
    return {
        p.stem
        for app in ("arenas", "quick")
        for p in (ROOT / app / "templatetags").glob("*.py")
        if p.stem != "__init__"
    }


@pytest.mark.parametrize("app", ["rooms", "records"])
def test_no_template_of_the_rooms_or_records_loads_the_tags_of_an_app_above(app):
    above = _tags_above()
    assert {"arena_rules", "quick_match"} <= above
    found = {}
    for path in (ROOT / "templates" / app).rglob("*.html"):
        libraries = {lib for load in LOAD.findall(path.read_text()) for lib in load.split()}
        if libraries & above:
            found[path.name] = libraries & above
    assert found == {}


def test_no_template_of_the_records_includes_a_template_of_an_app_above():
    found = {
        path.name: set(INCLUDE.findall(path.read_text())) & ABOVE_RECORDS
        for path in (ROOT / "templates" / "records").rglob("*.html")
    }
    assert {name: apps for name, apps in found.items() if apps} == {}
    assert (ROOT / "templates" / "records" / "player.html").exists()
