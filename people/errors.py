"""The refusals of `people.services` and `people.challenges` (docs/protocol.md,
"Friends and blocks").

A service that raises `PeopleError` has changed nothing. ``code`` is one of
`CODES`; ``message`` is what the page shows the person; ``extra``, more
fields of the socket's ``error`` (``already_seated`` about one's own table:
its ``room`` and ``url``).
"""

from __future__ import annotations

from typing import Any

CODES = frozenset(
    {
        "not_found",  # no such player
        "self",  # a request to oneself
        "blocked",  # the recipient blocked the sender
        "blocking",  # the sender blocked the recipient: unblock first
        "already_friends",
        "no_request",  # nothing to accept, decline or withdraw
        "not_friends",  # nothing to remove
        # challenges (people.challenges)
        "not_accepting",  # their setting: friends only, or nobody
        "bad_challenge",  # a preset or clock out of range
        "no_challenge",  # no such challenge waiting (answered, withdrawn, expired)
        "cooldown",  # a rated match while someone serves a cool-down
        "already_seated",  # one of the two plays a match elsewhere (``room``: one's own)
        "rate_limited",  # too many challenges or reports for now (people.limits)
        # reports and moderation (people.moderation)
        "bad_report",  # no such reason or action
        "not_met",  # a report about someone one never shared a match or a table with
        "no_reset",  # a new name without a name reset
        "bad_name",  # the new name is refused (the form's reason)
        "reset_failed",  # staff's name reset found no free name (the admin's message)
    }
)


class PeopleError(Exception):
    def __init__(self, code: str, message: str, *, extra: dict[str, Any] | None = None) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = dict(extra or {})  # more fields of the socket's ``error`` (``room``, ``url``)
