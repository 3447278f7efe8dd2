"""Scoring a finished round's decisions from each mover's own view (pure: the
engine and the bots' policies only, no Django).

For every decision with a choice (more than one distinct legal action; tie-break
picks are blind and never scored) the round is rebuilt to the moment before the
move, the mover's view (`Round.view(seat)`: their hand and the public facts,
nothing else) is read as the hard bot reads it (`bots.knowledge.read_view`),
``samples`` hidden deals consistent with it are drawn (`bots.sampling`), and
every candidate is played out to the end of the round on each deal by the
medium policy at every seat (`bots.search.playout`), all candidates on the same
deals. A candidate's value is the average of the points the mover's side gains
minus what the others gain (points are penalties under goat scoring: negated),
so the unit is points of this round.

The loss of the chosen action is the best value minus the chosen one (0 when
the choice was the best); `label_for` names it, `move_accuracy` turns it into a
0-100 figure (docs/decisions.md, "Round analysis"). Deterministic: every
decision's randomness comes from ``seed`` and the move's number.

>>> from games.engine import PRESETS, Round
>>> import random
>>> rnd = Round.deal(PRESETS["parceria"], random.Random(3))
>>> moves = []
>>> while not rnd.is_over:
...     seat = rnd.turn
...     action = rnd.legal_actions()[-1]
...     rnd.apply(seat, action)
...     moves.append((seat, rnd.history[-1][1].to_dict(), "person"))
>>> done = score_round(PRESETS["parceria"], rnd.initial, moves, seed=1, work=200)
>>> all(d.loss >= 0 for d in done) and all(len(d.options) > 1 for d in done)
True
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from bots.heuristics import Table
from bots.knowledge import read_view
from bots.sampling import Positions, Sampler
from bots.search import (
    ACTIONS_PER_MS,
    DEAL_COST,
    DEFAULT_BUDGET_MS,
    WORK_SHARE,
    distinct_actions,
    playout,
)
from games.engine import Action, Pick, Play, Round, RoundResult, RuleSet, action_from_dict

#: A live hard move's fixed work (simulated engine actions and ``DEAL_COST`` a
#: deal, `bots.search`).
LIVE_WORK = int(DEFAULT_BUDGET_MS * ACTIONS_PER_MS * WORK_SHARE)
#: The analysis of a decision spends this many times a live move's work, counted
#: the same way: at the same position it draws more deals than a live move.
WORK_FACTOR = 1.1
#: Hidden deals drawn per decision at least, however long the playouts.
MIN_SAMPLES = 24
#: Losses (points of the round) from which a choice is labelled, mildest first.
THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("imprecisao", 3.0),
    ("erro", 6.0),
    ("capivarada", 12.0),
)
#: Points of loss at which a move's accuracy falls to 1/e of 100.
ACCURACY_SCALE = 12.0


@dataclass(frozen=True, slots=True)
class Option:
    """One candidate action and its expected points for the mover's side."""

    action: Action
    value: float


@dataclass(frozen=True, slots=True)
class Decision:
    """One scored decision: move ``seq`` (1-based) by ``seat``."""

    seq: int
    seat: int
    options: tuple[Option, ...]
    chosen: int
    best: int

    @property
    def loss(self) -> float:
        return max(0.0, self.options[self.best].value - self.options[self.chosen].value)

    @property
    def label(self) -> str | None:
        return label_for(self.loss)

    @property
    def accuracy(self) -> float:
        return move_accuracy(self.loss)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "options": [{**o.action.to_dict(), "value": round(o.value, 2)} for o in self.options],
            "chosen": self.chosen,
            "best": self.best,
            "loss": round(self.loss, 2),
            "label": self.label,
            "accuracy": round(self.accuracy, 1),
        }


def label_for(loss: float) -> str | None:
    """The label of a loss (None under the mildest threshold).

    >>> [label_for(x) for x in (0, 2.9, 3, 6, 12)]
    [None, None, 'imprecisao', 'erro', 'capivarada']
    """
    name = None
    for label, threshold in THRESHOLDS:
        if loss >= threshold:
            name = label
    return name


def move_accuracy(loss: float) -> float:
    """A decision's accuracy, 100 for the best choice, falling with its loss.

    >>> move_accuracy(0.0), round(move_accuracy(ACCURACY_SCALE), 1)
    (100.0, 36.8)
    """
    return 100.0 * math.exp(-max(0.0, loss) / ACCURACY_SCALE)


def accuracy(decisions: Iterable[Decision | dict[str, Any]]) -> float | None:
    """The mean accuracy of some decisions (None if there are none)."""
    values = [d.accuracy if isinstance(d, Decision) else float(d["accuracy"]) for d in decisions]
    return sum(values) / len(values) if values else None


