"""Verifiable deals on the table socket (docs/rules.md, "Verifiable deals";
docs/protocol.md, "Verifiable deals in the snapshot"): the commitment is shown
before the deal, the server seed travels in no frame until its round has ended,
every seated person's client seed goes into the deal, and the round's JSON
checks out with ``python -m games.fairness verify``."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.guests import GUEST_COOKIE
from games.engine.fairness import material
from games.models import Round
from rooms import services
from rooms.models import Room, Seat
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

HEX64 = set("0123456789abcdef")


def _people(django_user_model, preset="duelo", bots=()):
    """Ana hosts at seat 0, Bruno sits at seat 1 (or the first seat without a bot)."""
    ana = django_user_model.objects.create_user("ana", password="x")
    bruno = django_user_model.objects.create_user("bruno", password="x")
    room = services.room_create(user=ana, name="Mesa", preset=preset)
    host = Seat.objects.get(room=room, index=0)
    for index in bots:
        services.bot_add(room=room, actor=host, index=index, level="easy")
    free = next(i for i in range(1, room.seat_count) if i not in bots)
    services.seat_take(room=room, index=free, user=bruno)
    return room, session_cookie(ana), session_cookie(bruno)


async def _table(django_user_model, preset="duelo", bots=()):
    room, ana, bruno = await sync_to_async(_people)(django_user_model, preset, bots)
    return room, await Player.table(room.code, ana), await Player.table(room.code, bruno)


def _finish_round(room_pk: int) -> None:
    """Every seat to act plays its first legal action until the round is over
    (bots and automatic passes may also move meanwhile)."""
    from games.errors import ServiceError

    for _ in range(400):
        rnd = Round.objects.filter(room_id=room_pk).order_by("-id").first()
        eng = rnd.engine()
        if eng.is_over:
            return
        seats = sorted(eng.pending_picks) or [eng.turn]
        for seat in seats:
            try:
                services.action_apply(
                    room=room_pk,
                    seat_index=seat,
                    action=eng.legal_actions(seat)[0].to_dict(),
                    version=None,
                    by="bot" if Seat.objects.get(room_id=room_pk, index=seat).is_bot else "person",
                )
            except ServiceError:
                pass  # a bot or the automatic pass moved first: read again
    raise AssertionError("the round did not end")


async def _synced(player: Player) -> None:
    """Every frame this socket sent before has been handled (one socket's frames
    are handled in order): a ping's pong comes after them."""
    await player.send({"type": "ping", "ref": "sync"})
    while (await player.receive())["type"] != "pong":
        pass


async def test_the_commitment_is_in_the_snapshot_before_the_deal(live, django_user_model):
    room, ana, bruno = await _table(django_user_model)
    before = ana.state
    assert before["round"] is None
    committed = before["room"]["next_fair"]
    assert committed["version"] == "domino-fair-v1"
    assert len(committed["commitment"]) == 64 and set(committed["commitment"]) <= HEX64
    assert bruno.state["room"]["next_fair"] == committed  # the same for every viewer

    await ana.send({"type": "start"})
    state = await bruno.until(lambda s: s["round"] is not None)
    fair = state["round"]["fair"]
    assert fair["commitment"] == committed["commitment"]
    assert fair["server_seed"] is None and fair["material"] is None
    # The next deal's commitment is published with this deal, long before its result.
    assert state["room"]["next_fair"]["commitment"] != committed["commitment"]
    rnd = await sync_to_async(Round.objects.get)(room_id=room.pk)
    assert hashlib.sha256(bytes.fromhex(rnd.server_seed)).hexdigest() == fair["commitment"]


def _solo_table() -> tuple[str, str]:
    """A guest presses "Jogar sozinho" in the lobby: the table's code and the
    guest's cookie."""
    response = Client().post(
        "/rooms/", {"preset": "parceria", "bot_level": "easy", "play_alone": "1"}
    )
    code = response["Location"].strip("/").rsplit("/", 1)[-1]
    return code, f"{GUEST_COOKIE}={response.cookies[GUEST_COOKIE].value}"


