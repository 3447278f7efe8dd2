"""Refusals as the rooms' pages and sockets word them.

The error type itself, its codes and the socket's ``error`` body live in
`games.errors` (below rooms: games raise it too) and are re-exported here.
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.errors import CODES, ServiceError, error_message, not_seated

__all__ = [
    "CODES",
    "RULE_ERRORS",
    "ServiceError",
    "error_message",
    "not_seated",
    "rule_error_message",
]


# People-facing messages for the knob an engine `InvalidRules` names (the engine
# speaks English only); the form and the socket's `settings` both show these.
RULE_ERRORS = {
    "seats": _("A table has 2, 3 or 4 seats."),
    "partnership": _("Pairs need exactly four seats."),
    "hand_size": _("The hands do not fit in the 28 tiles (at least 2 tiles each)."),
    "draw": _("A game with a boneyard must leave at least one tile to draw."),
    "scoring": _("This table scores as 'opponents' or 'goat'."),
    "target": _(
        "The target must be between 50 and 300 points (goat: 101 or 125; partida de 6: 1 to 50)."
    ),
}


def rule_error_message(field: str | None):
    """The translated message for an `InvalidRules` about ``field``."""
    return RULE_ERRORS.get(field or "", _("These options cannot be played together."))
