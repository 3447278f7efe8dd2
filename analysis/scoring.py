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
so the unit is points of this round as the engine scores the preset: a
lá-e-lô's 3 in the partida de 6, the plays' points and the rounded pips in the
game of points (`RoundResult.points` holds both).

The labels' thresholds and the accuracy's scale are `parceria`'s points of
pips; the partida's and the game of points' points are counted against them
scaled to their target (`point_scale`: a partida to 6 has 0.12 of parceria's
50, a game of points to 150 three times it).

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
from collections.abc import Callable, Iterable, Sequence
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


#: Scorings whose points are not pips: their losses count against the
#: thresholds scaled to their match's target (`point_scale`).
SCALED_SCORINGS = frozenset({"how_won", "fives"})
#: The target the thresholds were measured at (`parceria`'s).
THRESHOLD_TARGET = 50


def point_scale(rules: RuleSet) -> float:
    """What one of `parceria`'s points (the thresholds', the accuracy's) is worth
    in ``rules``' points: their target over 50 under the partida's and the game
    of points' scorings (0.12 to 6, 3 to 150), 1 for every pips scoring.

    >>> from games.engine import PRESETS
    >>> [point_scale(PRESETS[k]) for k in ("parceria", "classico", "partida", "pontos")]
    [1.0, 1.0, 0.12, 3.0]
    """
    if rules.scoring not in SCALED_SCORINGS or rules.goal != "points" or not rules.target:
        return 1.0
    return rules.target / THRESHOLD_TARGET


@dataclass(frozen=True, slots=True)
class Decision:
    """One scored decision: move ``seq`` (1-based) by ``seat``; ``scale`` is
    `point_scale` of its rules (the loss is in the preset's points, its label
    and accuracy read it in `parceria`'s)."""

    seq: int
    seat: int
    options: tuple[Option, ...]
    chosen: int
    best: int
    scale: float = 1.0

    @property
    def loss(self) -> float:
        return max(0.0, self.options[self.best].value - self.options[self.chosen].value)

    @property
    def label(self) -> str | None:
        return label_for(self.loss / self.scale)

    @property
    def accuracy(self) -> float:
        return move_accuracy(self.loss / self.scale)

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
    settle: bool = True,
    between: Callable[[], object] | None = None,
) -> list[Decision]:
    """Every decision with a choice among ``moves`` ((seat, action dict, by), as
    stored) made by a person (``by == "person"``) at one of ``scored_seats``
    (default: every seat). ``deal`` is the engine's `Round.initial()`.

    Each decision gets ``work`` at most (default ``WORK_FACTOR`` times a live
    move's), less once it is settled (``settle``; see `score_decision`).
    ``between`` is called after each decision (the worker's CPU budget,
    `analysis.pacing`)."""
    seats = set(range(rules.seats) if scored_seats is None else scored_seats)
    decisions = []
    for rnd, seat, action, seq in _choices(rules, deal, moves, seats):
        decision = score_decision(rnd, seat, action, seq, seed=seed, work=work, settle=settle)
        if decision is not None:
            decisions.append(decision)
        if between is not None:
            between()
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
        action = action_from_dict(data, spinner=rules.spinner)
        if by == "person" and seat in seats and type(action) is not Pick and rnd.turn == seat:
            ends = rnd.ends
            if len(distinct_actions(rnd.legal_actions(seat), ends, rules)) > 1:
                yield rnd.clone(), seat, action, seq
        rnd.apply(seat, action)


def score_decision(
    rnd: Round,
    seat: int,
    chosen: Action,
    seq: int,
    *,
    seed: int,
    work: int | None = None,
    settle: bool = True,
) -> Decision | None:
    """The decision ``seat`` faced in ``rnd`` (None if it had no choice).

    Deals are drawn, and every candidate played out on each, until ``work`` is
    spent (default ``WORK_FACTOR`` times a live move's, counted as a live move
    counts it: every simulated action, and ``DEAL_COST`` a deal) and at least
    ``MIN_SAMPLES`` deals: a count, not a time, so the result depends on the
    seed only.

    With ``settle`` (the default) it stops earlier, once the answer is clear
    (`Evidence.settled`: the best action is known and the label of the
    chosen one cannot change), and stops playing out a candidate once it
    cannot be the best (`Evidence.in_play`). The deals are the same ones, in
    the same order, as without it: a settled decision is the full run cut
    short, so both agree but where the full run's later deals would have
    moved a value across a label's threshold (bench/analysis.py counts how
    often)."""
    view = rnd.view(seat)
    know = read_view(view)
    candidates = distinct_actions(rnd.legal_actions(seat), know.ends, know.rules)
    if len(candidates) < 2:
        return None
    chosen_index = _index_of(candidates, chosen)
    scale = point_scale(know.rules)
    evidence = Evidence(len(candidates), chosen_index, scale)
    rng = random.Random(seed * 1000 + seq)
    table = Table.from_knowledge(know)
    side = know.rules.side_of(seat)
    budget = int(LIVE_WORK * WORK_FACTOR) if work is None else work
    sampler = Sampler(know)
    positions = Positions(view)
    playing = list(range(len(candidates)))
    used = n = 0
    while used < budget or n < MIN_SAMPLES:
        base = positions.of(sampler.draw(rng))
        playout_seed = rng.getrandbits(32)
        values: dict[int, float] = {}
        for i in playing:
            result, steps = playout(base, seat, candidates[i], table, random.Random(playout_seed))
            values[i] = points_value(result, side, know.rules)
            used += steps
        evidence.add(values)
        used += DEAL_COST
        n += 1
        if settle and n >= SETTLE_FROM and n % SETTLE_EVERY == 0:
            if evidence.settled():
                break
            playing = evidence.in_play()
    options = tuple(Option(a, evidence.mean(i)) for i, a in enumerate(candidates))
    best = max(range(len(options)), key=lambda i: (options[i].value, i == chosen_index, -i))
    return Decision(
        seq=seq, seat=seat, options=options, chosen=chosen_index, best=best, scale=scale
    )


