"""The head of every page (docs/site.md, "Pages"): a meta description of its own,
in the reader's language; and the whole ES-module graph of each page's scripts
preloaded (``<link rel="modulepreload">``, domino_site/modules.py), so that a
phone fetches it at once instead of one import level after another.

The graph is read here from the files themselves, by this test's own reading
of ``import``: a module that a page's script imports, however deep, and that
the page does not preload fails the test.
"""

from __future__ import annotations

import posixpath
import re
from html.parser import HTMLParser

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from rooms import services
from tests.site.helpers import play_round, room_with_bots, seat

STATIC = "/static/"

# `… from "./x.js"`, `import "./x.js"` (not `import("./x.js")`, which is lazy).
IMPORT = re.compile(r"""(?:\bfrom|\bimport)\s*(["'])(\.{1,2}/[^"']+)\1""")


class _Head(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.description: list[str] = []
        self.modules: list[str] = []
        self.preloaded: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        if tag == "meta" and a.get("name") == "description":
            self.description.append(a.get("content") or "")
        elif tag == "script" and a.get("type") == "module" and a.get("src"):
            self.modules.append(a["src"] or "")
        elif tag == "link" and a.get("rel") == "modulepreload":
            self.preloaded.add(a.get("href") or "")


def _head(html: str) -> _Head:
    head = _Head()
    head.feed(html)
    return head


def _imports(path: str) -> set[str]:
    """Every static path ``path`` (``js/…``) imports, transitively."""
    seen: set[str] = set()
    todo = [path]
    while todo:
        here = todo.pop()
        found = finders.find(here)
        assert found, f"{here} is imported but is no static file"
        with open(str(found), encoding="utf-8") as handle:
            source = handle.read()
        for _, spec in IMPORT.findall(source):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(here), spec))
            if target not in seen:
                seen.add(target)
                todo.append(target)
    return seen


def _unpreloaded(html: str) -> dict[str, set[str]]:
    head = _head(html)
    assert head.modules, "no module script on the page"
    missing = {}
    for src in head.modules:
        needed = {STATIC + p for p in _imports(src.removeprefix(STATIC))}
        if needed - head.preloaded:
            missing[src] = needed - head.preloaded
    return missing


@pytest.fixture
def pages(make_user, clock) -> dict[str, str]:
    """A page of each kind, for a signed-in player: the lobby, a table, a
    round's replay and the site's other pages."""
    user = make_user("ana")
    room = room_with_bots(user, clock(), preset="duelo")
    done = room_with_bots(user, clock(), preset="duelo")
    for table in (room, done):
        services.match_start(room=table, actor=seat(table, 0), now=clock())
    play_round(done, clock())
    return {
        "lobby": "/",
        "table": f"/r/{room.code}/",
        "replay": f"/r/{done.code}/rounds/1/?match=1",
        "rules": "/regras/",
        "ranking": "/ranking/",
        "arenas": "/torneios/",
        "puzzles": "/problemas/",
        "profile": f"/players/{user.username}/",
        "privacy": "/privacidade/",
    }


def _client(user=None, language: str = "pt-br") -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.django_db
def test_every_page_preloads_every_module_its_scripts_import(pages, django_user_model):
    client = _client(django_user_model.objects.get(username="ana"))
    for name in ("table", "lobby", "replay", "puzzles"):
        page = client.get(pages[name])
        assert page.status_code == 200, name
        assert _unpreloaded(page.content.decode()) == {}, name


@pytest.mark.django_db
def test_the_table_page_preloads_its_deepest_imports(pages, django_user_model):
    """table.js reaches lit-html's directives three imports down: the chain a
    phone would otherwise wait for, one round trip a level."""
    page = _client(django_user_model.objects.get(username="ana")).get(pages["table"])
    preloaded = _head(page.content.decode()).preloaded
    for deep in ("js/socket_client.js", "js/build.js", "js/vendor/lit-html/directive-helpers.js"):
        assert STATIC + deep in preloaded, deep


@pytest.mark.django_db
def test_every_page_has_its_own_description_in_the_reader_s_language(pages, django_user_model):
    ana = django_user_model.objects.get(username="ana")
    said: dict[str, str] = {}
    for language in ("pt-br", "en"):
        client = _client(ana, language)
        for name, url in {
            **pages,
            "login": "/accounts/login/",
            "signup": "/accounts/signup/",
        }.items():
            if name in ("login", "signup"):
                client = _client(None, language)
            page = client.get(url)
            assert page.status_code == 200, (name, page.status_code)
            descriptions = _head(page.content.decode()).description
            assert len(descriptions) == 1 and len(descriptions[0]) >= 30, (name, descriptions)
            said[f"{name}:{language}"] = descriptions[0]
    # The pages the audit named say what they are, each its own words.
    for name in ("lobby", "table", "replay", "puzzles", "arenas", "ranking", "rules"):
        others = {v for k, v in said.items() if k.endswith(":pt-br") and k != f"{name}:pt-br"}
        assert said[f"{name}:pt-br"] not in others, name
        assert said[f"{name}:pt-br"] != said[f"{name}:en"], name  # translated
    assert said["table:pt-br"].startswith("Uma mesa de dominó")
    assert said["table:en"].startswith("A dominoes table")
