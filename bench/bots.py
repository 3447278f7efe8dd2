"""Bot tournaments: duplicate deals, matches of a preset (`parceria` to 50 by default).

Every pair of matches uses the same sequence of deals twice, with the sides
swapped (seats 0+2 against 1+3, then 1+3 against 0+2), so the luck of the
tiles cancels out. Printed per duel: win rate of matches with a 95 % interval
(normal approximation over the pairs, each pair scoring 0, 0.5 or 1: the two
matches of a pair share their deals, so they are not independent), average
points per round of each player, and milliseconds per decision (median and
p95, over decisions with more than one legal action), in wall-clock time and
in the CPU time of the deciding thread (which a busy machine inflates less). The same line is
printed after every tenth of the pairs, so a run cut short still gives its
figures so far.

The `dominoes` package's player (PyPI ``dominoes==6.1.0``) joins through a
mirror of our round in its own ``Game``: its board ends are our ends A and B,
its move list is our history (passes as ``None``), its own hand is real, and
the other hands are any split of the unseen tiles (its sampler only reads
their union and sizes, which are public). ``ParceriaGame`` scores finished
games by our `parceria` rules, so its alpha-beta search optimises the game
actually played. The player is the package's ``probabilistic_alphabeta``
(``sample_size`` deals, alpha-beta to the end of each) from move
``start_move`` on, composed after ``bota_gorda`` (heaviest tile first) as the
package's docs suggest for its players; before ``start_move`` the full search
is far too slow in pure Python.

Usage::

    python bench/bots.py                 # quick: a few minutes
    python bench/bots.py --full          # the numbers of bench/RESULTS.md
    python bench/bots.py --pairs 50 --budget 150 --duels hard:medium,hard:dominoes
    python bench/bots.py --pairs 50 --duels hard:dominoes@12x5,hard:dominoes@4x16
    python bench/bots.py --jobs 2 --cpu-clock ...   # two processes, on a busy machine
    python bench/bots.py --preset partida --duels hard:medium   # the partida de 6, pairs, to 6

``--preset`` names any four-seat partnership preset (`parceria`, `partida`,
`pontos`, ...) played at its own target and scoring; the points per round are
that preset's points. The `dominoes` package's player mirrors `parceria` only.

With ``--jobs`` the pairs are shared among processes (the figures are the same
as one process gives, pair by pair: each pair's seeds are its own). With
``--cpu-clock`` the hard player's wall-clock cap counts the deciding thread's
CPU time instead: on a machine busy with other work its decisions are then the
ones an idle machine would make (wall ms/decision then measure the machine,
CPU ms/decision still the bot).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bots.policies import choose_action  # noqa: E402
from games.engine import (  # noqa: E402
    PRESETS,
    Action,
    Match,
    Play,
    RuleSet,
    Tile,
    action_from_dict,
)

RULES = PRESETS["parceria"]  # target 50: the default preset

Decide = Callable[[dict[str, Any], random.Random, tuple[int, ...]], Action]


@dataclass
class Contestant:
    name: str
    decide: Decide
    times_ms: list[float] = field(default_factory=list)
    cpu_ms: list[float] = field(default_factory=list)
    points: int = 0
    rounds: int = 0


def bot(
    level: str, budget_ms: float | None, clock: Callable[[], float] = time.perf_counter
) -> Contestant:
    def decide(view: dict[str, Any], rng: random.Random, scores: tuple[int, ...]) -> Action:
        return choose_action(view, level, rng, scores=scores, budget_ms=budget_ms, clock=clock)

    return Contestant(level, decide)


# --------------------------------------------------------------------------- the package
def package_player(start_move: int, sample_size: int) -> Contestant:
    import dominoes

    search = dominoes.players.probabilistic_alphabeta(
        start_move=start_move, sample_size=sample_size, player=dominoes.players.bota_gorda
    )
    game_class = _parceria_game_class()

    def decide(view: dict[str, Any], rng: random.Random, scores: tuple[int, ...]) -> Action:
        if len(view["legal"]) == 1:  # a pass, or a forced play: the package never sees those
            return action_from_dict(view["legal"][0], spinner=True)
        game = _mirror(view, game_class)
        # The package samples with the global `random`: seed it for repeatable runs.
        random.seed(rng.getrandbits(64))
        dominoes.players.bota_gorda(game)
        search(game)
        domino, left = game.valid_moves[0]
        return _our_action(view, Tile(domino.first, domino.second), left)

    return Contestant(f"dominoes(start_move={start_move},sample_size={sample_size})", decide)


def _parceria_game_class() -> type:
    import dominoes
    from dominoes.game import _remaining_points, next_player

    class ParceriaGame(dominoes.Game):
        """The package's game, scored like our `parceria` (opponents' pips only;
        a blocked tie is lost by the last player's side)."""

        def make_move(self, d: Any, left: bool) -> Any:
            if self.result is not None:
                raise dominoes.GameOverException("Cannot make a move - the game is over!")
            mover = self.turn
            i = self.hands[mover].play(d)
            try:
                self.board.add(d, left)
            except dominoes.EndsMismatchException:
                self.hands[mover].draw(d, i)
                raise
            self.moves.append((d, left))
            pips = _remaining_points(self.hands)
            team = [pips[0] + pips[2], pips[1] + pips[3]]
            if not self.hands[mover]:
                self.valid_moves = ()
                winner = mover % 2
                self.result = dominoes.Result(mover, True, _signed(winner, team[1 - winner]))
                return self.result
            passes = []
            for _ in self.hands:
                self.turn = next_player(self.turn)
                self._update_valid_moves()
                if self.valid_moves:
                    self.moves.extend(passes)
                    return None
                passes.append(None)
            if team[0] == team[1]:
                winner = 1 - mover % 2
            else:
                winner = 0 if team[0] < team[1] else 1
            self.result = dominoes.Result(self.turn, False, _signed(winner, team[1 - winner]))
            return self.result

    return ParceriaGame


