"""Arena waiting says why (docs/site.md, "Arenas"; docs/protocol.md,
"Arenas"): while an arena runs, a player with no table reads "aguardando
adversário" (``you.waiting``) and, when the pairing rules keep them from
everyone waiting, one reason (``you.apart``): ``same_address``, said plainly
since the address is their own, or ``kept_apart`` for a block (either way) or
two who just met, the same words on both sides of a block, so that nobody
learns who blocked whom. Each socket gets its own viewer's part only."""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async

from arenas import services
from arenas.models import ArenaPlayer
from games.world import world
from people import services as people
from tests.realtime.arena_bots import ArenaSocket
from tests.realtime.conftest import session_cookie

pytestmark = pytest.mark.django_db(transaction=True)


def _running_arena(django_user_model, joins: list[tuple[str, str]]) -> tuple:
    """A duelo arena that starts now, joined by each (name, address hash)."""
    users = {n: django_user_model.objects.create_user(n, password="x") for n, _ in joins}
    arena = services.arena_create(
        name="Arena", preset="duelo", starts_at=world().now(), minutes=30, move_seconds=60
    )
    for name, address in joins:
        services.arena_join(arena=arena, user=users[name], ip_hash=address)
    return arena, users


async def _socket(arena, user) -> ArenaSocket:
    sock = await ArenaSocket.open(arena.pk, await sync_to_async(session_cookie)(user))
    await sock.wait_arena(lambda f: f["status"] == "running")
    return sock


async def test_one_address_keeps_two_waiting_and_each_is_told_so(live, django_user_model):
    arena, users = await sync_to_async(_running_arena)(
        django_user_model, [("ana", "casa"), ("bia", "casa")]
    )
    ana = await _socket(arena, users["ana"])
    assert ana.arena["you"] == {
        "joined": True,
        "table": None,
        "waiting": True,
        "apart": "same_address",
    }
    bia = await _socket(arena, users["bia"])
    assert bia.arena["you"]["apart"] == "same_address"
    # a watcher who has not joined waits for nothing, and reads nobody's reason
    caio = await sync_to_async(django_user_model.objects.create_user)("caio", password="x")
    watcher = await _socket(arena, caio)
    assert watcher.arena["you"] == {
        "joined": False,
        "table": None,
        "waiting": False,
        "apart": None,
    }
    assert "same_address" not in json.dumps(watcher.frames)
    # someone from another address comes: a table for two, and the third waits alone
    await sync_to_async(services.arena_join)(arena=arena.pk, user=caio, ip_hash="rua")
    frame = await watcher.wait_arena(lambda f: f["you"]["table"] is not None)
    assert frame["you"]["waiting"] is False and frame["you"]["apart"] is None
    seated = await sync_to_async(_seated)(arena)
    assert "caio" in seated and len(seated) == 2
    left = bia if "ana" in seated else ana
    alone = await left.wait_arena(lambda f: f["version"] >= frame["version"])
    # "aguardando adversário", and no reason: nobody else waits now
    assert alone["you"] == {"joined": True, "table": None, "waiting": True, "apart": None}


def _seated(arena) -> list[str]:
    rows = ArenaPlayer.objects.filter(arena=arena, table__isnull=False).select_related("user")
    return sorted(p.user.username for p in rows)


async def test_a_block_keeps_two_waiting_and_both_read_the_same_words(live, django_user_model):
    arena, users = await sync_to_async(_running_arena)(django_user_model, [])
    make = sync_to_async(django_user_model.objects.create_user)
    ana, bia = await make("ana", password="x"), await make("bia", password="x")
    await sync_to_async(people.block)(blocker=ana, blocked=bia)
    for user in (ana, bia):  # two addresses: only the block keeps them apart
        await sync_to_async(services.arena_join)(
            arena=arena, user=user, ip_hash=f"{user.username}-casa"
        )
    blocker, blocked = await _socket(arena, ana), await _socket(arena, bia)
    for sock in (blocker, blocked):
        assert sock.arena["you"]["waiting"] is True
        assert sock.arena["you"]["apart"] == "kept_apart"
    assert blocker.arena["you"] == blocked.arena["you"]  # nothing tells them apart
