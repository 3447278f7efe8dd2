"""The one error type services raise (docs/protocol.md, ``error`` message); the
socket's ``error`` body has one serialiser, `error_message`
(`domino_site.realtime.frames`, below every app), re-exported here.

``code`` is one of docs/protocol.md's codes (the engine's `IllegalAction` codes plus
``not_seated``, ``not_host``, ``seat_taken``, ``room_full``, ``room_closed``,
``paused``, ``stale``, ``rate_limited``, ``bad_message``, ``cooldown`` (with
``until``), ``already_seated`` (with ``room``), ``blocked`` (a block, either
way, between the person taking a seat and someone at the table), ``analysis_limit`` and ``analysis_full``
(the analysis queue, `analysis.queue`)); ``reason`` narrows a
``bad_message`` down (``wrong_phase``, ``seats_empty``, ``too_many_bots``,
``need_human``, ``invalid_rules``, ``bad_level``, ``login_required``,
``not_found``, ``already_seated``, ``not_a_bot``, ``match_in_progress``) for
pages and tests; ``field`` names the rule knob to fix on ``invalid_rules``.
A service that raises it has changed nothing.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _

from domino_site.realtime.frames import error_message
from games.engine import ERROR_CODES

SITE_CODES = frozenset(
    {
        "not_seated",
        "not_host",
        "seat_taken",
        "room_full",
        "room_closed",
        "paused",
        "stale",
        "rate_limited",
        "bad_message",
        "cooldown",
        "already_seated",
        "blocked",
        "analysis_limit",
        "analysis_full",
    }
)
CODES = SITE_CODES | ERROR_CODES

# People-facing messages for the engine's codes (the engine speaks English only).
ENGINE_MESSAGES = {
    "not_your_turn": _("It is not your turn."),
    "round_over": _("The round is over."),
    "not_in_hand": _("That tile is not in your hand."),
    "does_not_fit": _("That tile does not fit there."),
    "end_required": _("That tile fits both ends: choose end A or end B."),
    "opening_tile_required": _("This round must be opened with the mandatory tile."),
    "must_play": _("You have a tile that fits: you must play it."),
    "must_draw": _("Nothing fits: draw from the boneyard."),
    "boneyard_empty": _("The boneyard is empty: pass instead."),
    "not_a_draw_game": _("This table has no boneyard to draw from."),
    "bad_pick": _("That position cannot be picked."),
    "malformed": _("That action is not understood."),
}


class ServiceError(Exception):
    """A refused request; the database is untouched."""

    def __init__(
        self,
        code: str,
        message: str | None = None,
        *,
        reason: str | None = None,
        field: str | None = None,
        extra: dict[str, Any] | None = None,
    ) -> None:
        assert code in CODES, code
        text = str(message if message is not None else ENGINE_MESSAGES.get(code, code))
        super().__init__(text)
        self.code = code
        self.message = text
        self.reason = reason
        self.field = field
        self.extra = dict(extra or {})  # more fields of the body (``until`` of a cooldown)

    def __repr__(self) -> str:
        return f"ServiceError({self.code!r}, {self.message!r}, reason={self.reason!r})"

    def as_message(self, ref: Any = None) -> dict[str, Any]:
        """The protocol's ``error`` message body for this refusal (`error_message`)."""
        body = error_message(self.code, self.message, ref, reason=self.reason, field=self.field)
        return {**body, **self.extra}


def not_seated() -> ServiceError:
    """The refusal of anything done from a seat that is not (or no longer) one's own."""
    return ServiceError("not_seated", str(_("You are not seated at this table.")))