def _signed(winner: int, points: int) -> int:
    return points if winner == 0 else -points


def _mirror(view: dict[str, Any], game_class: type) -> Any:
    import dominoes

    seat = view["seat"]
    mine = [Tile.parse(t) for t in view["hand"]]
    on_chain = {Tile.parse(link["tile"]) for link in view["chain"]}
    unseen = [t for t in _all_tiles() if t not in on_chain and t not in mine]
    hands = []
    for s, count in enumerate(view["tile_counts"]):
        if s == seat:
            tiles = mine
        else:
            tiles, unseen = unseen[:count], unseen[count:]
        hands.append(dominoes.Hand([dominoes.Domino(t.a, t.b) for t in tiles]))
    moves: list[Any] = []
    for entry in view["history"]:
        if entry["type"] == "play":
            tile = Tile.parse(entry["tile"])
            moves.append((dominoes.Domino(tile.a, tile.b), entry["end"] != "B"))
        elif entry["type"] == "pass":
            moves.append(None)
    ends = view["ends"]
    board = (
        dominoes.SkinnyBoard(ends["A"], ends["B"], len(view["chain"]))
        if ends
        else dominoes.SkinnyBoard()
    )
    game = game_class(board, hands, moves, seat, (), view["opener"], None)
    if ends:
        game._update_valid_moves()
    else:
        game.valid_moves = tuple((d, True) for d in hands[seat])
    return game


def _all_tiles() -> list[Tile]:
    return [Tile(a, b) for a in range(7) for b in range(a, 7)]


def _our_action(view: dict[str, Any], tile: Tile, left: bool) -> Action:
    legal = [action_from_dict(d, spinner=True) for d in view["legal"]]
    wanted = None if view["ends"] is None else ("A" if left else "B")
    for action in legal:
        if type(action) is Play and action.tile == tile and action.end == wanted:
            return action
    for action in legal:  # both ends show the same number: the package only says "left"
        if type(action) is Play and action.tile == tile:
            return action
    raise AssertionError(f"the package chose {tile} ({'left' if left else 'right'}), not legal")


