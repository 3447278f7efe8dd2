"""The rules of dominoes as a pure library: no Django, no I/O, no clock, no global random.

>>> import random
>>> from games.engine import PRESETS, Round
>>> rnd = Round.deal(PRESETS["parceria"], rng=random.Random(3))
>>> while not rnd.is_over:
...     rnd.apply(rnd.turn, rnd.legal_actions()[0])
>>> rnd.result.reason in ("domino", "blocked")
True
"""

from .actions import (
    DRAW,
    ERROR_CODES,
    PASS,
    Action,
    Draw,
    IllegalAction,
    Pass,
    Pick,
    Play,
    action_from_dict,
)
from .fairness import FairDeal
from .match import Match
from .pickoff import PickOff, Reveal
from .result import Link, RoundResult
from .round import Round, choose_opener, hand_value
from .rules import PRESET_OPTIONS, PRESETS, InvalidRules, RuleSet
from .tiles import ALL_TILES, DOUBLES, Tile

__all__ = [
    "ALL_TILES", "DOUBLES", "DRAW", "ERROR_CODES", "PASS", "PRESETS", "PRESET_OPTIONS",
    "Action", "Draw", "FairDeal", "IllegalAction", "InvalidRules", "Link", "Match", "Pass", "Pick",
    "PickOff", "Play", "Reveal", "Round", "RoundResult", "RuleSet", "Tile", "action_from_dict",
    "choose_opener", "hand_value",
]  # fmt: skip
