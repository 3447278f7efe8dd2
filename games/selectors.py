"""Reads of finished rounds: replays for the JSON endpoint and the admin.

A replay is rebuilt with `engine.Round.replay` from the stored deal and the
stored moves, and compared with the stored snapshot (the Move table is the
audit log; the snapshot is a cache of it).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from games import engine
from games.models import Move, Round
from rooms.errors import ServiceError


def round_replay(*, room: Any, number: int, match_number: int | None = None) -> dict | None:
    """The finished round ``number`` (of ``match_number``, default the latest match
    that has it): rules, deal, moves, result. Refused while the round is played."""
    rounds = Round.objects.select_related("match").filter(room=room, number=number)
    if match_number is not None:
        rounds = rounds.filter(match__number=match_number)
    rnd = rounds.order_by("-match__number").first()
    if rnd is None:
        return None
    if rnd.finished_at is None:
        raise ServiceError(
            "bad_message", _("This round is still being played."), reason="round_in_play"
        )
    moves = list(Move.objects.filter(round=rnd).order_by("seq"))
    return {
        "room": room.code,
        "match": rnd.match.number,
        "number": rnd.number,
        "rules": rnd.state["rules"],
        "deal": rnd.deal,
        "players": rnd.players,
        "moves": [
            {
                "seq": m.seq,
                "seat": m.seat,
                "by": m.by,
                "at": m.created_at.isoformat(),
                **m.action,
            }
            for m in moves
        ],
        "result": rnd.result,
        "started_at": rnd.started_at.isoformat(),
        "finished_at": rnd.finished_at.isoformat(),
    }


def replay_steps(rnd: Round) -> dict[str, Any]:
    """Every position of a round, from the deal to its last move, for the admin's
    replay page: the chain, every hand and the boneyard count after each move,
    and whether the rebuilt round equals the stored snapshot."""
    rules = engine.RuleSet.from_dict(rnd.state["rules"])
    moves = list(Move.objects.filter(round=rnd).order_by("seq"))
    replaying = engine.Round.replay(rules, rnd.deal, [])
    steps = [_position(replaying, None)]
    error = None
    for move in moves:
        try:
            replaying.apply(move.seat, engine.action_from_dict(move.action))
        except engine.IllegalAction as exc:
            error = f"#{move.seq}: {exc.code} ({exc.message})"
            break
        steps.append(_position(replaying, move))
    return {
        "steps": steps,
        "error": error,
        "matches_snapshot": error is None and replaying.to_dict() == rnd.state,
        "result": rnd.result,
    }


def _position(rnd: engine.Round, move: Move | None) -> dict[str, Any]:
    return {
        "seq": move.seq if move else 0,
        "seat": move.seat if move else None,
        "by": move.by if move else None,
        "action": move.action if move else None,
        "chain": [str(link.tile) for link in rnd.chain],
        "ends": list(rnd.ends) if rnd.ends else None,
        "hands": [[str(t) for t in rnd.hand(s)] for s in range(rnd.rules.seats)],
        "boneyard_count": rnd.boneyard_count,
        "turn": rnd.turn,
    }
