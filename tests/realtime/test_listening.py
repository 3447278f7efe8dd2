"""The sockets that mostly listen -- the lobby, an arena, the quick-match queue
(domino_site/realtime/listening.py, docs/protocol.md) -- answer ping, refuse anything else
with bad_message, limit a burst and close a flood, all alike."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from arenas import services as arenas
from games.world import world
from tests.realtime.conftest import Player, session_cookie

pytestmark = pytest.mark.django_db(transaction=True)

SOCKETS = ("lobby", "arena", "quick")


def _path_and_cookie(kind: str, user_model) -> tuple[str, str | None]:
    if kind == "lobby":
        return "/ws/lobby/", None
    ana = user_model.objects.create_user("ana", password="x")
    if kind == "quick":
        return "/ws/quick/", session_cookie(ana)
    arena = arenas.arena_create(
        name="Escuta",
        preset="duelo",
        starts_at=world().now() + timedelta(hours=1),
        minutes=30,
    )
    return f"/ws/arenas/{arena.pk}/", session_cookie(ana)


async def _open(kind: str, user_model) -> Player:
    path, cookie = await sync_to_async(_path_and_cookie)(kind, user_model)
    sock = Player(path, cookie)
    connected, _ = await sock.comm.connect(timeout=5)
    assert connected
    if kind != "quick":  # the lobby and the arena tell their state on connect
        assert (await sock.receive())["type"] in ("rooms", "arena")
    return sock


@pytest.mark.parametrize("kind", SOCKETS)
async def test_it_answers_ping_and_refuses_anything_else(live, django_user_model, kind):
    sock = await _open(kind, django_user_model)
    await sock.send({"type": "ping", "ref": "p1"})
    pong = await sock.receive()
    if kind == "quick":  # its first frame: it carries the build (docs/protocol.md, "The build")
        assert pong.pop("build")
    assert pong == {"type": "pong", "ref": "p1"}
    not_json = ('{"type": "ping", "ref": NaN}', '{"type": "view", "page_size": Infinity}')
    for text in ("[1]", "not json", '{"type": 5}', "x" * 5000, "[" * 100_000, *not_json):
        await sock.send_text(text)
        refused = await sock.receive()
        assert (refused["type"], refused["code"], refused["ref"]) == ("error", "bad_message", None)
    await sock.send({"type": "dance", "ref": 9})
    refused = await sock.receive()
    assert (refused["code"], refused["ref"]) == ("bad_message", 9)
    assert refused["message"]


@pytest.mark.parametrize("kind", SOCKETS)
async def test_a_burst_is_limited_and_a_flood_closed(live, django_user_model, kind):
    sock = await _open(kind, django_user_model)
    sock.pace = 0
    for i in range(21):  # one over the 20 a second
        await sock.send({"type": "ping", "ref": i})
    answers = [await sock.receive() for _ in range(21)]
    assert [a["ref"] for a in answers[:20]] == list(range(20))
    assert answers[20]["type"] == "error" and answers[20]["code"] == "rate_limited"
    for _ in range(60):  # past 40 within one second, whatever came before
        await sock.send({"type": "ping"})
    while True:
        out = await sock.comm.receive_output(timeout=5)
        if out["type"] == "websocket.close":
            break
    assert out["code"] == 4008
