"""docs/protocol.md stays true: its tables are read and compared with the code
(issue 39, "keep the documents true by test").

* HTTP: every path in the first column of a table resolves with Django's URL
  resolver, and every route of the project's own URL patterns is one of them
  (Django's own includes, the admin, auth and i18n, are documented by their
  prefix).
* Sockets: every ``ws(s)://host/ws/...`` path reaches a consumer through the
  ASGI application's websocket router (domino_site/asgi.py), not the
  catch-all; every route but the catch-all is documented; the 4004 row names
  every socket path.
* Client messages: the table socket's "Client to server" table is the parser's
  dispatch table (`rooms.messages.TYPES`), none of it marked planned, and
  `rooms.sockets.execute` or the consumer handles every type; the lobby's,
  the quick match's and an arena's sockets answer what the document says.
* Error codes, their ``reason`` and the close codes: the document's lists and
  the code's constants, both ways.
"""

from __future__ import annotations

import ast
import inspect
import re
from functools import cache
from pathlib import Path

from django.urls import URLPattern, URLResolver, get_resolver, resolve
from django.urls.exceptions import Resolver404
from django.urls.resolvers import RegexPattern, RoutePattern

from tests.product import PACKAGES, ROOT

DOC = ROOT / "docs/protocol.md"

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
TICKED = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
DOC_HTTP = re.compile(r"^(?:(?:GET|POST) )?(/[^\s?\[]*)")
DOC_SOCKET = re.compile(r"ws\(s\)://host/(ws/[^`\s]+)")
SAMPLES = {"n": "7", "id": "7", "number": "7", "arena_id": "7"}


# ------------------------------------------------------------ reading the doc


@cache
def doc_text() -> str:
    """The document without its fenced examples (whose backticks would pair up wrong)."""
    return FENCE.sub("", DOC.read_text(encoding="utf-8"))


def section(title: str) -> str:
    """The text under the first heading that starts with ``title`` (without
    backticks), up to the next heading of the same or a higher level."""
    lines = doc_text().splitlines()
    for i, line in enumerate(lines):
        m = HEADING.match(line)
        if m and m.group(2).replace("`", "").startswith(title):
            level, body = len(m.group(1)), []
            for rest in lines[i + 1 :]:
                n = HEADING.match(rest)
                if n and len(n.group(1)) <= level:
                    break
                body.append(rest)
            return "\n".join(body)
    raise AssertionError(f'docs/protocol.md has no heading "{title}"')


def table_rows(text: str) -> list[list[str]]:
    """The body rows of every Markdown table in ``text``, as lists of cells."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|") or re.match(r"^\|[-| ]+\|$", line):
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return [row for row in rows if row and row[0] not in ("path", "type", "code", "parameter")]


def ticked_anywhere() -> set[str]:
    """Every backticked word of the document, a paragraph's lines read as one."""
    return set(TICKED.findall(re.sub(r"(?<!\n)\n(?!\n)", " ", doc_text())))


def first_column_ticks(text: str) -> list[str]:
    return [tick for row in table_rows(text) for tick in TICKED.findall(row[0])]


def doc_http_paths() -> set[str]:
    paths = set()
    for tick in first_column_ticks(doc_text()):
        m = DOC_HTTP.match(tick)
        if m:
            paths.add(m.group(1))
    return paths


def doc_socket_paths() -> set[str]:
    return set(DOC_SOCKET.findall(doc_text()))


def sample(path: str) -> str:
    """A concrete path for a documented one: ``<code>`` -> ``abc7``, ``<n>`` -> ``7``."""
    return re.sub(r"<(\w+)>", lambda m: SAMPLES.get(m.group(1), "abc7"), path)


def as_regex(path: str) -> re.Pattern[str]:
    parts = re.split(r"(<\w+>)", path)
    return re.compile("".join("[^/]+" if p.startswith("<") else re.escape(p) for p in parts))


# ------------------------------------------------------------- reading the code


def project_routes() -> list[str]:
    """A sample path of every route of the project's own URL patterns; Django's
    own includes (admin, auth, i18n) as their prefix only."""
    found: list[str] = []

    def route_sample(pattern) -> str:
        if isinstance(pattern, RoutePattern):
            return re.sub(
                r"<(?:(\w+):)?(\w+)>",
                lambda m: "7" if m.group(1) == "int" else "abc7",
                str(pattern._route),
            )
        assert isinstance(pattern, RegexPattern)
        text = str(pattern._regex).lstrip("^").rstrip("$")
        return text.replace("/?", "")

    def walk(patterns, prefix: str) -> None:
        for entry in patterns:
            here = prefix + route_sample(entry.pattern)
            if isinstance(entry, URLResolver):
                module = getattr(entry.urlconf_module, "__name__", "")
                if entry.app_name == "admin" or module.startswith("django."):
                    found.append(here)  # documented by its prefix
                else:
                    walk(entry.url_patterns, here)
            elif isinstance(entry, URLPattern):
                found.append(here)

    walk(get_resolver().url_patterns, "/")
    return found


