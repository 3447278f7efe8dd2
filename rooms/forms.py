"""The lobby's create-room form: every option the chosen preset allows
(`games.engine.PRESET_OPTIONS`), validated by the engine's `RuleSet` so that an
impossible combination is reported next to the field that has to change."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from domino_site.validators import validate_visible_text
from games.engine import PRESET_OPTIONS, PRESETS, InvalidRules, RuleSet
from games.presets import PRESET_LABELS, describe_rules
from rooms.errors import rule_error_message
from rooms.models import MOVE_SECONDS_CHOICES


def _seconds(n: int) -> str:
    return gettext("%(n)s seconds") % {"n": n}


# Formatted when shown, in the page's language (a label formatted here, at
# import, stayed in the language that was active then).
seconds_label = lazy(_seconds, str)
OPTION_FIELDS = ("seats", "partnership", "hand_size", "draw", "scoring", "target")
BOT_LEVELS = (("easy", _("Easy")), ("medium", _("Medium")), ("hard", _("Hard")))

YES_NO = (("", _("As the table says")), ("1", _("Yes")), ("0", _("No")))


def preset_info() -> dict[str, dict[str, Any]]:
    """Per preset: label, summary, the option fields it allows and its defaults (for
    the form's script)."""
    info = {}
    for key, rules in PRESETS.items():
        info[key] = {
            "label": str(PRESET_LABELS.get(key, key)),
            "summary": describe_rules(rules),
            "options": sorted(PRESET_OPTIONS[key] & set(OPTION_FIELDS)),
            "defaults": {name: getattr(rules, name) for name in OPTION_FIELDS},
        }
    return info


class CreateRoomForm(forms.Form):
    name = forms.CharField(
        label=_("Room name"), max_length=80, required=False, validators=[validate_visible_text]
    )
    preset = forms.ChoiceField(
        label=_("Table"),
        choices=[(k, PRESET_LABELS.get(k, k)) for k in PRESETS],
        initial="parceria",
    )
    visibility = forms.ChoiceField(
        label=_("Who can join"),
        choices=(
            ("public", _("Public: listed in the lobby")),
            ("private", _("Private: invite link only")),
        ),
        initial="public",
        widget=forms.RadioSelect,
        required=False,
    )
    # The portal's marker: a friendly table is never rated; a competitive one is
    # where every seat is an account holder and no two share an address.
    kind = forms.ChoiceField(
        label=_("Kind of table"),
        choices=(
            ("competitive", _("Competitive: rated when the players allow it")),
            ("friendly", _("Friendly: never rated")),
        ),
        initial="competitive",
        widget=forms.RadioSelect,
        required=False,
    )
    move_seconds = forms.TypedChoiceField(
        label=_("Move clock"),
        choices=[(str(s), seconds_label(s)) for s in MOVE_SECONDS_CHOICES] + [("", _("No clock"))],
        coerce=int,
        empty_value=None,
        required=False,
        initial="30",
    )
    seats = forms.TypedChoiceField(
        label=_("Seats"),
        choices=(("", _("As the table says")), ("2", "2"), ("3", "3"), ("4", "4")),
        coerce=int,
        empty_value=None,
        required=False,
    )
    partnership = forms.ChoiceField(
        label=_("Play in pairs (four seats)"), choices=YES_NO, required=False
    )
    hand_size = forms.IntegerField(
        label=_("Tiles in each hand"), min_value=2, max_value=14, required=False
    )
    draw = forms.ChoiceField(label=_("Boneyard to draw from"), choices=YES_NO, required=False)
    scoring = forms.ChoiceField(
        label=_("Scoring"),
        choices=(
            ("", _("As the table says")),
            ("opponents", _("The winner scores the opponents' pips")),
            ("goat", _("Penalty: each side scores its own pips")),
        ),
        required=False,
    )
    target = forms.IntegerField(
        label=_("Points to end the match"), min_value=1, max_value=1000, required=False
    )
    bot_level = forms.ChoiceField(
        label=_("Computer level"), choices=BOT_LEVELS, initial="medium", required=False
    )

    def __init__(self, *args: Any, guest: bool = False, solo: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.guest = guest
        self.solo = solo
        if guest:
            self.fields["visibility"].initial = "private"

    def options(self) -> dict[str, Any]:
        """The knobs this preset lets a room change that the person set."""
        data = self.cleaned_data
        allowed = PRESET_OPTIONS.get(data.get("preset") or "", frozenset())
        options: dict[str, Any] = {}
        for name in OPTION_FIELDS:
            value = data.get(name)
            if name not in allowed or value in (None, ""):
                continue
            if name in ("partnership", "draw"):
                value = value == "1"
            options[name] = value
        return options

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        if not data.get("visibility"):
            data["visibility"] = "private" if self.guest or self.solo else "public"
        if self.guest and data.get("visibility") == "public" and not self.solo:
            self.add_error(
                "visibility", _("Log in to open a public room; guests open private ones.")
            )
        try:
            RuleSet.preset(data["preset"], **self.options())
        except InvalidRules as exc:
            self.add_rule_error(exc.field)
        return data

    def add_rule_error(self, field: str | None) -> None:
        """Show the engine's complaint next to a field the person can change: a knob
        this preset does not offer goes to the form (or, for a boneyard that runs
        dry, to the hand size that causes it)."""
        message = rule_error_message(field)
        allowed = PRESET_OPTIONS.get(self.cleaned_data.get("preset") or "", frozenset())
        if field not in allowed:
            field = "hand_size" if field == "draw" and "hand_size" in allowed else None
        self.add_error(field, message)
