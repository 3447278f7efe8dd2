"""What every app's admin shares: pages that show, never write (docs/site.md,
"Admin"), and the delete action's words agreeing with the model's name."""

from __future__ import annotations

from typing import Any

from django.utils.translation import pgettext_lazy

#: The models whose name is feminine in Portuguese ("denúncias", "sanções",
#: "salas"...): Django's own "Remover %(verbose_name_plural)s selecionados"
#: agrees with a masculine name only, so these get the feminine sentence
#: ("Remover denúncias selecionadas") from the catalog.
FEMININE_NAMES = frozenset(
    {
        "people.report",
        "people.sanction",
        "people.friendship",
        "people.presence",
        "people.preferences",
        "rooms.room",
        "rooms.seat",
        "games.match",
        "games.round",
        "games.move",
        "arenas.arena",
        "arenas.arenamatch",
        "accounts.sessionrecord",
        "records.matchlineup",
        "records.ratingchange",
        "records.cooldown",
        "analysis.roundanalysis",
        "analysis.seataccuracy",
        "analysis.analysisjob",
        "puzzles.puzzletry",
    }
)

DELETE_FEMININE = pgettext_lazy(
    "the admin's action on a feminine name", "Delete selected %(verbose_name_plural)s"
)


class AgreeingDeleteMixin:
    """The delete action says its model's name with the right agreement."""

    model: Any

    def get_actions(self, request: Any) -> dict[str, Any]:
        actions: dict[str, Any] = super().get_actions(request)  # type: ignore[misc]
        if "delete_selected" in actions and self.model._meta.label_lower in FEMININE_NAMES:
            func, name, _description = actions["delete_selected"]
            actions["delete_selected"] = (func, name, DELETE_FEMININE)
        return actions


class ReadOnlyMixin(AgreeingDeleteMixin):
    """Every field read-only and no adding: all writes go through services."""

    model: Any

    def has_add_permission(self, request: Any, obj: Any = None) -> bool:
        return False

    def get_readonly_fields(self, request: Any, obj: Any = None) -> list[str]:
        return [f.name for f in self.model._meta.fields]
