"""The sections every rules page must show (``data-section``), as both the page
tests (tests/site/test_rules_pages.py) and the browser (tests/browser) check them.
Written out here, not read from ``games.rules_pages``, so a section the site drops
still fails the tests."""

RULES_SECTIONS = (
    "seats",
    "deal",
    "opening",
    "draw",
    "blocked",
    "scoring",
    "ties",
    "goal",
    "example",
)
