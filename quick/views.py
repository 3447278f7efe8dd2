"""The quick match's HTTP side: ``GET /api/now/`` and what the lobby and the
table pages show of it (the "Jogar agora com pessoas" control, a cool-down's
notice). docs/protocol.md, "Quick match"."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from quick import page_strings as quick_strings
from quick import selectors as quick_selectors
from records import selectors as records
from rooms import page_strings
from rooms.forms import PRESET_LABELS
from rooms.models import MOVE_SECONDS_CHOICES, QUICK_PRESETS

DEFAULT_MOVE_SECONDS = 20


@require_GET
def api_now(request: HttpRequest) -> JsonResponse:
    """``GET /api/now/``: ``{"playing": n, "queued": {"duelo": n, "parceria": m}}``."""
    return JsonResponse(quick_selectors.now_counts())


def quick_context(request: HttpRequest) -> dict[str, Any]:
    """What templates/quick/_quick.html needs."""
    user = request.user if request.user.is_authenticated else None
    return {
        "quick": {
            "logged_in": user is not None,
            "presets": [(p, PRESET_LABELS.get(p, p)) for p in QUICK_PRESETS],
            "clocks": MOVE_SECONDS_CHOICES,
            "default_clock": DEFAULT_MOVE_SECONDS,
            "now": quick_selectors.now_counts(),
            "cooldown": records.cooldown_notice(user) if user is not None else None,
        },
        "quick_boot": {
            "strings": page_strings.translated(quick_strings.QUICK),
            "cooldown": records.cooldown_notice(user) if user is not None else None,
            # Already waiting (another tab, a reload): the page opens the socket at once.
            "waiting": quick_selectors.entry_of(user) is not None,
        },
    }
