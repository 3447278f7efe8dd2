"""Tournaments on a calendar as a player meets them (docs/site.md,
"Tournaments on a calendar"): the lobby's strip shows a tournament to join on
a site nobody set up (the default schedule), a new player joins it ahead from
there, and when an arena joined ahead starts, the page open elsewhere on the
site says so with the way to it."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.play import server_shell, sign_up, unique
from tests.waiting import wait_for

LATER = """
from datetime import timedelta
from django.utils import timezone
from arenas import services
arena = services.arena_create(name={name!r}, preset="duelo",
                              starts_at=timezone.now() + timedelta(hours=1), minutes=30)
print(arena.pk)
"""
# The clock's hour comes at once: the sweeper starts the arena on its next pass.
NOW = """
from django.utils import timezone
from arenas.models import Arena
Arena.objects.filter(pk={pk}).update(starts_at=timezone.now())
print("ok")
"""
OPEN_PAGES = """
from people.models import Presence
print(Presence.objects.filter(user__username={name!r}).count())
"""


def test_the_lobby_strip_offers_a_tournament_and_a_player_joins_it_ahead(browser, server):
    base, _env = server
    context = browser.new_context(locale="pt-BR")
    page = context.new_page()
    page.goto(base + "/")
    strip = page.locator("[data-next-tournament]")
    expect(strip).to_be_visible()
    expect(strip).to_contain_text(re.compile("Próximo torneio:|Torneio agora:"))
    sign_up(page, base, unique("ana"))
    page.goto(base + "/")
    page.locator("[data-next-tournament] [data-action=join-next-tournament]").click()
    page.wait_for_url(re.compile(r"/torneios/\d+/$"))
    expect(page.locator("[data-action=leave-arena]")).to_be_visible()
    page.goto(base + "/")
    expect(page.locator("[data-next-tournament] [data-joined]")).to_be_visible()
    context.close()


def test_an_arena_joined_ahead_says_it_started_on_the_page_open_elsewhere(browser, server):
    base, env = server
    name = unique("Torneio ")
    arena_id = int(server_shell(env, LATER.format(name=name)).strip().splitlines()[-1])
    context = browser.new_context(locale="pt-BR")
    page = context.new_page()
    bia = unique("bia")
    sign_up(page, base, bia)
    page.goto(base + "/torneios/")
    page.locator(f'[data-arena="{arena_id}"] [data-action=join-arena]').click()
    page.wait_for_url(f"**/torneios/{arena_id}/")
    page.goto(base + "/ranking/")

    def ranking_page_connected() -> bool:  # its people socket, before the start
        return server_shell(env, OPEN_PAGES.format(name=bia)).strip().splitlines()[-1] == "1"

    wait_for(ranking_page_connected, timeout=30, message="the page's people socket", every=0.5)
    server_shell(env, NOW.format(pk=arena_id))
    toast = page.locator(f'[data-arena-started="{arena_id}"]')
    expect(toast).to_be_visible(timeout=30_000)
    expect(toast).to_contain_text("Seu torneio começou:")
    expect(toast.locator("a")).to_have_attribute("href", f"/torneios/{arena_id}/")
    context.close()
