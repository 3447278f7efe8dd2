"""What every app's admin shares: pages that show, never write (docs/site.md, "Admin")."""

from __future__ import annotations

from typing import Any


class ReadOnlyMixin:
    """Every field read-only and no adding: all writes go through services."""

    model: Any

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]
