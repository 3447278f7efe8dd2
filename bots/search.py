"""The hard player: determinized Monte Carlo over deals weighed by belief.

Deals consistent with the view (`bots.sampling`) are drawn in proportion to
how likely they make each seat's plays (`bots.belief`). For each deal the
round is rebuilt with ``Round.from_view`` and every candidate action is
valued on it: played out to the end of the round by the medium policy at
every seat, or, once the hands hold ``ENDGAME_TILES`` tiles or fewer and no
boneyard is left, solved exactly by alpha-beta (`bots.endgame`). The
candidate with the best average wins. All candidates share each deal (common
random numbers), so their comparison is not drowned in the noise of the deals.
A finished round is valued by `utility`: in a two-side points game, by the
chance it leaves of winning the match (`match_equity`, `bots.equity`).

Time budget and determinism: the amount of work is fixed in advance from the
budget, counted in simulated engine actions (``ACTIONS_PER_MS`` was calibrated
on the machine CI runs on so that ``WORK_SHARE`` of the budget is spent on
average; a node of the exact solve counts ``NODE_COST`` actions, and drawing a
deal and setting it up ``DEAL_COST``, so that late decisions, with short
playouts and many deals, take about as long as early ones); the decision
is then a pure function of the view, the rng state and the budget. A
wall-clock cap (``WALL_SHARE`` of the budget) stops early on a slower or busy
machine: only then does the decision depend on timing. At least one deal is
always valued.

The exact solve lets every seat "know" every hand of the deal, which
overrates plays that only work with that knowledge; earlier in the round,
when many hands remain possible, it lost to the playouts (bench/bots.py), so
it is kept for the last few tiles, where the belief is sharp and the trees
small.
"""

from __future__ import annotations

import functools
import math
import random
import time
from collections import Counter
from collections.abc import Callable
from typing import Any, cast

from games.engine import Action, Pass, Play, Round, RoundResult, RuleSet

from .belief import PlayModel, sample_weighted
from .endgame import Budget, OutOfNodes, solve
from .equity import MatchEquity
from .heuristics import Table, medium_choice, medium_scores
from .knowledge import Knowledge, read_view
from .sampling import Positions, Sampler

DEFAULT_BUDGET_MS = 150
#: Simulated engine actions per millisecond of budget, measured on the reference machine.
ACTIONS_PER_MS = 130.0
#: Share of the budget the fixed amount of work is meant to take.
WORK_SHARE = 0.7
#: Share of the budget after which the wall-clock cap stops the search.
WALL_SHARE = 0.85
#: Extra utility for a round that wins the match (and minus for one that loses it).
MATCH_WEIGHT = 0.5
#: Solve each deal exactly (`bots.endgame`) once the hands hold this many tiles or fewer.
ENDGAME_TILES = 6
#: Simulated actions one node of the exact solve is counted as (it costs a clone too).
NODE_COST = 2
#: Simulated actions drawing one deal and setting it up is counted as.
DEAL_COST = 13
#: Nodes one deal's solve (all candidates) may take before playouts take over.
ENDGAME_NODES = 500
#: Rounds of medium play (fixed seed) that measure a rule set's round points for its match equity.
EQUITY_ROUNDS = 400
#: Weight of the round's points beside the match equity (which is scaled to the target).
EQUITY_POINTS = 0.01
# The game of points' search knobs (docs/decisions.md, "The game of points
# plays with the spinner"), each measured against medium.
#: Only the medium player's best this many plays are searched...
FIVES_CANDIDATES = 4
#: ... and another than its first is played only when it beats that one by this
#: many standard errors of their paired difference over the deals.
FIVES_MARGIN = 1.0
#: A playout stops after this many actions, the round then valued by the points
#: its plays made so far (0: played to its end).
FIVES_HORIZON = 0
#: Weigh the deals by the plays seen (`bots.belief`, whose model of play prefers
#: heavy tiles, where these players chase the count).
FIVES_BELIEF = True


def hard_choice(
    view: dict[str, Any],
    legal: list[Action],
    know: Knowledge,
    rng: random.Random,
    scores: tuple[int, ...] | None,
    budget_ms: float | None,
    clock: Callable[[], float] = time.perf_counter,
) -> Action:
    """The candidate with the best average outcome over sampled deals. The
    wall-clock cap reads ``clock`` (seconds): a benchmark sharing its machine
    passes the thread's CPU time, so that the others' load does not cut its
    searches short."""
    candidates = distinct_actions(legal, know.ends, know.rules)
    if len(candidates) == 1:
        return candidates[0]
    fives = know.rules.scoring == "fives" and type(candidates[0]) is Play
    if fives:
        candidates = _medium_first(candidates, know)[:FIVES_CANDIDATES]
    budget = DEFAULT_BUDGET_MS if budget_ms is None else max(float(budget_ms), 1.0)
    work = max(1, int(budget * ACTIONS_PER_MS * WORK_SHARE))
    equity = match_equity(know.rules)  # measured once a rule set, before the clock starts
    deadline = clock() + budget * WALL_SHARE / 1000.0
    squares = [0.0] * (len(candidates) + 1) if fives else None
    totals, _ = evaluate(
        view, candidates, know, rng, scores, work, deadline, clock, equity, squares
    )
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    if squares is not None and best and not _clearly_better(totals, squares, best):
        return candidates[0]
    return candidates[best]


