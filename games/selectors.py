"""Reads of finished rounds: replays for the JSON endpoint and the admin.

A replay is rebuilt with `engine.Round.replay` from the stored deal and the
stored moves, and compared with the stored snapshot (the Move table is the
audit log; the snapshot is a cache of it).
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from domino_site.removed import shown_name
from games import engine
from games.errors import ServiceError
from games.models import Move, Round


def finished_round(*, room: Any, number: int, match_number: int | None = None) -> Round | None:
    """The round ``number`` of ``match_number`` (default: the latest match that has
    it), or None; refused while it is played."""
    rounds = Round.objects.select_related("match", "room").filter(room=room, number=number)
    if match_number is not None:
        rounds = rounds.filter(match__number=match_number)
    rnd = rounds.order_by("-match__number").first()
    if rnd is None:
        return None
    if rnd.finished_at is None:
        raise ServiceError(
            "bad_message", _("This round is still being played."), reason="round_in_play"
        )
    return rnd


def round_replay(*, room: Any, number: int, match_number: int | None = None) -> dict | None:
    """The finished round ``number`` (of ``match_number``, default the latest match
    that has it): rules, hands as dealt, moves, result. Refused while it is played.
    Never the boneyard (docs/rules.md rule 10): a drawn tile appears with its draw, the
    tiles nobody drew are in no field."""
    rnd = finished_round(room=room, number=number, match_number=match_number)
    return replay_export(rnd) if rnd is not None else None


PUBLIC_PLAYER_KEYS = ("index", "kind", "name", "bot_level")


def replay_export(rnd: Round) -> dict[str, Any]:
    """The JSON of a finished round (`round_replay`)."""
    moves = list(Move.objects.filter(round=rnd).order_by("seq"))
    drawn = _drawn_tiles(rnd, moves)
    deal = rnd.deal
    return {
        "room": rnd.room.code,
        "match": rnd.match.number,
        "number": rnd.number,
        "rules": rnd.state["rules"],
        "deal": {
            "hands": deal["hands"],
            "opener": deal.get("opener"),
            "mandatory_tile": deal.get("mandatory_tile"),
            "first_of_match": deal.get("first_of_match", True),
        },
        "players": [
            {
                **{key: player.get(key) for key in PUBLIC_PLAYER_KEYS},
                "name": shown_name(player.get("name") or ""),  # a removed account: "Removed player"
            }
            for player in rnd.players or ()
        ],
        "moves": [
            {
                "seq": m.seq,
                "seat": m.seat,
                "by": m.by,
                "at": m.created_at.isoformat(),
                **m.action,
                **({"tile": drawn[m.seq]} if m.seq in drawn else {}),
            }
            for m in moves
        ],
        "result": rnd.result,
        # The line's bends as the table drew them (`layout`) and who set each and
        # after which move (`adjustments`): a replay draws the line as it was.
        "layout": rnd.layout,
        "adjustments": rnd.adjustments or [],
        # The verifiable deal, revealed (docs/rules.md): `python -m games.fairness verify`.
        "fair": rnd.fair_view(),
        "started_at": rnd.started_at.isoformat(),
        "finished_at": rnd.finished_at.isoformat() if rnd.finished_at else None,
    }


def replay_fair(rnd: Round) -> dict[str, Any] | None:
    """What the replay page needs to compute a finished round's deal again in the
    browser (docs/site.md, "Verifiable deals"): ``fair`` (revealed), the room,
    match and round numbers of the material, the hands as dealt and the drawn
    tiles in order. None for a round dealt before verifiable deals."""
    fair = rnd.fair_view()
    if fair is None:
        return None
    rules = engine.RuleSet.from_dict(rnd.state["rules"])
    moves = list(Move.objects.filter(round=rnd).order_by("seq"))
    return {
        "fair": fair,
        "code": rnd.room.code,
        "match": rnd.match.number,
        "number": rnd.number,
        "seats": rules.seats,
        "hand_size": rules.hand_size,
        "draw": rules.draw,
        "hands": rnd.deal["hands"],
        "drawn": list(_drawn_tiles(rnd, moves).values()),
    }


def _drawn_tiles(rnd: Round, moves: list[Move]) -> dict[int, str]:
    """The tile each draw took (seq -> tile): it joined a hand, shown face up."""
    rules = engine.RuleSet.from_dict(rnd.state["rules"])
    replaying = engine.Round.replay(rules, rnd.deal, [])
    drawn = {}
    for move in moves:
        replaying.apply(move.seat, engine.action_from_dict(move.action, spinner=rules.spinner))
        if move.action.get("type") == "draw":
            drawn[move.seq] = str(replaying.hand(move.seat)[-1])
    return drawn


def replay_positions(rnd: Round) -> list[dict[str, Any]]:
    """Every position of a finished round for its replay page, from the deal to the
    last move: the public view (chain, ends, counts, turn, log entry) with every
    hand face up. The boneyard's tiles are in none of them (only its count)."""
    rules = engine.RuleSet.from_dict(rnd.state["rules"])
    moves = list(Move.objects.filter(round=rnd).order_by("seq"))
    replaying = engine.Round.replay(rules, rnd.deal, [])
    positions = [_replay_position(replaying, None, None)]
    for move in moves:
        replaying.apply(move.seat, engine.action_from_dict(move.action, spinner=rules.spinner))
        positions.append(_replay_position(replaying, move, replaying.public_view()["history"][-1]))
    for position in positions:  # the line bent as it was after that move
        position["layout"] = _layout_after(rnd.adjustments or [], position["seq"])
    return positions


def _layout_after(adjustments: list[dict[str, Any]], seq: int) -> dict[str, str]:
    """The drawn line's bends after move ``seq``: the stored adjustments made by
    then, in their order (``straight`` undoes a bend)."""
    layout: dict[str, str] = {}
    for adjust in adjustments:
        if adjust.get("after", 0) > seq:
            break
        at, bend = str(adjust.get("at")), adjust.get("bend")
        if bend in ("left", "right"):
            layout[at] = bend
        else:
            layout.pop(at, None)
    return layout


def _replay_position(rnd: engine.Round, move: Move | None, entry: dict | None) -> dict[str, Any]:
    view = rnd.public_view()
    log = None
    if move is not None and entry is not None:
        log = {"seq": move.seq, "seat": move.seat, "type": entry["type"], "by": move.by}
        log["ends"] = entry.get("ends_before")
        if "tile" in entry:
            log["tile"] = entry["tile"]
            log["end"] = entry.get("end")
    return {
        "seq": move.seq if move else 0,
        "log": log,
        "chain": view["chain"],
        "ends": view["ends"],
        "hands": [[str(t) for t in rnd.hand(s)] for s in range(rnd.rules.seats)],
        "boneyard_count": view["boneyard_count"],
        "turn": view["turn"],
        "result": view["result"],
        # The tie-break's revealed picks, every round of them (docs/table-rules.md "The tie-break's picks, revealed").
        "pick_off": view["pick_off"],
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
            replaying.apply(move.seat, engine.action_from_dict(move.action, spinner=rules.spinner))
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
