"""Reads for pages and sockets: the per-viewer room snapshot and the public list's rows.

`room_state` is the protocol's ``room`` message. Hidden information is
structural: every viewer shares `public_state`, built from the engine's
watcher view (`engine.Round.public_view`, an allow-list), and a seated viewer
adds only its own seat's `private_part` (`engine.Round.private_view`); other
seats only ever appear as tile counts (until the result reveal).

A change is built once: the service that commits it calls `public_state` and
`private_part` for each seat (`rooms.events`), and each socket combines the two
with `compose_state` without a query.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db.models import Count, Exists, OuterRef, Q, QuerySet
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy as _lazy

from domino_site.guests import guest_key
from domino_site.removed import shown_name
from games.models import Move, Round
from games.world import now_or
from records import rulebook
from records.models import RoundPlayer
from records.selectors import (
    abandonments,
    is_admin,
    is_user,
    match_note,
    match_rating_changes,
    unrated_reason,
)
from rooms.models import Room, Seat, waits_for_both
from rooms.services.due import pause_lapse, ready_deadline, ready_phase


def room_for_code(code: str) -> Room | None:
    """The room with ``code`` (case-insensitive), or None."""
    if not isinstance(code, str) or not code.strip():
        return None
    return Room.objects.filter(code=code.strip().upper()).first()


def viewer_seat(*, room: Room, user: Any = None, guest_token: str | None = None) -> Seat | None:
    """The seat this person plays (an account on any browser, or a guest token).

    A seat its human left during the round (a bot plays it until the result) is
    no longer theirs; a seat a bot took while they were away still is (coming
    back returns it)."""
    seats = Seat.objects.filter(room=room, kind=Seat.Kind.HUMAN)
    if user is not None and getattr(user, "is_authenticated", False):
        seats = seats.filter(user_id=user.pk)
    elif guest_token:
        seats = seats.filter(guest_token=guest_token, user__isnull=True)
    else:
        return None
    seat = seats.first()
    if seat is not None and seat.substitute and seat.substitute_reason != "away":
        return None
    return seat


def room_for_invite(token: str) -> Room | None:
    """The private room whose invite link carries ``token``, or None."""
    return Room.objects.filter(invite_token=token, visibility=Room.Visibility.PRIVATE).first()


def invite_seats(room: Room) -> list[dict[str, Any]]:
    """What the invite's sit page shows of the table: each seat's name and kind,
    and whether the invite could seat someone there (as
    `rooms.services.seat_take_by_invite` chooses: an empty seat, else a bot's)."""
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    return [
        {
            "index": s.index,
            "kind": s.kind,
            "name": seat_name(s),
            "free": s.is_empty or (s.is_bot and not s.is_reserved and not s.leaving),
        }
        for s in seats
    ]


def reserved_seat(*, room: Room, user: Any = None, guest_token: str | None = None) -> Seat | None:
    """The bot's seat this person reserved for the end of the round, if any."""
    if user is not None and getattr(user, "is_authenticated", False):
        return Seat.objects.filter(room=room, reserved_user_id=user.pk).first()
    if guest_token:
        return Seat.objects.filter(room=room, reserved_guest_token=guest_token).first()
    return None


def current_round(room: Room) -> Round | None:
    return Round.objects.select_related("match").filter(room=room).order_by("-id").first()


def room_state(*, room: Room, viewer: Seat | None) -> dict[str, Any]:
    """The protocol's ``room`` message for ``viewer`` (None: a spectator), read
    from the database (connect, reconnect, a version gap)."""
    seats = list(Seat.objects.filter(room=room).order_by("index"))
    rnd = current_round(room)
    index = viewer.index if viewer is not None and viewer.room_id == room.pk else None
    if viewer is None or index is None or not (index < len(seats) and seats[index].pk == viewer.pk):
        index = None
    public = public_state(room=room, seats=seats, rnd=rnd)
    private = private_part(rnd, index) if rnd is not None and index is not None else None
    return compose_state(public, private, index)


def public_state(*, room: Room, seats: Sequence[Seat], rnd: Round | None) -> dict[str, Any]:
    """Everything of the ``room`` message that every viewer of ``room`` gets: the
    message of a spectator (no hand, no legal actions, no invite link). Built once
    per change and combined with each seat's `private_part` by `compose_state`."""
    rules = room.ruleset
    view = rnd.engine().public_view() if rnd is not None else {}
    counts = view["tile_counts"] if view else None
    return {
        "type": "room",
        "version": room.version,
        "room": {
            **_room_part(room, show_invite=False, seats=seats),
            # Why this competitive table is not rated, said before its match
            # starts: "pair_limit" (docs/rated-play.md, "The rulebook"), or None.
            "unrated": unrated_reason(
                seats=seats,
                match=rnd.match if rnd is not None else None,
                side_of=rules.side_of,
                now=now_or(None),
                competitive=room.competitive,
                rated=room.rated,
            ),
        },
        "you": {"seat": None, "is_host": False, "side": None},
        "seats": [_seat_part(seat, rules, counts) for seat in seats],
        "match": _match_part(rnd, seats),
        "round": _round_part(rnd, view, room) if rnd is not None else None,
        "log": _log(rnd, view) if rnd is not None else [],
        # For seated viewers only (compose_state pops it); public rooms have none,
        # nor an arena's private table (its seats are the arena's to fill).
        "_invite": room.invite_path
        if room.visibility == Room.Visibility.PRIVATE and not room.seated_by_pairing
        else None,
    }


def private_part(rnd: Round, index: int) -> dict[str, Any] | None:
    """What only seat ``index`` may see of the round (engine.Round.private_view):
    its hand, legal actions, the mandatory tile it holds, its pending pick."""
    eng = rnd.engine()
    if not 0 <= index < eng.rules.seats:
        return None
    return eng.private_view(index)


def compose_state(
    public: dict[str, Any], private: dict[str, Any] | None, index: int | None
) -> dict[str, Any]:
    """The ``room`` message of the viewer at seat ``index`` (None: a spectator)
    from the shared `public_state` and that seat's `private_part`. Copies only the
    parts it changes: ``public`` is shared by every socket of the table."""
    state = {key: value for key, value in public.items() if key != "_invite"}
    if index is None:
        return state
    room = public["room"]
    state["room"] = {**room, "invite_url": public.get("_invite")}
    side = private["side"] if private is not None else _side_of(public, index)
    state["you"] = {"seat": index, "is_host": room["host_seat"] == index, "side": side}
    round_ = public["round"]
    if round_ is not None and private is not None:
        round_ = {
            **round_,
            "hand": private["hand"],
            "legal": private["legal"],
            "mandatory_tile": private["mandatory_tile"],
        }
        if round_["pick_off"] is not None:
            round_["pick_off"] = {**round_["pick_off"], "mine": private["pick_mine"]}
        state["round"] = round_
    return state


def _side_of(public: dict[str, Any], index: int) -> int | None:
    seats = public["seats"]
    return seats[index]["side"] if index < len(seats) else None


def _room_part(
    room: Room, show_invite: bool, seats: Sequence[Seat] | None = None
) -> dict[str, Any]:
    return {
        "code": room.code,
        "name": room.name,
        "visibility": room.visibility,
        "preset": room.preset,
        "options": room.options,
        "rules": room.rules,
        "move_seconds": room.move_seconds,
        # The turn's limit where there is one: the move clock, or at a match at
        # stake without one the rulebook's (docs/rated-play.md, "The rulebook").
        "turn_seconds": _turn_seconds(room),
        "status": room.status,
        "paused": room.paused,
        # Who paused, and when a person's pause at a match at stake ends by itself
        # (docs/rated-play.md, "The rulebook").
        "pause": _pause_part(room, seats),
        "host_seat": room.host_seat,
        "watchers": room.watchers,  # sockets watching without a seat (rooms.watchers)
        "invite_url": room.invite_path if show_invite else None,
        "rated": room.rated,
        "competitive": room.competitive,
        # A private room with two people seated: an absent one is waited for.
        "waits_for_both": waits_for_both(room, seats) if seats is not None else False,
        # The commitment of the next deal (docs/rules.md, "Verifiable deals"); never its seed.
        "next_fair": room.next_fair(),
        # Play alone: the first deal waits for this table's people's seeds.
        "start_on_seeds": room.start_on_seeds,
    }


def _turn_seconds(room: Room) -> int | None:
    stake = rulebook.marked_at_stake(room)
    limit = rulebook.turn_limit(move_seconds=room.move_seconds, stake=stake)
    return int(limit.total_seconds()) if limit is not None else None


def pause_left_s(seat: Seat) -> int:
    used = timedelta(milliseconds=seat.pause_used_ms)
    return int(max(rulebook.PAUSE_BUDGET - used, timedelta(0)).total_seconds())


def _pause_part(room: Room, seats: Sequence[Seat] | None) -> dict[str, Any] | None:
    if not room.paused:
        return None
    ends = pause_lapse(room, seats)[0] if seats is not None else None
    return {
        "by": room.paused_by or "host",
        "seat": room.paused_seat,
        "ends_at": iso_utc(ends) if ends is not None else None,
    }


BOT_LABELS = {
    "easy": _lazy("Bot (easy)"),
    "medium": _lazy("Bot (medium)"),
    "hard": _lazy("Bot (hard)"),
}


def seat_name(seat: Seat) -> str:
    """The name shown for a seat, in the viewer's language for bots and nameless guests."""
    if seat.is_bot:
        return str(BOT_LABELS.get(seat.bot_level or "", _("Bot")))
    if seat.is_human:
        return shown_name(seat.display_name) or _("Guest")
    return ""


def _seat_part(seat: Seat, rules: Any, counts: list[int] | None) -> dict[str, Any]:
    return {
        "index": seat.index,
        "side": rules.side_of(seat.index) if seat.index < rules.seats else None,
        "kind": seat.kind,
        "name": seat_name(seat),
        "connected": seat.connected if seat.is_human else seat.is_bot,
        "bot_level": seat.bot_level,
        "substitute": seat.substitute,
        "tile_count": counts[seat.index] if counts and seat.index < len(counts) else None,
        "reserved_for": seat.reserved_name or None if seat.is_reserved else None,
        "leaving": seat.leaving,
        "ready": seat.ready or seat.is_bot,
        "auto": seat.auto,  # automatic mode: the "automático" badge
        # What is left of the person's pause budget at a match at stake.
        "pause_left_s": pause_left_s(seat) if seat.is_human else 0,
        # A person away since (shown as "esperando <nome> voltar" in a private duel).
        "away_since": iso_utc(away)
        if seat.is_human and not seat.connected and (away := seat.disconnected_at or seat.seated_at)
        else None,
    }


def _match_part(rnd: Round | None, seats: Sequence[Seat]) -> dict[str, Any] | None:
    if rnd is None:
        return None
    match = rnd.match
    # Annulment (docs/rated-play.md): the seats whose person has a vote standing,
    # out of the seats whose person votes; the page counts exactly these.
    voters = annul_voters(seats)
    standing = {v["person"] for v in standing_votes(rnd)} if not match.over else set()
    state = match.state
    rules = state.get("rules", {})
    # The people who abandoned the rated match: their seats, and the names those
    # seats showed then (the seats are empty by now).
    abandoned = abandonments(match=match) if match.ended_by == "abandono" else []
    return {
        "number": match.number,
        "scores": list(state.get("scores", [])),
        "goal": rules.get("goal"),
        "target": rules.get("target"),
        "rounds": rules.get("rounds"),
        "rounds_played": len(state.get("results", [])),
        "over": match.over,
        "winner": match.winner,
        "ended_by": match.ended_by or None,
        "annulled": match.annulled,
        "annul_votes": [s.index for s in voters if annul_person(s) in standing],
        "annul_voters": [s.index for s in voters],
        # A finished rated match: each player's rating before and after, and the
        # experience earned (read only once the match is over).
        "rating": match_rating_changes(match) if match.over else [],
        # Why a finished match that started rated counted for nobody ("no_move":
        # a person never made a move themselves), else None.
        "note": match_note(match) if match.over else None,
        # The seats whose person abandoned the rated match (the table says "X abandonou").
        "abandoned": [index for index, _name in abandoned],
        "abandoned_names": [name for _index, name in abandoned],
    }


def _round_part(rnd: Round, view: dict[str, Any], room: Room) -> dict[str, Any]:
    deadline = None
    if rnd.due_at is not None and rnd.due_kind not in (Round.DueKind.BOT, Round.DueKind.PASS):
        deadline = iso_utc(rnd.due_at)
    # Between rounds at an "all ready" table: when whoever is not ready may be
    # stood up (by the server at a public table, by the host at a private one).
    ready_by = iso_utc(ready_deadline(rnd)) if ready_phase(room, rnd) else None
    return {
        "ready_deadline": ready_by,
        "number": rnd.number,
        "opener": view["opener"],
        "turn": view["turn"],
        "deadline": deadline,
        "due_kind": rnd.due_kind,
        "remaining_ms": rnd.remaining_ms,
        "chain": view["chain"],
        "layout": rnd.layout,
        "ends": view["ends"],
        "tile_counts": view["tile_counts"],
        "boneyard_count": view["boneyard_count"],
        "passes_in_row": view["passes_in_row"],
        "last_player": view.get("last_player"),
        "hand": view["hand"],
        "legal": view["legal"],
        "mandatory_tile": view["mandatory_tile"],
        "pick_off": view["pick_off"],
        "result": view["result"],
        "over": rnd.finished_at is not None,
        # The deal's commitment and client seeds; its server seed once it has ended.
        "fair": rnd.fair_view(),
        # Only at the tables that score so (docs/rules.md): the game of points'
        # `made` (per side, this round so far), the partida's carried `bonus` and
        # its deals made again for too many doubles (`redeals`: [seat, doubles]).
        **{key: view[key] for key in ("made", "bonus", "redeals") if key in view},
    }


def iso_utc(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def _log(rnd: Round, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The round's moves for people: the view's public history with who made each."""
    history = view["history"]
    if len(rnd.movers) == len(history):
        by = dict(enumerate(rnd.movers, start=1))
    else:  # a round stored before `Round.movers`
        by = dict(Move.objects.filter(round=rnd).values_list("seq", "by"))
    log = []
    for seq, entry in enumerate(history, start=1):
        item = {
            "seq": seq,
            "seat": entry["seat"],
            "type": entry["type"],
            "ends": entry.get("ends_before"),
            "by": by.get(seq, Move.By.PERSON),
        }
        if "tile" in entry:
            item["tile"] = entry["tile"]
            item["end"] = entry.get("end")
        if "scored" in entry:  # the game of points: what this play scored
            item["scored"] = entry["scored"]
        log.append(item)
    # Layout adjustments ("ajustou a fila") are not moves: each goes after the
    # move it followed (``after``: that move's seq) and takes no move's ``seq``
    # (a page tells entries apart by their place in the log).
    for adjust in reversed(rnd.adjustments or []):
        after = adjust.get("after", 0)
        item = {"after": after, "seat": adjust.get("seat"), "type": "adjust",
                "at": adjust.get("at"), "bend": adjust.get("bend"), "by": Move.By.PERSON}  # fmt: skip
        log.insert(min(after, len(log)), item)
    return log


#: One row of the public list with what places it: ``(key, version, row)``,
#: the room's id, its version and the `/api/rooms/` row (the lobby's
#: `lobby.listing.Page` keeps them in order).
Entry = tuple[int, int, dict[str, Any]]


def public_rooms() -> list[dict[str, Any]]:
    """Every open public room with at least one connected human (the `/api/rooms/`
    rows, unfiltered and unpaged), newest first."""
    return [row for _key, _version, row in listing_entries(public_listing())]


def lobby_entries_of(room_ids: Iterable[int]) -> list[Entry]:
    """The rows of these rooms that are on the public list (the others left it)."""
    return listing_entries(public_listing().filter(pk__in=list(room_ids)))


def public_listing() -> QuerySet[Room]:
    """The public list: every open public room with a connected human, newest
    first, annotated with its ``humans``, ``bots`` and ``seat_total`` (the lobby
    filters and pages it, `lobby.selectors`)."""
    connected = Seat.objects.filter(room=OuterRef("pk"), kind=Seat.Kind.HUMAN, connected=True)
    return (
        Room.objects.filter(visibility=Room.Visibility.PUBLIC)
        .exclude(status=Room.Status.CLOSED)
        .filter(Exists(connected))
        .annotate(
            humans=Count("seats", filter=Q(seats__kind=Seat.Kind.HUMAN)),
            bots=Count("seats", filter=Q(seats__kind=Seat.Kind.BOT)),
            seat_total=Count("seats"),
        )
        .order_by("-pk")
    )


def listing_entries(rooms: Iterable[Any]) -> list[Entry]:
    """The `Entry` of each room of `public_listing` (its annotations read)."""
    return [
        (
            room.pk,
            room.version,
            {
                "code": room.code,
                "name": room.name,
                "preset": room.preset,
                "seats": room.seat_total,
                "seats_taken": room.humans + room.bots,
                "humans": room.humans,
                "bots": room.bots,
                "status": room.status,
                "paused": room.paused,
                "move_seconds": room.move_seconds,
                "rated": room.rated,
                "competitive": room.competitive,
                "url": f"/r/{room.code}/",
            },
        )
        for room in rooms
    ]


# ------------------------------------------------------------------ who may see a room's rounds
#
# Its replay page and its JSON alike (docs/site.md): a public room's, anyone logged
# in; a private room's, the people who sat at that table (any of its rounds, or
# a seat there now), and admins. Anyone else gets the answer of an unknown code
# (404), so nobody learns which private codes exist.


def sat_at(*, room: Room, user: Any = None, guest_token: str | None = None) -> bool:
    """Whether this person sat at ``room``: dealt one of its rounds, or seated (or
    holding a reservation) there now."""
    if is_user(user):
        mine = Q(user_id=user.pk)
        seat = Q(user_id=user.pk) | Q(reserved_user_id=user.pk)
    elif guest_token:
        mine = Q(guest_key=guest_key(guest_token))
        seat = Q(guest_token=guest_token) | Q(reserved_guest_token=guest_token)
    else:
        return False
    return (
        RoundPlayer.objects.filter(mine, room=room).exists()
        or Seat.objects.filter(seat, room=room).exists()
    )


def may_see_rounds(*, room: Room, user: Any = None, guest_token: str | None = None) -> bool:
    """Whether this person may see ``room``'s finished rounds (see above)."""
    if room.visibility == Room.Visibility.PUBLIC:
        return is_user(user)
    return is_admin(user) or sat_at(room=room, user=user, guest_token=guest_token)


# ------------------------------------------------------------------ annulment
# Who votes on a friendly annulment and which votes stand (docs/rated-play.md,
# "Annulment"): read by the snapshot and by `rooms.services.flow.annul_vote`, so
# the page counts exactly what the server counts. A vote belongs to a person (an
# account, or a keyed digest of a guest's seat token), never to a seat index: a
# new occupant does not inherit it. It lasts until the end of the round it was
# cast in, and its person may withdraw it. Every person bound to a seat votes,
# present or away; bots and a stand-in for someone away do not.


def annul_voters(seats: Sequence[Seat]) -> list[Seat]:
    """Who votes on an annulment: every person bound to a seat, present or away
    (a bot standing in for someone away does not vote for them); not bots, not
    a person who left the seat (a bot plays it until the result)."""
    return [s for s in seats if s.is_human and not (s.substitute and s.substitute_reason == "left")]


def annul_person(seat: Seat) -> str:
    """The person a vote belongs to: the account, or a keyed digest of the guest
    token (a vote survives no change of the seat's occupant)."""
    return f"u{seat.user_id}" if seat.user_id else f"g{guest_key(seat.guest_token) or ''}"


def annul_period(rnd: Round) -> str:
    """The stretch a vote lasts for: the round it was cast in (cast between rounds,
    until the next deal)."""
    return f"{rnd.pk}:{'after' if rnd.finished_at is not None else 'play'}"


def standing_votes(rnd: Round) -> list[dict[str, str]]:
    """The match's annulment votes that have not expired (older entries, and
    those of another round, are dropped)."""
    period = annul_period(rnd)
    return [
        v
        for v in rnd.match.annul_votes or []
        if isinstance(v, dict) and v.get("period") == period and v.get("person")
    ]