def socket_routes() -> list:
    """The websocket router's routes, as domino_site/asgi.py mounts them."""
    from domino_site.asgi import application

    app: object = application
    for _ in range(20):
        if hasattr(app, "routes"):
            return list(app.routes)
        mapping = getattr(app, "application_mapping", None)
        if mapping is not None:
            app = mapping["websocket"]
            continue
        app = next(
            getattr(app, name) for name in ("app", "application", "inner") if hasattr(app, name)
        )
    raise AssertionError("no URLRouter found in domino_site.asgi.application")


def consumer_of(route) -> type:
    return route.callback.consumer_class


def product_files() -> list[Path]:
    return [
        path
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    ]


@cache
def close_codes_in_code() -> dict[int, list[str]]:
    """``CLOSE_* = 4xxx`` constants and ``close(code=4xxx)`` literals."""
    codes: dict[int, list[str]] = {}
    for path in product_files():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            value, where = None, None
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if any(n.startswith("CLOSE_") for n in names):
                    value, where = node.value.value, names[0]
            elif isinstance(node, ast.keyword) and node.arg == "code":
                if isinstance(node.value, ast.Constant):
                    value, where = node.value.value, "close(code=...)"
            if isinstance(value, int) and 4000 <= value < 5000:
                codes.setdefault(value, []).append(f"{path.relative_to(ROOT)} {where}")
    return codes


@cache
def reasons_in_code() -> tuple[set[str], set[str]]:
    """Every ``reason`` the code gives (``bad("x", ...)`` or ``reason="x"``),
    and those of the table socket's refusals: ``bad(...)`` and a
    ``ServiceError(..., reason=...)`` in rooms/services (but `tables`, the
    create form's), records.rulebook and games.selectors."""
    every: set[str] = set()
    socket: set[str] = set()
    socket_files = {"records/rulebook.py", "games/selectors.py"}
    for path in product_files():
        where = str(path.relative_to(ROOT))
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            found = []
            if name in ("bad", "_bad") and node.args and isinstance(node.args[0], ast.Constant):
                found.append(node.args[0].value)
            for kw in node.keywords:
                if kw.arg == "reason" and isinstance(kw.value, ast.Constant):
                    found.append(kw.value.value)
            found = [r for r in found if isinstance(r, str)]
            every.update(found)
            refusal = name in ("bad", "ServiceError")
            on_socket = where in socket_files or (
                where.startswith("rooms/services/") and not where.endswith("tables.py")
            )
            if refusal and on_socket:
                socket.update(found)
    return every, socket


# ---------------------------------------------------------------------- HTTP


def test_every_documented_http_path_resolves():
    missing = []
    for path in sorted(doc_http_paths()):
        try:
            resolve(sample(path))
        except Resolver404:
            missing.append(path)
    assert not missing, f"docs/protocol.md lists paths Django does not route: {missing}"


def test_every_route_of_the_project_is_documented():
    paths = doc_http_paths()
    documented = [as_regex(p) for p in paths]
    undocumented = [
        route
        for route in project_routes()
        if not any(d.fullmatch(route) or d.fullmatch(route.rstrip("/")) for d in documented)
        and not (route.endswith("/") and any(p.startswith(route) for p in paths))
    ]
    assert not undocumented, f"routes missing from docs/protocol.md's tables: {undocumented}"


def test_the_http_tables_were_read():
    assert {"/", "/r/<code>/", "/api/rooms/", "/torneios/<id>/", "/healthz"} <= doc_http_paths()


# ------------------------------------------------------------------- sockets


def test_every_documented_socket_path_reaches_its_consumer():
    from rooms.consumers import NoSuchSocket

    routes = socket_routes()
    wrong = []
    for path in sorted(doc_socket_paths()):
        route = next(r for r in routes if r.pattern.regex.search(sample(path)))
        if consumer_of(route) is NoSuchSocket:
            wrong.append(path)
    assert not wrong, f"docs/protocol.md lists socket paths the router closes: {wrong}"


