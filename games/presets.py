"""The presets as people read them: their names (`PRESET_LABELS`, keyed by
`games.engine.PRESETS`) and a rule set's one-line summary (`describe_rules`).
Here, under every page that shows them: the rules pages (games/rules_pages.py),
the ranking (records/views.py), the rooms' and quick match's pages (rooms/forms.py
re-exports both)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from games.engine import RuleSet

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
    "partida": _("Partida de 6 (pairs, scored by how the round is won)"),
    "partida_dois": _("Partida de 6 (two players)"),
    "pontos": _("Game of points (all fives)"),
}


def describe_rules(rules: RuleSet) -> str:
    """A one-line summary of a rule set for people ("4 players in pairs, …")."""
    parts = []
    if rules.partnership:
        parts.append(str(_("4 players in pairs")))
    else:
        parts.append(str(_("%(n)s players, each for themselves")) % {"n": rules.seats})
    parts.append(str(_("%(n)s tiles each")) % {"n": rules.hand_size})
    parts.append(str(_("with boneyard")) if rules.draw else str(_("no boneyard")))
    if rules.scoring == "how_won":
        parts.append(str(_("scored by how the round is won")))
    elif rules.scoring == "fives":
        parts.append(str(_("points for ends adding up to fives")))
    if rules.goal == "points":
        if rules.scoring == "goat":
            parts.append(
                ngettext(
                    "reaching %(n)s point loses", "reaching %(n)s points loses", rules.target or 0
                )
                % {"n": rules.target}
            )
        else:
            parts.append(
                ngettext("match to %(n)s point", "match to %(n)s points", rules.target or 0)
                % {"n": rules.target}
            )
    elif rules.goal == "best_of":
        parts.append(str(_("best of %(n)s rounds")) % {"n": rules.rounds})
    else:
        parts.append(str(_("a single round")))
    return ", ".join(parts)
