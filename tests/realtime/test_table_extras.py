"""The table socket's extras: the automatic pass, the duelo's
both-accept and restart-alone, watchers and their count, and quick chat."""

from __future__ import annotations

import pytest
from asgiref.sync import sync_to_async

from games.models import Round
from rooms import services
from rooms import services as room_services
from rooms.models import Room, Seat, Watcher
from tests.realtime.conftest import Player, advance, session_cookie
from tests.site.helpers import set_deal

pytestmark = pytest.mark.django_db(transaction=True)


def _two(django_user_model, preset="duelo"):
    ana = django_user_model.objects.create_user("ana", password="x")
    bruno = django_user_model.objects.create_user("bruno", password="x")
    room = services.room_create(user=ana, name="Mesa", preset=preset)
    services.seat_take(room=room, index=1, user=bruno)
    return room, session_cookie(ana), session_cookie(bruno)


async def _players(django_user_model, preset="duelo"):
    room, ana, bruno = await sync_to_async(_two)(django_user_model, preset)
    return room, await Player.table(room.code, ana), await Player.table(room.code, bruno)


async def frame(player: Player, kind: str) -> dict:
    while True:
        msg = await player.receive()
        if msg["type"] == kind:
            return msg


# ------------------------------------------------------------------ automatic pass


def _blocked_deal(room):
    set_deal(Room.objects.get(pk=room.pk), hands=[["6-6", "1-2"], ["0-3", "4-5"]], opener=0)
    room_services.action_apply(
        room=Room.objects.get(pk=room.pk),
        seat_index=0,
        action={"type": "play", "tile": "6-6"},
        version=None,
    )


async def test_nothing_but_pass_is_passed_by_the_server_and_logged_automatic(
    live, django_user_model
):
    room, ana, bruno = await _players(django_user_model, "sem_monte")
    await ana.send({"type": "start"})
    await bruno.until(lambda s: s["room"]["status"] == "playing")
    await sync_to_async(_blocked_deal)(room)
    state = await bruno.until(lambda s: len(s["log"]) == 1)
    assert state["round"]["legal"] == [{"type": "pass"}]
    advance(1.2)
    state = await ana.until(lambda s: len(s["log"]) >= 2)
    assert state["log"][1]["type"] == "pass" and state["log"][1]["by"] == "auto"
    assert state["log"][1]["seat"] == 1


# ------------------------------------------------------------------ duelo


async def _finish_duel(room):
    """Play the duel's single game to its end (every seat its first legal action)."""

    def play():
        for _ in range(200):
            rnd = Round.objects.filter(room_id=room.pk).order_by("-id").first()
            eng = rnd.engine()
            if eng.is_over:
                return
            turn = eng.turn
            room_services.action_apply(
                room=Room.objects.get(pk=room.pk),
                seat_index=turn,
                action=eng.legal_actions(turn)[0].to_dict(),
                version=None,
            )

    await sync_to_async(play)()


async def test_duelo_both_players_accept_the_next_game(live, django_user_model):
    room, ana, bruno = await _players(django_user_model)
    await ana.send({"type": "start"})
    await bruno.until(lambda s: s["room"]["status"] == "playing")
    await _finish_duel(room)
    await bruno.until(lambda s: s["match"]["over"])
    await bruno.send({"type": "new_match"})  # the guest's acceptance counts now
    state = await ana.until(lambda s: s["seats"][1]["ready"])
    assert state["match"]["over"] and state["match"]["number"] == 1  # pending: not started
    await ana.send({"type": "new_match"})
    state = await bruno.until(lambda s: s["match"]["number"] == 2)
    assert state["room"]["status"] == "playing"
    assert not any(seat["ready"] for seat in state["seats"])


async def test_duelo_a_yes_is_withdrawn_when_the_people_at_the_table_change(
    live, django_user_model
):
    """docs/site.md, "Rounds and the clock": a pending "yes" is for the game it
    was given to; someone else in the other seat does not inherit it."""
    room, ana, bruno = await _players(django_user_model)
    await ana.send({"type": "start"})
    await bruno.until(lambda s: s["room"]["status"] == "playing")
    await _finish_duel(room)
    await ana.until(lambda s: s["match"]["over"])
    await ana.send({"type": "new_match"})  # ana's "yes", pending for bruno
    await bruno.until(lambda s: s["seats"][0]["ready"])
    await bruno.send({"type": "leave"})
    state = await ana.until(lambda s: s["seats"][1]["kind"] == "empty")
    assert not state["seats"][0]["ready"]  # withdrawn: no longer shown as pending

    carla = await sync_to_async(django_user_model.objects.create_user)("carla", password="x")
    newcomer = await Player.table(room.code, await sync_to_async(session_cookie)(carla))
    await newcomer.send({"type": "sit", "seat": 1})
    await ana.until(lambda s: s["seats"][1]["kind"] == "human")
    await newcomer.send({"type": "new_match"})  # one "yes" alone starts nothing
    state = await ana.until(lambda s: s["seats"][1]["ready"])
    assert not state["seats"][0]["ready"]
    assert state["match"]["number"] == 1 and state["room"]["status"] == "between_rounds"
    await ana.send({"type": "new_match"})  # both accept: the new game begins
    state = await newcomer.until(lambda s: s["match"]["number"] == 2)
    assert state["room"]["status"] == "playing"


