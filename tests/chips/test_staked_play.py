"""Staked matches played to the end over the real sockets, one client address
per person (docs/site.md, "Fichas"): every balance is checked after each step
(sitting, the start, the end) against the ledger and the text's rules: the
winner side takes the pot less the bank's 40 %, split between partners; an
annulment returns every stake; a forfeit pays the other side as a loss would;
a seat is refused for want of chips."""

from __future__ import annotations

from typing import Any

import pytest
from asgiref.sync import sync_to_async

from chips import selectors
from chips import services as chips
from domino_site.client_ip import ip_hash
from domino_site.realtime.asyncdb import db_async
from games.models import Match
from records.models import Cooldown
from rooms import services
from tests.realtime.conftest import Player, first_legal, my_turn, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

ADDRESSES = ["203.0.113.10", "198.51.100.20", "192.0.2.30", "203.0.113.40"]
START = 1000
STAKE = 100


def _person(django_user_model, name: str, amount: int = START):
    user = django_user_model.objects.create_user(name, password="x")
    if amount:
        chips.correction_add(user=user, amount=amount, staff=None, note="test")
    return user


def _balances(users) -> list[int]:
    """Each balance, checked against its ledger's sum."""
    found = []
    for user in users:
        balance = selectors.balance_of(user.pk)
        assert balance == selectors.ledger_sum(user), user.username
        found.append(balance)
    return found


def _match_sum(room) -> int:
    match = Match.objects.filter(room=room).order_by("-number").first()
    return sum(e.amount for e in selectors.match_entries(match))


async def _staked_table(django_user_model, names: list[str], preset: str, **kw) -> tuple:
    """``names[0]`` opens a public table of ``preset`` staking `STAKE`; the
    others sit over their sockets, each from their own address."""
    users = [await db_async(_person)(django_user_model, name) for name in names]
    room = await db_async(services.room_create)(
        user=users[0], name="Mesa", preset=preset, stake=STAKE, ip_hash=ip_hash(ADDRESSES[0]), **kw
    )
    players = []
    for index, user in enumerate(users):
        cookie = await sync_to_async(session_cookie)(user)
        player = await Player.table(room.code, cookie, ADDRESSES[index])
        if index:
            await player.send({"type": "sit", "seat": index})
            await player.until(lambda s, i=index: s["you"]["seat"] == i)
        players.append(player)
    await players[0].until(lambda s: all(seat["kind"] == "human" for seat in s["seats"]))
    return room, users, players


async def _play_to_the_end(players: list[Player]) -> dict[str, Any]:
    """Every person plays their turns (the first legal action); the host deals
    the next round; until the match is over."""
    host = players[0]
    for _ in range(5000):
        for player in players:
            await player.drain()
        state = host.state
        if (state["match"] or {}).get("over") and (state.get("pot") or {}).get("settled"):
            return state
        mover = next((p for p in players if my_turn(p.state)), None)
        if mover is not None:
            version = mover.state["version"]
            await mover.send({**first_legal(mover.state), "version": version})
            await mover.until(lambda s, v=version: s["version"] > v)
        elif (state["round"] or {}).get("result") and not state["match"]["over"]:
            version = state["version"]
            await host.send({"type": "next_round"})
            await host.until(lambda s, v=version: s["version"] > v)
        else:
            for player in players:
                await player.comm.receive_nothing(timeout=0.02)
    raise AssertionError("the match did not end")


