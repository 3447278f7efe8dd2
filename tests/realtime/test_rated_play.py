"""Rated play nobody can game (docs/rated-play.md), on the real sockets with
one client address per person: a match counts only for people who played it
themselves, leaving a rated match is a forfeit, annulment needs every person
bound to a seat, and a stranger cannot stall an all-ready table."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games.models import Match
from records.models import MatchLineup, RatingChange
from rooms import services
from tests.realtime.conftest import (
    Player,
    advance,
    first_legal,
    my_turn,
    play_against_the_clock,
    session_cookie,
    sweep,
)

pytestmark = pytest.mark.django_db(transaction=True)

ANA_IP, BRUNO_IP = "203.0.113.10", "198.51.100.20"


async def _rated_pair(django_user_model, preset: str = "com_monte", rated: bool = True, **kw):
    """ana (host, seat 0) and bruno (seat 1), each from their own address: a rated
    table (``rated=False``: one address for both, so not rated)."""
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset=preset, **kw)
    if kw.get("visibility") == "private":  # (as if bruno came by the invite link)
        await sync_to_async(services.seat_take)(room=room, index=1, user=bruno)
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    guest = await Player.table(
        room.code, await sync_to_async(session_cookie)(bruno), BRUNO_IP if rated else ANA_IP
    )
    await guest.send({"type": "sit", "seat": 1})
    await guest.until(lambda s: s["you"]["seat"] == 1)
    await host.until(lambda s: s["room"]["rated"] is rated and s["seats"][1]["kind"] == "human")
    return room, host, guest


async def _play_round(players: list[Player], movers: list[Player]) -> dict:
    """Play the round to its result; ``movers`` play their turns, the others wait."""
    for _ in range(2000):
        for player in players:
            await player.drain()
        state = players[0].state
        if state["round"] and state["round"]["result"]:
            return state
        mover = next((p for p in movers if my_turn(p.state)), None)
        if mover is None:  # wait for the next frame on any socket
            for player in players:
                await player.comm.receive_nothing(timeout=0.02)
            continue
        v = mover.state["version"]
        await mover.send({**first_legal(mover.state), "version": v})
        await mover.until(lambda s, v=v: s["version"] > v)
    raise AssertionError("the round did not end")


def _match(room) -> Match:
    return Match.objects.filter(room=room).order_by("-number").first()


def _changes(room) -> list[tuple[str, bool]]:
    rows = RatingChange.objects.filter(match__room=room, preset="")
    return sorted((r.user.username, r.won) for r in rows.select_related("user"))


async def test_leaving_a_rated_match_between_rounds_is_a_forfeit(live, django_user_model):
    room, host, guest = await _rated_pair(django_user_model)
    await host.send({"type": "start"})
    await _play_round([host, guest], [host, guest])
    await guest.send({"type": "leave"})
    over = await host.until(lambda s: s["match"]["over"])
    assert over["match"]["ended_by"] == "abandono"
    assert over["match"]["winner"] == 0  # the one who stayed
    assert over["seats"][1]["kind"] == "empty"
    assert await sync_to_async(_changes)(room) == [("ana", True), ("bruno", False)]


async def test_being_away_until_the_seat_is_freed_is_a_forfeit(live, django_user_model):
    room, host, guest = await _rated_pair(django_user_model)
    await host.send({"type": "start"})
    await _play_round([host, guest], [host, guest])
    await guest.comm.disconnect()  # the tab closed
    await host.until(lambda s: not s["seats"][1]["connected"])
    await sweep(121)  # two minutes away: the seat is freed
    over = await host.until(lambda s: s["match"]["over"])
    assert over["match"]["ended_by"] == "abandono" and over["match"]["winner"] == 0
    assert await sync_to_async(_changes)(room) == [("ana", True), ("bruno", False)]


async def test_a_rated_match_counts_only_if_every_person_moved_themselves(live, django_user_model):
    """The victim never plays: the clock plays every one of their moves. The
    match ends, but moves nobody's rating, and the table says why."""
    room, host, guest = await _rated_pair(django_user_model, preset="duelo", move_seconds=10)
    await host.send({"type": "start"})
    await host.until(lambda s: s["round"] is not None)
    over = await play_against_the_clock(host, move_seconds=10)
    assert over["match"]["winner"] is not None
    assert over["match"]["note"] == "no_move"
    assert await sync_to_async(_changes)(room) == []
    lineup = await sync_to_async(MatchLineup.objects.get)(match=await sync_to_async(_match)(room))
    assert not lineup.rated and lineup.reason == "no_move"


# ---------------------------------------------------------------------- annulment


