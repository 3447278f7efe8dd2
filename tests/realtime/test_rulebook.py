"""The rulebook of rated play on the real sockets (docs/rated-play.md, "The
rulebook"): every path that starts, pauses, leaves or idles at a rated match
asks the same rules, and the outcome is the one a player expects: whoever
pauses and goes, idles or leaves first loses; the other side is never charged.
"""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from arenas import services as arenas
from arenas.models import ArenaMatch, ArenaPlayer
from domino_site.client_ip import ip_hash
from domino_site.realtime.asyncdb import db_async
from games.models import Match
from games.world import world
from records import rulebook, selectors
from records import services as records
from records.models import Cooldown, MatchLineup, RatingChange
from rooms import services
from rooms.models import Room
from tests.realtime.conftest import (
    Player,
    advance,
    first_legal,
    my_turn,
    play_against_the_clock,
    session_cookie,
    sweep,
)
from tests.realtime.test_quick_match import Quick
from tests.waiting import async_wait_for

pytestmark = pytest.mark.django_db(transaction=True)

ANA_IP, BRUNO_IP = "203.0.113.10", "198.51.100.20"
AWAY = rulebook.AWAY_LIMIT.total_seconds()
BUDGET = rulebook.PAUSE_BUDGET.total_seconds()
IDLE = rulebook.IDLE_TURN.total_seconds()


async def _two(django_user_model, preset: str = "com_monte", **kw):
    """ana (host, seat 0) and bruno (seat 1), accounts at two addresses, a
    public competitive table: a rated one, not started."""
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset=preset, **kw)
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    guest = await Player.table(room.code, await sync_to_async(session_cookie)(bruno), BRUNO_IP)
    await guest.send({"type": "sit", "seat": 1})
    await guest.until(lambda s: s["you"]["seat"] == 1)
    rated = kw.get("competitive", True)
    await host.until(lambda s: s["seats"][1]["kind"] == "human" and s["room"]["rated"] == rated)
    return room, ana, bruno, host, guest


async def _started(django_user_model, **kw):
    room, ana, bruno, host, guest = await _two(django_user_model, **kw)
    await host.send({"type": "start"})
    await guest.until(lambda s: s["round"] is not None)
    await host.until(lambda s: s["round"] is not None)
    return room, ana, bruno, host, guest


async def _cooldown(user):
    return await db_async(selectors.cooldown_for)(user=user)


async def _rating(user) -> int:
    return (await db_async(selectors.shown_rating)(user)).value


async def _over(player: Player) -> dict:
    return await player.until(lambda s: bool(s["match"] and s["match"]["over"]))


# ---------------------------------------------------------------------- cool-down


async def test_a_duelo_rematch_does_not_start_while_one_of_them_cools_down(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model, preset="duelo")
    for player in (host, guest):  # the game ends (annulled by both): a finished duelo table
        await player.send({"type": "annul"})
    await _over(host)
    first = await db_async(Match.objects.filter(room=room).count)()
    await db_async(records.abandonment_recorded)(user=bruno, reason="left")  # from elsewhere

    await guest.send({"type": "start"})  # bruno's "yes" to the next game
    refused = await guest.error()
    assert refused["code"] == "cooldown" and refused["until"]
    await host.send({"type": "start"})  # ana's yes waits for a yes that cannot come
    await host.until(lambda s: s["seats"][0]["ready"])
    assert await db_async(Match.objects.filter(room=room).count)() == first


async def test_the_host_cannot_start_a_rated_match_with_someone_cooling_down(
    live, django_user_model
):
    room, ana, bruno, host, guest = await _two(django_user_model)
    await db_async(records.abandonment_recorded)(user=bruno, reason="left")
    await host.send({"type": "start"})
    refused = await host.error()
    assert refused["code"] == "cooldown"
    assert "bruno" in refused["message"]  # ana is told who holds the table back
    assert not await db_async(Match.objects.filter(room=room).exists)()


# ---------------------------------------------------------------------- pauses


async def test_a_rated_pause_comes_from_the_pausers_budget_and_lapses(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model)
    await guest.send({"type": "pause"})  # not only the host: every player has a budget
    paused = await host.until(lambda s: s["room"]["paused"])
    assert paused["room"]["pause"]["by"] == "player" and paused["room"]["pause"]["seat"] == 1
    assert paused["room"]["pause"]["ends_at"]
    await host.send({"type": "resume"})  # ana did not pause: only bruno may resume early
    assert (await host.error())["code"] == "not_host"

    advance(BUDGET + 1)  # nobody resumes: it lapses by itself
    going = await host.until(lambda s: not s["room"]["paused"])
    assert going["seats"][1]["pause_left_s"] == 0
    await guest.send({"type": "pause"})  # the budget is spent
    refused = await guest.error()
    assert refused["code"] == "bad_message" and refused["reason"] == "no_pause_left"


