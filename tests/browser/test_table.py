"""The pages people play on, in a real browser (docs/site.md, "The table page")."""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import Error as PlaywrightError

from tests.browser.play import (
    CLICK_MS,
    PLAYABLE,
    RESULT,
    create_room,
    no_horizontal_scroll,
    play_alone,
    play_until_result,
    sign_up,
    unique,
    version,
    wait_for_change,
    wait_for_table,
)

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[2]
PHONE = {"width": 390, "height": 844}


def test_sign_up_fill_a_parceria_table_with_bots_and_play_a_round(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    sign_up(page, server_url, unique("ana"))
    page.screenshot(path=artifacts / "lobby-desktop.png")
    code = create_room(page, preset="parceria", visibility="public", name="Mesa da Ana")
    expect(page.locator('[data-seat="0"]')).to_have_class("seat kind-human is-me")

    # The public room shows up in another browser's lobby, live.
    other = browser.new_context(locale="pt-BR")
    lobby = other.new_page()
    lobby.goto(server_url + "/")
    expect(lobby.locator(f'[data-room="{code}"]')).to_be_visible()

    levels = ["easy", "medium", "hard"]  # both level menus (static/js/table/state.js)
    new_bots = page.locator("[data-new-bot-level] option")
    assert new_bots.evaluate_all("os => os.map((o) => o.value)") == levels
    for index in (1, 2, 3):
        before = version(page)
        page.click(f'[data-seat="{index}"] [data-action="add_bot"]')
        wait_for_change(page, before)
        expect(page.locator(f'[data-seat="{index}"]')).to_contain_class("kind-bot")
    bot_level = page.locator('[data-seat="1"] [data-bot-level]')
    assert bot_level.locator("option").evaluate_all("os => os.map((o) => o.value)") == levels
    expect(bot_level).to_have_value("medium")
    page.click('[data-action="start"]')
    expect(page.locator("[data-hand] [data-tile]").first).to_be_visible()
    page.screenshot(path=artifacts / "table-desktop.png", animations="disabled")

    play_until_result([page])
    result = page.locator(RESULT)
    expect(result).to_be_visible()
    expect(result.locator(".reveal-list li")).to_have_count(4)
    expect(result.locator(".explain")).not_to_be_empty()
    expect(result.locator('[data-action="next_round"], [data-action="new_match"]')).to_be_visible()
    assert no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "result-desktop.png")
    # The lobby row follows the room (seats taken by people and bots).
    expect(lobby.locator(f'[data-room="{code}"]')).to_contain_text("4/4")
    other.close()


def test_a_guest_joins_a_private_duel_through_the_invite_link(
    page: Page, browser: Browser, server_url: str, artifacts: Path
) -> None:
    sign_up(page, server_url, unique("bia"))
    code = create_room(page, preset="duelo", visibility="private", name="Duelo", clock="60")
    invite = page.locator("[data-invite-url]").input_value()
    assert "/i/" in invite

    guest_context = browser.new_context(locale="pt-BR", viewport=PHONE, has_touch=True)
    guest = guest_context.new_page()
    guest.goto(invite)  # the sit page: opening the link seats nobody
    guest.click('[data-form="sit"] [data-action="sit"]')
    guest.wait_for_url(f"**/r/{code}/")
    wait_for_table(guest)
    expect(guest.locator('[data-seat="1"]')).to_contain_class("is-me")
    expect(page.locator('[data-seat="1"]')).to_contain_class("kind-human")

    page.click('[data-action="start"]')
    expect(guest.locator("[data-hand] [data-tile]").first).to_be_visible()
    guest.screenshot(path=artifacts / "table-phone-guest.png")
    play_until_result([page, guest])
    expect(guest.locator(RESULT)).to_be_visible()
    assert no_horizontal_scroll(guest)
    guest.screenshot(path=artifacts / "result-phone-guest.png")

    # The same browser opening the link again gets the same seat back.
    guest.goto(invite)
    guest.wait_for_url(f"**/r/{code}/")
    expect(guest.locator('[data-seat="1"]')).to_contain_class("is-me")
    guest_context.close()


def _wait_for_my_turn(page: Page) -> None:
    # A function, not a bare expression: Playwright evaluates a bare expression
    # with eval(), which the page's Content-Security-Policy refuses.
    page.wait_for_function(
        "() => document.querySelector('[data-hand] [data-tile].playable')"
        " || document.querySelector('[data-action=pass]')"
        " || !document.querySelector('[data-panel=result]').hidden",
        timeout=30_000,
    )


PASS = '[data-action="pass"]'


def _pass_unless_the_server_did(page: Page, press: Callable[[], None]) -> None:
    """Press Pass. Nothing fits, and the server passes by itself a second after
    the turn began (docs/site.md, "Rounds and the clock": the automatic pass), so on a slow machine the
    button may be gone before the press: the pass is made either way."""
    try:
        press()
    except PlaywrightError:
        if page.locator(PASS).count():
            raise  # still offered, yet it could not be pressed


def _press_enter_on(page: Page, selector: str) -> None:
    page.focus(selector, timeout=CLICK_MS)
    page.keyboard.press("Enter")


def test_keyboard_only_play(page: Page, server_url: str, artifacts: Path) -> None:
    page.goto(server_url + "/")
    play_alone(page)
    moves = 0
    while moves < 3:
        _wait_for_my_turn(page)
        if page.locator(RESULT).is_visible():
            break
        before = version(page)
        if page.locator(PASS).count():
            _pass_unless_the_server_did(page, lambda: _press_enter_on(page, PASS))
        else:
            _keyboard_move(page)
        moves += 1
        wait_for_change(page, before)  # the move is on the table
    assert moves >= 1
    page.screenshot(path=artifacts / "keyboard-desktop.png")