#: A settled decision has at least this many deals, and is checked every few.
SETTLE_FROM = 8
SETTLE_EVERY = 4
#: Standard errors on each side of an estimate that count as "clear"
#: (bench/analysis.py: 2.0 keeps 98.9 % of the full budget's labels).
SETTLE_Z = 2.0
#: Candidates whose values lie within the mildest label's threshold are the
#: same for choosing the best: which of them is best changes no label.
SAME_VALUE = THRESHOLDS[0][1]


class Evidence:
    """Each candidate's value on each deal it was played out on, as paired
    samples against the chosen action (every candidate meets the same deals,
    so the differences are much less noisy than the values).

    >>> e = Evidence(2, chosen=0)
    >>> for _ in range(12):
    ...     e.add({0: 1.0, 1: 9.0})
    >>> e.loss_bounds(), e.settled()
    ((8.0, 8.0), True)
    """

    def __init__(self, candidates: int, chosen: int, scale: float = 1.0) -> None:
        self.chosen = chosen
        self.scale = scale  # `point_scale`: the labels read losses / scale
        self.sums = [0.0] * candidates
        self.counts = [0] * candidates
        # Sums and squares of (value - chosen's value) on the deals both met.
        self.diff = [0.0] * candidates
        self.diff2 = [0.0] * candidates

    def add(self, values: dict[int, float]) -> None:
        base = values[self.chosen]
        for i, value in values.items():
            self.sums[i] += value
            self.counts[i] += 1
            d = value - base
            self.diff[i] += d
            self.diff2[i] += d * d

    def mean(self, i: int) -> float:
        return self.sums[i] / self.counts[i] if self.counts[i] else 0.0

    def _gap(self, i: int) -> tuple[float, float]:
        """Candidate ``i``'s mean advantage over the chosen action, and its
        standard error."""
        n = self.counts[i]
        mean = self.diff[i] / n
        var = max(0.0, self.diff2[i] / n - mean * mean) * n / max(1, n - 1)
        return mean, math.sqrt(var / n)

    def loss_bounds(self) -> tuple[float, float]:
        """How little and how much the chosen action may lose to the best."""
        low = high = 0.0
        for i in range(len(self.sums)):
            mean, err = self._gap(i)
            low = max(low, mean - SETTLE_Z * err)
            high = max(high, mean + SETTLE_Z * err)
        return low, high

    def settled(self) -> bool:
        """The label cannot change, and the best is clear: one candidate may
        still be the best, or those that may are worth the same to within
        `SAME_VALUE`."""
        low, high = self.loss_bounds()
        if label_for(low / self.scale) != label_for(high / self.scale):
            return False
        floor, contenders = self._contenders()
        if len(contenders) == 1:
            return True
        return max(upper for _i, upper in contenders) - floor <= SAME_VALUE * self.scale

    def in_play(self) -> list[int]:
        """The candidates still worth playing out: every one that may still be
        the best, and the chosen one (the loss is measured from it)."""
        _floor, contenders = self._contenders()
        return sorted({self.chosen, *(i for i, _upper in contenders)})

    def _contenders(self) -> tuple[float, list[tuple[int, float]]]:
        """The best lower bound of an advantage, and the candidates whose upper
        bound reaches it (with that bound): the ones that may be the best."""
        bounds = []
        for i in range(len(self.sums)):
            mean, err = self._gap(i)
            bounds.append((mean - SETTLE_Z * err, mean + SETTLE_Z * err))
        floor = max(low for low, _high in bounds)
        return floor, [(i, high) for i, (_low, high) in enumerate(bounds) if high >= floor]


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