async def test_an_annulment_vote_expires_with_its_round(live, django_user_model):
    """ana votes in round 1 and wins it; bruno's vote in round 2 annuls nothing."""
    room, host, guest = await _rated_pair(django_user_model)
    await host.send({"type": "start"})
    await host.until(lambda s: s["round"] is not None)
    await host.send({"type": "annul"})
    voted = await guest.until(lambda s: s["match"] is not None and s["match"]["annul_votes"] == [0])
    assert voted["match"]["annul_voters"] == [0, 1]
    await _play_round([host, guest], [host, guest])
    ended = await guest.until(lambda s: s["round"]["result"] is not None)
    assert ended["match"]["annul_votes"] == []  # the vote went with its round
    for player in (host, guest):
        await player.send({"type": "ready"})
    await host.until(lambda s: s["round"]["number"] == 2 and not s["round"]["result"])
    await guest.send({"type": "annul"})
    state = await host.until(lambda s: s["match"] is not None and s["match"]["annul_votes"] == [1])
    assert not state["match"]["over"] and not state["match"]["annulled"]


async def test_an_annulment_vote_can_be_withdrawn(live, django_user_model):
    room, host, guest = await _rated_pair(django_user_model)
    await host.send({"type": "start"})
    await host.until(lambda s: s["round"] is not None)
    await host.send({"type": "annul"})
    await guest.until(lambda s: s["match"] is not None and s["match"]["annul_votes"] == [0])
    await host.send({"type": "annul", "on": False})
    await guest.until(lambda s: s["match"] is not None and s["match"]["annul_votes"] == [])
    await guest.send({"type": "annul"})
    state = await host.until(lambda s: s["match"] is not None and s["match"]["annul_votes"] == [1])
    assert not state["match"]["annulled"]


async def test_a_person_away_still_votes_for_themselves(live, django_user_model):
    """bruno is away and a bot stands in: ana cannot annul alone, and the page's
    counter (match.annul_voters) is the server's: both people. (An unrated
    table: at a rated one, two minutes away is a forfeit.)"""
    room, host, guest = await _rated_pair(django_user_model, rated=False)
    await host.send({"type": "start"})
    await host.until(lambda s: s["round"] is not None)
    await guest.comm.disconnect()
    await host.until(lambda s: not s["seats"][1]["connected"])
    await sweep(121)  # two minutes away: a bot stands in for bruno
    await host.until(lambda s: s["seats"][1]["substitute"])
    await host.send({"type": "annul"})
    state = await host.until(lambda s: s["match"] is not None and s["match"]["annul_votes"] == [0])
    assert state["match"]["annul_voters"] == [0, 1]
    assert not state["match"]["annulled"]


# ---------------------------------------------------------------------- ready deadline


async def test_a_stranger_who_never_presses_ready_is_stood_up_at_a_public_table(
    live, django_user_model
):
    room, host, guest = await _rated_pair(django_user_model, rated=False)
    await host.send({"type": "start"})
    await _play_round([host, guest], [host, guest])
    state = await host.until(lambda s: s["round"]["ready_deadline"] is not None)
    await host.send({"type": "ready"})
    await host.until(lambda s: s["seats"][0]["ready"])
    advance(30)
    assert await host.nothing(0.3)  # not yet
    advance(31)
    state = await host.until(lambda s: s["seats"][1]["kind"] == "empty")
    assert state["round"]["result"] is not None  # no round was running: the seat is free
    assert state["match"]["over"] is False


async def test_a_duelo_stranger_who_never_accepts_the_next_game_is_stood_up(
    live, django_user_model
):
    room, host, guest = await _rated_pair(django_user_model, preset="duelo", rated=False)
    await host.send({"type": "start"})
    await _play_round([host, guest], [host, guest])
    await host.until(lambda s: s["match"]["over"])
    await host.send({"type": "new_match"})  # ana accepts the next game
    await host.until(lambda s: s["seats"][0]["ready"])
    advance(61)
    await host.until(lambda s: s["seats"][1]["kind"] == "empty")


async def test_at_a_private_table_the_host_stands_up_who_is_not_ready(live, django_user_model):
    room, host, guest = await _rated_pair(
        django_user_model, rated=False, visibility="private", preset="com_monte"
    )
    await host.send({"type": "start"})
    await _play_round([host, guest], [host, guest])
    await host.send({"type": "ready"})
    await host.until(lambda s: s["seats"][0]["ready"])
    await host.send({"type": "stand_up", "seat": 1, "ref": "early"})
    error = await host.error()
    assert (error["code"], error["ref"]) == ("bad_message", "early")
    advance(61)
    assert await host.nothing(0.3)  # a private table waits for its host
    await guest.send({"type": "stand_up", "seat": 0, "ref": "g"})
    assert (await guest.error())["code"] == "not_host"
    await host.send({"type": "stand_up", "seat": 1})
    await host.until(lambda s: s["seats"][1]["kind"] == "empty")