def _medium_first(candidates: list[Action], know: Knowledge) -> list[Action]:
    """The plays in the medium player's order, its choice first (equals keep their order)."""
    plays = cast("list[Play]", candidates)
    scores = medium_scores(plays, know.hand, know.ends, know.seat, Table.from_knowledge(know))
    order = sorted(range(len(plays)), key=lambda i: -scores[i])
    return [candidates[i] for i in order]


def _clearly_better(totals: list[float], squares: list[float], best: int) -> bool:
    """Whether candidate ``best`` beats candidate 0 by ``FIVES_MARGIN`` standard
    errors of their paired difference (``squares``: per candidate the sum of its
    squared differences from candidate 0 over the deals, the deals last)."""
    deals = squares[-1]
    if deals < 2:
        return False
    mean = (totals[best] - totals[0]) / deals
    variance = max(squares[best] / deals - mean * mean, 0.0) * deals / (deals - 1)
    return mean > FIVES_MARGIN * math.sqrt(variance / deals)


def evaluate(
    view: dict[str, Any],
    candidates: list[Action],
    know: Knowledge,
    rng: random.Random,
    scores: tuple[int, ...] | None,
    work: int,
    deadline: float,
    clock: Callable[[], float] = time.perf_counter,
    equity: MatchEquity | None = None,
    squares: list[float] | None = None,
) -> tuple[list[float], int]:
    """Total utility of each candidate over sampled deals, and the actions simulated.

    Deals are sampled until ``work`` simulated actions are spent or the clock
    passes ``deadline`` (``clock()`` seconds); at least one deal. A finished
    round is valued by `utility` (with the match ``equity`` when given).
    ``squares``, when given, gathers per candidate the sum over the deals of
    its squared difference from candidate 0, and in its last slot the deals.
    """
    table = Table.from_knowledge(know)
    side = know.rules.side_of(know.seat)
    totals = [0.0] * len(candidates)
    fives = know.rules.scoring == "fives"
    model = PlayModel(know, history=[] if fives and not FIVES_BELIEF else None)
    sampler = Sampler(know)
    exact = know.boneyard_count == 0 and sum(know.counts) <= ENDGAME_TILES
    horizon = FIVES_HORIZON if know.rules.scoring == "fives" else 0

    def worth(result: RoundResult) -> float:
        return utility(result, side, know.rules, scores, equity)

    used = 0
    complete = 0
    positions = Positions(view)
    while True:
        base = positions.of(sample_weighted(sampler, model, rng))
        values: list[float] | None = None
        if exact:
            values, nodes = _solve_all(base, know.seat, candidates, side, worth)
            # Each candidate counts, even one that ends the round at once (no node).
            used += (nodes + len(candidates)) * NODE_COST
            exact = values is not None
        if values is None:
            seed = rng.getrandbits(32)
            values = []
            for action in candidates:
                if complete and clock() >= deadline:
                    return (
                        totals,
                        used,
                    )  # drop the unfinished deal: every candidate saw the same deals
                result, steps = playout(
                    base, know.seat, action, table, random.Random(seed), horizon
                )
                values.append(worth(result))
                used += steps
        for i, value in enumerate(values):
            totals[i] += value
        if squares is not None:
            for i, value in enumerate(values):
                squares[i] += (value - values[0]) ** 2
            squares[-1] += 1
        used += DEAL_COST
        complete += 1
        if used >= work or clock() >= deadline:
            return totals, used


def _solve_all(
    base: Round,
    seat: int,
    candidates: list[Action],
    side: int,
    value: Callable[[RoundResult], float],
) -> tuple[list[float] | None, int]:
    """Each candidate's exact value on this deal, and the nodes visited
    (None when the node budget ran out: the caller falls back on playouts)."""
    budget = Budget(ENDGAME_NODES)
    values = []
    try:
        for action in candidates:
            child = base.clone()
            child.apply(seat, action)
            values.append(solve(child, side, value, budget))
    except OutOfNodes:
        return None, ENDGAME_NODES
    return values, ENDGAME_NODES - budget.left


def distinct_actions(
    legal: list[Action], ends: tuple[int, int] | None, rules: RuleSet | None = None
) -> list[Action]:
    """Legal actions minus mirror images: with both ends showing the same number,
    a tile on end A or on end B leaves the same position. Not under ``fives``
    scoring (the game of points): there a double at one end counts twice, so the
    two ends of one number may count differently."""
    if ends is None or ends[0] != ends[1] or (rules is not None and rules.scoring == "fives"):
        return list(legal)
    seen = set()
    result = []
    for action in legal:
        key = action.tile if type(action) is Play else action
        if key not in seen:
            seen.add(key)
            result.append(action)
    return result


