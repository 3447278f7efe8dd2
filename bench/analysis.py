"""The round analysis' cost and its labels' calibration (analysis.scoring).

Rounds of `parceria` are played by bots (seat levels hard, medium, easy,
medium, turned one seat each round); every decision of every seat is then
analysed as if four people had played it (the dearest case: a table of four
people), and once more with seat 0 only (one person with three bots).

Printed:

* CPU seconds per round (``time.process_time``): mean, median, max; the
  decisions per round and the CPU milliseconds per decision;
* per bot level, the share of its decisions labelled, each label's share and
  the mean loss (the calibration: the hard bot should rarely be labelled, the
  easy one often);
* the noise: each decision analysed again with another seed; the p50, p90 and
  p95 of the difference in its loss (labels sit above it);
* the settled analysis (the default, `analysis.scoring.score_decision`'s
  ``settle``) against the full budget on the same deals (``settle=False``):
  the CPU of each, and the share of decisions whose label agrees.

Usage::

    python bench/analysis.py                 # 20 rounds
    python bench/analysis.py --rounds 60 --work 6000
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis import scoring  # noqa: E402
from bench.bot_rounds import bot_round  # noqa: E402
from games.engine import PRESETS  # noqa: E402

RULES = PRESETS["parceria"]


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--work", type=int, default=None, help="simulated actions per decision")
    parser.add_argument("--no-noise", action="store_true", help="skip the second analysis")
    parser.add_argument("--no-full", action="store_true", help="skip the full-budget analysis")
    args = parser.parse_args()
    work = args.work or int(scoring.LIVE_WORK * scoring.WORK_FACTOR)
    four, one, counts = [], [], []
    by_level: dict[str, list[scoring.Decision]] = defaultdict(list)
    noise = []
    full_cpu, agree, same_best, compared = [], 0, 0, 0
    for n in range(args.rounds):
        deal, moves, levels = bot_round(RULES, 1000 + n)
        started = time.process_time()
        decisions = scoring.score_round(RULES, deal, moves, seed=n, work=work)
        four.append(time.process_time() - started)
        counts.append(len(decisions))
        started = time.process_time()
        scoring.score_round(RULES, deal, moves, seed=n, work=work, scored_seats=[0])
        one.append(time.process_time() - started)
        for d in decisions:
            by_level[levels[d.seat]].append(d)
        if not args.no_full:
            started = time.process_time()
            full = scoring.score_round(RULES, deal, moves, seed=n, work=work, settle=False)
            full_cpu.append(time.process_time() - started)
            agree += sum(a.label == b.label for a, b in zip(decisions, full, strict=True))
            same_best += sum(a.best == b.best for a, b in zip(decisions, full, strict=True))
            compared += len(full)
        if not args.no_noise:
            again = scoring.score_round(RULES, deal, moves, seed=n + 7919, work=work)
            noise += [abs(a.loss - b.loss) for a, b in zip(decisions, again, strict=True)]
    decisions_total = sum(counts)
    print(f"parceria, {args.rounds} rounds, work {work} simulated actions a decision")
    print(
        f"four people: CPU s/round mean {statistics.mean(four):.2f}"
        f" median {statistics.median(four):.2f} max {max(four):.2f};"
        f" {decisions_total / args.rounds:.1f} decisions/round,"
        f" {1000 * sum(four) / max(1, decisions_total):.0f} ms/decision"
    )
    print(f"one person (seat 0): CPU s/round mean {statistics.mean(one):.2f} max {max(one):.2f}")
    names = [name for name, _ in scoring.THRESHOLDS]
    for level in ("hard", "medium", "easy"):
        ds = by_level[level]
        if not ds:
            continue
        labels = Counter(d.label for d in ds)
        shares = " ".join(f"{name} {100 * labels[name] / len(ds):.0f}%" for name in names)
        acc = statistics.mean(d.accuracy for d in ds)
        loss = statistics.mean(d.loss for d in ds)
        labelled = 100 * sum(labels[name] for name in names) / len(ds)
        print(
            f"{level:6s} {len(ds):4d} decisions: labelled {labelled:.0f}% ({shares});"
            f" mean loss {loss:.2f}; accuracy {acc:.1f}"
        )
    if full_cpu:
        print(
            f"full budget (settle=False): CPU s/round mean {statistics.mean(full_cpu):.2f}"
            f" max {max(full_cpu):.2f}; settled/full CPU"
            f" {statistics.mean(four) / statistics.mean(full_cpu):.2f};"
            f" labels agree on {100 * agree / max(1, compared):.1f}% of {compared} decisions,"
            f" the best action on {100 * same_best / max(1, compared):.1f}%"
        )
    if noise:
        print(
            f"noise (|loss, seed A - seed B|): p50 {percentile(noise, 0.5):.2f}"
            f" p90 {percentile(noise, 0.9):.2f} p95 {percentile(noise, 0.95):.2f}"
        )


if __name__ == "__main__":
    main()
