"""Every string the page scripts show is translatable: listed in
rooms/page_strings.py (so makemessages finds it) and handed to the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from rooms import page_strings

STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"
CALL = re.compile(r'\bt\(\s*"((?:[^"\\]|\\.)*)"')


def _script_strings(pattern: str) -> set[str]:
    found: set[str] = set()
    for path in STATIC_JS.glob(pattern):
        found |= set(CALL.findall(path.read_text()))
    return found


@pytest.mark.parametrize(
    ("script", "listed"),
    [
        ("table.js", page_strings.TABLE),
        ("table/*.js", page_strings.TABLE),
        ("chat.js", page_strings.TABLE),
        ("dnd.js", page_strings.TABLE),
        ("feel.js", page_strings.TABLE),
        ("board.js", page_strings.TABLE + page_strings.REPLAY),
        ("lobby.js", page_strings.LOBBY),
        ("replay.js", page_strings.TABLE + page_strings.REPLAY),
    ],
)
def test_every_script_string_is_listed(script, listed):
    missing = _script_strings(script) - set(listed)
    assert not missing, f"add to rooms/page_strings.py: {sorted(missing)}"


def test_every_listed_string_has_a_portuguese_translation():
    with translation.override("pt-br"):
        strings = page_strings.translated(
            page_strings.TABLE + page_strings.LOBBY + page_strings.REPLAY
        )
        errors = page_strings.error_messages()
    untranslated = [s for s, text in strings.items() if text == s and not _same_in_both(s)]
    assert not untranslated, untranslated
    assert errors["must_play"] != page_strings.ERRORS["must_play"]


def _same_in_both(text: str) -> bool:
    # Words Portuguese borrows unchanged (and pure placeholders).
    return text in {"Bot %(n)s", "Ranking"} or not re.sub(r"%\(\w+\)s|[^A-Za-z]", "", text)


def test_placeholders_survive_translation():
    with translation.override("pt-br"):
        strings = page_strings.translated(
            page_strings.TABLE + page_strings.LOBBY + page_strings.REPLAY
        )
    for source, text in strings.items():
        assert set(re.findall(r"%\(\w+\)s", source)) == set(re.findall(r"%\(\w+\)s", text)), source
