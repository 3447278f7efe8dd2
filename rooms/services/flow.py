"""The match flow a table's people drive: start, next round, ready, pause,
resume, annul, and bending the drawn line.

docs/site.md, "Rounds and the clock": the host starts (every seat filled); the next
round is dealt by the host or once every human confirms (``next_round``); a
single-game table (``duelo``) starts the next game once both players accept.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from django.utils.translation import gettext as _

from games import services as games
from games.models import Round
from records import rulebook
from rooms.errors import ServiceError
from rooms.models import Room, Seat
from rooms.selectors import annul_period, annul_person, annul_voters, standing_votes
from rooms.services.base import (
    actor_seat,
    all_filled,
    bad,
    bot_name,
    host_seat,
    match_over,
    new_game_by_both,
    paused,
    player_seat,
    wrong_phase,
)
from rooms.services.command import ROOM, SEATS, RoomRef, Table, room_command
from rooms.services.due import clear_due, refresh_due
from rooms.services.rounds import (
    SUBSTITUTE_LEVEL,
    at_stake_locked,
    begin_if_seeded_locked,
    begin_match_locked,
    deal_if_all_ready_locked,
    deal_locked,
    pause_locked,
    resume_locked,
    round_stop_locked,
)

BENDS = ("straight", "left", "right")


def _check_startable(seats: Sequence[Seat]) -> None:
    if not all_filled(seats):
        raise bad("seats_empty", _("Every seat must be taken (by a person or a bot)."))
    if not any(s.active_human for s in seats):
        raise bad("need_human", _("A room needs at least one human."))


@room_command(lobby=True)
def match_start(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    alone: bool = False,
    now: datetime | None = None,
) -> Round:
    """The host starts a match (every seat filled): its first round is dealt.
    Also after a match is over (a new match). With ``alone`` at a two-seat table
    whose other seat is free, a medium bot takes that seat and a new match starts
    against it, even if the last match was left unfinished (docs/site.md: the creator
    may restart alone against the computer)."""
    room, rnd, seats = table.room, table.rnd, table.seats
    if not alone and new_game_by_both(room, rnd):
        _accept_new_match_locked(table, actor)
        return table.dealt
    host = host_seat(room, seats, actor)
    if room.paused:
        raise paused()
    if room.status == Room.Status.PLAYING:
        raise wrong_phase()
    if alone:
        _seat_bot_opposite_locked(table, host)
        if rnd is not None and not rnd.match.over:  # left unfinished: counts for nobody
            rnd.match.annulled = True
            games.match_end(match=rnd.match, winner=None, reason="restart", now=table.now)
    elif not match_over(rnd):
        raise wrong_phase()
    _check_startable(seats)
    clear_due(rnd)
    begin_match_locked(table, actor=host)  # the rulebook's cool-down is checked there
    return table.dealt


@room_command(lobby=True)
def match_start_on_seeds(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    now: datetime | None = None,
) -> Round | None:
    """The host's table starts by itself (play alone): its first match begins as
    soon as every seated person has sent a client seed for the commitment the
    room shows (`seat_seed`), at once if they all have. Until then the room waits
    and the host may still start it by hand. Returns the round when dealt now.

    The deal is not made in the request that created the table: nobody has seen
    its commitment yet, so nobody could have sent a seed that counts
    (docs/rules.md, "Verifiable deals")."""
    room, seats = table.room, table.seats
    host_seat(room, seats, actor)
    if room.paused:
        raise paused()
    if room.status != Room.Status.WAITING:
        raise wrong_phase()
    _check_startable(seats)
    room.start_on_seeds = True
    return table.rnd if begin_if_seeded_locked(table) else None


def match_new(*, room: Room, actor: Seat, alone: bool = False, now: Any = None) -> Round:
    """ "New match": scores reset, first-round opening again, seats stay."""
    return match_start(room=room, actor=actor, alone=alone, now=now)


def _seat_bot_opposite_locked(table: Table, host: Seat) -> None:
    seats = table.seats
    other = seats[1 - host.index] if len(seats) == 2 else None
    if other is None or not other.is_empty:
        raise bad("not_alone", _("Playing alone needs a two-seat table with the other seat free."))
    other.kind = Seat.Kind.BOT
    other.bot_level = SUBSTITUTE_LEVEL
    other.display_name = bot_name(other.bot_level)
    other.seated_at = table.now
    other.save()


def _accept_new_match_locked(table: Table, actor: Seat | None) -> None:
    """``actor`` accepts a new game (its seat's ``ready``, shown as pending to the
    others); the last human to accept starts it. Bots always accept."""
    room, seats = table.room, table.seats
    seat = player_seat(seats, actor)
    if room.paused:
        raise paused()
    if rulebook.may_be_rated(seats=seats, competitive=room.competitive):
        rulebook.check_no_cooldown(seat.user_id, table.now)  # not even a pending "yes"
    if not seat.ready:
        seat.ready = True
        seat.save(update_fields=["ready"])
    humans = [s for s in seats if s.active_human and not s.leaving]
    if not (all_filled(seats) and all(s.ready for s in humans)):
        table.tell(ROOM)  # a pending "yes": nothing the lobby shows
        refresh_due(room, table.rnd, seats)  # the ready deadline now counts
        return
    clear_due(table.rnd)
    begin_match_locked(table, actor=seat)  # the deal clears every ready flag


@room_command(lobby=True)
def round_next(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    now: datetime | None = None,
) -> Round:
    """The host deals the next round (tables whose ``next_round`` is ``host``)."""
    room, rnd, seats = table.room, table.rnd, table.seats
    host_seat(room, seats, actor)
    if room.paused:
        raise paused()
    if room.status != Room.Status.BETWEEN_ROUNDS or rnd is None or match_over(rnd):
        raise wrong_phase()
    if room.ruleset.next_round != "host":
        raise bad("wrong_phase", _("At this table every player confirms the next round."))
    _check_startable(seats)
    deal_locked(table, rnd.match)
    return table.dealt


@room_command()
def player_ready(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    now: datetime | None = None,
) -> None:
    """A human confirms the next round (``all_ready``); the last one deals it."""
    room, rnd, seats = table.room, table.rnd, table.seats
    seat = player_seat(seats, actor)
    if room.status != Room.Status.BETWEEN_ROUNDS or match_over(rnd):
        raise wrong_phase()
    if room.ruleset.next_round != "all_ready":
        raise bad("wrong_phase", _("At this table the host deals the next round."))
    seat.ready = True
    seat.save(update_fields=["ready"])
    if deal_if_all_ready_locked(table):
        table.tell(SEATS)
    else:
        refresh_due(room, rnd, seats)


@room_command()
def room_pause(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    now: datetime | None = None,
) -> None:
    """The host freezes the clock, the bots and the dealing; the time left is
    kept. At a match at stake every person may pause, from their own budget,
    and the pause lapses by itself (`records.rulebook`)."""
    room = table.room
    seat = player_seat(table.seats, actor)
    stake = at_stake_locked(table)
    used = timedelta(milliseconds=seat.pause_used_ms) if stake else timedelta(0)
    rulebook.check_may_pause(stake=stake, host=room.host_seat == seat.index, used=used)
    if room.paused:
        if room.paused_by != "empty":  # nothing would change: say so (every message is answered)
            raise ServiceError("paused", _("The game is already paused."))
        room.paused_by = "host"  # paused for want of people: now the host's pause
        return
    if stake:
        pause_locked(table, rulebook.PAUSED_BY_PLAYER, seat=seat.index)
    else:
        pause_locked(table, "host")


@room_command()
def room_resume(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    now: datetime | None = None,
) -> None:
    """The host resumes (a person's pause at a match at stake: its pauser); the
    clock continues from the remaining time."""
    room = table.room
    seat = player_seat(table.seats, actor)
    rulebook.check_may_resume(
        by_player=room.paused and room.paused_by == rulebook.PAUSED_BY_PLAYER,
        pauser=room.paused_seat == seat.index,
        host=room.host_seat == seat.index,
    )
    if not table.room.paused:  # nothing would change: say so (every message is answered)
        raise bad("not_paused", _("The game is not paused."))
    resume_locked(table)


@room_command()
def annul_vote(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    on: bool = True,
    now: datetime | None = None,
) -> bool:
    """A person votes to annul the match (``on=False`` withdraws their vote);
    when every person bound to a seat has a vote standing, it counts for nobody
    (docs/rated-play.md, "Annulment"). A vote is the person's, not the seat's,
    and lasts until the end of the round it was cast in. Returns whether the
    match is now annulled."""
    rnd, seats = table.rnd, table.seats
    seat = player_seat(seats, actor)
    if rnd is None or rnd.match.over:
        raise wrong_phase()
    match = rnd.match
    mine = annul_person(seat)
    votes = [v for v in standing_votes(rnd) if v["person"] != mine]
    if on:
        votes.append({"person": mine, "period": annul_period(rnd)})
    match.annul_votes = votes
    voters = {annul_person(s) for s in annul_voters(seats)}
    annulled = bool(voters) and voters <= {v["person"] for v in votes}
    if annulled:
        match.annulled = True
        match.save()
        games.match_end(match=match, winner=None, reason="annulled", now=table.now)
        round_stop_locked(table)
        table.tell(SEATS)
    else:
        match.save(update_fields=["annul_votes"])
    return annulled


@room_command()
def layout_adjust(
    table: Table,
    *,
    room: RoomRef,
    actor: Seat | None,
    at: int,
    bend: str,
    now: datetime | None = None,
) -> None:
    """The seat to act bends the drawn chain at link ``at`` (layout only, not a move)."""
    room, rnd = table.room, table.rnd
    seat = actor_seat(table.seats, actor)
    if room.paused:  # like every move: nothing changes while the game is paused
        raise paused()
    if rnd is None or rnd.finished_at is not None or room.status != Room.Status.PLAYING:
        raise ServiceError("round_over")
    eng = rnd.engine()
    if seat.index not in games.acting_seats(eng):
        raise ServiceError("not_your_turn")
    if bend not in BENDS or type(at) is not int or not 0 <= at < len(eng.chain):
        raise bad("bad_layout", _("There is no such place on the chain."))
    if bend != "straight":
        _check_bend(eng.chain, at)
    layout = dict(rnd.layout)
    if bend == "straight":
        layout.pop(str(at), None)
    else:
        layout[str(at)] = bend
    rnd.layout = layout
    # For the log ("ajustou a fila"), after the move it followed.
    entry = {"after": len(eng.history), "seat": seat.index, "at": at, "bend": bend}
    rnd.adjustments = [*rnd.adjustments, entry]
    rnd.save(update_fields=["layout", "adjustments"])


def _check_bend(chain: Sequence[Any], at: int) -> None:
    """The variants site: the line never bends at the first tile of the round, and a double
    (drawn across the line) neither bends nor is followed by a bend."""
    if at == 0:
        raise bad("bad_layout", _("The line cannot bend at the first tile."))
    link, end = chain[at], chain[at].end
    start = chain[0]  # where the arm starts: the first tile, a spinner for its sides C and D
    if end in ("C", "D"):
        start = next(c for c in chain if c.tile.is_double)
    inner = next((chain[i] for i in range(at - 1, 0, -1) if chain[i].end == end), start)
    if link.tile.is_double or inner.tile.is_double:
        raise bad("bad_layout", _("The line does not bend at a double or right after one."))
