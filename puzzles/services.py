"""The puzzles' writes (docs/site.md, "Puzzles"): cutting candidates from
analysed public rounds, the deeper check that publishes or drops them, a
player's try (rating, streak), the daily puzzle, a training position.

Cutting and checking are background work: they run in the analysis worker
(`puzzles_drain`, from the Celery task ``puzzles.next`` on the ``analysis``
queue, or the embedded server's analysis side job), after the analyses and
within their budget, never on the play servers.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from analysis.models import RoundAnalysis
from domino_site.guests import guest_key
from games.engine import Action, IllegalAction, Play, RuleSet, action_from_dict
from games.models import Move
from games.models import Round as RoundRow
from games.world import now_or
from puzzles import cutting
from puzzles.errors import PuzzleError
from puzzles.models import DailyPuzzle, Puzzle, PuzzleCut, PuzzlePlayer, PuzzleTry
from puzzles.pacing import paced_deep_check
from puzzles.ratings import shown_rating
from puzzles.themes import themes_of
from records import rating
from records.models import RoundPlayer
from records.rulebook import established_account
from rooms.models import Room

#: What runs a deeper check: `puzzles.pacing.paced_deep_check`'s signature
#: (the embedded server passes one that runs it in its analysis child).
Checker = Callable[..., cutting.Verdict]
#: Candidates waiting for their deeper check at most (`puzzles_cut`).
CANDIDATE_BOUND = 100
#: The label of the decisions offered for training from one's own replay.
TRAINING_LABEL = "capivarada"


def _moves(round_id: int) -> list[tuple[int, dict[str, Any], str]]:
    rows = Move.objects.filter(round_id=round_id).order_by("seq").only("seat", "action", "by")
    return [(m.seat, m.action, m.by) for m in rows]


def _position_puzzle(
    rnd: RoundRow, decision: dict[str, Any], moves: list[tuple[int, dict[str, Any], str]]
) -> dict[str, Any]:
    """A puzzle's fields from an analysed decision: the mover's view just
    before it, the best option, every option best first, the gap, the themes."""
    rules = RuleSet.from_dict(rnd.state["rules"])
    position = cutting.position(rules, rnd.deal, moves, decision["seq"])
    view = position.view(decision["seat"])
    best = decision["options"][decision["best"]]
    solution = cutting.action_of(best)
    others = [cutting.action_of(o) for o in decision["options"] if o is not best]
    return {
        "round": rnd,
        "seq": decision["seq"],
        "seat": decision["seat"],
        "preset": rnd.room.preset,
        "view": view,
        "solution": solution,
        "options": sorted(decision["options"], key=lambda o: -o["value"]),
        "gap": cutting.gap_of(decision),
        "themes": themes_of(view, solution, others),
    }


def puzzles_cut(*, limit: int = 20) -> int:
    """Look at up to ``limit`` analysed public rounds not looked at yet (oldest
    first) and store their candidates (`puzzles.cutting.candidates_of`: the
    clearest of each round); returns how many it stored. Idempotent: each
    analysis once. Nothing while `CANDIDATE_BOUND` candidates wait for their
    check: the backlog stays bounded however far the checks lag."""
    analyses = (
        RoundAnalysis.objects.filter(round__room__visibility=Room.Visibility.PUBLIC)
        .exclude(pk__in=PuzzleCut.objects.values("analysis_id"))
        .select_related("round", "round__room")
        .order_by("id")[:limit]
    )
    if Puzzle.objects.filter(state=Puzzle.State.CANDIDATE).count() >= CANDIDATE_BOUND:
        return 0  # the checks lag behind: cut more once they caught up
    stored = 0
    for analysis in analyses:
        rnd = analysis.round
        rules = RuleSet.from_dict(rnd.state["rules"])
        chosen = cutting.candidates_of(analysis.decisions, rules)
        moves = _moves(rnd.pk) if chosen else []
        rows = [
            Puzzle(state=Puzzle.State.CANDIDATE, **_position_puzzle(rnd, d, moves)) for d in chosen
        ]
        try:
            with transaction.atomic():
                PuzzleCut.objects.create(analysis=analysis, candidates=len(rows))
                Puzzle.objects.bulk_create(rows)
        except IntegrityError:  # another worker cut it first
            continue
        stored += len(rows)
    return stored


def puzzle_check_next(
    *, checker: Checker = paced_deep_check, work: int | None = None
) -> Puzzle | None:
    """The deeper check of the oldest candidate (outside any transaction; it
    takes a second or two of CPU): published, or dropped with its reason.
    None when no candidate waits."""
    puzzle = Puzzle.objects.filter(state=Puzzle.State.CANDIDATE).select_related("round").first()
    if puzzle is None:
        return None
    rnd = puzzle.round
    analysis_work = (
        RoundAnalysis.objects.filter(round=rnd).values_list("work", flat=True).first() or work
    )
    verdict = checker(
        rnd.state["rules"],
        rnd.deal,
        _moves(rnd.pk),
        seq=puzzle.seq,
        seat=puzzle.seat,
        solution=puzzle.solution,
        work=analysis_work,
        seed_parts=(rnd.pk, rnd.started_at),
    )
    fields: dict[str, Any] = {"checked_at": now_or(None), "check_cpu_ms": verdict.cpu_ms}
    if verdict.kept:
        fields.update(
            state=Puzzle.State.PUBLISHED, options=verdict.options, gap=round(verdict.gap, 2)
        )
    else:
        fields.update(state=Puzzle.State.DROPPED, drop_reason=verdict.reason)
    Puzzle.objects.filter(pk=puzzle.pk, state=Puzzle.State.CANDIDATE).update(**fields)
    puzzle.refresh_from_db()
    return puzzle


def puzzles_waiting() -> bool:
    """Whether the puzzles have background work: a candidate to check, or an
    analysed public round not cut yet."""
    if Puzzle.objects.filter(state=Puzzle.State.CANDIDATE).exists():
        return True
    return (
        RoundAnalysis.objects.filter(round__room__visibility=Room.Visibility.PUBLIC)
        .exclude(pk__in=PuzzleCut.objects.values("analysis_id"))
        .exists()
    )


def puzzles_drain(
    *,
    checker: Checker = paced_deep_check,
    seconds: float = 30.0,
    more_urgent: Callable[[], bool] = lambda: False,
) -> int:
    """The worker's puzzle step: cut what was analysed, then check candidates
    until none waits, ``seconds`` have passed or ``more_urgent()`` (the
    analysis queue has a job: analyses come first). Returns how many it checked."""
    started, checked = time.monotonic(), 0
    puzzles_cut()
    while time.monotonic() - started < seconds and not more_urgent():
        if puzzle_check_next(checker=checker) is None:
            if not puzzles_cut():
                break
            continue
        checked += 1
    return checked


# ------------------------------------------------------------------ a try


def parse_answer(puzzle: Puzzle, data: Any) -> Action:
    """The answer ``data`` as one of the position's legal actions, or
    `PuzzleError` (``bad_action``: not an action; ``illegal_action``: not
    legal there)."""
    view = puzzle.view
    spinner = bool(view["rules"].get("spinner"))
    try:
        action = action_from_dict(data, spinner=spinner)
    except IllegalAction:
        raise PuzzleError("bad_action", _("That answer is not a move.")) from None
    legal = [action_from_dict(d, spinner=spinner) for d in view["legal"]]
    if type(action) is Play and action.end is None:
        fits = [a for a in legal if type(a) is Play and a.tile == action.tile]
        if len(fits) == 1:
            action = fits[0]
    if action not in legal:
        raise PuzzleError("illegal_action", _("That move is not legal in this position."))
    return action


def is_solution(puzzle: Puzzle, action: Action) -> bool:
    """The solution, an option worth as much (a training position may have two
    best moves; a published one has one, `PUZZLE_GAP` ahead), or its mirror
    image (the same tile on an end showing the same number leaves the same
    position, but under ``fives`` scoring)."""
    spinner = bool(puzzle.view["rules"].get("spinner"))
    best = [puzzle.solution]
    if puzzle.options:
        top = max(float(o["value"]) for o in puzzle.options)
        best += [cutting.action_of(o) for o in puzzle.options if float(o["value"]) >= top]
    return any(_same(puzzle, action, action_from_dict(b, spinner=spinner)) for b in best)


def _same(puzzle: Puzzle, action: Action, best: Action) -> bool:
    if action == best:
        return True
    if type(action) is not Play or type(best) is not Play or action.tile != best.tile:
        return False
    if puzzle.view["rules"].get("scoring") == "fives":
        return False
    ends = puzzle.view["ends"] or {}
    return ends.get(action.end or "A") == ends.get(best.end or "A")


#: Why a try did not move the player's own rating (`TryResult.unrated`).
UNRATED_GUEST = "guest"  # not signed in
UNRATED_TRAINING = "training"  # one's own position
UNRATED_TRIED = "tried_before"  # not the first try
UNRATED_SEEN = "seen"  # the answer was shown to this browser or address before


@dataclass(frozen=True)
class TryResult:
    correct: bool
    rated: bool
    rating_before: int | None
    rating_after: int | None
    puzzle_rating: int
    streak: int | None
    solution: dict[str, Any]
    options: list[dict[str, Any]]
    puzzle_rated: bool = False
    unrated: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "correct": self.correct,
            "rated": self.rated,
            "unrated": self.unrated,
            "puzzle_rated": self.puzzle_rated,
            "rating_before": self.rating_before,
            "rating_after": self.rating_after,
            "puzzle_rating": self.puzzle_rating,
            "streak": self.streak,
            "solution": self.solution,
            "options": self.options,
        }


def puzzle_try(
    *,
    puzzle_id: int,
    user: Any,
    answer: Any,
    guest_token: str | None = None,
    ip_hash: str = "",
    now: datetime | None = None,
) -> TryResult:
    """``user`` (None: a guest, known by ``guest_token``, the guest cookie's)
    answers ``answer`` (an action dict) to the puzzle from the address whose
    keyed hash is ``ip_hash`` (docs/site.md, "Puzzles").

    A person's first answer is stored (`PuzzleTry`: the account's, or the
    guest's by `guest_key`) before the solution is in the result: nobody is
    told it before their own first try is recorded. Any later answer of the
    same person is checked, shown, and changes nothing; so is a refused one
    (`PuzzleError`: nothing is stored or shown).

    The first try of a signed-in player to a published puzzle rates the player
    against the puzzle as a duel (openskill, `records.rating.rate`: the winner
    first), as Lichess rates a puzzle try, and moves the streak, unless the
    answer had been shown before to this browser (its guest cookie's try) or
    to a guest or a new account from this address (``unrated`` = ``seen``).
    The puzzle's own rating moves only on such a try by an established account
    (`records.rulebook.established_account`), and once per address: a second
    account from an address whose try moved it leaves it as it is."""
    if user is None and not guest_token:
        raise ValueError("a guest's try is recorded by the guest cookie's token: give one")
    key = guest_key(guest_token) or ""
    with transaction.atomic():
        player = None
        if user is not None:
            player, _created = PuzzlePlayer.objects.get_or_create(user=user)
            player = PuzzlePlayer.objects.select_for_update().get(pk=player.pk)
        puzzle = Puzzle.objects.select_for_update().filter(pk=puzzle_id).first()
        if puzzle is None or not _may_try(puzzle, user):
            raise PuzzleError("not_found", _("There is no such puzzle."))
        action = parse_answer(puzzle, answer)
        correct = is_solution(puzzle, action)
        tries = PuzzleTry.objects.filter(puzzle=puzzle)
        mine = tries.filter(user=user) if user is not None else tries.filter(guest_key=key)
        first = not mine.exists()
        public = puzzle.state == Puzzle.State.PUBLISHED and puzzle.owner_id is None
        before = after = shown_rating(player.mu) if player is not None else None
        unrated: str | None = None
        if user is None:
            unrated = UNRATED_GUEST
        elif not public:
            unrated = UNRATED_TRAINING
        elif not first:
            unrated = UNRATED_TRIED
        elif _seen(tries, key, ip_hash):
            unrated = UNRATED_SEEN
        rated = unrated is None and player is not None
        established = established_account(user=user, now=now)
        moves = (
            rated
            and established
            and bool(ip_hash)
            and not tries.filter(ip_hash=ip_hash, moved_puzzle=True).exists()
        )
        if rated and player is not None:
            me = rating.Skill(player.mu, player.sigma)
            it = rating.Skill(puzzle.mu, puzzle.sigma)
            (mine_after,), (its,) = rating.rate([[me], [it]], ranks=[0, 1] if correct else [1, 0])
            player.mu, player.sigma = mine_after.mu, mine_after.sigma
            player.tries += 1
            player.streak = player.streak + 1 if correct else 0
            player.best_streak = max(player.best_streak, player.streak)
            player.save(update_fields=["mu", "sigma", "tries", "streak", "best_streak"])
            after = shown_rating(player.mu)
            if moves:
                puzzle.mu, puzzle.sigma = its.mu, its.sigma
                puzzle.tries += 1
                puzzle.solved += int(correct)
                puzzle.save(update_fields=["mu", "sigma", "tries", "solved"])
        if first:
            PuzzleTry.objects.create(
                user=user,
                guest_key="" if user is not None else key,
                puzzle=puzzle,
                ip_hash=ip_hash,
                action=action.to_dict(),
                correct=correct,
                rated=rated,
                established=established,
                moved_puzzle=moves,
                rating_before=before if rated else None,
                rating_after=after if rated else None,
                created_at=now_or(now),
            )
        return TryResult(
            correct=correct,
            rated=rated,
            rating_before=before,
            rating_after=after,
            puzzle_rating=shown_rating(puzzle.mu),
            streak=player.streak if player is not None else None,
            solution=puzzle.solution,
            options=puzzle.options,
            puzzle_rated=moves,
            unrated=unrated,
        )


def _seen(tries: Any, key: str, ip_hash: str) -> bool:
    """Whether the answer was shown before to the guest this browser was (its
    cookie's try), or to a guest or a new account from this address."""
    seen = Q(guest_key=key) if key else Q(pk__in=[])
    if ip_hash:
        seen |= Q(ip_hash=ip_hash, established=False)
    return bool(tries.filter(seen).exists())


def _may_try(puzzle: Puzzle, user: Any) -> bool:
    if puzzle.state == Puzzle.State.PUBLISHED and puzzle.owner_id is None:
        return True
    return puzzle.state == Puzzle.State.TRAINING and user is not None and puzzle.owner_id == user.pk


# ------------------------------------------------------------------ the day, training


def puzzle_of_the_day(*, day: date) -> Puzzle | None:
    """The day's puzzle, the same for everybody: chosen once, the oldest
    published puzzle never chosen before (None while there is none)."""
    found = DailyPuzzle.objects.filter(day=day).select_related("puzzle").first()
    if found is not None:
        return found.puzzle
    used = DailyPuzzle.objects.values("puzzle_id")
    puzzle = (
        Puzzle.objects.filter(state=Puzzle.State.PUBLISHED, owner__isnull=True)
        .exclude(pk__in=used)
        .order_by("id")
        .first()
    )
    if puzzle is None:
        return None
    try:
        with transaction.atomic():
            DailyPuzzle.objects.create(day=day, puzzle=puzzle)
    except IntegrityError:  # chosen meanwhile by another request
        return DailyPuzzle.objects.get(day=day).puzzle
    return puzzle


def training_puzzle(*, user: Any, round_id: int, seq: int) -> Puzzle:
    """The position of ``user``'s own blunder (an analysed decision labelled
    ``capivarada``, `TRAINING_LABEL`) at move ``seq`` of the round, as a puzzle
    for them alone (made once; unrated, not checked again: the analysis'
    best is its answer). Raises `PuzzleError`."""
    if user is None:
        raise PuzzleError("login_required", _("Log in to train on your own positions."))
    analysis = RoundAnalysis.objects.filter(round_id=round_id).select_related("round__room").first()
    decision = next((d for d in (analysis.decisions if analysis else []) if d["seq"] == seq), None)
    if analysis is None or decision is None:
        raise PuzzleError("not_found", _("There is no such puzzle."))
    if decision["label"] != TRAINING_LABEL:
        raise PuzzleError("not_a_blunder", _("Only a blunder is offered for training."))
    if not RoundPlayer.objects.filter(
        round_id=round_id, index=decision["seat"], user_id=user.pk
    ).exists():
        raise PuzzleError("not_yours", _("That move was not yours."))
    existing = Puzzle.objects.filter(round_id=round_id, seq=seq, owner=user).first()
    if existing is not None:
        return existing
    fields = _position_puzzle(analysis.round, decision, _moves(round_id))
    try:
        with transaction.atomic():
            return Puzzle.objects.create(state=Puzzle.State.TRAINING, owner=user, **fields)
    except IntegrityError:  # made meanwhile by a second click
        return Puzzle.objects.get(round_id=round_id, seq=seq, owner=user)
