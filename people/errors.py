"""The refusals of `people.services` and `people.challenges` (docs/protocol.md,
"Friends and blocks").

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
        # challenges (people.challenges)
        "not_accepting",  # their setting: friends only, or nobody
        "bad_challenge",  # a preset or clock out of range
        "no_challenge",  # no such challenge waiting (answered, withdrawn, expired)
        "cooldown",  # a rated match while someone serves a cool-down
        "already_seated",  # one of the two plays a match elsewhere
        # reports and moderation (people.moderation)
        "bad_report",  # no such reason or action
        "no_reset",  # a new name without a name reset
        "bad_name",  # the new name is refused (the form's reason)
        "reset_failed",  # staff's name reset found no free name (the admin's message)
    }
)


class PeopleError(Exception):
    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