async def test_a_staked_duelo_played_to_the_end(live, django_user_model):
    room, users, players = await _staked_table(django_user_model, ["ana", "bruno"], "duelo")
    assert players[0].state["room"]["stake"] == STAKE
    assert await db_async(_balances)(users) == [START, START]  # sitting holds nothing
    await players[0].send({"type": "start"})
    started = await players[0].until(lambda s: s["round"] is not None and s["pot"] is not None)
    assert started["pot"]["total"] == 2 * STAKE and not started["pot"]["settled"]
    assert [seat["stake"] for seat in started["pot"]["seats"]] == [STAKE, STAKE]
    assert await db_async(_balances)(users) == [START - STAKE] * 2
    final = await _play_to_the_end(players)
    winner = final["match"]["winner"]
    balances = await db_async(_balances)(users)
    pot = final["pot"]
    if winner is None:  # a blocked duelo's tie: a draw returns both stakes
        assert pot["outcome"] == "draw" and balances == [START, START]
    else:
        assert pot["outcome"] == "won" and pot["bank_share"] == 80  # 40 % of 200
        assert balances[winner] == START - STAKE + 120
        assert balances[1 - winner] == START - STAKE
        assert [row["net"] for row in pot["net"]][winner] == 20
    assert await db_async(_match_sum)(room) == 0
    for player in players:
        await player.close()


async def test_a_staked_parceria_played_to_the_end(live, django_user_model):
    names = ["ana", "bruno", "carla", "davi"]
    room, users, players = await _staked_table(django_user_model, names, "parceria")
    await players[0].send({"type": "start"})
    await players[0].until(lambda s: s["pot"] is not None)
    assert await db_async(_balances)(users) == [START - STAKE] * 4
    final = await _play_to_the_end(players)
    winner = final["match"]["winner"]
    assert winner in (0, 1)
    balances = await db_async(_balances)(users)
    for index, balance in enumerate(balances):
        if index % 2 == winner:  # partners split the pot less the bank's 40 %: 240 / 2
            assert balance == START - STAKE + 120, names[index]
        else:
            assert balance == START - STAKE, names[index]
    assert final["pot"]["bank_share"] == 160
    assert await db_async(_match_sum)(room) == 0
    for player in players:
        await player.close()


async def test_an_annulment_at_a_staked_table_returns_every_stake(live, django_user_model):
    room, users, players = await _staked_table(django_user_model, ["ana", "bruno"], "duelo")
    await players[0].send({"type": "start"})
    await players[0].until(lambda s: s["pot"] is not None)
    assert await db_async(_balances)(users) == [START - STAKE] * 2
    for player in players:
        await player.send({"type": "annul"})
    over = await players[0].until(lambda s: s["match"]["annulled"] and s["pot"]["settled"])
    assert over["pot"]["outcome"] == "annulled"
    assert await db_async(_balances)(users) == [START, START]
    assert await db_async(_match_sum)(room) == 0


async def test_a_forfeit_at_a_staked_table_pays_the_other_side(live, django_user_model):
    room, users, players = await _staked_table(django_user_model, ["ana", "bruno"], "duelo")
    await players[0].send({"type": "start"})
    await players[0].until(lambda s: s["pot"] is not None and s["room"]["rated"])
    await players[1].send({"type": "leave"})
    over = await players[0].until(lambda s: s["match"]["over"] and s["pot"]["settled"])
    assert over["match"]["ended_by"] == "abandono" and over["match"]["winner"] == 0
    assert await db_async(_balances)(users) == [START - STAKE + 120, START - STAKE]
    assert await db_async(Cooldown.objects.filter(user=users[1]).exists)()
    assert await db_async(_match_sum)(room) == 0


async def test_a_seat_is_refused_for_want_of_chips_over_the_socket(
    live, django_user_model, settings
):
    settings.CHIPS_DAILY_FLOOR = 0  # (signing in would top 99 chips up to the floor)
    ana = await db_async(_person)(django_user_model, "ana")
    poor = await db_async(_person)(django_user_model, "pobre", STAKE - 1)
    room = await db_async(services.room_create)(
        user=ana, name="Mesa", preset="duelo", stake=STAKE, ip_hash=ip_hash(ADDRESSES[0])
    )
    player = await Player.table(room.code, await sync_to_async(session_cookie)(poor), ADDRESSES[1])
    await player.send({"type": "sit", "seat": 1})
    error = await player.error()
    assert (error["code"], error["stake"], error["balance"]) == ("no_chips", STAKE, STAKE - 1)
    assert "99" in error["message"]
    assert player.state["seats"][1]["kind"] == "empty"
    await player.close()