def test_every_socket_route_is_documented():
    from rooms.consumers import NoSuchSocket

    samples = [sample(p) for p in doc_socket_paths()]
    undocumented = [
        route.pattern.regex.pattern
        for route in socket_routes()
        if consumer_of(route) is not NoSuchSocket
        and not any(route.pattern.regex.search(s) for s in samples)
    ]
    assert not undocumented, f"socket routes missing from docs/protocol.md: {undocumented}"


def test_the_4004_row_names_every_socket_path():
    row = next(r for r in table_rows(section("Close codes")) if r[0] == "4004")
    named = {t for t in TICKED.findall(row[1]) if t.startswith("ws/")}
    assert named == doc_socket_paths(), (named, doc_socket_paths())


# ------------------------------------------------------------ client messages


def test_the_table_socket_accepts_exactly_the_documented_types():
    from rooms.messages import TYPES

    rows = table_rows(section("Client to server"))
    documented = {t for row in rows for t in TICKED.findall(row[0])}
    assert documented == set(TYPES), (
        f"documented, not parsed: {sorted(documented - TYPES)}; "
        f"parsed, not documented: {sorted(TYPES - documented)}"
    )
    planned = [row[0] for row in rows if "planned" in " ".join(row[1:]).lower()]
    assert not planned, f"types the server accepts, marked planned: {planned}"


def test_every_table_type_is_handled():
    from rooms import consumers, sockets
    from rooms.messages import MOVE_TYPES, TYPES

    handled = inspect.getsource(sockets.execute) + inspect.getsource(consumers.TableConsumer.handle)
    assert "cmd.type in MOVE_TYPES" in handled  # the moves go to action_apply
    unhandled = [t for t in sorted(TYPES - MOVE_TYPES) if f'"{t}"' not in handled]
    assert not unhandled, unhandled


def _answers(consumer_class) -> set[str]:
    return set(consumer_class.handlers(object.__new__(consumer_class))) | {"ping"}


def test_the_listening_sockets_answer_what_the_document_says():
    from arenas.consumers import ArenaConsumer
    from lobby.consumers import LobbyConsumer
    from quick.consumers import QuickConsumer

    lobby = section("The lobby socket")
    lobby_client = lobby[lobby.index("Client to server") :]
    lobby_types = set(re.findall(r'"type": "(\w+)"', lobby_client.split("\n\n")[0]))
    assert lobby_types == _answers(LobbyConsumer), lobby_types

    quick = {t for row in table_rows(section("Quick match")) for t in TICKED.findall(row[0])}
    quick_client = {"join", "leave", "ping"} & quick
    assert quick_client == _answers(QuickConsumer), quick
    assert "answers `ping` with `pong` and anything else with `bad_message`" in section(
        "Arenas"
    ).replace("\n", " ")
    assert _answers(ArenaConsumer) == {"ping"}


# ---------------------------------------------------- error codes and reasons


def _error_section() -> tuple[set[str], set[str]]:
    text = section("Error codes").replace("\n", " ")
    codes_part, _, reasons_part = text.partition("may say more in `reason`")
    codes = {t for t in TICKED.findall(codes_part) if t.islower()}
    codes -= {"until", "message", "reason", "field"}
    reasons = set(TICKED.findall(reasons_part)) - {"field", "seat_taken"}
    return codes, reasons


def test_the_error_codes_are_the_code_s():
    from games.errors import CODES

    documented, _ = _error_section()
    code = set(CODES) | {"internal"}
    assert documented <= code, f"documented codes the code never sends: {documented - code}"
    missing = code - ticked_anywhere()
    assert not missing, f"codes missing from the document: {missing}"


def test_the_reasons_are_the_code_s():
    _, documented = _error_section()
    every, socket = reasons_in_code()
    assert documented <= every, f"documented reasons the code never gives: {documented - every}"
    missing = socket - ticked_anywhere()
    assert not missing, (
        f"reasons of the table socket's refusals missing from the document: {missing}"
    )


# ---------------------------------------------------------------- close codes


def test_the_close_codes_are_the_code_s():
    documented = {int(row[0]) for row in table_rows(section("Close codes")) if row[0].isdigit()}
    code = set(close_codes_in_code())
    assert documented == code, (
        f"documented, not in the code: {documented - code}; "
        f"in the code, not documented: {code - documented}"
    )


def test_the_close_rows_say_who_gets_4003_and_who_4004():
    """A stranger at a private room gets the unknown room's 4004
    (tests/realtime/test_full_games.py and test_hostile_properties.py hold it
    on a socket); 4003 is an anonymous socket's on a public room."""
    rows = {row[0]: row[1] for row in table_rows(section("Close codes"))}
    assert "private" not in rows["4003"], rows["4003"]
    assert "private room" in rows["4004"], rows["4004"]
