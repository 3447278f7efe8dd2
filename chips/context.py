"""The header's balance (docs/site.md, "Fichas"): a template context processor.
A signed-in person sees their chips on every page; read only when a page
renders it (a lazy value), one small query; a guest has none."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from chips import selectors


def balance(request: HttpRequest) -> dict[str, Any]:
    """``chips_balance``: the signed-in person's chips (None for a guest)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"chips_balance": None}
    return {"chips_balance": SimpleLazyObject(lambda: selectors.balance_of(user) or 0)}