async def test_duelo_a_yes_is_withdrawn_when_the_host_changes_the_clock(live, django_user_model):
    """docs/site.md, "Rounds and the clock": the game accepted had the old clock."""
    room, ana, bruno = await _players(django_user_model)
    await ana.send({"type": "start"})
    await bruno.until(lambda s: s["room"]["status"] == "playing")
    await _finish_duel(room)
    await bruno.until(lambda s: s["match"]["over"])
    await bruno.send({"type": "new_match"})  # bruno's "yes", pending for ana
    await ana.until(lambda s: s["seats"][1]["ready"])
    await ana.send({"type": "settings", "move_seconds": 30})
    state = await bruno.until(lambda s: s["room"]["move_seconds"] == 30)
    assert not state["seats"][1]["ready"]  # withdrawn, on bruno's page too
    await ana.send({"type": "new_match"})  # ana's single "yes" starts nothing
    state = await bruno.until(lambda s: s["seats"][0]["ready"])
    assert not state["seats"][1]["ready"]
    assert state["match"]["number"] == 1 and state["room"]["status"] == "between_rounds"


async def test_duelo_the_creator_restarts_alone_while_the_other_seat_is_free(
    live, django_user_model
):
    room, ana, bruno = await _players(django_user_model)
    await ana.send({"type": "start"})
    await bruno.until(lambda s: s["room"]["status"] == "playing")
    await _finish_duel(room)
    await bruno.until(lambda s: s["match"]["over"])
    await bruno.send({"type": "leave"})
    await ana.until(lambda s: s["seats"][1]["kind"] == "empty")
    await ana.send({"type": "new_match", "alone": True})
    state = await ana.until(lambda s: s["match"]["number"] == 2)
    assert state["seats"][1]["kind"] == "bot" and state["room"]["status"] == "playing"


async def test_alone_must_be_a_boolean(live, django_user_model):
    room, ana, bruno = await _players(django_user_model)
    await ana.send({"type": "start", "alone": "yes", "ref": "x"})
    error = await frame(ana, "error")
    assert (error["code"], error["ref"]) == ("bad_message", "x")


# ------------------------------------------------------------------ watchers and chat


async def test_a_watcher_is_counted_seen_by_the_players_and_sits_to_stop(live, django_user_model):
    def setup():
        ana = django_user_model.objects.create_user("ana", password="x")
        carla = django_user_model.objects.create_user("carla", password="x")
        room = services.room_create(user=ana, name="Mesa", preset="duelo")
        return room, session_cookie(ana), session_cookie(carla)

    room, ana_cookie, carla_cookie = await sync_to_async(setup)()
    ana = await Player.table(room.code, ana_cookie)
    assert ana.state["room"]["watchers"] == 0
    watcher = await Player.table(room.code, carla_cookie)
    assert watcher.state["you"]["seat"] is None and watcher.state["round"] is None
    assert (await frame(ana, "watchers"))["count"] == 1
    assert await sync_to_async(Watcher.objects.count)() == 1
    assert (await sync_to_async(Room.objects.get)(pk=room.pk)).watchers == 1
    # A snapshot read from the database carries the count too.
    again = await Player.table(room.code, ana_cookie)
    assert again.state["room"]["watchers"] == 1
    await again.close()
    # Sitting down: no longer a watcher; leaving the seat: a watcher again.
    await watcher.send({"type": "sit", "seat": 1})
    await watcher.until(lambda s: s["you"]["seat"] == 1)
    assert (await frame(watcher, "watchers"))["count"] == 0
    await watcher.send({"type": "leave"})
    await watcher.until(lambda s: s["you"]["seat"] is None)
    assert (await frame(watcher, "watchers"))["count"] == 1
    await watcher.close()
    assert await sync_to_async(Watcher.objects.count)() == 0
    assert (await sync_to_async(Room.objects.get)(pk=room.pk)).watchers == 0


async def test_a_chat_phrase_reaches_the_table_and_is_limited_to_one_every_3_s(
    live, django_user_model
):
    room, ana, bruno = await _players(django_user_model)
    carla = await sync_to_async(django_user_model.objects.create_user)("carla", password="x")
    watcher = await Player.table(room.code, await sync_to_async(session_cookie)(carla))
    version = (await sync_to_async(Room.objects.get)(pk=room.pk)).version
    await ana.send({"type": "chat", "phrase": "boa"})
    for player in (bruno, watcher, ana):
        assert await frame(player, "chat") == {"type": "chat", "seat": 0, "phrase": "boa"}
    # Not a change of the room, not stored.
    assert (await sync_to_async(Room.objects.get)(pk=room.pk)).version == version
    await ana.send({"type": "chat", "phrase": "valeu", "ref": "r2"})
    error = await frame(ana, "error")
    assert (error["code"], error["ref"]) == ("rate_limited", "r2")
    await bruno.nothing(0.3)
    await bruno.drain()
    assert [f for f in bruno.frames if f["type"] == "chat"] == [
        {"type": "chat", "seat": 0, "phrase": "boa"}
    ]


async def test_chat_refusals(live, django_user_model):
    room, ana, bruno = await _players(django_user_model)
    carla = await sync_to_async(django_user_model.objects.create_user)("carla", password="x")
    watcher = await Player.table(room.code, await sync_to_async(session_cookie)(carla))
    await watcher.send({"type": "chat", "phrase": "boa", "ref": "w"})
    assert (await frame(watcher, "error"))["code"] == "not_seated"  # watchers don't send
    await ana.send({"type": "chat", "phrase": "you are bad", "ref": "f"})
    error = await frame(ana, "error")
    assert (error["code"], error["ref"]) == ("bad_message", "f")  # no free text
    await bruno.nothing(0.3)
    await bruno.drain()
    assert not [f for f in bruno.frames if f["type"] == "chat"]


def test_bots_seats_never_chat():
    # The server sends chat only for a socket's own seat: a bot has no socket.
    assert Seat.Kind.BOT == "bot"