def round_seed(*parts: object) -> int:
    """A seed derived from what identifies a round (its room, match and number)."""
    text = ":".join(str(p) for p in ("analysis", *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def score_round(
    rules: RuleSet,
    deal: dict[str, Any],
    moves: Sequence[tuple[int, dict[str, Any], str]],
    *,
    seed: int,
    work: int | None = None,
    scored_seats: Iterable[int] | None = None,
) -> list[Decision]:
    """Every decision with a choice among ``moves`` ((seat, action dict, by), as
    stored) made by a person (``by == "person"``) at one of ``scored_seats``
    (default: every seat). ``deal`` is the engine's `Round.initial()`.

    Each decision gets ``work`` (default ``WORK_FACTOR`` times a live move's;
    see `score_decision`)."""
    seats = set(range(rules.seats) if scored_seats is None else scored_seats)
    decisions = []
    for rnd, seat, action, seq in _choices(rules, deal, moves, seats):
        decision = score_decision(rnd, seat, action, seq, seed=seed, work=work)
        if decision is not None:
            decisions.append(decision)
    return decisions


def timed_score_round(*args: Any, **kwargs: Any) -> tuple[list[Decision], int]:
    """`score_round` (its arguments) and the CPU milliseconds it took in this
    process (so a scoring run in a child process reports its own time)."""
    started = time.process_time()
    decisions = score_round(*args, **kwargs)
    return decisions, int((time.process_time() - started) * 1000)


def _choices(
    rules: RuleSet,
    deal: dict[str, Any],
    moves: Sequence[tuple[int, dict[str, Any], str]],
    seats: set[int],
) -> Iterable[tuple[Round, int, Action, int]]:
    """The position (a copy), seat, action and number of every person's move
    with more than one distinct legal action."""
    rnd = Round.replay(rules, deal, [])
    for seq, (seat, data, by) in enumerate(moves, start=1):
        action = action_from_dict(data)
        if by == "person" and seat in seats and type(action) is not Pick and rnd.turn == seat:
            ends = rnd.ends
            if len(distinct_actions(rnd.legal_actions(seat), ends)) > 1:
                yield rnd.clone(), seat, action, seq
        rnd.apply(seat, action)


def score_decision(
    rnd: Round, seat: int, chosen: Action, seq: int, *, seed: int, work: int | None = None
) -> Decision | None:
    """The decision ``seat`` faced in ``rnd`` (None if it had no choice).

    Deals are drawn until ``work`` is spent (default ``WORK_FACTOR`` times a
    live move's, counted as a live move counts it: every simulated action, and
    ``DEAL_COST`` a deal) and at least ``MIN_SAMPLES`` deals: a count, not a
    time, so the result depends on the seed only."""
    view = rnd.view(seat)
    know = read_view(view)
    candidates = distinct_actions(rnd.legal_actions(seat), know.ends)
    if len(candidates) < 2:
        return None
    chosen_index = _index_of(candidates, chosen)
    totals = [0.0] * len(candidates)
    rng = random.Random(seed * 1000 + seq)
    table = Table.from_knowledge(know)
    side = know.rules.side_of(seat)
    budget = int(LIVE_WORK * WORK_FACTOR) if work is None else work
    sampler = Sampler(know)
    positions = Positions(view)
    used = n = 0
    while used < budget or n < MIN_SAMPLES:
        base = positions.of(sampler.draw(rng))
        playout_seed = rng.getrandbits(32)
        for i, action in enumerate(candidates):
            result, steps = playout(base, seat, action, table, random.Random(playout_seed))
            totals[i] += points_value(result, side, know.rules)
            used += steps
        used += DEAL_COST
        n += 1
    options = tuple(Option(a, t / n) for a, t in zip(candidates, totals, strict=True))
    best = max(range(len(options)), key=lambda i: (options[i].value, i == chosen_index, -i))
    return Decision(seq=seq, seat=seat, options=options, chosen=chosen_index, best=best)


def points_value(result: RoundResult, side: int, rules: RuleSet) -> float:
    """The points ``side`` gains in ``result`` minus the others' average
    (negated when points are penalties)."""
    points = result.points
    others = [p for s, p in enumerate(points) if s != side]
    diff = points[side] - sum(others) / len(others)
    return -diff if rules.scoring == "goat" else float(diff)


def _index_of(candidates: list[Action], chosen: Action) -> int:
    if chosen in candidates:
        return candidates.index(chosen)
    if type(chosen) is Play:  # a mirror image, or the first tile recorded with its end
        for i, action in enumerate(candidates):
            if type(action) is Play and action.tile == chosen.tile:
                return i
    raise ValueError(f"{chosen} is not among the legal actions")
