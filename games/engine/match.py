"""A match: rounds until the goal is reached.

>>> import random
>>> from games.engine import PRESETS
>>> match = Match(PRESETS["parceria"])
>>> rnd = match.new_round(random.Random(1))
>>> while not rnd.is_over:
...     rnd.apply(rnd.turn, rnd.legal_actions()[0])
>>> match.finish_round(rnd.result)
>>> sum(match.scores) > 0 or rnd.result.winner is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from .result import RoundResult
from .round import Round
from .rules import RuleSet
from .tiles import Tile


class Match:
    """Scores per side across rounds; decides when the match is over and who won.

    * ``points``: a side that reaches the target ends the match; under ``goat``
      scoring reaching it LOSES, and the winner is the side with the lowest
      score (None if that is shared). Under ``fives`` scoring the rounds are
      dealt with the match's scores, so the play that takes a side to the
      target ends the round and the match there (``reason`` ``"target"``): the
      first side to reach it wins, and two sides never pass it together.
    * ``best_of``: first side to win a majority of ``rounds`` (drawn rounds win
      nothing; if all ``rounds`` are played without a majority, the most wins,
      or None when shared).
    * ``single``: one round; its winner (None for a drawn round).
    * whatever the goal, a round whose result ``wins_match`` (six doubles dealt
      to one hand, with ``doubles_prizes``) ends it, won by that side.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.scores: tuple[int, ...] = (0,) * rules.sides
        self.results: list[RoundResult] = []
        self.is_over = False
        self.winner: int | None = None
        self.ended_by: str | None = None  # "goal", "walkover", or end()'s reason

    @property
    def rounds_played(self) -> int:
        return len(self.results)

    @property
    def last_result(self) -> RoundResult | None:
        return self.results[-1] if self.results else None

    def new_round(
        self,
        rng: Any = None,
        *,
        order: Sequence[Tile | str] | None = None,
        tiebreak_order: Sequence[Tile | str] | None = None,
        redeal_orders: Iterable[Sequence[Tile | str]] | None = None,
    ) -> Round:
        """Deal the next round, opened as the rules say for this point of the match:
        shuffled by ``rng``, or from the given ``order`` (and ``redeal_orders``
        where a hand of too many doubles is dealt again: `Round.deal`)."""
        if self.is_over:
            raise ValueError("the match is over: start a new match")
        return Round.deal(
            self.rules,
            rng,
            previous=self.last_result,
            order=order,
            tiebreak_order=tiebreak_order,
            redeal_orders=redeal_orders,
            scores=self.scores,
        )

    def finish_round(self, result: RoundResult) -> None:
        """Add a finished round's points and decide whether the match is over."""
        if self.is_over:
            raise ValueError("the match is over: start a new match")
        if len(result.points) != len(self.scores):
            raise ValueError("the result has a different number of sides")
        self.results.append(result)
        self.scores = tuple(s + p for s, p in zip(self.scores, result.points, strict=True))
        rules = self.rules
        if result.wins_match or result.reason == "target":
            # six doubles in a hand, where the rules say so; or, in the game of
            # points, a play that took its side to the target (the round stopped there)
            self._end(result.winner)
        elif rules.goal == "single":
            self._end(result.winner)
        elif rules.goal == "best_of":
            rounds = rules.rounds
            assert rounds is not None  # RuleSet refuses best_of without rounds
            needed = rounds // 2 + 1
            leaders = [s for s, wins in enumerate(self.scores) if wins >= needed]
            if leaders:
                self._end(leaders[0])
            elif self.rounds_played >= rounds:
                self._end(_unique_best(self.scores, max))
        elif any(score >= _target(rules) for score in self.scores):
            if rules.scoring == "goat":
                self._end(_unique_best(self.scores, min))
            else:
                self._end(_unique_best(self.scores, max))

    def end(self, reason: str, winner: int | None = None) -> None:
        """End the match now, before its goal: ``winner`` side, or nobody (None).

        For a match stopped from outside the rules (a W.O., an annulment, a
        restart); ``reason`` is kept as ``ended_by``. Ending a match that is
        already over is refused, as is a side the rules do not have.

        >>> from games.engine import PRESETS
        >>> match = Match(PRESETS["parceria"])
        >>> match.end("annulled")
        >>> match.is_over, match.winner, match.ended_by
        (True, None, 'annulled')
        >>> match.end("restart")
        Traceback (most recent call last):
        ...
        ValueError: the match is over: start a new match
        >>> Match(PRESETS["parceria"]).end("walkover", winner=2)
        Traceback (most recent call last):
        ...
        ValueError: there is no side 2
        """
        if self.is_over:
            raise ValueError("the match is over: start a new match")
        if winner is not None:
            self._check_side(winner)
        if not reason:
            raise ValueError("a match is ended for a reason: it is empty")
        self._end(winner, reason)

    def _check_side(self, side: int) -> None:
        if not 0 <= side < len(self.scores):
            raise ValueError(f"there is no side {side}")

    def _end(self, winner: int | None, reason: str = "goal") -> None:
        self.is_over = True
        self.winner = winner
        self.ended_by = reason

    def to_dict(self) -> dict[str, Any]:
        return {
            "rules": self.rules.to_dict(),
            "scores": list(self.scores),
            "results": [r.to_dict() for r in self.results],
            "over": self.is_over,
            "winner": self.winner,
            "ended_by": self.ended_by,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        match = cls(RuleSet.from_dict(data["rules"]))
        match.scores = tuple(data["scores"])
        match.results = [RoundResult.from_dict(r) for r in data["results"]]
        match.is_over = data["over"]
        match.winner = data["winner"]
        match.ended_by = data.get("ended_by")
        return match


def _target(rules: RuleSet) -> int:
    target = rules.target
    assert target is not None  # RuleSet refuses goal="points" without a target
    return target


def _unique_best(scores: tuple[int, ...], pick: Callable[[tuple[int, ...]], int]) -> int | None:
    best = pick(scores)
    sides = [s for s, score in enumerate(scores) if score == best]
    return sides[0] if len(sides) == 1 else None
