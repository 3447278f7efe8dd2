"""Deeply nested JSON on every route of the URLconf (docs/protocol.md, "A body
that is not JSON"): every JSON body goes through one parser
(`domino_site.jsonbody`), which answers 400 in the protocol's error shape and
logs nothing alarming. The routes are found from the URLconf
(`django.urls.get_resolver`), not from a list kept by hand: a new route is
posted to as soon as it exists."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve

from domino_site.jsonbody import BadJSON, parse
from games.models import Round
from tests.analysis.planted import DECISION_SEQ
from tests.site.test_puzzles import _published
from tests.staff import sign_in_verified

pytestmark = pytest.mark.django_db

#: As deep as the probe's (a thousand is enough under a request's frames), and far deeper.
BODIES = {
    "list": "[" * 1000 + "]" * 1000,
    "object": '{"action": ' * 1000 + "1" + "}" * 1000,
    "far": "[" * 100_000 + "]" * 100_000,
}
#: What each named part of a route is given: the fixture's rows where a route
#: needs one to reach its body (the room, its finished round, the puzzle); any
#: value otherwise. A route whose part is missing here fails the test: name it.
PART_NAMES = {
    "puzzle_id", "code", "number", "round_id", "seq", "username", "token", "arena_id",
    "challenge_id", "preset", "uidb64", "id", "object_id", "content_type_id", "app_label",
    "url",
}  # fmt: skip


def _routes(patterns=None, prefix: str = "") -> Iterator[tuple[str, URLPattern]]:
    """Every URL pattern of the URLconf, with its whole pattern text."""
    for entry in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern))
        else:
            yield prefix + str(entry.pattern), entry


def _path(text: str, values: dict[str, str]) -> str:
    """A concrete path for a route's pattern text (route or regex syntax)."""

    def value(match: re.Match[str]) -> str:
        assert match.group(1) in values, f"name a value for <{match.group(1)}> ({text})"
        return values[match.group(1)]

    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", value, text)  # a regex's named group
    path = re.sub(r"<(?:\w+:)?(\w+)>", value, path)  # a route's part
    path = path.replace("^", "").replace("$", "").replace("/?", "/")
    return "/" + path


def _answer(client: Client, path: str, body: str):
    client.raise_request_exception = False  # Django's answer (a 403 is raised, and answered)
    return client.post(path, body, content_type="application/json")


def test_deep_json_on_every_route_is_never_a_server_error(
    make_user, clock, django_user_model, caplog
):
    room, puzzle, ana, _bruno = _published(make_user, clock)
    boss = django_user_model.objects.create_superuser("boss", "b@example.com", "x")
    values = {
        "puzzle_id": str(puzzle.pk),
        "code": room.code,
        "number": "1",
        "round_id": str(Round.objects.get(match__room=room).pk),
        "seq": str(DECISION_SEQ),
        "username": "bruno",
        "token": room.invite_token,
        "arena_id": "1",
        "challenge_id": "1",
        "preset": "duelo",
        "uidb64": "MQ",
        "id": str(ana.pk),
        "object_id": "1",
        "content_type_id": "1",
        "app_label": "puzzles",
        "url": "nope/",
    }
    assert set(values) == PART_NAMES
    caplog.set_level(logging.ERROR)
    json_refusals = set()
    routes = list(_routes())
    posted = set()
    for text, pattern in routes:
        path = _path(text, values)
        if path in posted:  # a route shadowed by an earlier one (Django's own login/)
            continue
        posted.add(path)
        assert resolve(path).func == pattern.callback, (text, path)
        admin = text.startswith("admin/")
        people = [boss] if admin else [None, ana]
        for person in people:
            for kind, body in BODIES.items() if not admin else [("list", BODIES["list"])]:
                client = Client()
                if person is boss:  # the admin asks staff for their second factor
                    sign_in_verified(client, person)
                elif person is not None:
                    client.force_login(person)
                response = _answer(client, path, body)
                assert response.status_code != 500, (text, kind, person)
                if response.status_code == 400 and response.get("Content-Type", "").startswith(
                    "application/json"
                ):
                    answer = response.json()
                    assert set(answer) >= {"error", "message"}, (text, answer)
                    json_refusals.add(pattern.lookup_str)
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    # The routes that read a JSON body got this far (the fixture reached their parser).
    assert {
        "puzzles.views.answer",
        "replays.whatif_views.api_round_whatif",
        "lobby.views.room_create",
    } <= json_refusals
    assert len(routes) > 100  # the admin's too


def test_the_one_parser_refuses_whatever_is_not_json_with_one_exception():
    for raw in (
        b"[" * 1000 + b"]" * 1000,
        b"[" * 100_000,
        b"\xff\xfe",
        b"NaN",
        b'{"a": Infinity}',
        b"{",
        "\ud800".encode("utf-8", "surrogatepass"),
    ):
        with pytest.raises(BadJSON):
            parse(raw)
    assert parse(b"") is None and parse(b"", empty={}) == {}
    assert parse('{"tile": "\\ud800"}') == {"tile": "\ud800"}  # escaped: JSON, a form refuses it
