""" "E se eu tivesse jogado…?": another legal action at a decision of a finished
round, weighed from the mover's own view (docs/site.md, "What if, on the
replay"). Pure: the engine, the bots' policies and `analysis.scoring` only.

* `position_before` rebuilds the round to the moment before move ``seq``;
* `choices` are the distinct legal actions there (`bots.search.distinct_actions`,
  as the analysis scores them, so a stored decision's options are the same list
  in the same order), and `choice_index` finds the one a person picked
  (refusing an illegal one);
* `score_position` gives every choice its expected points for the mover's side
  exactly as `analysis.scoring.score_decision` does (a position with a single
  legal action, a forced pass or draw, is played out on the same number of
  deals);
* `chain_after` is the chain as the choice would have left it, `facts` a few
  things the choice does, both read from the mover's view only: the hidden
  hands and the boneyard never enter them.

>>> from games.engine import PASS, PRESETS, Play, Round, Tile
>>> hands = [["6-6", "6-5", "5-5", "1-5"], ["6-1", "2-3", "2-4"]]
>>> rnd = Round.from_hands(PRESETS["sem_monte"], hands=hands, opener=0)
>>> for seat, action in [(0, Play(Tile(6, 6))), (1, Play(Tile(1, 6), "B")),
...                      (0, Play(Tile(1, 5), "B")), (1, PASS)]:
...     rnd.apply(seat, action)
>>> [f"{a.tile} {a.end}" for a in choices(rnd, 0)]
['5-6 A', '5-6 B', '5-5 B']
>>> [(f["code"], f.get("number")) for f in facts(rnd, 0, choices(rnd, 0)[1])]
[('opponent_void', 6), ('pips', None)]
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from analysis.scoring import MIN_SAMPLES, points_value, score_decision
from bots.heuristics import Table
from bots.knowledge import read_view
from bots.sampling import Positions, Sampler
from bots.search import distinct_actions, playout
from games.engine import (
    Action,
    IllegalAction,
    Pick,
    Play,
    Round,
    RuleSet,
    action_from_dict,
)


class WhatIfError(Exception):
    """A what-if that cannot be answered; ``code`` is the API's error code."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


def position_before(
    rules: RuleSet, deal: dict[str, Any], moves: Sequence[tuple[int, dict[str, Any], str]], seq: int
) -> tuple[Round, int, Action]:
    """The round just before move ``seq`` (1-based), its mover and the action
    played. ``seq_out_of_range`` past the moves; ``no_decision`` for a blind pick
    of a tie-break."""
    if not 1 <= seq <= len(moves):
        raise WhatIfError("seq_out_of_range")
    rnd = Round.replay(rules, deal, [])
    for seat, data, _by in moves[: seq - 1]:
        rnd.apply(seat, action_from_dict(data, spinner=rules.spinner))
    seat, data, _by = moves[seq - 1]
    played = action_from_dict(data, spinner=rules.spinner)
    if type(played) is Pick or rnd.turn != seat:
        raise WhatIfError("no_decision")
    return rnd, seat, played


def choices(rnd: Round, seat: int) -> list[Action]:
    """The distinct legal actions of ``seat`` (mirror images once)."""
    return distinct_actions(rnd.legal_actions(seat), rnd.ends, rnd.rules)


def choice_index(rnd: Round, seat: int, action: Action) -> int:
    """Which of `choices` ``action`` is; ``illegal_action`` if the rules refuse it.
    A tile without an end, or on the mirror end of a line showing one number,
    is the choice it amounts to."""
    candidates = choices(rnd, seat)
    if action in candidates:
        return candidates.index(action)
    try:
        rnd.clone().apply(seat, action)
    except IllegalAction:
        raise WhatIfError("illegal_action") from None
    if type(action) is Play:
        same = [i for i, a in enumerate(candidates) if type(a) is Play and a.tile == action.tile]
        if len(same) == 1 or (same and action.end is None):
            return same[0]
    raise WhatIfError("illegal_action")


def score_position(
    rnd: Round, seat: int, played: Action, seq: int, *, seed: int, work: int | None = None
) -> tuple[list[float], int]:
    """Every choice's expected points for the mover's side, and the best's
    index: `analysis.scoring.score_decision` (its seed and work: a position the
    analysis scored gets the same values) or, with one legal action, its value
    over ``MIN_SAMPLES`` deals drawn from the mover's view."""
    decision = score_decision(rnd, seat, played, seq, seed=seed, work=work)
    if decision is not None:
        return [o.value for o in decision.options], decision.best
    (only,) = choices(rnd, seat)
    view = rnd.view(seat)
    know = read_view(view)
    rng = random.Random(seed * 1000 + seq)
    table = Table.from_knowledge(know)
    sampler, positions = Sampler(know), Positions(view)
    side = know.rules.side_of(seat)
    total = 0.0
    for _ in range(MIN_SAMPLES):
        base = positions.of(sampler.draw(rng))
        result, _steps = playout(base, seat, only, table, random.Random(rng.getrandbits(32)))
        total += points_value(result, side, know.rules)
    return [total / MIN_SAMPLES], 0


def chain_after(rnd: Round, seat: int, action: Action) -> dict[str, Any]:
    """The chain and its ends as ``action`` would have left them (a draw or a
    pass leaves them as they were: the tile a draw would have taken is never
    told)."""
    if type(action) is not Play:
        view = rnd.public_view()
    else:
        after = rnd.clone()
        after.apply(seat, action)
        view = after.public_view()
    return {"chain": view["chain"], "ends": view["ends"]}


def facts(rnd: Round, seat: int, action: Action) -> list[dict[str, Any]]:
    """What ``action`` does, from the mover's view only: each a ``code`` and
    its numbers (docs/site.md, "What if, on the replay", lists them). At most
    four, the most telling first."""
    view = rnd.view(seat)
    know = read_view(view)
    if type(action) is not Play:
        return [{"code": action.type}]
    tile = action.tile
    ends_after = chain_after(rnd, seat, action)["ends"] or {}
    after = set(ends_after.values())
    before = set(know.ends or ())
    voids = know.voids()
    partner = know.partner
    rules = know.rules
    opponents = [s for s in range(rules.seats) if rules.side_of(s) != rules.side_of(seat)]
    hand_after = [t for t in know.hand if t != tile]
    on_table = know.on_table()
    for n in {tile.a, tile.b}:
        on_table[n] += 1
    found: list[dict[str, Any]] = []
    if not hand_after:
        found.append({"code": "goes_out"})
    if len(after) == 1 and on_table[next(iter(after))] == 7:
        found.append({"code": "locks", "number": next(iter(after))})
    for n in sorted(after):
        void = [s for s in opponents if voids[s] >> n & 1]
        if void and len(void) == len(opponents):
            found.append({"code": "opponent_void", "number": n})
        if partner is not None and voids[partner] >> n & 1:
            found.append({"code": "partner_void", "number": n})
        held = sum(1 for t in hand_after if n in (t.a, t.b))
        if held and on_table[n] + held == 7:
            found.append({"code": "holds_all", "number": n})
    if partner is not None:
        for n in sorted(before - after):
            if voids[partner] >> n & 1:
                found.append({"code": "covers_partner_void", "number": n})
    if tile.is_double:
        found.append({"code": "double", "number": tile.a})
    found.append({"code": "pips", "pips": tile.pips})
    return found[:4]
