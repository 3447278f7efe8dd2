"""Which analysed decisions make puzzles, and the deeper check that publishes
or drops them (pure: the engine, the bots' search and the analysis' scoring;
no Django, so the embedded server's analysis child runs it as it is).

A decision is a candidate when its best option leads the second by at least
`PUZZLE_GAP` of `parceria`'s points, scaled to the preset as the analysis'
labels are (`analysis.scoring.point_scale`): 6 points, a mistake's worth, is
"clearly the best". Its deeper check scores the same position again, from the
mover's view only, with `DEEP_FACTOR` times the analysis' work, every
candidate on every deal (no early stop), on deals of its own seed; the puzzle
is dropped when another action comes out best (``best_changed``) or the lead
shrinks under the gap (``gap_closed``). Of one round's candidates only the
clearest `MAX_PER_ROUND` are checked.

>>> from games.engine import PRESETS
>>> decision = {"options": [{"type": "play", "tile": "1-2", "end": "A", "value": 8.0},
...                         {"type": "pass", "value": 1.0}], "best": 0}
>>> gap_of(decision)
7.0
>>> is_candidate(decision, PRESETS["parceria"]), is_candidate(decision, PRESETS["pontos"])
(True, False)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from analysis.scoring import LIVE_WORK, WORK_FACTOR, point_scale, round_seed, score_decision
from games.engine import Round, RuleSet, action_from_dict

#: The least lead of the best option over the second (parceria's points).
PUZZLE_GAP = 6.0
#: The deeper check spends this many times the analysis' work.
DEEP_FACTOR = 10
#: Candidates taken from one round at most, the clearest first: a check costs
#: more than the round's whole analysis (bench/puzzles.py), so the worker's
#: budget goes to the likeliest puzzles.
MAX_PER_ROUND = 1


def gap_of(decision: dict[str, Any]) -> float:
    """The best option's lead over the second best (stored decision dict)."""
    values = sorted((float(o["value"]) for o in decision["options"]), reverse=True)
    return values[0] - values[1] if len(values) > 1 else 0.0


def is_candidate(decision: dict[str, Any], rules: RuleSet) -> bool:
    return len(decision["options"]) > 1 and gap_of(decision) >= PUZZLE_GAP * point_scale(rules)


def candidates_of(
    decisions: Sequence[dict[str, Any]], rules: RuleSet, limit: int | None = MAX_PER_ROUND
) -> list[dict[str, Any]]:
    """A round's candidates (stored decision dicts), the clearest first: at
    most ``limit`` of them (None: every one).

    >>> from games.engine import PRESETS
    >>> d = lambda seq, gap: {"seq": seq, "best": 0, "options": [
    ...     {"type": "pass", "value": gap}, {"type": "draw", "value": 0.0}]}
    >>> [c["seq"] for c in candidates_of([d(1, 7.0), d(2, 2.0), d(3, 9.0)], PRESETS["parceria"], None)]
    [3, 1]
    >>> [c["seq"] for c in candidates_of([d(1, 7.0), d(2, 2.0), d(3, 9.0)], PRESETS["parceria"])]
    [3]
    """
    found = sorted(
        (d for d in decisions if is_candidate(d, rules)), key=lambda d: (-gap_of(d), d["seq"])
    )
    return found if limit is None else found[:limit]


def action_of(option: dict[str, Any]) -> dict[str, Any]:
    """An option's action dict (its ``value`` left out)."""
    return {k: v for k, v in option.items() if k != "value"}


def position(
    rules: RuleSet, deal: dict[str, Any], moves: Sequence[tuple[int, dict[str, Any], str]], seq: int
) -> Round:
    """The round just before move ``seq`` (1-based) of the stored ``moves``."""
    rnd = Round.replay(rules, deal, [])
    for seat, data, _by in moves[: seq - 1]:
        rnd.apply(seat, action_from_dict(data, spinner=rules.spinner))
    return rnd


@dataclass
class Verdict:
    """The deeper check's answer: ``kept``, else ``reason``; the options (best
    first, with their values) and the gap as the deeper search saw them."""

    kept: bool
    reason: str
    options: list[dict[str, Any]] = field(default_factory=list)
    gap: float = 0.0
    cpu_ms: int = 0


def deep_check(
    rules_data: dict[str, Any],
    deal: dict[str, Any],
    moves: Sequence[tuple[int, dict[str, Any], str]],
    *,
    seq: int,
    seat: int,
    solution: dict[str, Any],
    work: int | None = None,
    seed_parts: Sequence[object] = (),
) -> Verdict:
    """Score move ``seq`` again from ``seat``'s view with ``DEEP_FACTOR`` times
    ``work`` (the analysis' work per decision; default its own), and keep the
    puzzle only if ``solution`` is still the best by `PUZZLE_GAP` (scaled)."""
    started = time.process_time()
    rules = RuleSet.from_dict(rules_data)
    rnd = position(rules, deal, moves, seq)
    base = int(LIVE_WORK * WORK_FACTOR) if work is None else work
    seed = round_seed("puzzle", *seed_parts, seq)
    decision = score_decision(
        rnd,
        seat,
        action_from_dict(solution, spinner=rules.spinner),
        seq,
        seed=seed,
        work=base * DEEP_FACTOR,
        settle=False,
    )
    cpu_ms = int((time.process_time() - started) * 1000)
    if decision is None:
        return Verdict(False, "no_choice", cpu_ms=cpu_ms)
    data = decision.to_dict()
    options = sorted(data["options"], key=lambda o: -o["value"])
    gap = gap_of(data)
    if decision.best != decision.chosen:
        return Verdict(False, "best_changed", options, gap, cpu_ms)
    if gap < PUZZLE_GAP * point_scale(rules):
        return Verdict(False, "gap_closed", options, gap, cpu_ms)
    return Verdict(True, "", options, gap, cpu_ms)
