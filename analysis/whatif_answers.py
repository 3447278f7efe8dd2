"""The what-if's answers for the replay (docs/site.md, "What if, on the
replay"; docs/protocol.md, "The round's what-if"): another legal action at a
decision of a finished round, its expected points beside the one played and the
best, the chain it would have left and what it does.

Who may ask is the replay's rule (the caller's check, `replays.whatif_views`).
Every choice's value comes, in this order, from the stored analysis (a scored
decision holds all of them), from the cache (one entry a position, every
choice), or is computed on request below play (`analysis.whatif_child`),
within the person's limit (`whatif_allow`). Writes nothing to the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from analysis import whatif
from analysis.models import RoundAnalysis
from analysis.scoring import round_seed
from games.engine import Action, IllegalAction, Pick, Round, RuleSet, action_from_dict
from games.models import Move

#: A person's what-ifs computed on request (not from the analysis or the
#: cache) per minute.
WHATIF_PER_MINUTE = 12
#: Bump when the values' computation changes: older cache entries are unread.
CACHE_VERSION = 1
#: How long a computed position stays cached (seconds).
CACHE_SECONDS = 24 * 3600


@dataclass
class Inputs:
    """What a finished round's what-ifs are computed from."""

    round_id: int
    rules: RuleSet
    deal: dict[str, Any]
    moves: list[tuple[int, dict[str, Any], str]]
    seed: int
    work: int | None
    stored: dict[int, dict[str, Any]]  # the analysis' decisions by move number


def whatif_inputs(*, rnd: Any) -> Inputs:
    """The finished round ``rnd``'s moves, seed and stored decisions (its
    analysis' seed and work where it has one, the seed and work it would get
    if not)."""
    analysis = RoundAnalysis.objects.filter(round=rnd).first()
    work: int | None
    if analysis is not None:
        seed, work = int(analysis.seed), analysis.work
        stored = {d["seq"]: d for d in analysis.decisions}
    else:
        seed = round_seed(rnd.room.code, rnd.match.number, rnd.number, rnd.started_at)
        work, stored = getattr(settings, "DOMINO_ANALYSIS_WORK", None), {}
    moves = [
        (m.seat, m.action, m.by)
        for m in Move.objects.filter(round=rnd).order_by("seq").only("seat", "action", "by")
    ]
    return Inputs(
        round_id=rnd.pk,
        rules=RuleSet.from_dict(rnd.state["rules"]),
        deal=rnd.deal,
        moves=moves,
        seed=seed,
        work=work,
        stored=stored,
    )


def whatif_choices(*, inputs: Inputs) -> dict[int, dict[str, Any]]:
    """For the replay page: at every move but a tie-break's pick, its mover and
    the distinct legal actions (``choices``, as action dicts) with the played
    one's index (``played``)."""
    rnd = Round.replay(inputs.rules, inputs.deal, [])
    found = {}
    for seq, (seat, data, _by) in enumerate(inputs.moves, start=1):
        action = action_from_dict(data, spinner=inputs.rules.spinner)
        if type(action) is not Pick and rnd.turn == seat:
            try:
                played = whatif.choice_index(rnd, seat, action)
            except whatif.WhatIfError:  # a move the rules of today would refuse: left out
                played = None
            if played is not None:
                options = whatif.choices(rnd, seat)
                found[seq] = {
                    "seat": seat,
                    "choices": [a.to_dict() for a in options],
                    "played": played,
                }
        rnd.apply(seat, action)
    return found


def parse_request(data: Any, rules: RuleSet) -> tuple[int, Action]:
    """The move number and action of a what-if's JSON body; `WhatIfError`
    ``bad_request`` or ``illegal_action`` for anything malformed."""
    if not isinstance(data, dict):
        raise whatif.WhatIfError("bad_request")
    seq = data.get("seq")
    if type(seq) is not int:
        raise whatif.WhatIfError("bad_request")
    try:
        action = action_from_dict(data.get("action"), spinner=rules.spinner)
    except IllegalAction:
        raise whatif.WhatIfError("illegal_action") from None
    if type(action) is Pick:
        raise whatif.WhatIfError("illegal_action")
    return seq, action


