"""The bots' single entry point: a decision from what one seat may know.

>>> import random
>>> from games.engine import PRESETS, Round
>>> rnd = Round.deal(PRESETS["parceria"], rng=random.Random(7))
>>> seat = rnd.turn
>>> choose_action(rnd.view(seat), "medium", random.Random(1))
Play(tile=Tile(6, 6), end=None)

``choose_action`` takes the view dict of ``Round.view(seat)``, never a
``Round``: the hidden tiles of other seats, the boneyard and the sleeping tiles
are not in its reach (docs/rules.md, rule 12). This module and its helpers import
nothing but the standard library and ``games.engine``; the hard player builds
rounds of its own, from the view and guessed hands, only to look ahead.

* ``easy`` sheds its heaviest fitting tile.
* ``medium`` weighs each play (`bots.heuristics`): pips shed, doubles, keeping
  numbers it holds and both ends reachable, the partner's numbers, the numbers
  opponents have shown they lack; it is cheap enough for the server's own
  timeout moves.
* ``hard`` samples hidden hands consistent with every public fact and plays
  each candidate out with the medium policy (`bots.search`), within
  ``budget_ms`` (default 150 ms).

Picks of a tie-break pick-off are blind: every level takes a free position at
random (from ``rng``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games.engine import Action, Pick, action_from_dict

from .heuristics import Table, easy_choice, medium_choice
from .knowledge import read_view
from .search import hard_choice

LEVELS = ("easy", "medium", "hard")


def choose_action(
    view: dict[str, Any],
    level: str,
    rng: random.Random,
    *,
    scores: tuple[int, ...] | list[int] | None = None,
    budget_ms: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """A legal action for the seat of ``view``, chosen by the bot of ``level``.

    Pure and deterministic for a given ``rng`` state (and, for ``hard``, a given
    ``budget_ms`` on a machine fast enough not to hit the wall-clock cap, which
    reads ``clock``; see `bots.search`). ``scores`` are the match scores, one per side. The result is
    always equal to one of ``view["legal"]``: a play after the first tile
    carries its end. Raises ``ValueError`` for an unknown level or when the view
    offers no action (not this seat's turn, or the round is over).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose one of {', '.join(LEVELS)}")
    legal = [action_from_dict(d, spinner=True) for d in view.get("legal") or ()]  # C, D: a spinner
    if not legal:
        raise ValueError("nothing to decide: the view offers no legal action")
    if type(legal[0]) is Pick:
        return legal[rng.randrange(len(legal))]
    if len(legal) == 1:
        return legal[0]
    if level == "easy":
        return easy_choice(legal)
    know = read_view(view)
    if level == "medium":
        table = Table.from_knowledge(know)
        return medium_choice(legal, know.hand, know.ends, know.seat, table)
    score_tuple = tuple(scores) if scores is not None else None
    return hard_choice(view, legal, know, rng, score_tuple, budget_ms, clock)
