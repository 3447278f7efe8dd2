"""The refusals of `accounts.services` (docs/protocol.md, "Accounts").

A service that raises `AccountError` has changed nothing. ``code`` is one of
`CODES`; ``message`` is what the page shows the person.
"""

from __future__ import annotations

CODES = frozenset(
    {
        "email_invalid",  # not an address (or longer than 254 characters)
        "email_taken",  # another account uses it (case-insensitive)
        "email_same",  # it is already this account's address
        "too_many_mails",  # confirmation mails a person may ask for in a window
        "link_invalid",  # a confirmation link that is not one of ours (or altered)
        "link_expired",  # older than EMAIL_CONFIRM_DAYS
        "link_used",  # used already, or the address was replaced since
        "link_other_account",  # signed in as another account than the link's
        "too_many_requests",  # recovery asked too often for an address or from one
    }
)


class AccountError(Exception):
    def __init__(self, code: str, message: str) -> None:
        assert code in CODES, code
        super().__init__(message)
        self.code = code
        self.message = message
