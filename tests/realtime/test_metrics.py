"""The metrics count what the sockets do, through the real ASGI app: a person's
move over a table socket grows ``domino_move_seconds`` and
``domino_moves_applied``; the bots' turns fired by the in-process ticker grow
``domino_clock_lateness_seconds``; a refused move counts its error code; an
open socket is counted by kind while it is open; a full inbox counts a
dropped frame."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.test import Client

from domino_site.infra.channels import InMemoryChannelLayer
from tests.operations.scraping import scrape, total, value
from tests.realtime.conftest import Player, first_legal, my_choice, session_cookie, solo_room
from tests.waiting import async_wait_for

pytestmark = pytest.mark.django_db(transaction=True)


async def _scrape():
    return await sync_to_async(scrape)(Client())


async def test_a_move_over_a_socket_grows_the_move_histogram(live, django_user_model):
    ana = await sync_to_async(django_user_model.objects.create_user)("ana", password="x")
    room = await sync_to_async(solo_room)(ana)
    player = await Player.table(room.code, await sync_to_async(session_cookie)(ana))
    during = await _scrape()
    assert value(during, "domino_sockets_open", kind="table") >= 1
    await player.send({"type": "start", "ref": "go"})
    state = await player.until(my_choice, timeout=10)
    before = await _scrape()
    # A stale move is refused (its code counted), a good one applied and answered.
    await player.send({**first_legal(state), "version": state["version"] - 1, "ref": "old"})
    assert (await player.error())["code"] == "stale"
    version = state["version"]
    await player.send({**first_legal(state), "version": version})
    await player.until(lambda s: s["version"] > version)

    async def answered():
        after = await _scrape()
        grew = value(after, "domino_move_seconds_count") - value(
            before, "domino_move_seconds_count"
        )
        # After ours, a bot's turn: a due action the ticker fires.
        fired = total(after, "domino_clock_lateness_seconds_count", kind="bot")
        return after if grew >= 1 and fired >= 1 else None

    after = await async_wait_for(
        answered, timeout=10, message="the move histogram's count growing, a bot's turn fired"
    )
    assert value(after, "domino_move_seconds_sum") > value(before, "domino_move_seconds_sum")
    people = total(after, "domino_moves_applied_total", by="person", preset="parceria")
    assert people >= total(before, "domino_moves_applied_total", by="person", preset="parceria") + 1
    assert (
        value(after, "domino_errors_total", code="stale")
        >= value(before, "domino_errors_total", code="stale") + 1
    )
    assert total(after, "domino_moves_applied_total", by="bot") >= 1
    await player.close()
    closed = await _scrape()
    assert (
        value(closed, "domino_sockets_open", kind="table")
        == value(during, "domino_sockets_open", kind="table") - 1
    )


def test_a_full_inbox_counts_a_dropped_frame():
    layer = InMemoryChannelLayer(capacity=1)
    channel = asyncio.run(layer.new_channel("test."))
    before = scrape(Client())
    message = {"type": "x"}
    asyncio.run(layer.send_in_order([("send", channel, message), ("send", channel, message)]))
    after = scrape(Client())
    dropped = "domino_frames_dropped_total"
    assert (
        value(after, dropped, reason="inbox_full")
        == value(before, dropped, reason="inbox_full") + 1
    )