def playout(
    base: Round,
    seat: int,
    action: Action,
    table: Table,
    rng: random.Random,
    horizon: int = 0,
) -> tuple[RoundResult, int]:
    """Apply ``action`` to a copy of ``base`` and let the medium policy finish the
    round; with a ``horizon``, stop after that many actions, the round then
    valued by the points made so far (the game of points: `Round.made`)."""
    rnd = base.clone()
    table = table.copy()
    _record(table, seat, action, rnd.ends)
    rnd.apply(seat, action)
    steps = 1
    while not rnd.is_over:
        if horizon and steps >= horizon:
            made = rnd.made
            assert made is not None
            unfinished = RoundResult("unfinished", None, rnd.opener, made, (), (), None)
            return unfinished, steps
        turn = rnd.turn
        if turn is None:  # tie-break pick-off: picks are blind, any free position will do
            for picker in sorted(rnd.pending_picks):
                picks = rnd.legal_actions(picker)
                rnd.apply(picker, picks[rng.randrange(len(picks))])
            continue
        legal = rnd.legal_actions()
        choice = legal[0]
        if len(legal) > 1:
            choice = medium_choice(legal, rnd.hand(turn), rnd.ends, turn, table)
        _record(table, turn, choice, rnd.ends)
        rnd.apply(turn, choice)
        steps += 1
    assert rnd.result is not None
    return rnd.result, steps


def _record(table: Table, seat: int, action: Action, ends: tuple[int, int] | None) -> None:
    if type(action) is Play:
        table.played(seat, action.tile, action.end)
    elif type(action) is Pass:
        table.passed(seat, ends)
    else:
        table.drew(seat, ends)


def utility(
    result: RoundResult,
    side: int,
    rules: RuleSet,
    scores: tuple[int, ...] | None,
    equity: MatchEquity | None = None,
) -> float:
    """How good a finished round is for ``side``.

    Points games: with the match ``equity`` (two sides, `match_equity`), the
    chance of winning the match at the new scores, scaled to the target, plus
    ``EQUITY_POINTS`` per point of the round (scores default to 0-0). Without
    it: this side's points minus the others' average (negated under goat
    scoring, where points are penalties), plus ``MATCH_WEIGHT * target`` when
    the round ends the match in this side's favour (minus when against).
    Single-round and best-of games: the round's winner is what counts.
    """
    points = result.points
    others = [p for s, p in enumerate(points) if s != side]
    diff = points[side] - sum(others) / len(others)
    if rules.goal != "points":
        won = 0.0 if result.winner is None else (1.0 if result.winner == side else -1.0)
        return won + 0.001 * diff
    if equity is not None and len(points) == 2:
        before = scores if scores is not None and len(scores) == 2 else (0, 0)
        ours, theirs = before[side] + points[side], before[1 - side] + points[1 - side]
        return equity.target * equity.win(ours, theirs) + EQUITY_POINTS * diff
    goat = rules.scoring == "goat"
    if goat:
        diff = -diff
    if scores is not None and len(scores) == len(points):
        winner = _match_winner(rules, [s + p for s, p in zip(scores, points, strict=True)])
        if winner is not None:
            bonus = MATCH_WEIGHT * (rules.target or 0)
            diff += bonus if winner == side else -bonus
    return diff


def _match_winner(rules: RuleSet, totals: list[int]) -> int | None:
    """The side that wins the match at these totals (None: not over, or shared)."""
    if max(totals) < (rules.target or 0):
        return None
    best = min(totals) if rules.scoring == "goat" else max(totals)
    leaders = [s for s, total in enumerate(totals) if total == best]
    return leaders[0] if len(leaders) == 1 else None


@functools.lru_cache(maxsize=64)
def match_equity(rules: RuleSet) -> MatchEquity | None:
    """The match equity of a two-side points game to a target (None for other
    games): its round model is ``EQUITY_ROUNDS`` rounds of medium play at every
    seat from ``random.Random(0)``, so it is the same in every process."""
    if rules.goal != "points" or rules.sides != 2 or rules.scoring == "goat" or not rules.target:
        return None
    rng = random.Random(0)
    wins: Counter[int] = Counter()
    both: Counter[tuple[int, int]] = Counter()  # fives: what each side made, the loser too
    for _ in range(EQUITY_ROUNDS):
        rnd = Round.deal(rules, rng)
        seat = rnd.turn  # a dealt round always has its opener to play
        assert seat is not None
        table = Table.from_knowledge(read_view(rnd.view(seat)))
        first = medium_choice(rnd.legal_actions(), rnd.hand(seat), rnd.ends, seat, table)
        result, _ = playout(rnd, seat, first, table, rng)
        if rules.scoring == "fives":
            both[result.points[0], result.points[1]] += 1
        elif result.winner is not None:
            wins[result.points[result.winner]] += 1
    if rules.scoring == "fives":
        if not any(x or y for x, y in both):
            return None
        return MatchEquity(rules.target, rounds=both, unit=5)
    if not any(points > 0 for points in wins):
        return None
    return MatchEquity(rules.target, wins)