async def test_whoever_pauses_and_goes_away_loses_the_match(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model)
    before = await _rating(bruno)
    await host.send({"type": "pause"})
    await guest.until(lambda s: s["room"]["paused"])
    await host.close()  # the pauser closes the page: their absence runs, paused or not

    await sweep(AWAY + 1)
    over = await _over(guest)
    assert over["match"]["ended_by"] == "abandono" and over["match"]["winner"] == 1
    assert not over["room"]["paused"]  # the pause ended with the match
    assert (await _cooldown(ana)).reason == "absent"
    assert await _cooldown(bruno) is None
    assert await _rating(bruno) >= before


async def test_when_both_go_the_first_to_go_loses(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model)
    await host.send({"type": "pause"})
    await guest.until(lambda s: s["room"]["paused"])
    await host.close()
    advance(10)
    await guest.close()  # a table at stake is not paused for want of people

    await sweep(AWAY - 5)
    match = await db_async(Match.objects.get)(room=room)
    assert match.over and match.winner == 1 and match.ended_by == "abandono"
    assert await _cooldown(bruno) is None and (await _cooldown(ana)) is not None
    await sweep(AWAY)
    assert await _cooldown(bruno) is None  # the match was over before bruno's absence ran out


async def test_the_pause_of_a_friendly_table_stays_the_hosts(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model, competitive=False)
    await guest.send({"type": "pause"})
    assert (await guest.error())["code"] == "not_host"
    await host.send({"type": "pause"})
    paused = await guest.until(lambda s: s["room"]["paused"])
    assert paused["room"]["pause"] == {"by": "host", "seat": None, "ends_at": None}
    advance(BUDGET * 3)
    assert await guest.nothing(0.5)  # it does not lapse


# ---------------------------------------------------------------------- idle and away


async def test_an_idle_connected_player_is_played_for_then_loses(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model)  # no move clock
    before = await _rating(bruno)
    idle_for = 0.0
    while idle_for <= AWAY:  # bruno plays his turns; ana, connected, never moves again
        await guest.drain()
        state = guest.state
        assert state is not None
        if state["match"]["over"]:
            break
        version = state["version"]
        if my_turn(state):
            await guest.send({**first_legal(state), "version": version})
        elif state["room"]["status"] == "between_rounds" and not state["seats"][1]["ready"]:
            await guest.send({"type": "ready"})
        else:  # her turn is played by the server a minute after it began
            advance(IDLE + 1)
            idle_for += IDLE + 1
        await guest.until(lambda s, v=version: s["version"] > v)
    await sweep()
    over = await _over(guest)
    assert over["match"]["ended_by"] == "abandono" and over["match"]["winner"] == 1
    assert (await _cooldown(ana)).reason in ("absent", "timeouts")
    assert await _cooldown(bruno) is None
    assert await _rating(bruno) >= before


async def test_leaving_while_the_other_side_is_away_charges_the_one_away(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model)
    await host.close()  # ana drops
    await sweep(rulebook.AWAY_EXCUSES_AFTER.total_seconds() + 1)
    await guest.send({"type": "leave"})  # bruno gives up waiting
    over = await _over(guest)
    assert over["match"]["ended_by"] == "abandono" and over["match"]["winner"] == 1
    assert await _cooldown(bruno) is None
    assert (await _cooldown(ana)).reason == "absent"


async def test_leaving_while_everyone_is_here_is_still_a_forfeit(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model)
    await guest.send({"type": "leave"})
    over = await _over(host)
    assert over["match"]["winner"] == 0
    assert (await _cooldown(bruno)).reason == "left"


async def test_two_at_one_address_are_not_at_stake(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model)
    await guest.close()
    same = await Player.table(room.code, await sync_to_async(session_cookie)(bruno), ANA_IP)
    await same.until(lambda s: s["you"]["seat"] == 1 and s["seats"][1]["connected"])
    await same.send({"type": "leave"})  # no longer a rated table: leaving costs nothing
    await host.until(lambda s: s["seats"][1]["leaving"] or s["seats"][1]["kind"] != "human")
    assert await _cooldown(bruno) is None
    assert not await db_async(Cooldown.objects.exists)()
    assert (await db_async(Room.objects.get)(pk=room.pk)).rated is False


# ---------------------------------------------------------------------- one address


