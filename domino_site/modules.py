"""``<link rel="modulepreload">`` for a page's whole ES-module graph, read from the files.

The site has no build step: its pages load ``static/js`` as ES modules, and a
browser learns a module's imports only once it has fetched that module, so an
entry three imports deep costs three round trips before the page can draw
(Lighthouse's "network dependency tree"; docs/site.md, "Pages"). The
``{% modulepreload "js/table.js" %}`` tag names every module the entry imports,
transitively, so that the browser fetches them all at once, in parallel.

The graph is read from the files themselves (their static ``import`` and
``export ... from`` statements; dynamic ``import()`` stays lazy): a new import
is preloaded without anyone listing it. It is read once per process and kept
(the files do not change under a running server), and again on every page when
``DEBUG`` is on (a developer edits them).

    >>> sorted(imports_of('import {a} from "./a.js";\\nimport{b as c}from"../b.js";'))
    ['../b.js', './a.js']
    >>> imports_of('export * from "./x.js"; import "./side.js"; import("./lazy.js")')
    ['./x.js', './side.js']
    >>> imports_of('import { html } from "lit"')  # a bare name: not a file of the site
    []
"""

from __future__ import annotations

import functools
import posixpath
import re

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.templatetags.static import static
from django.utils.html import format_html_join
from django.utils.safestring import SafeString

register = template.Library()

# `import x from "…"`, `import {a, b} from "…"` (over several lines too),
# `import "…"` (for its side effects) and `export … from "…"`; not `import(…)`.
_IMPORT = re.compile(
    r"""(?:^|[;\s}])(?:import|export)\s*(?:[\w$*{},\s]*?\bfrom\s*)?(["'])(\.{1,2}/[^"'\s]+)\1""",
    re.MULTILINE,
)


def imports_of(source: str) -> list[str]:
    """The relative module specifiers ``source`` imports statically, in order."""
    found: list[str] = []
    for match in _IMPORT.finditer(source):
        if match.group(2) not in found:
            found.append(match.group(2))
    return found


def _read(path: str) -> str | None:
    """The text of the static file at ``path`` (``js/…``), None if there is none."""
    found = finders.find(path)
    if not found or isinstance(found, list):
        # A deployment that ships only the collected files (STATIC_ROOT).
        try:
            found = staticfiles_storage.path(path)
        except NotImplementedError:  # a storage with no local files
            return None
    try:
        with open(found, encoding="utf-8") as handle:
            return handle.read()
    except OSError:
        return None


def module_graph(*entries: str) -> list[str]:
    """Every static path (``js/…``) the ``entries`` load, themselves first, then
    what each imports, transitively, each once."""
    if settings.DEBUG:
        return _graph(entries)
    return list(_cached_graph(entries))


@functools.cache
def _cached_graph(entries: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(_graph(entries))


def _graph(entries: tuple[str, ...]) -> list[str]:
    seen: list[str] = []
    todo = list(entries)
    while todo:
        path = todo.pop(0)
        if path in seen:
            continue
        source = _read(path)
        if source is None:  # a missing file: the browser reports it; nothing to preload
            continue
        seen.append(path)
        base = posixpath.dirname(path)
        todo.extend(posixpath.normpath(posixpath.join(base, spec)) for spec in imports_of(source))
    return seen


@register.simple_tag
def modulepreload(*entries: str) -> SafeString:
    """``<link rel="modulepreload">`` for ``entries`` and all they import."""
    return format_html_join(
        "\n", '<link rel="modulepreload" href="{}">', ((static(p),) for p in module_graph(*entries))
    )
