"""The arena page says "aguardando adversário" and why (docs/site.md,
"Arenas"), rendered by the server in the reader's language (the socket's
frames then keep it live: tests/realtime/test_arena_waiting.py)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from arenas import services
from arenas.models import ArenaMatch
from games.models import Match
from tests.site.conftest import T0

pytestmark = pytest.mark.django_db

ADDRESS_LINE = {
    "en": "Everyone waiting now plays from your internet address: players at one address "
    "are never paired.",
    "pt-br": "Todos que aguardam agora jogam do seu endereço de internet: jogadores do mesmo "
    "endereço nunca são pareados.",
}
KEPT_LINE = {
    "en": "The players waiting cannot be paired with you right now.",
    "pt-br": "Os jogadores que aguardam não podem ser pareados com você agora.",
}
WAITING = {"en": "Waiting for an opponent…", "pt-br": "Aguardando adversário…"}


def _arena(users, addresses):
    arena = services.arena_create(
        name="Noite", preset="duelo", starts_at=T0, minutes=30, now=T0 - timedelta(hours=1)
    )
    for user, address in zip(users, addresses, strict=True):
        services.arena_join(arena=arena, user=user, ip_hash=address, now=T0 - timedelta(minutes=1))
    services.arena_tick(arena=arena, now=T0)  # it runs: whoever can be paired is
    return arena


def _page(arena, user, language: str) -> str:
    """The page's waiting box (the script's strings are in the page too)."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    page = client.get(f"/torneios/{arena.pk}/").content.decode()
    box = page[page.index("data-arena-waiting") :]
    return box[: box.index("</div>")]


@pytest.mark.parametrize("language", ["pt-br", "en"])
def test_two_at_one_address_read_that_they_wait_and_why(django_user_model, language):
    ana, bia = (django_user_model.objects.create_user(n, password="pw") for n in ("ana", "bia"))
    arena = _arena([ana, bia], ["casa", "casa"])
    assert not ArenaMatch.objects.exists()
    page = _page(arena, ana, language)
    assert WAITING[language] in page and ADDRESS_LINE[language] in page
    assert KEPT_LINE[language] not in page


def test_the_last_opponent_is_a_reason_worded_as_a_block_is(django_user_model, settings):
    """Two who just met wait for someone else for a while: the same line as a
    block's, so that the line never tells a block from a rematch's wait."""
    settings.ARENA_REMATCH_SECONDS = 20
    ana, bia = (django_user_model.objects.create_user(n, password="pw") for n in ("ana", "bia"))
    arena = _arena([ana, bia], ["ana-casa", "bia-casa"])
    (am,) = ArenaMatch.objects.filter(arena=arena)
    Match.objects.filter(room_id=am.room_id).update(over=True, winner=0)
    services.arena_tick(arena=arena, now=T0 + timedelta(seconds=60))
    assert not ArenaMatch.objects.filter(arena=arena, ended_at=None).exists()
    page = _page(arena, bia, "pt-br")
    assert WAITING["pt-br"] in page and KEPT_LINE["pt-br"] in page
    # alone in the arena, a player only waits: no reason to give
    carla = django_user_model.objects.create_user("carla", password="pw")
    lone = _arena([carla], ["rua"])
    page = _page(lone, carla, "pt-br")
    assert WAITING["pt-br"] in page and KEPT_LINE["pt-br"] not in page
    assert ADDRESS_LINE["pt-br"] not in page