# --------------------------------------------------------------------------- matches
def play_match(
    sides: tuple[Contestant, Contestant],
    deal_seed: str,
    bot_seed: str,
    rules: RuleSet = RULES,
) -> int | None:
    """One match of ``rules`` (default `parceria`, to 50); returns the winning side (0 or 1)."""
    match = Match(rules)
    rng = random.Random(bot_seed)
    number = 0
    while not match.is_over:
        rnd = match.new_round(random.Random(f"{deal_seed}-{number}"))
        number += 1
        while not rnd.is_over:
            seat = rnd.turn
            player = sides[rules.side_of(seat)]
            view = rnd.view(seat)
            start, cpu = time.perf_counter(), time.thread_time()
            action = player.decide(view, rng, match.scores)
            elapsed = (time.perf_counter() - start) * 1000.0
            if len(view["legal"]) > 1:
                player.times_ms.append(elapsed)
                player.cpu_ms.append((time.thread_time() - cpu) * 1000.0)
            rnd.apply(seat, action)
        for side, player in enumerate(sides):
            player.points += rnd.result.points[side]
            player.rounds += 1
        match.finish_round(rnd.result)
    return match.winner


@dataclass(frozen=True)
class Setup:
    """What a process needs to build the two contestants of a duel."""

    a: str
    b: str
    budget_ms: float
    start_move: int
    sample_size: int
    cpu_clock: bool
    preset: str = "parceria"

    @property
    def rules(self) -> RuleSet:
        return PRESETS[self.preset]

    def make(self, name: str) -> Contestant:
        if name == "dominoes":
            return package_player(self.start_move, self.sample_size)
        if name.startswith("dominoes@"):  # dominoes@START_MOVExSAMPLE_SIZE, e.g. dominoes@4x16
            start_move, sample_size = name.removeprefix("dominoes@").split("x")
            return package_player(int(start_move), int(sample_size))
        clock = time.thread_time if self.cpu_clock else time.perf_counter
        return bot(name, self.budget_ms if name == "hard" else None, clock)


@dataclass
class PairResult:
    """One duplicate pair: its score for ``a`` and what each side spent."""

    score: float
    stats: tuple[tuple[list[float], list[float], int, int], ...]


def play_pair(setup: Setup, seed: int, i: int) -> PairResult:
    """The two matches of pair ``i`` on the same deals, sides swapped."""
    a, b = setup.make(setup.a), setup.make(setup.b)
    deal_seed = f"{seed}-{i}"
    rules = setup.rules
    first = play_match((a, b), deal_seed, f"{deal_seed}-x", rules)
    second = play_match((b, a), deal_seed, f"{deal_seed}-y", rules)
    score = (_score(first, 0) + _score(second, 1)) / 2
    return PairResult(score, tuple((c.times_ms, c.cpu_ms, c.points, c.rounds) for c in (a, b)))


