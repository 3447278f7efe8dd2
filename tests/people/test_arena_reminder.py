"""The reminder of a tournament joined ahead (docs/site.md, "Tournaments on a
calendar"; docs/protocol.md, ``arena_started``): when the arena starts, every
page of each of its active players hears it on ws/people/, once; a player who
left, and anyone else, hears nothing of it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async

from arenas import services
from domino_site.realtime.asyncdb import db_async
from games.world import world
from tests.people.test_presence import Page


def _arena_with(django_user_model, visibility: str = "public"):
    ana, bia, caio = (
        django_user_model.objects.create_user(name, password="x") for name in ("ana", "bia", "caio")
    )
    start = world().now() + timedelta(minutes=10)
    arena = services.arena_create(
        name="Parceria das 21h",
        preset="duelo",
        starts_at=start,
        minutes=30,
        visibility=visibility,
        created_by=ana,
    )
    services.arena_join(arena=arena, user=ana, ip_hash="ip-a")
    services.arena_join(arena=arena, user=bia, ip_hash="ip-b")
    services.arena_leave(arena=arena, user=bia)
    return arena, ana, bia, caio


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("visibility", ["public", "private"])
async def test_the_start_of_an_arena_joined_ahead_reaches_its_players_pages_only(
    live, django_user_model, visibility
):
    arena, ana, bia, caio = await sync_to_async(_arena_with)(django_user_model, visibility)
    pages = [
        await Page.open(ana),
        await Page.open(ana),
        await Page.open(bia),
        await Page.open(caio),
    ]
    for page in pages:
        await page.next("friends")
    await db_async(services.arena_tick)(arena=arena.pk, now=arena.starts_at)
    for page in pages[:2]:  # both of ana's pages
        told = await page.next("arena_started")
        assert told == {
            "type": "arena_started",
            "id": arena.pk,
            "name": "Parceria das 21h",
            "preset": "duelo",
            "url": f"/torneios/{arena.pk}/",
        }
    await db_async(services.arena_tick)(arena=arena.pk, now=arena.starts_at + timedelta(seconds=1))
    for page in pages:  # once; bia left, caio never joined
        assert await page.comm.receive_nothing(timeout=0.3)
    for page in pages[2:]:
        assert all(frame["type"] != "arena_started" for frame in page.frames)
