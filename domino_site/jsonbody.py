"""The one JSON parser of the site: every JSON request body (docs/protocol.md,
"HTTP": "A body that is not JSON") and every socket frame goes through `parse`.

Whatever a client sends, the answer is a value or `BadJSON`, never another
exception: not UTF-8 (`UnicodeDecodeError`), not JSON (`ValueError`, also for
``NaN`` and ``Infinity``, which are Python's, not JSON's), or nested deeper
than the interpreter's stack (`RecursionError`: a thousand ``[`` are enough
under a request's frames). A view answers `BadJSON` with a 400 in the
protocol's shape, ``{"error": code, "message": text}`` (`bad_json_response`),
and logs nothing: a bad body is the client's mistake, not the server's.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, JsonResponse
from django.utils.translation import gettext as _


class BadJSON(ValueError):
    """A body or frame that is not one JSON value (any reason)."""


def _not_json(name: str) -> Any:
    """``NaN``, ``Infinity`` and ``-Infinity``: Python's extensions, not JSON."""
    raise ValueError(f"{name} is not JSON")


def parse(raw: bytes | str, *, empty: Any = None) -> Any:
    """``raw`` as a JSON value (RFC 8259); ``empty`` for an empty body. Raises
    `BadJSON` for anything else, however it fails.

    >>> parse(b'{"a": [1]}')
    {'a': [1]}
    >>> parse(b"", empty={})
    {}
    >>> for bad in (b"[" * 5000, b"\\xff", b"NaN", b"{"):
    ...     try:
    ...         parse(bad)
    ...     except BadJSON:
    ...         print("bad")
    bad
    bad
    bad
    bad
    """
    if not raw:
        return empty
    try:
        text = raw.decode() if isinstance(raw, bytes) else raw
        return json.loads(text, parse_constant=_not_json)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise BadJSON(type(exc).__name__) from None


def request_json(request: HttpRequest, *, empty: Any = None) -> Any:
    """The JSON value of ``request``'s body (`parse`); raises `BadJSON`."""
    return parse(request.body, empty=empty)


def bad_json_response(code: str, message: str | None = None) -> JsonResponse:
    """The 400 a view answers `BadJSON` with: ``{"error": code, "message": text}``
    (the route's own code: ``bad_action``, ``bad_request``, ``bad_message``)."""
    text = message or _("The body must be JSON (UTF-8, not nested too deep).")
    return JsonResponse({"error": code, "message": text}, status=400)