def duel(setup: Setup, pairs: int, seed: int, log: Callable[[str], None], jobs: int = 1) -> str:
    """``pairs`` duplicate pairs of matches between ``setup.a`` and ``setup.b``
    (on ``jobs`` processes); a summary line."""
    a, b = Contestant(setup.a, _no_decision), Contestant(setup.b, _no_decision)
    scores: list[float] = []
    started = time.perf_counter()
    with _pool(jobs) as pool:
        results = pool.map(play_pair, [setup] * pairs, [seed] * pairs, range(pairs))
        for result in results:
            scores.append(result.score)
            for total, (times, cpu, points, rounds) in zip((a, b), result.stats, strict=True):
                total.times_ms += times
                total.cpu_ms += cpu
                total.points += points
                total.rounds += rounds
            if len(scores) % max(1, pairs // 10) == 0:
                log(
                    f"  {len(scores)}/{pairs} pairs ({time.perf_counter() - started:.0f} s): "
                    + _summary(a, b, scores)
                )
    return _summary(a, b, scores)


def _no_decision(view: dict[str, Any], rng: random.Random, scores: tuple[int, ...]) -> Action:
    raise AssertionError("a duel's totals decide nothing")


class _InProcess:
    """``map`` here and now (one job: no process to start)."""

    def map(self, fn: Callable[..., Any], *iterables: Any) -> Any:
        return map(fn, *iterables)

    def __enter__(self) -> _InProcess:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


def _pool(jobs: int) -> Any:
    from concurrent.futures import ProcessPoolExecutor

    return _InProcess() if jobs <= 1 else ProcessPoolExecutor(jobs)


def _score(winner: int | None, side: int) -> float:
    return 0.5 if winner is None else float(winner == side)


def _summary(a: Contestant, b: Contestant, scores: list[float]) -> str:
    n = len(scores)
    mean = sum(scores) / n
    spread = statistics.stdev(scores) if n > 1 else 0.0
    half = 1.96 * spread / math.sqrt(n)
    return (
        f"{a.name} vs {b.name}: {2 * n} matches, {a.name} wins {100 * mean:.1f}% "
        f"[95% CI {100 * (mean - half):.1f}-{100 * (mean + half):.1f}]; "
        f"points/round {a.points / max(1, a.rounds):.1f} vs {b.points / max(1, b.rounds):.1f}; "
        f"ms/decision {_times(a.times_ms)} vs {_times(b.times_ms)}; "
        f"CPU ms/decision {_times(a.cpu_ms)} vs {_times(b.cpu_ms)}"
    )


def _times(times_ms: list[float]) -> str:
    ts = sorted(times_ms)
    if not ts:
        return "-"
    p95 = ts[min(len(ts) - 1, int(0.95 * len(ts)))]
    return f"median {statistics.median(ts):.2f} p95 {p95:.2f}"


# --------------------------------------------------------------------------- command line
def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--full", action="store_true", help="the long run of bench/RESULTS.md")
    parser.add_argument("--pairs", type=int, help="duplicate pairs (2 matches each) per duel")
    parser.add_argument("--budget", type=float, default=150, help="hard's ms per decision")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--preset",
        default="parceria",
        choices=sorted(k for k, r in PRESETS.items() if r.seats == 4 and r.partnership),
        help="the preset the matches are played at (four seats in pairs; default parceria)",
    )
    parser.add_argument(
        "--duels",
        default="medium:easy,hard:medium,hard:easy,hard:dominoes",
        help="comma-separated a:b pairs among easy, medium, hard, dominoes, dominoes@SxN "
        "(the package with start_move S, sample_size N)",
    )
    parser.add_argument("--start-move", type=int, default=8, help="dominoes: search from this move")
    parser.add_argument("--sample-size", type=int, default=8, help="dominoes: deals per search")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing pairs at once")
    parser.add_argument(
        "--cpu-clock",
        action="store_true",
        help="hard's wall-clock cap counts its thread's CPU time (a machine shared with "
        "other work: its decisions are then those of an idle machine; ms/decision is not)",
    )
    args = parser.parse_args(argv)

    def log(line: str) -> None:
        print(line, flush=True)

    rules = PRESETS[args.preset]
    log(
        f"{args.preset} to {rules.target}, duplicate deals, seed {args.seed}; hard budget "
        f"{args.budget:g} ms; dominoes start_move={args.start_move} "
        f"sample_size={args.sample_size}; python {sys.version.split()[0]}; "
        f"{args.jobs} job(s); hard's cap on {'CPU' if args.cpu_clock else 'wall'} time"
    )
    for spec in args.duels.split(","):
        a_name, b_name = spec.split(":")
        if args.preset != "parceria" and "dominoes" in spec:
            parser.error("the dominoes package's player mirrors parceria only")
        pairs = args.pairs or _default_pairs(a_name, b_name, args.full)
        log(f"== {a_name} vs {b_name}: {pairs} pairs ({2 * pairs} matches)")
        setup = Setup(
            a_name,
            b_name,
            args.budget,
            args.start_move,
            args.sample_size,
            args.cpu_clock,
            args.preset,
        )
        log(duel(setup, pairs, args.seed, log, args.jobs))


def _default_pairs(a: str, b: str, full: bool) -> int:
    slow = "hard" in (a, b) or any(n.startswith("dominoes") for n in (a, b))
    if full:
        return 200 if slow else 1000
    return 10 if slow else 100


if __name__ == "__main__":
    main()