async def test_a_table_that_starts_by_itself_deals_its_first_round_on_its_persons_seed(live):
    code, cookie = await sync_to_async(_solo_table)()
    me = await Player.table(code, cookie)
    assert me.state["round"] is None and me.state["room"]["status"] == "waiting"
    assert me.state["room"]["start_on_seeds"]
    committed = me.state["room"]["next_fair"]["commitment"]

    await me.send({"type": "seed", "value": "my own seed"})
    state = await me.until(lambda s: s["round"] is not None)
    assert state["room"]["status"] == "playing" and not state["room"]["start_on_seeds"]
    assert state["round"]["fair"]["commitment"] == committed
    assert state["round"]["fair"]["client_seeds"] == ["my own seed"]
    assert len(state["round"]["hand"]) == 7
    rnd = await sync_to_async(Round.objects.get)(room__code=code)
    assert rnd.material == f"{code}:1:1:my own seed"


async def test_a_self_starting_table_may_still_be_started_by_hand(live):
    code, cookie = await sync_to_async(_solo_table)()
    me = await Player.table(code, cookie)
    await me.send({"type": "start"})
    state = await me.until(lambda s: s["round"] is not None)
    assert state["round"]["fair"]["client_seeds"] == [] and not state["room"]["start_on_seeds"]
    # A seed now is for round 2: it deals nothing.
    await me.send({"type": "seed", "value": "later"})
    await _synced(me)
    assert await sync_to_async(Round.objects.filter(room__code=code).count)() == 1


async def test_the_server_seed_is_in_no_frame_until_the_round_ends(live, django_user_model):
    room, ana, bruno = await _table(django_user_model, preset="parceria", bots=(1, 3))
    watcher_user = await sync_to_async(django_user_model.objects.create_user)("carla")
    watcher = await Player.table(room.code, await sync_to_async(session_cookie)(watcher_user))
    players = (ana, bruno, watcher)
    await ana.send({"type": "start"})
    await watcher.until(lambda s: s["round"] is not None)
    rnd = await sync_to_async(Round.objects.get)(room_id=room.pk)
    seed = rnd.server_seed
    next_seed = (await sync_to_async(Room.objects.get)(pk=room.pk)).next_server_seed
    # Nor on the table page, nor in the round's JSON while it is played.
    client = Client()
    await sync_to_async(client.force_login)(watcher_user)
    page = await sync_to_async(client.get)(f"/r/{room.code}/")
    api = await sync_to_async(client.get)(f"/api/rooms/{room.code}/rounds/1/")
    assert page.status_code == 200 and api.status_code == 403
    for body in (page.content.decode(), api.content.decode()):
        assert seed not in body and next_seed not in body

    await sync_to_async(_finish_round)(room.pk)
    for player in players:
        await player.until(lambda s: s["round"]["over"])
    for player in players:
        ended_at = next(
            i for i, f in enumerate(player.frames) if (f.get("round") or {}).get("over")
        )
        before_end = json.dumps(player.frames[:ended_at])
        assert seed not in before_end
        assert next_seed not in json.dumps(player.frames)  # the next deal's seed: never
        revealed = player.frames[ended_at]["round"]["fair"]
        assert revealed["server_seed"] == seed
        assert revealed["material"] == f"{room.code}:1:1:"  # nobody sent a seed


async def test_the_client_seeds_of_every_seated_person_are_used_in_seat_order(
    live, django_user_model
):
    room, ana, bruno = await _table(django_user_model, preset="parceria", bots=(1, 3))
    await bruno.send({"type": "seed", "value": "Bruno's seed"})  # seat 2, sent first
    await ana.send({"type": "seed", "value": "c0ffee"})
    await _synced(bruno)
    await _synced(ana)
    await ana.send({"type": "start"})
    state = await bruno.until(lambda s: s["round"] is not None)
    fair = state["round"]["fair"]
    assert fair["client_seeds"] == ["c0ffee", "Bruno's seed"]  # the bots have none
    rnd = await sync_to_async(Round.objects.get)(room_id=room.pk)
    assert rnd.material == material(room.code, 1, 1, ["c0ffee", "Bruno's seed"])
    assert rnd.material == f"{room.code}:1:1:c0ffee:Bruno's seed"

    # Seeds sent before this deal's commitment was published do not count for the
    # next deal: only Bruno sends one now, during round 1, for round 2.
    await bruno.send({"type": "seed", "value": "again"})
    await _synced(bruno)
    await sync_to_async(_finish_round)(room.pk)
    ended = await ana.until(lambda s: s["round"]["over"])
    # Round 2's commitment was out before round 1's result (from its deal on).
    assert ended["room"]["next_fair"] == state["room"]["next_fair"]
    await ana.send({"type": "next_round"})
    second = await ana.until(lambda s: s["round"]["number"] == 2 and not s["round"]["over"])
    assert second["round"]["fair"]["client_seeds"] == ["again"]
    assert second["round"]["fair"]["commitment"] == state["room"]["next_fair"]["commitment"]