async def test_a_match_at_one_address_starts_unrated(live, django_user_model):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    room = await sync_to_async(services.room_create)(user=ana, name="Mesa", preset="com_monte")
    host = await Player.table(room.code, await sync_to_async(session_cookie)(ana), ANA_IP)
    guest = await Player.table(room.code, await sync_to_async(session_cookie)(bruno), ANA_IP)
    await guest.send({"type": "sit", "seat": 1})
    await host.until(lambda s: s["seats"][1]["kind"] == "human")
    await host.send({"type": "start"})
    started = await host.until(lambda s: s["round"] is not None)
    assert started["room"]["rated"] is False
    lineup = await db_async(MatchLineup.objects.get)(match__room=room)
    assert (lineup.rated, lineup.reason) == (False, "shared_ip")


async def test_quick_match_at_one_address_is_not_rated(live, django_user_model):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    one, two = await Quick.open(ana, ANA_IP), await Quick.open(bruno, ANA_IP)
    await one.join("duelo", 20)
    await two.join("duelo", 20)
    code = (await one.next("matched"))["room"]
    room = await db_async(Room.objects.get)(code=code)
    assert room.status == "playing" and not room.rated
    lineup = await db_async(MatchLineup.objects.get)(match__room=room)
    assert (lineup.rated, lineup.reason) == (False, "shared_ip")


async def test_an_arena_match_at_one_address_scores_nothing(live, django_user_model):
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bruno = await make("ana", password="x"), await make("bruno", password="x")
    arena = await db_async(arenas.arena_create)(
        name="Noite", preset="duelo", starts_at=world().now(), minutes=60, move_seconds=15
    )
    for user, address in ((ana, ANA_IP), (bruno, BRUNO_IP)):  # joined from two addresses
        await db_async(arenas.arena_join)(arena=arena, user=user, ip_hash=ip_hash(address))
    await db_async(arenas.arena_tick)(arena=arena, now=world().now())
    am = await db_async(ArenaMatch.objects.select_related("room").get)(arena=arena)
    seat0 = ana if am.users[0] == ana.pk else bruno
    seat1 = bruno if seat0 is ana else ana
    # ... but both play from one address: the lineup can no longer be rated
    host = await Player.table(am.room.code, await sync_to_async(session_cookie)(seat0), ANA_IP)
    other = await Player.table(am.room.code, await sync_to_async(session_cookie)(seat1), ANA_IP)
    await host.until(lambda s: s["room"]["rated"] is False)
    await play_against_the_clock(host, move_seconds=15, others=(other,))

    async def scored() -> bool:
        return (await db_async(ArenaMatch.objects.get)(pk=am.pk)).ended_at is not None

    await async_wait_for(scored, timeout=10, message="the arena scores the match")
    ended = await db_async(ArenaMatch.objects.get)(pk=am.pk)
    assert ended.points == {} and ended.winners == []
    players = await db_async(list)(
        ArenaPlayer.objects.filter(arena=arena).values_list("score", "matches")
    )
    assert players == [(0, 0), (0, 0)]


async def test_leaving_a_pauser_who_went_away_charges_the_pauser(live, django_user_model):
    room, ana, bruno, host, guest = await _started(django_user_model)
    await host.send({"type": "pause"})
    await guest.until(lambda s: s["room"]["paused"])
    await host.close()  # paused, then gone: away at once for whoever leaves
    await guest.until(lambda s: not s["seats"][0]["connected"])
    await guest.send({"type": "leave"})
    over = await _over(guest)
    assert over["match"]["ended_by"] == "abandono" and over["match"]["winner"] == 1
    assert await _cooldown(bruno) is None
    assert (await _cooldown(ana)).reason == "absent"


async def test_a_match_two_come_to_play_from_one_address_rates_nobody(live, django_user_model):
    room, ana, bruno, host, guest = await _started(
        django_user_model, preset="duelo", move_seconds=10
    )
    await guest.close()  # bruno comes back from ana's address
    same = await Player.table(room.code, await sync_to_async(session_cookie)(bruno), ANA_IP)
    await host.until(lambda s: s["seats"][1]["connected"] and s["room"]["rated"] is False)
    over = await play_against_the_clock(host, move_seconds=10, others=(same,))
    assert over["match"]["over"] and over["match"]["ended_by"] != "abandono"
    assert not await db_async(RatingChange.objects.filter(match__room=room).exists)()
    lineup = await db_async(MatchLineup.objects.get)(match__room=room)
    assert (lineup.rated, lineup.reason) == (False, "shared_ip")