def _keyboard_move(page: Page) -> None:
    # Tab from the top of the page until a tile of the hand has the focus.
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate("!!document.activeElement.dataset.tile"):
            break
    else:
        raise AssertionError("Tab never reached the hand")
    # Arrows along the hand to a playable tile.
    count = page.locator("[data-hand] [data-tile]").count()
    for _ in range(count):
        if page.evaluate("document.activeElement.classList.contains('playable')"):
            break
        page.keyboard.press("ArrowRight")
    label = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert "jogável" in label or "playable" in label
    before = version(page)
    page.keyboard.press("Enter")
    ends = page.locator("[data-end]")
    if ends.count():
        # Esc cancels the choice, Enter chooses again, then the letter picks the end.
        page.keyboard.press("Escape")
        expect(ends).to_have_count(0)
        page.keyboard.press("Enter")
        letter = ends.first.get_attribute("data-end")
        page.keyboard.press(letter.lower())
    wait_for_change(page, before)


def test_phone_play_by_touch_without_horizontal_scroll(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    context = browser.new_context(locale="pt-BR", viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server_url + "/")
    assert no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "lobby-phone.png", full_page=True)
    play_alone(page, level="medium")
    for _ in range(3):
        _wait_for_my_turn(page)
        if page.locator(RESULT).is_visible():
            break
        before = version(page)
        tile = page.locator(PLAYABLE).first
        if tile.count():
            tile.tap()
            if page.locator("[data-end]").count():
                page.locator("[data-end]").first.tap()
        else:
            _pass_unless_the_server_did(page, lambda: page.locator(PASS).tap(timeout=CLICK_MS))
        wait_for_change(page, before)
    assert no_horizontal_scroll(page)
    page.screenshot(path=artifacts / "table-phone.png")
    play_until_result([page])
    page.screenshot(path=artifacts / "result-phone.png")
    assert no_horizontal_scroll(page)
    context.close()


def test_table_page_weight_and_first_render(page: Page, server_url: str, artifacts: Path) -> None:
    """The table's own JS + CSS stay under 150 KB as sent compressed (gzip, as
    the production static files are served); their size on disk and the time
    to first render are measured and reported (not asserted)."""
    page.goto(server_url + "/")
    play_alone(page)
    first_render = page.evaluate("performance.getEntriesByName('table-first-render')[0].startTime")
    assets = page.evaluate(
        "performance.getEntriesByType('resource').map(e => e.name)"
        ".filter(n => n.includes('/static/'))"
    )
    # Scripts and styles only (sound is synthesised: no audio files); the
    # icons and the manifest are not code.
    files = sorted({name.split("/static/", 1)[1].split("?")[0] for name in assets})
    files = [name for name in files if name.endswith((".js", ".css"))]
    sizes = {name: (ROOT / "static" / name).stat().st_size for name in files}
    total = sum(sizes.values())
    sent = sum(len(gzip.compress((ROOT / "static" / name).read_bytes())) for name in files)
    report = {
        "first_render_ms": round(first_render),
        "table_js_css_bytes": total,
        "table_js_css_gzip_bytes": sent,
        "files": sizes,
    }
    (artifacts / "table-metrics.json").write_text(json.dumps(report, indent=2))
    print("table page:", json.dumps(report))
    assert {"js/table.js", "css/table.css", "js/feel.js", "js/sound.js", "js/theme.js"} <= set(
        files
    )
    assert sent < 150_000


def test_counts_are_worded_by_the_javascript_catalog(page: Page, server_url: str) -> None:
    """The page loads Django's catalog (/jsi18n/) under its CSP, and a seat's tile
    count takes the Portuguese plural from it."""
    refused = []
    page.on("console", lambda m: refused.append(m.text) if "Content Security" in m.text else None)
    page.goto(server_url + "/")
    play_alone(page)
    words = page.evaluate(
        "() => [1, 7].map((n) => django.ngettext('%(n)s tile', '%(n)s tiles', n))"
    )
    assert words == ["%(n)s pedra", "%(n)s pedras"]
    expect(page.locator('[data-seat="1"] .seat-count')).to_have_text(re.compile(r"^[2-7] pedras$"))
    assert not refused, refused


def test_a_second_tab_replaces_the_first(page: Page, server_url: str) -> None:
    page.goto(server_url + "/")
    play_alone(page)
    second = page.context.new_page()
    second.goto(page.url)
    wait_for_table(second)
    expect(page.locator("[data-replaced]")).to_be_visible()
    expect(second.locator("[data-replaced]")).to_be_hidden()
    expect(second.locator('[data-seat="0"]')).to_contain_class("is-me")


def test_sitting_down_from_the_lobby(page: Page, browser: Browser, server_url: str) -> None:
    sign_up(page, server_url, unique("caio"))
    code = create_room(page, preset="parceria", visibility="public", name="Mesa do Caio")

    other = browser.new_context(locale="pt-BR")
    friend = other.new_page()
    sign_up(friend, server_url, unique("duda"))
    friend.click(f'[data-room="{code}"] [data-action="sit"]')
    friend.wait_for_url(f"**/r/{code}/**")
    expect(friend.locator('[data-seat="1"]')).to_contain_class("is-me")
    expect(page.locator('[data-seat="1"]')).to_contain_class("kind-human")

    for index in (2, 3):
        before = version(page)
        page.click(f'[data-seat="{index}"] [data-action="add_bot"]')
        wait_for_change(page, before)
    page.click('[data-action="start"]')
    play_until_result([page, friend])
    expect(friend.locator(RESULT)).to_be_visible()
    other.close()
