"""The replay's what-if: CPU per request (analysis/whatif.py,
analysis/whatif_answers.py; docs/site.md, "What if, on the replay").

Rounds of `parceria` are played by bots (seat levels as bench/analysis.py);
at every move with a choice, and at every forced pass, one what-if is asked
for each of its legal actions, as the endpoint answers it:

* **uncached**: the values computed (what the child process below play runs,
  `analysis.whatif_child.paced_score` without its pacing: the position rebuilt
  and every choice scored), then the answer (chain, facts, JSON);
* **answered** (from the stored analysis or the cache): the position rebuilt,
  the action checked, the answer built and encoded: what the web process
  spends when the values are known (its two row reads are not counted).

CPU milliseconds (``time.process_time``) per request: mean, median, p95, max.
Deterministic but for the machine's speed.

Usage::

    python bench/whatif.py              # 8 rounds
    python bench/whatif.py --rounds 20 --work 6000
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis import scoring, whatif  # noqa: E402
from bench.bot_rounds import bot_round  # noqa: E402
from games.engine import PASS, PRESETS, Round  # noqa: E402

RULES = PRESETS["parceria"]


def answer(rnd: Round, seat: int, action, values: list[float], best: int) -> str:
    """The answer's pure part, as `analysis.whatif_answers.whatif_answer` builds it."""
    options = whatif.choices(rnd, seat)
    picked = whatif.choice_index(rnd, seat, action)
    body = {
        "choices": [
            {**a.to_dict(), "value": round(v, 2)} for a, v in zip(options, values, strict=True)
        ],
        "picked": picked,
        "best": best,
        **whatif.chain_after(rnd, seat, action),
        "facts": whatif.facts(rnd, seat, action),
    }
    return json.dumps(body)


def summary(name: str, ms: list[float]) -> str:
    ms = sorted(ms)
    p95 = ms[min(len(ms) - 1, int(len(ms) * 0.95))]
    return (
        f"{name:9} n={len(ms):4}  mean {statistics.fmean(ms):7.2f} ms  median {statistics.median(ms):7.2f}"
        f"  p95 {p95:7.2f}  max {ms[-1]:7.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument(
        "--work", type=int, default=None, help="per position (default: the analysis')"
    )
    args = parser.parse_args()
    uncached: list[float] = []
    answered: list[float] = []
    forced: list[float] = []
    for r in range(args.rounds):
        deal, moves, _levels = bot_round(RULES, 1000 + r)
        seed = scoring.round_seed("bench", 1, r)
        for seq in range(1, len(moves) + 1):
            rnd, seat, played = whatif.position_before(RULES, deal, moves, seq)
            options = whatif.choices(rnd, seat)
            if len(options) < 2 and played != PASS:
                continue
            for action in options:
                started = time.process_time()
                rnd, seat, played = whatif.position_before(RULES, deal, moves, seq)
                values, best = whatif.score_position(
                    rnd, seat, played, seq, seed=seed, work=args.work
                )
                answer(rnd, seat, action, values, best)
                cost = (time.process_time() - started) * 1000
                (uncached if len(options) > 1 else forced).append(cost)
                started = time.process_time()
                rnd, seat, played = whatif.position_before(RULES, deal, moves, seq)
                answer(rnd, seat, action, values, best)
                answered.append((time.process_time() - started) * 1000)
    print(f"parceria, {args.rounds} bot rounds, work {args.work or 'the analysis default'}")
    print(summary("uncached", uncached))
    print(summary("forced", forced) if forced else "forced    none")
    print(summary("answered", answered))


if __name__ == "__main__":
    main()
