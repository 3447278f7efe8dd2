"""What the analysis adds to the records' profile: the receiver of
`records.signals.profile_parts` (connected in ``analysis.apps``). The profile's
template loads no tag of the analysis; the records' view shows the HTML
rendered here.

* ``"after_history"``: the account's average accuracy per preset, over the
  rooms whose rounds the viewer may see (``may_see_rounds``, the rooms'
  answer passed on by the records), as the replays
  (templates/analysis/_profile_accuracy.html).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.template.loader import render_to_string

from analysis.selectors import accuracy_by_preset
from games.presets import PRESET_LABELS


def on_profile_parts(
    sender: Any,
    *,
    place: str,
    person: Any = None,
    may_see_rounds: Callable[[Any], bool] | None = None,
    **_: Any,
) -> str:
    if place == "after_history" and person is not None and may_see_rounds is not None:
        return accuracy_part(person, may_see_rounds=may_see_rounds)
    return ""


def accuracy_part(person: Any, *, may_see_rounds: Callable[[Any], bool]) -> str:
    """On a profile: the average accuracy of ``person``'s analysed rounds, per preset."""
    accuracy = accuracy_by_preset(user=person, may_see_rounds=may_see_rounds)
    for row in accuracy:
        row["label"] = PRESET_LABELS.get(row["preset"], row["preset"])
    return render_to_string("analysis/_profile_accuracy.html", {"accuracy": accuracy})
