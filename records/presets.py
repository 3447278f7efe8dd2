"""The presets' names as the pages show them (`games.engine.PRESETS`' keys):
here, under the ranking (records/views.py) and the rooms' and quick match's
pages above it, which read them from here (rooms/forms.py re-exports them)."""

from django.utils.translation import gettext_lazy as _

PRESET_LABELS = {
    "parceria": _("Parceria (four players in pairs)"),
    "duelo": _("Duel (two players, with boneyard)"),
    "arena": _("Arena (best of five)"),
    "classico": _("Classic (every hand counts)"),
    "com_monte": _("With boneyard"),
    "sem_monte": _("Without boneyard"),
    "goat": _("Goat (penalty points)"),
    "internacional": _("International (pairs)"),
    "internacional_dois": _("International (two players)"),
}