@dataclass
class Question:
    """A what-if checked against its position, before any value is known."""

    inputs: Inputs
    seq: int
    rnd: Round
    seat: int
    choices: list[Action]
    played: int
    picked: int

    @property
    def cache_key(self) -> str:
        work = self.inputs.work if self.inputs.work is not None else "live"
        return f"whatif:{CACHE_VERSION}:{self.inputs.round_id}:{self.seq}:{self.inputs.seed}:{work}"


def whatif_question(*, inputs: Inputs, seq: int, action: Action) -> Question:
    """The position before move ``seq`` and which of its choices ``action`` is;
    `WhatIfError` ``seq_out_of_range``, ``no_decision`` or ``illegal_action``."""
    rnd, seat, played = whatif.position_before(inputs.rules, inputs.deal, inputs.moves, seq)
    options = whatif.choices(rnd, seat)
    return Question(
        inputs=inputs,
        seq=seq,
        rnd=rnd,
        seat=seat,
        choices=options,
        played=whatif.choice_index(rnd, seat, played),
        picked=whatif.choice_index(rnd, seat, action),
    )


def known_values(question: Question) -> tuple[list[float], int, str] | None:
    """Every choice's value and the best's index, with where they came from
    (``analysis`` or ``cache``), or None when they must be computed."""
    stored = question.inputs.stored.get(question.seq)
    if stored is not None:
        by_action = {_key(o): o["value"] for o in stored["options"]}
        values = [by_action.get(_key(a.to_dict())) for a in question.choices]
        if all(v is not None for v in values):
            return [float(v) for v in values], int(stored["best"]), "analysis"  # type: ignore[arg-type]
    cached = cache.get(question.cache_key)
    if cached is not None:
        return list(cached["values"]), int(cached["best"]), "cache"
    return None


def remember_values(question: Question, values: list[float], best: int) -> None:
    cache.set(question.cache_key, {"values": values, "best": best}, CACHE_SECONDS)


def whatif_allow(*, person: str) -> bool:
    """Counts one computation against ``person``'s limit
    (``DOMINO_WHATIF_PER_MINUTE`` a minute, default `WHATIF_PER_MINUTE`);
    False once it is reached (nothing is counted then)."""
    limit = getattr(settings, "DOMINO_WHATIF_PER_MINUTE", WHATIF_PER_MINUTE)
    minute = int(timezone.now().timestamp() // 60)
    key = f"whatif-limit:{person}:{minute}"
    cache.add(key, 0, 120)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.add(key, 1, 120)
        count = 1
    if count > limit:
        cache.decr(key)
        return False
    return True


def whatif_answer(
    question: Question, values: list[float], best: int, source: str
) -> dict[str, Any]:
    """The answer: every choice with its value, which was played, picked and
    best, the chain after the pick and its facts (`analysis.whatif.facts`)."""
    rnd, seat, picked = question.rnd, question.seat, question.choices[question.picked]
    return {
        "seq": question.seq,
        "seat": seat,
        "source": source,
        "choices": [
            {**a.to_dict(), "value": round(v, 2)}
            for a, v in zip(question.choices, values, strict=True)
        ],
        "played": question.played,
        "picked": question.picked,
        "best": best,
        "value": round(values[question.picked], 2),
        "played_value": round(values[question.played], 2),
        "best_value": round(values[best], 2),
        **whatif.chain_after(rnd, seat, picked),
        "facts": whatif.facts(rnd, seat, picked),
    }


def _key(action: dict[str, Any]) -> tuple[Any, ...]:
    return (action.get("type"), action.get("tile"), action.get("end"))
