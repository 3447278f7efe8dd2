"""Puzzles cut from bot rounds (puzzles.cutting, puzzles.themes): how many
decisions make candidates, how many the deeper check keeps and drops (and
why), their themes, and the CPU it costs.

Rounds of a preset (default `parceria`) are played by bots (seat levels
hard, medium, easy, medium, turned one seat each round, as bench/analysis.py);
each round is analysed as if people had played every seat (the analysis'
default work, settled); a decision with a lead of `PUZZLE_GAP` (scaled) is a
candidate, the clearest `MAX_PER_ROUND` of a round (``--per-round``; 0: all)
are checked with `DEEP_FACTOR` times the work, as the analysis worker does (`puzzles.services.puzzle_check_next`),
without its pacing: the CPU here is the work itself.

Printed: rounds, decisions, decisions with the gap, those checked; kept, dropped (best changed, gap
closed); the themes of the kept; CPU seconds of the analyses, of the cutting
and of the deeper checks (``time.process_time``), and per kept puzzle: the
deeper checks' CPU (the cost puzzles add: the analysis runs anyway) and with
the analyses.

Usage::

    python bench/puzzles.py                    # 1,000 rounds
    python bench/puzzles.py --rounds 50 --preset parceria
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis import scoring  # noqa: E402
from bench.bot_rounds import bot_round  # noqa: E402
from games.engine import PRESETS  # noqa: E402
from puzzles import cutting  # noqa: E402
from puzzles.themes import THEMES, themes_of  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1000)
    parser.add_argument("--preset", default="parceria")
    parser.add_argument("--every", type=int, default=50, help="print progress every N rounds")
    parser.add_argument(
        "--per-round",
        type=int,
        default=cutting.MAX_PER_ROUND,
        help="candidates checked per round at most, the clearest first (0: every one)",
    )
    args = parser.parse_args()
    rules = PRESETS[args.preset]
    work = int(scoring.LIVE_WORK * scoring.WORK_FACTOR)
    decisions = candidates = eligible = 0
    kept, dropped, themes = 0, Counter(), Counter()
    analysis_cpu = cut_cpu = 0.0
    check_ms: list[int] = []
    kept_gaps: list[float] = []
    wall = time.monotonic()
    for n in range(args.rounds):
        deal, moves, _levels = bot_round(rules, 5000 + n)
        started = time.process_time()
        scored = scoring.score_round(rules, deal, moves, seed=scoring.round_seed("bench", n))
        analysis_cpu += time.process_time() - started
        decisions += len(scored)
        started = time.process_time()
        data_all = [d.to_dict() for d in scored]
        every = cutting.candidates_of(data_all, rules, None)
        chosen = every if not args.per_round else every[: args.per_round]
        eligible += len(every)
        cut_cpu += time.process_time() - started
        for data in chosen:
            started = time.process_time()
            candidates += 1
            best = data["options"][data["best"]]
            solution = cutting.action_of(best)
            view = cutting.position(rules, deal, moves, data["seq"]).view(data["seat"])
            found = themes_of(
                view, solution, [cutting.action_of(o) for o in data["options"] if o is not best]
            )
            cut_cpu += time.process_time() - started
            verdict = cutting.deep_check(
                rules.to_dict(),
                deal,
                moves,
                seq=data["seq"],
                seat=data["seat"],
                solution=solution,
                work=work,
                seed_parts=("bench", n),
            )
            check_ms.append(verdict.cpu_ms)
            if verdict.kept:
                kept += 1
                kept_gaps.append(verdict.gap)
                themes.update(found or ["(none)"])
            else:
                dropped[verdict.reason] += 1
        if args.every and (n + 1) % args.every == 0:
            print(
                f"  {n + 1} rounds: {decisions} decisions, {candidates} candidates, {kept} kept, "
                f"dropped {dict(dropped)}, themes {dict(themes)}, CPU analyses "
                f"{analysis_cpu:.1f} s, checks {sum(check_ms) / 1000:.1f} s "
                f"({time.monotonic() - wall:.0f} s)",
                flush=True,
            )
    check_cpu = sum(check_ms) / 1000
    print(
        f"preset {args.preset}, {args.rounds} rounds, work {work} a decision, deeper x{cutting.DEEP_FACTOR}"
    )
    print(f"gap: {cutting.PUZZLE_GAP} points x {scoring.point_scale(rules)}")
    print(f"decisions analysed: {decisions} ({decisions / max(1, args.rounds):.1f} a round)")
    print(
        f"decisions with the gap: {eligible} ({eligible / max(1, decisions):.1%}); "
        f"checked (at most {args.per_round or 'every'} a round, the clearest): {candidates}"
    )
    print(f"kept: {kept} ({kept / max(1, candidates):.1%} of candidates)")
    print(
        f"dropped by the deeper check: {sum(dropped.values())} "
        f"(best changed {dropped['best_changed']}, gap closed {dropped['gap_closed']}, "
        f"no choice {dropped['no_choice']})"
    )
    print("themes of the kept: " + ", ".join(f"{k} {themes[k]}" for k in (*THEMES, "(none)")))
    if kept_gaps:
        print(f"kept gap (points): median {statistics.median(kept_gaps):.1f}")
    print(
        f"CPU: analyses {analysis_cpu:.1f} s ({analysis_cpu / max(1, args.rounds):.2f} s a round)"
    )
    print(f"CPU: cutting {cut_cpu:.2f} s")
    if check_ms:
        print(
            f"CPU: deeper checks {check_cpu:.1f} s, {statistics.mean(check_ms):.0f} ms a candidate "
            f"(median {statistics.median(check_ms):.0f}, max {max(check_ms)})"
        )
    if kept:
        print(f"CPU per kept puzzle: {(check_cpu + cut_cpu) / kept:.2f} s (checks and cutting)")
        print(
            f"CPU per kept puzzle with the analyses: "
            f"{(check_cpu + cut_cpu + analysis_cpu) / kept:.2f} s"
        )
    print(f"wall: {time.monotonic() - wall:.0f} s")


if __name__ == "__main__":
    main()
