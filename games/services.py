"""Matches, rounds and moves: the one way a move reaches the database.

`apply_action` is it: on a round its caller has locked, the engine decides,
then a `Move` is appended and the round's snapshot moves to ``version + 1``.
`match_begin` and `round_deal` deal, `match_end` ends a match before its goal
(walkover, annulment, restart), `round_stop` ends a round without a result.

These functions know rounds and matches only. Locks on the room, seats, due
times and telling the players are the caller's (`rooms.services`), which decides
what happens to the seats from what these return. Every refusal is a
`games.errors.ServiceError` raised before anything is written. Time comes in as
``now``; a deal's chance is the server seed its caller brings.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from django.db import transaction

from domino_site.infra.django import PreparedSelect, insert
from games import engine
from games.engine import fairness
from games.errors import ServiceError
from games.models import Match, Move, Round
from games.signals import round_finished

# ---------------------------------------------------------------------- reading under lock


# The room's latest round and its match, locked (the room's lock is held first).
# Every command and every move runs it (compiled once: domino_site.infra.django);
# rooms.services sends it together with the room's lock and seats.
LOCK_LATEST_ROUND = PreparedSelect(
    lambda room_id: (
        Round.objects.select_for_update()
        .select_related("match")
        .filter(room_id=room_id)
        .order_by("-id")[:1]
    )
)


def acting_seats(rnd: engine.Round) -> list[int]:
    """Seats the round waits for: the seat to act, or every pending tie-break picker."""
    if rnd.is_over:
        return []
    pending = rnd.pending_picks
    if pending:
        return sorted(pending)
    return [rnd.turn] if rnd.turn is not None else []


def only_pass(eng: engine.Round, index: int) -> bool:
    """Whether ``index``'s only legal action is to pass (nothing fits, nothing to draw)."""
    return not eng.pending_picks and eng.turn == index and eng.legal_actions(index) == [engine.PASS]


# ---------------------------------------------------------------------- dealing


def match_begin(*, room: Any, now: datetime) -> Match:
    """A new match of ``room``'s rules (scores at zero, first-round opening), saved,
    and the number after the room's last one. Deal its first round with `round_deal`."""
    last = (
        Match.objects.filter(room_id=room.pk).order_by("-number").values_list("number", flat=True)
    )
    match = Match(room=room, number=(last.first() or 0) + 1, created_at=now)
    match.store(engine.Match(room.ruleset))
    match.save()
    return match


def round_deal(
    *,
    match: Match,
    players: Sequence[dict[str, Any]],
    now: datetime,
    room_code: str,
    server_seed: str,
    client_seeds: Sequence[str],
) -> Round:
    """The match's next round, dealt verifiably (docs/rules.md, "Verifiable deals"):
    the tile order is the one ``server_seed`` (committed to before, see
    `rooms.models.Room.next_server_seed`) and the material of ``room_code``, the
    match, the round and ``client_seeds`` give (`engine.FairDeal`); the engine
    deals that permutation (`engine.Match.new_round`). Not saved yet: the caller
    sets its due time, then saves it. ``players``: who sits where, as the admin
    shows them."""
    number = len(match.state.get("results", [])) + 1
    seeds = list(client_seeds)
    text = fairness.material(room_code, match.number, number, seeds)
    fair = engine.FairDeal.compute(server_seed, text)
    eng = match.engine().new_round(
        order=fair.order, tiebreak_order=fair.tiebreak_order, redeal_orders=fair.redeal_orders()
    )
    rnd = Round(
        match=match,
        room_id=match.room_id,
        number=number,
        deal=eng.initial,
        players=list(players),
        version=1,
        turn_started_at=now,
        started_at=now,
        fair_version=fairness.VERSION,
        server_seed=server_seed,
        commitment=fair.commitment,
        client_seeds=seeds,
        material=text,
    )
    rnd.store(eng)
    # The previous round's pending walkover (if any) is moot now.
    Round.objects.filter(room_id=match.room_id, due_at__isnull=False).update(
        due_at=None, due_kind=None
    )
    return rnd


# ---------------------------------------------------------------------- moves


def apply_action(
    *,
    rnd: Round,
    seat_index: int,
    action: engine.Action,
    by: str,
    now: datetime,
    key: int | None = None,
) -> Move:
    """Apply ``seat_index``'s ``action`` to ``rnd``, which the caller has locked.

    The engine decides (an illegal action raises `ServiceError` with the engine's
    code and nothing is written); then the `Move` is stored with the end the engine
    resolved (under ``key``, its primary key drawn ahead with the lock, when
    there is one: it is sent with the move's other writes; without it the row is
    sent at once), and the snapshot takes ``version + 1``. When the round ends its
    result is scored into the match (saved). ``rnd`` itself is left for the caller
    to save once it has set the next due time: one write per move, of
    `Round.MOVE_FIELDS` and the due time.
    """
    eng = rnd.engine()
    picking = eng.pending_picks
    try:
        eng.apply(seat_index, action)
    except engine.IllegalAction as exc:
        raise ServiceError(exc.code) from None
    # Tie-break picks are made "at the same time, under the move timer": one
    # clock for the pick round, restarted only when a new pick round begins.
    same_pick_round = bool(picking) and 0 < len(eng.pending_picks) < len(picking)
    recorded = eng.history[-1][1]  # with the end the engine resolved
    move = Move(
        pk=key,
        round=rnd,
        seq=len(eng.history),
        seat=seat_index,
        action=recorded.to_dict(),
        by=by,
        created_at=now,
    )
    insert(move)  # Move.objects.create, its statement compiled once: move.pk is set
    rnd.store(eng)
    rnd.movers = [*rnd.movers, by]
    rnd.version += 1
    if not same_pick_round:
        rnd.turn_started_at = now
    if eng.result is not None:
        _score(rnd, eng.result, now)
    return move


def _score(rnd: Round, result: engine.RoundResult, now: datetime) -> None:
    rnd.finished_at = now
    rnd.turn_started_at = now
    match = rnd.match
    match.finish_round(result, now)
    match.save()
    round_id = rnd.pk
    transaction.on_commit(lambda: round_finished.send(sender=Round, round_id=round_id), robust=True)


# ---------------------------------------------------------------------- endings


def match_end(*, match: Match, winner: int | None, reason: str, now: datetime) -> None:
    """End the match now (`engine.Match.end`): ``winner`` side, or nobody. A match
    already over stays as it ended."""
    eng = match.engine()
    if eng.is_over:
        return
    eng.end(reason, winner)
    match.store(eng)
    match.finished_at = now
    match.save()


def round_stop(*, rnd: Round, now: datetime) -> None:
    """End a round without a result (its match already ended: walkover,
    annulment); the caller saves it. A finished round is left as it is."""
    if rnd.finished_at is None:
        rnd.finished_at = now
        rnd.turn_started_at = now
        rnd.version += 1
