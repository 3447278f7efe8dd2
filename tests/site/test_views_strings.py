"""Every string the page scripts show is translatable: listed in
rooms/page_strings.py (so makemessages finds it) and handed to the page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from lobby import page_strings as lobby_strings
from quick import page_strings as quick_strings
from replays import page_strings as replay_strings
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
        ("board.js", page_strings.TABLE + replay_strings.REPLAY),
        ("lobby.js", lobby_strings.LOBBY),
        ("replay.js", page_strings.TABLE + replay_strings.REPLAY),
        ("quick.js", quick_strings.QUICK),
        ("replay_whatif.js", replay_strings.WHATIF),
    ],
)
def test_every_script_string_is_listed(script, listed):
    missing = _script_strings(script) - set(listed)
    assert not missing, f"add to rooms/page_strings.py: {sorted(missing)}"


def test_every_listed_string_has_a_portuguese_translation():
    with translation.override("pt-br"):
        strings = page_strings.translated(
            page_strings.TABLE + lobby_strings.LOBBY + replay_strings.REPLAY
        )
        errors = page_strings.error_messages()
    untranslated = [s for s, text in strings.items() if text == s and not _same_in_both(s)]
    assert not untranslated, untranslated
    assert errors["must_play"] != page_strings.ERRORS["must_play"]


def _same_in_both(text: str) -> bool:
    # Words Portuguese borrows unchanged (and pure placeholders).
    return text in {"Bot %(n)s", "%(n)s bot", "Ranking"} or not re.sub(
        r"%\(\w+\)s|[^A-Za-z]", "", text
    )


def test_placeholders_survive_translation():
    with translation.override("pt-br"):
        strings = page_strings.translated(
            page_strings.TABLE + lobby_strings.LOBBY + replay_strings.REPLAY
        )
    for source, text in strings.items():
        assert set(re.findall(r"%\(\w+\)s", source)) == set(re.findall(r"%\(\w+\)s", text)), source


# ------------------------------------------------------------------ plurals
# A count in words goes through Django's JavaScript catalog (/jsi18n/,
# `ngettext` in static/js/util.js), which knows each language's plural rule.

PLURAL = re.compile(r'\bngettext\(\s*"((?:[^"\\]|\\.)*)",\s*"((?:[^"\\]|\\.)*)"')
HAND_ROLLED = re.compile(r"=== 1 \?\s*t\(")


def _scripts() -> list[Path]:
    return [p for p in STATIC_JS.rglob("*.js") if "vendor" not in p.parts]


def _plurals() -> set[tuple[str, str]]:
    return {pair for path in _scripts() for pair in PLURAL.findall(path.read_text())}


def test_the_scripts_count_through_ngettext_not_by_hand():
    assert _plurals(), "the scripts' counts use ngettext"
    rolled = [
        str(p.relative_to(STATIC_JS)) for p in _scripts() if HAND_ROLLED.search(p.read_text())
    ]
    assert not rolled, f"a hand-rolled plural (n === 1 ? t(...)) in {rolled}: use ngettext"


def test_every_plural_of_the_scripts_has_its_portuguese_forms():
    from django.utils.translation.trans_real import DjangoTranslation

    catalog = DjangoTranslation("pt_BR", domain="djangojs")
    for singular, plural in _plurals():
        one, many = catalog.ngettext(singular, plural, 1), catalog.ngettext(singular, plural, 2)
        translated = (one, many) != (singular, plural) or _same_in_both(singular)
        assert translated, f"no Portuguese for {singular!r} (djangojs.po)"
        for text in (one, many):
            assert set(re.findall(r"%\(\w+\)s", text)) == set(re.findall(r"%\(\w+\)s", plural))


@pytest.mark.django_db
def test_the_catalog_is_a_same_origin_script_loaded_before_the_modules(client):
    catalog = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="pt-br")
    assert catalog.status_code == 200
    assert catalog["Content-Type"].startswith("text/javascript")
    assert "%(n)s pedras" in catalog.content.decode()
    page = client.get("/").content.decode()
    catalog_at = page.index('<script defer src="/jsi18n/"></script>')
    assert catalog_at < page.index('<script type="module"')  # deferred scripts run in order
    assert "script-src 'self'" in client.get("/")["Content-Security-Policy"]


@pytest.mark.django_db
def test_zero_is_plural_in_portuguese_for_the_pages_and_the_scripts(client):
    """Brazilian Portuguese says "0 pedras", "0 pontos": our catalogs' rule is
    n != 1 (Django's own pt_BR catalogs say n > 1; ours must win)."""
    with translation.override("pt-br"):
        assert translation.ngettext("%(n)d arena cancelled.", "%(n)d arenas cancelled.", 0) == (
            "%(n)d arenas canceladas."
        )
        assert "canceladas" not in translation.ngettext(
            "%(n)d arena cancelled.", "%(n)d arenas cancelled.", 1
        )
    script = client.get("/jsi18n/", HTTP_ACCEPT_LANGUAGE="pt-br").content.decode()
    assert "(n != 1)" in script
    assert "(n > 1)" not in script
