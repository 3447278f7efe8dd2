"""The refusals of `people.services` (docs/protocol.md, "Friends and blocks").

A service that raises `PeopleError` has changed nothing. ``code`` is one of
`CODES`; ``message`` is what the page shows the person.
"""

from __future__ import annotations

CODES = frozenset(
    {
        "not_found",  # no such player
        "self",  # a request to oneself
        "blocked",  # the recipient blocked the sender
        "blocking",  # the sender blocked the recipient: unblock first
        "already_friends",
        "no_request",  # nothing to accept, decline or withdraw
        "not_friends",  # nothing to remove
    }
)


class PeopleError(Exception):
    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
