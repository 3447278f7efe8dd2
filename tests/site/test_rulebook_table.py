"""docs/rated-play.md, "The rulebook": its table of entry points and rules is
held to the tests. Every cell but "—" names the test that checks it through
the real socket or page, and each named test exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs/rated-play.md"
TEST_NAME = re.compile(r"`(test_\w+)`")
RULES = ["Cool-down", "Same address", "Pause", "Idle and away", "Forfeits", "Same pair"]


def _rows() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("## The rulebook", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    header = [cell.strip() for cell in lines[0].strip("|").split("|")]
    assert header == ["Entry point", *RULES]
    return [[cell.strip() for cell in line.strip("|").split("|")] for line in lines[2:]]


def _defined_tests() -> set[str]:
    names = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        names |= set(re.findall(r"^(?:async )?def (test_\w+)", path.read_text(), re.MULTILINE))
    return names


def test_every_cell_names_a_test_or_says_it_does_not_apply():
    rows = _rows()
    assert len(rows) >= 10
    for row in rows:
        assert len(row) == 1 + len(RULES), row[0]
        for rule, cell in zip(RULES, row[1:], strict=True):
            assert cell == "—" or TEST_NAME.search(cell), f"{row[0]} × {rule}: {cell}"


def test_every_named_test_exists():
    defined = _defined_tests()
    named = {name for row in _rows() for cell in row[1:] for name in TEST_NAME.findall(cell)}
    assert named and not named - defined, sorted(named - defined)


def test_the_rules_name_the_rulebooks_figures():
    from records import rulebook

    text = DOC.read_text(encoding="utf-8")
    assert f"{int(rulebook.PAUSE_BUDGET.total_seconds())} s per person" in text
    assert f"turn lasts {int(rulebook.IDLE_TURN.total_seconds())} s" in text
    assert f"away for {int(rulebook.AWAY_EXCUSES_AFTER.total_seconds())} s" in text
    assert rulebook.AWAY_LIMIT.total_seconds() == 120 and "two minutes (`AWAY_LIMIT`)" in text
    pair = (
        f"at most {rulebook.PAIR_RATED_LIMIT} times in 24 hours (`PAIR_RATED_LIMIT`, `PAIR_WINDOW`)"
    )
    assert rulebook.PAIR_WINDOW.total_seconds() == 24 * 3600 and pair in text
    assert rulebook.WIN_TRADING_WINDOW.days == 7 and rulebook.WIN_TRADING_MATCHES == 10
    assert f"winning {rulebook.WIN_TRADING_PERCENT} % or more" in text
    assert "Ten rated matches between them within 7 days" in text
