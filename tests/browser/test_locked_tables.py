"""A locked table in the browser (docs/site.md, "Locked tables"): the host
sets a password and "sem espectadores" in the lobby's form; the lobby's live
row shows the lock (with its words for screen readers) and no "Assistir"; a
seat clicked at a locked table leads to the join page, which asks the
password, says a wrong one clearly and seats with the right one. axe finds
nothing serious on the join page, in the light and the dark."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import sign_up, unique, wait_for_table
from tests.browser.test_accessibility import AXE, _axe

pytestmark = pytest.mark.browser

SECRET = "mesa-da-ana-42"


def _create_locked(page: Page, name: str, *, no_watchers: bool) -> str:
    form = page.locator("[data-form=create-room]")
    form.locator("select[name=preset]").select_option("duelo")
    form.locator("input[name=name]").fill(name)
    form.locator("input[name=visibility][value=public]").check()
    form.locator("input[name=password]").fill(SECRET)
    form.locator("input[name=no_watchers]").set_checked(no_watchers)
    form.locator("[data-action=create]").click()
    page.wait_for_url("**/r/*/")
    wait_for_table(page)
    return page.url.rstrip("/").rsplit("/", 1)[-1]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_locked_table_asks_its_password_from_the_table_and_the_lobby_shows_the_lock(
    page: Page, browser: Browser, server_url: str, artifacts: Path, scheme: str
) -> None:
    sign_up(page, server_url, unique("ana"))
    code = _create_locked(page, "Trancada", no_watchers=False)
    closed = page.context.new_page()  # a second table: a password and no watchers
    closed.goto(server_url + "/")
    shut = _create_locked(closed, "Fechada", no_watchers=True)

    context = browser.new_context(locale="pt-BR", color_scheme=scheme, reduced_motion="reduce")
    context.add_init_script(path=str(AXE))
    bia = context.new_page()
    sign_up(bia, server_url, unique("bia"))
    row = bia.locator(f'[data-room="{code}"]')
    expect(row.locator("[data-locked]")).to_be_visible()
    expect(row.locator("[data-locked] .visually-hidden")).to_have_text(
        "Trancada: senha para sentar."
    )
    expect(row.locator('[data-action="watch"]')).to_be_visible()
    shut_row = bia.locator(f'[data-room="{shut}"]')
    expect(shut_row.locator("[data-no-watchers]")).to_be_visible()
    expect(shut_row.locator('[data-action="watch"]')).to_have_count(0)

    # Watching the locked table, bia clicks the free seat: its join page asks.
    row.locator('[data-action="watch"]').click()
    wait_for_table(bia)
    bia.locator('[data-action="sit"][data-seat-index="1"]').click()
    bia.wait_for_url(f"**/r/{code}/sentar/?seat=1")
    assert not _axe(bia), _axe(bia)
    bia.fill("#join-password", "errada")
    bia.click('[data-form="join"] [data-action="sit"]')
    expect(bia.locator("[data-error]")).to_have_text("Senha errada para esta mesa.")
    assert not _axe(bia), _axe(bia)
    bia.screenshot(path=artifacts / f"join-wrong-password-{scheme}.png")
    bia.fill("#join-password", SECRET)
    bia.click('[data-form="join"] [data-action="sit"]')
    bia.wait_for_url(f"**/r/{code}/")
    wait_for_table(bia)
    expect(bia.locator('[data-seat="1"]')).to_contain_class("is-me")
    expect(page.locator('[data-seat="1"]')).to_contain_class("kind-human")

    # The table that takes no watchers: its page is the join page, which says so.
    bia.goto(f"{server_url}/r/{shut}/")
    bia.wait_for_url(f"**/r/{shut}/sentar/")
    expect(bia.locator('[data-notice="no_watchers"]')).to_have_text(
        "Esta mesa não aceita espectadores: só quem joga nela a vê."
    )
    assert not _axe(bia), _axe(bia)
    context.close()
