"""The form a logged-in player fills to open a private arena."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from arenas.models import Arena
from domino_site.validators import validate_visible_text

CLOCKS = [
    ("", _("No clock")),
    ("15", _("15 s a move")),
    ("30", _("30 s a move")),
    ("60", _("60 s a move")),
]
DURATIONS = [(m, f"{m} min") for m in (10, 20, 30, 45, 60, 90)]  # "min" in both languages


class ArenaForm(forms.Form):
    # The name of the arena's tables too: a room name's rules.
    name = forms.CharField(
        label=_("Name"), max_length=80, required=False, validators=[validate_visible_text]
    )
    preset = forms.ChoiceField(label=_("Game"), choices=Arena.Preset.choices)
    move_seconds = forms.TypedChoiceField(
        label=_("Move clock"), choices=CLOCKS, coerce=int, empty_value=None, required=False
    )
    minutes = forms.TypedChoiceField(label=_("Duration"), choices=DURATIONS, coerce=int, initial=30)
    starts_in = forms.IntegerField(
        label=_("Starts in (minutes)"), min_value=0, max_value=24 * 60, initial=5
    )
