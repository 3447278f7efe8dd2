"""Make the day-one puzzles (puzzles/data/day_one.json; docs/decisions.md,
"Day-one puzzles"): bot rounds (bench/bot_rounds.py), analysed and cut as the
site's analysis worker does, each candidate checked by the same deeper check,
the kept ones written with their rounds so a test checks them again.

For each preset of `PLAN`, rounds of seed ``--seed`` x 100,000 + the preset's
place x 10,000 + n (n = 0, 1, ...) are played by the bots (levels as in
bench/analysis.py), analysed from every seat (`analysis.scoring.score_round`,
the analysis' default work, its seed from the preset and the round's), their
clearest candidate cut (`puzzles.cutting.candidates_of`, `MAX_PER_ROUND`),
its themes found (`puzzles.themes.themes_of`), and checked
(`puzzles.cutting.deep_check`, ten times the work, its own seed); the first
kept ones of each preset are taken, up to its count in `PLAN`. Each starts at
a rating from the weakest bot that finds its answer
(`puzzles.day_one.starting_rating`). Deterministic: the same seed and code
give the same file.

Usage::

    python tools/make_day_one_puzzles.py            # seed 54, the whole PLAN
    python tools/make_day_one_puzzles.py --seed 7 --out /tmp/day_one.json
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from analysis import scoring  # noqa: E402
from bench.bot_rounds import bot_round  # noqa: E402
from bots.policies import choose_action  # noqa: E402
from games.engine import PRESETS, action_from_dict  # noqa: E402
from puzzles import cutting, day_one  # noqa: E402
from puzzles.themes import themes_of  # noqa: E402

#: Puzzles a preset gets: the partnership game most (it has every theme, the
#: partner's too), the duel, the partida de 6 and the game of points after it.
PLAN = {"parceria": 20, "duelo": 12, "partida": 8, "pontos": 8}
#: Rounds tried per preset at most (a preset that keeps too few fails the run).
MAX_ROUNDS = 400
RECIPE = (
    "python tools/make_day_one_puzzles.py --seed {seed}: bot rounds (bench/bot_rounds.py) "
    "analysed by analysis.scoring.score_round, cut by puzzles.cutting.candidates_of, "
    "checked by puzzles.cutting.deep_check; rating by puzzles.day_one.starting_rating"
)


def solved_by(view: dict[str, Any], solution: dict[str, Any]) -> str | None:
    """The weakest bot level whose own move is the answer (the easy and medium
    bots: deterministic; the hard one reads the wall clock)."""
    best = action_from_dict(solution, spinner=True)
    for level in ("easy", "medium"):
        chosen = choose_action(view, level, random.Random(0))
        if day_one.same_answer(view, chosen, best):
            return level
    return None


def puzzle_from_round(preset: str, round_seed: int) -> dict[str, Any] | None:
    """The round's kept puzzle as a file entry, or None (no candidate, or dropped)."""
    rules = PRESETS[preset]
    deal, moves, _levels = bot_round(rules, round_seed)
    decisions = scoring.score_round(
        rules, deal, moves, seed=scoring.round_seed(day_one.SEED_TAG, preset, round_seed)
    )
    chosen = cutting.candidates_of([d.to_dict() for d in decisions], rules)
    if not chosen:
        return None
    decision = chosen[0]
    best = decision["options"][decision["best"]]
    solution = cutting.action_of(best)
    others = [cutting.action_of(o) for o in decision["options"] if o is not best]
    view = cutting.position(rules, deal, moves, decision["seq"]).view(decision["seat"])
    entry: dict[str, Any] = {
        "key": f"{preset}-{round_seed}-{decision['seq']}",
        "preset": preset,
        "round_seed": round_seed,
    }
    verdict = cutting.deep_check(
        rules.to_dict(),
        deal,
        moves,
        seq=decision["seq"],
        seat=decision["seat"],
        solution=solution,
        seed_parts=day_one.seed_parts(entry),
    )
    if not verdict.kept:
        return None
    view = json.loads(json.dumps(view))
    return {
        **entry,
        "seq": decision["seq"],
        "seat": decision["seat"],
        "rating": day_one.starting_rating(view, solved_by(view, solution)),
        "themes": themes_of(view, solution, others),
        "solution": solution,
        "gap": round(verdict.gap, 2),
        "options": verdict.options,
        "view": view,
        "rules": rules.to_dict(),
        "deal": deal,
        "moves": [list(m) for m in moves],
    }


def _one(job: tuple[str, int]) -> dict[str, Any] | None:
    return puzzle_from_round(*job)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seed", type=int, default=54)
    parser.add_argument("--out", type=Path, default=day_one.DATA_FILE)
    parser.add_argument("--jobs", type=int, default=2, help="processes (the result is the same)")
    args = parser.parse_args()
    entries: list[dict[str, Any]] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for place, (preset, count) in enumerate(PLAN.items()):
            started, kept, n = time.monotonic(), 0, 0
            first = args.seed * 100_000 + place * 10_000
            while kept < count and n < MAX_ROUNDS:
                # A batch a process each, read in seed order: the same entries
                # whatever the number of processes.
                batch = [(preset, first + n + i) for i in range(args.jobs)]
                for entry in pool.map(_one, batch):
                    n += 1
                    if entry is not None and kept < count:
                        entries.append(entry)
                        kept += 1
            if kept < count:
                sys.exit(f"{preset}: only {kept} of {count} puzzles in {MAX_ROUNDS} rounds")
            print(
                f"{preset}: {kept} puzzles from {n} rounds ({time.monotonic() - started:.0f} s)",
                flush=True,
            )
    header = {
        "about": "The day-one puzzles (puzzles/day_one.py), loaded by a migration.",
        "recipe": RECIPE.format(seed=args.seed),
        "seed": args.seed,
        "plan": PLAN,
        "spread": day_one.spread(entries),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    # One entry a line: a regenerated file's diff reads puzzle by puzzle.
    lines = [json.dumps(e, sort_keys=True, separators=(",", ":")) for e in entries]
    head = json.dumps(header, indent=1, sort_keys=True)[:-2]
    text = head + ',\n "puzzles": [\n' + ",\n".join(lines) + "\n ]\n}\n"
    json.loads(text)  # (the file must read back)
    args.out.write_text(text, encoding="utf-8")
    print(json.dumps(header["spread"]))


if __name__ == "__main__":
    main()