@pytest.mark.parametrize("value", ["a:b", "", "x" * 65, "olá", "tab\tin", 42, None, ["c0ffee"]])
async def test_a_bad_seed_is_refused_and_changes_nothing(live, django_user_model, value):
    room, ana, bruno = await _table(django_user_model)
    message = {"type": "seed", "ref": "s1"}
    if value is not None:
        message["value"] = value
    await ana.send(message)
    error = await ana.error()
    assert error["code"] == "bad_message" and error["ref"] == "s1"
    seat = await sync_to_async(Seat.objects.get)(room_id=room.pk, index=0)
    assert seat.client_seed == ""
    await ana.send({"type": "start"})
    state = await ana.until(lambda s: s["round"] is not None)
    assert state["round"]["fair"]["client_seeds"] == []


async def test_a_watcher_has_no_seed_to_send(live, django_user_model):
    room, ana, bruno = await _table(django_user_model)
    carla = await sync_to_async(django_user_model.objects.create_user)("carla")
    watcher = await Player.table(room.code, await sync_to_async(session_cookie)(carla))
    await watcher.send({"type": "seed", "value": "mine", "ref": "w"})
    assert (await watcher.error())["code"] == "not_seated"
    await ana.send({"type": "start"})
    state = await ana.until(lambda s: s["round"] is not None)
    assert state["round"]["fair"]["client_seeds"] == []


async def test_a_seed_is_answered_with_the_next_version_and_shows_no_seed(live, django_user_model):
    """Every command is answered (docs/protocol.md): a seed with the room's next
    version, whose snapshot carries no client seed (it goes into the next deal)."""
    room, ana, bruno = await _table(django_user_model)
    await ana.until(lambda s: s["seats"][1]["connected"])
    version = ana.state["version"]
    await ana.send({"type": "seed", "value": "c0ffee-secret"})
    state = await ana.until(lambda s: s["version"] > version)
    assert state["version"] == version + 1
    seen = await bruno.until(lambda s: s["version"] == version + 1)
    assert "c0ffee-secret" not in json.dumps(state) + json.dumps(seen)
    seat = await sync_to_async(Seat.objects.get)(room_id=room.pk, index=0)
    assert seat.client_seed == "c0ffee-secret"
    await ana.send({"type": "seed", "value": "c0ffee-secret"})  # the same again: answered too
    await ana.until(lambda s: s["version"] == version + 2)


async def test_a_round_played_at_the_table_verifies_with_the_script(
    live, django_user_model, tmp_path
):
    room, ana, bruno = await _table(django_user_model)
    await ana.send({"type": "seed", "value": "Ana's seed"})
    await bruno.send({"type": "seed", "value": "0123456789abcdef0123456789abcdef"})
    await _synced(ana)
    await _synced(bruno)
    await ana.send({"type": "start"})
    await bruno.until(lambda s: s["round"] is not None)
    await sync_to_async(_finish_round)(room.pk)
    await ana.until(lambda s: s["round"]["over"])

    client = Client()
    ana_user = await sync_to_async(django_user_model.objects.get)(username="ana")
    await sync_to_async(client.force_login)(ana_user)
    response = await sync_to_async(client.get)(f"/api/rooms/{room.code}/rounds/1/")
    data = response.json()
    assert data["fair"]["client_seeds"] == ["Ana's seed", "0123456789abcdef0123456789abcdef"]
    good = tmp_path / "round.json"
    good.write_text(json.dumps(data))
    checked = _verify(good)
    assert checked.returncode == 0, checked.stderr
    assert "✔" in checked.stdout

    tampered = json.loads(json.dumps(data))
    tampered["fair"]["client_seeds"][0] = "Ana's other seed"
    bad = tmp_path / "tampered.json"
    bad.write_text(json.dumps(tampered))
    checked = _verify(bad)
    assert checked.returncode == 1 and "✘" in checked.stderr


def _verify(path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "games.fairness", "verify", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PYTHONIOENCODING": "utf-8", "PATH": ""},
    )
