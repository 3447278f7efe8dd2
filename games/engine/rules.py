"""The knobs of a table (`RuleSet`) and the site's presets.

>>> rules = RuleSet.preset("classico", seats=3)
>>> rules.draw, rules.partnership, rules.sides
(True, False, 3)
>>> RuleSet.preset("parceria", target=500)
Traceback (most recent call last):
...
games.engine.rules.InvalidRules: The target must be between 50 and 300 points, got 500.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

OPENINGS = ("double_six", "one_one", "highest_double", "lowest_double", "highest_tile")
NEXT_OPENINGS = ("rotate", "winner", "same")
SCORINGS = ("opponents", "all_hands", "goat", "series", "how_won", "fives")
BLOCKED_POINTS = ("as_domino", "difference")
BLOCKED_TIES = ("last_player_loses", "draw", "opener_wins", "tiebreak")
GOALS = ("points", "best_of", "single")
NEXT_ROUNDS = ("host", "all_ready")
CLOSED_ROUNDS = ("lower_hand", "carry")
#: The ways a round is won under ``how_won`` scoring, and the knob holding each one's value.
WIN_KNOBS = {
    "simples": "simples_points",
    "carroca": "carroca_points",
    "la_e_lo": "la_e_lo_points",
    "cruzada": "cruzada_points",
}


class InvalidRules(ValueError):
    """A `RuleSet` that cannot be played. ``field`` names the knob to fix (for forms)."""

    def __init__(self, field: str | None, message: str) -> None:
        super().__init__(message)
        self.field = field
        self.message = message


@dataclass(frozen=True)
class RuleSet:
    """Everything that differs between tables, as plain data (docs/rules.md, "The knobs").

    ``preset`` is only a label (which table these knobs came from). Build one with
    `RuleSet.preset` (applies the preset's derivations and option limits) or
    change knobs literally with `replace` (validates only).
    """

    seats: int = 4
    partnership: bool = True
    hand_size: int = 7
    draw: bool = False
    first_opening: str = "double_six"
    next_opening: str = "rotate"
    lock_closure: bool = False
    scoring: str = "opponents"
    blocked_points: str = "as_domino"
    blocked_tie: str = "last_player_loses"
    goal: str = "points"
    target: int | None = 50
    rounds: int | None = None
    next_round: str = "host"
    walkover: bool = False
    simples_points: int = 1
    carroca_points: int = 2
    la_e_lo_points: int = 3
    cruzada_points: int = 4
    closed_round: str = "lower_hand"
    redeal_doubles: int | None = None
    redeal_worth_double: bool = False
    doubles_prizes: bool = False
    spinner: bool = False
    preset_key: str | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        self._validate()

    # -- derived facts -------------------------------------------------
    @property
    def sides(self) -> int:
        """Scoring units: two partnerships, or one per seat."""
        return 2 if self.partnership else self.seats

    def side_of(self, seat: int) -> int:
        return seat % 2 if self.partnership else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        if self.partnership:
            return (side, side + 2)
        return (side,)

    # -- validation ----------------------------------------------------
    def _validate(self) -> None:  # noqa: C901 - one check a line reads best here
        def need(ok: bool, knob: str, message: str) -> None:
            if not ok:
                raise InvalidRules(knob, message)

        for knob in ("seats", "hand_size"):
            value = getattr(self, knob)
            need(type(value) is int, knob, f"{_label(knob)} must be a whole number, got {value!r}.")
        for knob in (
            "partnership", "draw", "lock_closure", "walkover", "redeal_worth_double",
            "doubles_prizes", "spinner",
        ):  # fmt: skip
            value = getattr(self, knob)
            need(type(value) is bool, knob, f"{_label(knob)} must be true or false, got {value!r}.")
        for knob, allowed in (
            ("first_opening", OPENINGS),
            ("next_opening", NEXT_OPENINGS),
            ("scoring", SCORINGS),
            ("blocked_points", BLOCKED_POINTS),
            ("blocked_tie", BLOCKED_TIES),
            ("goal", GOALS),
            ("next_round", NEXT_ROUNDS),
            ("closed_round", CLOSED_ROUNDS),
        ):
            value = getattr(self, knob)
            need(
                value in allowed,
                knob,
                f"{_label(knob)} must be one of {', '.join(allowed)}; got {value!r}.",
            )
        need(self.seats in (2, 3, 4), "seats", f"A table has 2, 3 or 4 seats, not {self.seats}.")
        need(
            not self.partnership or self.seats == 4,
            "partnership",
            "Partnerships need exactly four seats.",
        )
        need(self.hand_size >= 2, "hand_size", "Each hand needs at least 2 tiles.")
        need(
            self.seats * self.hand_size <= 28,
            "hand_size",
            f"Dealing {self.hand_size} tiles to each of {self.seats} seats needs"
            f" {self.seats * self.hand_size} tiles; the set has 28.",
        )
        need(
            not self.draw or self.seats * self.hand_size <= 27,
            "draw",
            "A draw game must leave at least one tile in the boneyard.",
        )
        need(
            self.blocked_points != "difference" or self.sides == 2,
            "blocked_points",
            "Counting the difference on a blocked round needs exactly two sides.",
        )
        need(
            self.blocked_points != "difference" or self.scoring in ("opponents", "all_hands"),
            "blocked_points",
            "Counting the difference only makes sense when the winner scores points.",
        )
        need(
            (self.scoring == "series") == (self.goal == "best_of"),
            "goal",
            "Series scoring (one point a round) goes with a best-of-N goal, and only with it.",
        )
        if self.goal == "points" and self.scoring == "how_won":
            need(
                type(self.target) is int and 1 <= self.target <= 50,
                "target",
                "Scored by how rounds are won, the target must be between 1 and 50 points,"
                f" got {self.target}.",
            )
        elif self.goal == "points":
            need(
                type(self.target) is int and 50 <= self.target <= 300,
                "target",
                f"The target must be between 50 and 300 points, got {self.target}.",
            )
        if self.goal == "best_of":
            need(
                type(self.rounds) is int and self.rounds >= 1 and self.rounds % 2 == 1,
                "rounds",
                f"A best-of match needs an odd number of rounds, got {self.rounds}.",
            )

        self._validate_how_won()
        self._validate_redeal()
        need(
            not self.spinner or (self.scoring == "fives" and not self.lock_closure),
            "spinner",
            "A spinner (four ends) goes with fives scoring, and without lock closure.",
        )

    def _validate_how_won(self) -> None:
        """The knobs of the "partida" (docs/rules.md, "How a round is won")."""
        how_won = self.scoring == "how_won"
        for knob in WIN_KNOBS.values():
            value = getattr(self, knob)
            if not (type(value) is int and 1 <= value <= 12):
                raise InvalidRules(knob, f"{_label(knob)} must be from 1 to 12, got {value!r}.")
            if not how_won and value != _DEFAULTS[knob]:
                raise InvalidRules(knob, f"{_label(knob)} counts only with how_won scoring.")
        if not how_won and self.closed_round != _DEFAULTS["closed_round"]:
            raise InvalidRules(
                "closed_round", "The blocked-round rule of the partida needs how_won scoring."
            )

    def _validate_redeal(self) -> None:
        """The doubles in the deal (docs/rules.md, "Doubles in the deal")."""
        redeal = self.redeal_doubles
        if redeal is not None:
            if not (type(redeal) is int and 4 <= redeal <= 7):
                raise InvalidRules(
                    "redeal_doubles",
                    f"A redeal is for a hand of 4 to 7 doubles (or never), got {redeal!r}.",
                )
            if redeal > self.hand_size:
                raise InvalidRules(
                    "redeal_doubles",
                    f"A hand of {self.hand_size} tiles never holds {redeal} doubles.",
                )
        for knob in ("redeal_worth_double", "doubles_prizes"):
            if getattr(self, knob) and (self.scoring != "how_won" or redeal is None):
                raise InvalidRules(knob, f"{_label(knob)} needs how_won scoring and a redeal.")
        if self.doubles_prizes and (redeal is None or redeal > 5):
            raise InvalidRules(
                "doubles_prizes",
                "The prizes for 5 and 6 doubles need a redeal from at most 5 doubles.",
            )

    # -- building ------------------------------------------------------
    def replace(self, **knobs: Any) -> RuleSet:
        """A validated copy with ``knobs`` set literally (no derivations)."""
        unknown = set(knobs) - _KNOBS
        if unknown:
            name = sorted(unknown)[0]
            raise InvalidRules(name, f"Unknown rule {name!r}.")
        return dataclasses.replace(self, **knobs)

    @classmethod
    def preset(cls, key: str, **options: Any) -> RuleSet:
        """The table ``key`` with the options its preset allows (docs/rules.md, "The tables").

        Derived knobs follow the options unless given explicitly: ``classico`` and
        ``goat`` draw exactly when seats < 4; ``com_monte`` deals 7 at two seats
        and 5 at three or four; ``partnership`` defaults to pairs at four seats
        (a Brazilian four-seat table plays in pairs) and is off below four.
        """
        spec = _PRESET_SPECS.get(key)
        if spec is None:
            raise InvalidRules(
                "preset", f"Unknown table {key!r}; choose one of {', '.join(PRESETS)}."
            )
        base, allowed, derive = spec
        for name in options:
            if name not in allowed:
                raise InvalidRules(name, f"The {key} table does not let you change {name!r}.")
        knobs = dict(base)
        knobs.update(derive(options))
        knobs.update(options)
        if key == "goat" and knobs.get("target") not in (101, 125):
            raise InvalidRules("target", "The goat target is 101 or 125 points.")
        if key in ("com_monte", "sem_monte") and knobs["scoring"] not in ("opponents", "goat"):
            raise InvalidRules("scoring", "This table scores as 'opponents' or 'goat'.")
        if "draw" in options and options["draw"] and knobs["seats"] == 4 and key == "goat":
            raise InvalidRules(
                "draw", "At four seats every tile is dealt: there is nothing to draw."
            )
        return cls(preset_key=key, **knobs)

    # -- JSON ----------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Every knob, by name; a knob newer than stored snapshots only when set,
        so a round stored before it reads and writes back the same.

        >>> "walkover" in PRESETS["duelo"].to_dict(), PRESETS["arena"].to_dict()["walkover"]
        (False, True)
        """
        data = {
            name: getattr(self, name)
            for name in _KNOB_ORDER
            if not (name in _WRITTEN_WHEN_SET and getattr(self, name) == _DEFAULTS[name])
        }
        data["preset"] = self.preset_key
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleSet:
        if not isinstance(data, dict):
            raise InvalidRules(None, "Rules must be an object of knobs.")
        knobs = {k: v for k, v in data.items() if k in _KNOBS}
        return cls(preset_key=data.get("preset"), **knobs)


def _label(knob: str) -> str:
    """``hand_size`` -> ``Hand size``: knob names as a person reads them."""
    return knob.replace("_", " ").capitalize()


_KNOB_ORDER = tuple(f.name for f in dataclasses.fields(RuleSet) if f.name != "preset_key")
_DEFAULTS: dict[str, Any] = {f.name: f.default for f in dataclasses.fields(RuleSet)}
#: Knobs added after rounds were stored with the others: written only when not at
#: their default (which is what an absent one reads as).
_WRITTEN_WHEN_SET = frozenset(
    {"walkover", *WIN_KNOBS.values(), "closed_round", "redeal_doubles",
     "redeal_worth_double", "doubles_prizes", "spinner"}
)  # fmt: skip
_KNOBS = frozenset(_KNOB_ORDER)


def _no_derivation(options: dict[str, Any]) -> dict[str, Any]:
    return {}


def _seat_derivation(options: dict[str, Any]) -> dict[str, Any]:
    seats = options.get("seats", 2)
    return {"partnership": seats == 4}


def _classico(options: dict[str, Any]) -> dict[str, Any]:
    seats = options.get("seats", 4)
    return {"partnership": seats == 4, "draw": seats < 4}


def _com_monte(options: dict[str, Any]) -> dict[str, Any]:
    seats = options.get("seats", 2)
    return {"partnership": seats == 4, "hand_size": 7 if seats == 2 else 5}


def _pontos(options: dict[str, Any]) -> dict[str, Any]:
    seats = options.get("seats", 4)
    return {"partnership": seats == 4, "hand_size": {2: 9, 3: 7}.get(seats, 5)}


def _goat(options: dict[str, Any]) -> dict[str, Any]:
    seats = options.get("seats", 4)
    return {"partnership": seats == 4, "draw": seats < 4}


_PARCERIA = dict(
    seats=4, partnership=True, hand_size=7, draw=False, first_opening="double_six",
    next_opening="rotate", lock_closure=False, scoring="opponents", blocked_points="as_domino",
    blocked_tie="last_player_loses", goal="points", target=50, rounds=None, next_round="host",
    walkover=False,
)  # fmt: skip
_TWO = dict(seats=2, partnership=False, hand_size=7, draw=True)

_PRESET_SPECS: dict[str, tuple[dict[str, Any], frozenset[str], Any]] = {
    "parceria": (_PARCERIA, frozenset({"target"}), _no_derivation),
    "duelo": (
        {**_PARCERIA, **_TWO, "first_opening": "highest_double", "next_opening": "same",
         "blocked_points": "difference", "blocked_tie": "draw", "goal": "single",
         "target": None, "next_round": "all_ready"},
        frozenset(),
        _no_derivation,
    ),
    "arena": (
        {**_PARCERIA, **_TWO, "first_opening": "highest_double", "next_opening": "same",
         "lock_closure": True, "scoring": "series", "blocked_tie": "tiebreak",
         "goal": "best_of", "target": None, "rounds": 5, "next_round": "all_ready",
         "walkover": True},
        frozenset(),
        _no_derivation,
    ),
    "classico": (
        {**_PARCERIA, "first_opening": "highest_double", "next_opening": "rotate",
         "scoring": "all_hands", "blocked_tie": "opener_wins", "target": 100},
        frozenset({"seats", "partnership", "target"}),
        _classico,
    ),
    "com_monte": (
        {**_PARCERIA, **_TWO, "first_opening": "lowest_double", "next_opening": "same",
         "blocked_tie": "draw", "target": 100, "next_round": "all_ready"},
        frozenset({"seats", "partnership", "hand_size", "scoring", "target"}),
        _com_monte,
    ),
    "sem_monte": (
        {**_PARCERIA, **_TWO, "draw": False, "first_opening": "lowest_double",
         "next_opening": "same", "blocked_tie": "draw", "target": 100,
         "next_round": "all_ready"},
        frozenset({"seats", "partnership", "hand_size", "scoring", "target"}),
        _seat_derivation,
    ),
    "goat": (
        {**_PARCERIA, "first_opening": "one_one", "next_opening": "winner", "scoring": "goat",
         "blocked_tie": "draw", "target": 101, "next_round": "all_ready"},
        frozenset({"seats", "partnership", "draw", "target"}),
        _goat,
    ),
    "internacional": (
        {**_PARCERIA, "first_opening": "highest_tile", "next_opening": "winner",
         "blocked_tie": "draw", "target": 100, "next_round": "all_ready"},
        frozenset({"target"}),
        _no_derivation,
    ),
    "internacional_dois": (
        {**_PARCERIA, **_TWO, "first_opening": "highest_tile", "next_opening": "winner",
         "blocked_tie": "draw", "target": 100, "next_round": "all_ready"},
        frozenset({"target"}),
        _no_derivation,
    ),
    "partida": (
        {**_PARCERIA, "scoring": "how_won", "target": 6, "closed_round": "carry",
         "redeal_doubles": 4, "next_round": "all_ready"},
        frozenset({"target"}),
        _no_derivation,
    ),
    "partida_dois": (
        {**_PARCERIA, **_TWO, "first_opening": "highest_double", "scoring": "how_won",
         "blocked_tie": "draw", "target": 6, "closed_round": "carry", "redeal_doubles": 4,
         "next_round": "all_ready"},
        frozenset({"target"}),
        _no_derivation,
    ),
    "pontos": (
        {**_PARCERIA, "hand_size": 5, "draw": True, "first_opening": "highest_double",
         "next_opening": "winner", "scoring": "fives", "blocked_tie": "draw", "target": 150,
         "next_round": "all_ready", "spinner": True},
        frozenset({"seats", "target"}),
        _pontos,
    ),
}  # fmt: skip

#: The option knobs each preset lets a room change.
PRESET_OPTIONS: dict[str, frozenset[str]] = {k: v[1] for k, v in _PRESET_SPECS.items()}

#: Every table with its default options.
PRESETS: dict[str, RuleSet] = {key: RuleSet.preset(key) for key in _PRESET_SPECS}
