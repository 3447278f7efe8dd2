"""The table's extras in a real browser: rules pages, the automatic pass, drag and drop
(mouse and touch) and a hand order kept after reload, turning the line seen on
the other player's page, the duelo's both-accept and restart-alone, hints off,
a watcher joining from the lobby, quick chat and mute. Screenshots at 1440x900
and 390x844 go to artifacts/."""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.play import (
    PLAYABLE,
    RESULT,
    create_room,
    no_horizontal_scroll,
    play_alone,
    play_one,
    play_until_result,
    sign_up,
    unique,
    version,
    wait_for_change,
    wait_for_table,
)
from tests.rules_sections import RULES_SECTIONS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def _my_playable_turn(page: Page, timeout: float = 30_000) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-hand] [data-tile].playable')"
        " || !document.querySelector('[data-panel=result]').hidden",
        timeout=timeout,
    )


def _center(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def _hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "[data-hand] [data-tile]", "els => els.map(e => e.dataset.tile)"
    )


def _drop_point(page: Page) -> tuple[float, float]:
    """Where the chosen tile goes: an end target, or the board when it is empty."""
    ends = page.locator("[data-end]")
    if ends.count():
        return _center(page, "[data-end]")
    return _center(page, "[data-board]")


# ---------------------------------------------------------------------- rules


def test_rules_pages_and_the_tables_link(page: Page, server_url: str, artifacts: Path) -> None:
    page.goto(server_url + "/")
    page.click("[data-link=rules]")
    page.wait_for_url("**/regras/")
    expect(page.locator("h1")).to_have_text("Regras do jogo")
    page.click('[data-preset="duelo"] a')
    page.wait_for_url("**/regras/duelo/")
    for section in RULES_SECTIONS:
        expect(page.locator(f'[data-section="{section}"]')).to_be_visible()
    expect(page.locator("[data-example-score]")).to_contain_text("+16")
    page.screenshot(path=artifacts / "rules-desktop.png", full_page=True)
    phone = page.context.browser.new_context(locale="pt-BR", viewport=PHONE)
    small = phone.new_page()
    small.goto(server_url + "/regras/parceria/")
    assert no_horizontal_scroll(small)
    small.screenshot(path=artifacts / "rules-phone.png", full_page=True)
    phone.close()
    # The create form links the chosen table's rules, and so does the table.
    page.goto(server_url + "/")
    page.locator("[data-form=create-room] select[name=preset]").select_option("arena")
    expect(page.locator("[data-rules-link]")).to_have_attribute("href", "/regras/arena/")
    play_alone(page, preset="sem_monte")
    expect(page.locator("[data-rules-link]")).to_have_attribute("href", "/regras/sem_monte/")


# ---------------------------------------------------------------------- automatic pass


def test_nothing_fits_and_the_server_passes_by_itself(
    page: Page, server_url: str, artifacts: Path
) -> None:
    """sem_monte at two seats (no boneyard): sooner or later nothing of ours
    fits; we never click Pass, and the log says "passou (automático)"."""
    page.goto(server_url + "/")
    play_alone(page, preset="sem_monte")
    log = page.locator("[data-log]")
    deadline = time.monotonic() + 150
    while time.monotonic() < deadline:
        if "passou (automático)" in log.inner_text():
            break
        if page.locator(RESULT).is_visible():
            ready = page.locator(f'{RESULT} [data-action="ready"]')
            if ready.count():
                before = version(page)
                ready.click()
                wait_for_change(page, before, timeout=10_000)  # the next deal (or a ready seen)
            continue
        tile = page.locator(PLAYABLE).first
        if tile.count():
            before = version(page)
            try:
                tile.click(timeout=5_000)
                if page.locator("[data-end]").count():
                    page.locator("[data-end]").first.click(timeout=5_000)
                wait_for_change(page, before, timeout=15_000)
            except Exception:  # noqa: BLE001 - the page re-rendered: look again
                pass
        else:  # our pass (if any) is the server's to make: wait for the next change
            try:
                wait_for_change(page, version(page), timeout=10_000)
            except PlaywrightTimeoutError:
                pass  # look again, until the deadline
    else:
        raise AssertionError("no automatic pass in time")
    expect(log).to_contain_text("passou (automático)")
    page.screenshot(path=artifacts / "auto-pass-desktop.png")


# ---------------------------------------------------------------------- drag and drop


def test_play_by_dragging_with_the_mouse_and_reorder_kept_after_reload(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.goto(server_url + "/")
    play_alone(page)
    # Reorder: the first tile dragged to the end of the hand.
    page.wait_for_selector("[data-hand] [data-tile]")
    order = _hand(page)
    x, y = _center(page, "[data-hand] [data-tile]")
    last = page.locator("[data-hand] [data-tile]").last.bounding_box()
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + 10, y - 15, steps=3)
    page.mouse.move(last["x"] + last["width"] + 6, y, steps=8)
    page.mouse.up()
    moved = _hand(page)
    assert moved[-1] == order[0] and sorted(moved) == sorted(order), (order, moved)
    page.reload()
    wait_for_table(page)
    assert _hand(page)[: len(moved)] == [t for t in moved if t in _hand(page)]
    assert _hand(page)[-1] == order[0] or order[0] not in _hand(page)
    # Play: a playable tile dragged onto its end (or the empty table).
    _my_playable_turn(page)
    tile = page.locator(PLAYABLE).first
    name = tile.get_attribute("data-tile")
    before = version(page)
    x, y = _center(page, PLAYABLE)
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 40, steps=4)
    expect(page.locator("[data-table]")).to_have_class(re.compile("is-dragging"))
    tx, ty = _drop_point(page)
    page.mouse.move(tx, ty, steps=10)
    page.screenshot(path=artifacts / "drag-desktop.png")
    page.mouse.up()
    wait_for_change(page, before)
    expect(page.locator(f'svg.chain [data-link="{name}"]')).to_have_count(1)
    # Right-click cancels a chosen tile.
    _my_playable_turn(page)
    if page.locator(PLAYABLE).count():
        page.locator(PLAYABLE).first.click()
        if page.locator("[data-end]").count():
            page.locator("[data-board]").click(button="right")
            expect(page.locator("[data-end]")).to_have_count(0)


def _touch(cdp, kind: str, x: float, y: float) -> None:
    points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
    cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})


def test_play_by_dragging_with_a_finger(browser: Browser, server_url: str, artifacts: Path) -> None:
    context = browser.new_context(locale="pt-BR", viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(server_url + "/")
    play_alone(page)
    _my_playable_turn(page)
    cdp = context.new_cdp_session(page)
    tile = page.locator(PLAYABLE).first
    tile.scroll_into_view_if_needed()
    name = tile.get_attribute("data-tile")
    before = version(page)
    x, y = _center(page, PLAYABLE)
    _touch(cdp, "touchStart", x, y)
    for step in range(1, 6):  # up first: a drag, not a scroll of the hand
        _touch(cdp, "touchMove", x, y - 12 * step)
    tx, ty = _drop_point(page)
    for step in range(1, 9):
        _touch(cdp, "touchMove", x + (tx - x) * step / 8, y - 60 + (ty - y + 60) * step / 8)
    page.screenshot(path=artifacts / "drag-phone.png")
    _touch(cdp, "touchEnd", tx, ty)
    wait_for_change(page, before)
    expect(page.locator(f'svg.chain [data-link="{name}"]')).to_have_count(1)
    assert no_horizontal_scroll(page)
    context.close()


# ---------------------------------------------------------------------- hints


def test_one_switch_turns_every_hint_off(page: Page, server_url: str, artifacts: Path) -> None:
    page.goto(server_url + "/")
    play_alone(page)
    _my_playable_turn(page)
    raised = "el => getComputedStyle(el).transform"
    assert page.eval_on_selector(PLAYABLE, raised) != "none"
    page.uncheck("[data-hints-toggle]")
    expect(page.locator("[data-table]")).to_have_class(re.compile("hints-off"))
    page.wait_for_function(  # the transition's end
        "sel => getComputedStyle(document.querySelector(sel)).transform === 'none'",
        arg=PLAYABLE,
        timeout=15_000,  # a loaded machine
    )
    if page.locator("svg.chain .half").count():
        page.hover("svg.chain .half-hit")
        expect(page.locator("[data-hint]")).to_be_hidden()
    page.screenshot(path=artifacts / "hints-off-desktop.png")
    page.reload()
    wait_for_table(page)
    expect(page.locator("[data-hints-toggle]")).not_to_be_checked()
    page.check("[data-hints-toggle]")


# ---------------------------------------------------------------------- two people


@pytest.fixture
def two_at_a_public_table(browser: Browser, server_url: str):
    """Opens a public table of a preset: the host (desktop) and a friend in seat 1
    (``viewport``, with touch, or desktop); both contexts close after the test."""
    contexts = []
    yield lambda preset, viewport=None: _two_at_a_public_table(
        browser, server_url, contexts, preset, viewport
    )
    for context in contexts:
        context.close()


def _two_at_a_public_table(browser: Browser, server_url: str, contexts, preset: str, viewport):
    host_ctx = browser.new_context(locale="pt-BR", viewport={"width": 1440, "height": 900})
    contexts.append(host_ctx)
    host = host_ctx.new_page()
    sign_up(host, server_url, unique("ana"))
    code = create_room(host, preset=preset, visibility="public", name="Mesa " + preset)
    friend_ctx = browser.new_context(
        locale="pt-BR",
        viewport=viewport or {"width": 1440, "height": 900},
        has_touch=bool(viewport),
    )
    contexts.append(friend_ctx)
    friend = friend_ctx.new_page()
    sign_up(friend, server_url, unique("bia"))
    friend.click(f'[data-room="{code}"] [data-action="sit"]')
    friend.wait_for_url(f"**/r/{code}/**")
    wait_for_table(friend)
    expect(friend.locator('[data-seat="1"]')).to_contain_class("is-me")
    return code, host, friend


def test_an_adjust_is_seen_on_the_other_players_page(
    two_at_a_public_table, artifacts: Path
) -> None:
    code, host, friend = two_at_a_public_table("duelo")
    host.click('[data-action="start"]')
    pages = [host, friend]
    deadline = time.monotonic() + 90
    done = False
    while not done and time.monotonic() < deadline:
        for me, other in ((host, friend), (friend, host)):
            # The button may go between the count and the click (a clock ran
            # out on a slow machine): then look again at the next turn.
            if me.locator('[data-action="adjust_mode"]').count() and _click_if_there(
                me, '[data-action="adjust_mode"]'
            ):
                bends = me.locator(
                    "[data-adjust] [data-bend=left], [data-adjust] [data-bend=right]"
                )
                if bends.count():
                    before = version(other)
                    me.screenshot(path=artifacts / "adjust-desktop.png")
                    bends.first.click()
                    wait_for_change(other, before)
                    expect(other.locator("[data-log]")).to_contain_text("ajustou a fila")
                    expect(me.locator("[data-log]")).to_contain_text("ajustou a fila")
                    done = True
                    break
                _click_if_there(me, '[data-action="adjust_mode"]')
        if not done:
            if all(p.locator(RESULT).is_visible() for p in pages):
                raise AssertionError("the round ended before a bend was possible")
            for p in pages:
                play_one(p)
    assert done, "no adjust happened"
    other_layout = friend.evaluate(
        "() => JSON.parse(document.getElementById('table-boot').textContent) && document.querySelector('[data-log]').innerText"
    )
    assert "ajustou a fila" in other_layout


def _click_if_there(page: Page, selector: str) -> bool:
    """Click ``selector`` if it is (still) on the page within 2 s."""
    try:
        page.click(selector, timeout=2000)
    except PlaywrightTimeoutError:
        return False
    return True


def test_duelo_both_accept_the_next_game_then_restart_alone(
    two_at_a_public_table, artifacts: Path
) -> None:
    code, host, friend = two_at_a_public_table("duelo", PHONE)
    host.click('[data-action="start"]')
    play_until_result([host, friend])
    # The guest accepts first: the host sees it pending, the game has not started.
    friend.click(f'{RESULT} [data-action="new_match"]')
    expect(host.locator('[data-seat="1"] [data-accepted]')).to_be_visible()
    expect(friend.locator(f"{RESULT} [data-pending]")).to_be_visible()
    friend.screenshot(path=artifacts / "duelo-pending-phone.png")
    host.screenshot(path=artifacts / "duelo-pending-desktop.png")
    expect(host.locator("[data-table]")).to_have_attribute("data-status", "between_rounds")
    host.click(f'{RESULT} [data-action="new_match"]')
    expect(friend.locator("[data-table]")).to_have_attribute("data-status", "playing")
    expect(friend.locator("[data-hand] [data-tile]").first).to_be_visible()
    # Second game; then the guest leaves and the creator plays on alone.
    play_until_result([host, friend])
    friend.click('[data-action="leave"]')
    expect(host.locator('[data-seat="1"]')).to_contain_class("kind-empty")
    host.click(f'{RESULT} [data-action="restart_alone"]')
    expect(host.locator('[data-seat="1"]')).to_contain_class("kind-bot")
    expect(host.locator("[data-table]")).to_have_attribute("data-status", "playing")


def test_a_watcher_joins_from_the_lobby(
    browser: Browser, server_url: str, two_at_a_public_table, artifacts: Path
) -> None:
    code, host, friend = two_at_a_public_table("duelo")
    host.click('[data-action="start"]')
    watcher_ctx = browser.new_context(locale="pt-BR", viewport=PHONE)
    watcher = watcher_ctx.new_page()
    sign_up(watcher, server_url, unique("caio"))
    row = watcher.locator(f'[data-room="{code}"]')
    expect(row.locator('[data-action="watch"]')).to_be_visible()
    watcher.screenshot(path=artifacts / "lobby-watch-phone.png", full_page=True)
    row.locator('[data-action="watch"]').click()
    watcher.wait_for_url(f"**/r/{code}/")
    wait_for_table(watcher)
    expect(watcher.locator("[data-hand]")).to_contain_text("assistindo")
    expect(watcher.locator("[data-hand] [data-tile]")).to_have_count(0)
    # Seen from seat 0's side: seat 0 at the bottom.
    expect(watcher.locator('[data-slot="bottom"] [data-seat="0"]')).to_be_visible()
    for page in (host, friend):
        expect(page.locator("[data-watchers]")).to_have_text("1 assistindo")
    watcher.screenshot(path=artifacts / "watcher-phone.png")
    host.screenshot(path=artifacts / "watched-desktop.png")
    watcher_ctx.close()
    expect(host.locator("[data-watchers]")).to_be_hidden()


def test_a_chat_phrase_reaches_the_other_seat_and_mute(
    two_at_a_public_table, artifacts: Path
) -> None:
    code, host, friend = two_at_a_public_table("duelo", PHONE)
    host.click('[data-action="chat_toggle"]')
    host.click('[data-chat="boa"]')
    bubble = friend.locator('[data-bubble="0"]')
    expect(bubble).to_have_text("Boa!")
    expect(friend.locator("[data-log]")).to_contain_text("Boa!")
    friend.wait_for_function(  # the bubble's pop-in, to its end
        "() => getComputedStyle(document.querySelector('[data-bubble=\"0\"]')).opacity === '1'",
        timeout=15_000,  # a loaded machine
    )
    friend.screenshot(path=artifacts / "chat-phone.png")
    host.screenshot(path=artifacts / "chat-desktop.png")
    # Muted: the next phrase of that player shows nowhere; kept after a reload.
    friend.click('[data-seat="0"] [data-action="mute"]')
    expect(friend.locator('[data-seat="0"] [data-action="mute"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    sockets = []  # the friend's page socket, to see the muted phrase arrive
    friend.on("websocket", lambda socket: sockets.append(socket))
    friend.reload()
    wait_for_table(friend)
    expect(friend.locator('[data-seat="0"] [data-action="mute"]')).to_have_attribute(
        "aria-pressed", "true"
    )
    host.click('[data-action="chat_toggle"]')
    # One phrase every 3 s: the picker's buttons come back when the host may send.
    expect(host.locator('[data-chat="valeu"]')).to_be_enabled(timeout=10_000)
    table_socket = [s for s in sockets if "/ws/rooms/" in s.url][-1]  # (ws/people/ is open too)
    with table_socket.expect_event(
        "framereceived", predicate=lambda frame: '"valeu"' in str(frame), timeout=10_000
    ):
        host.click('[data-chat="valeu"]')
    expect(host.locator('[data-bubble="0"]')).to_have_text("Valeu")  # the sender sees it
    friend.evaluate("() => new Promise((done) => setTimeout(done))")  # its handler has run
    expect(friend.locator('[data-bubble="0"]')).to_have_count(0)
    assert "Valeu" not in friend.locator("[data-log]").inner_text()
    # The phrase picker on a phone: phrases and emotes, nothing to type.
    friend.click('[data-action="chat_toggle"]')
    expect(friend.locator("[data-chat]")).to_have_count(14)
    assert no_horizontal_scroll(friend)
    friend.screenshot(path=artifacts / "chat-phrases-phone.png")


# ---------------------------------------------------------------------- the last tile


WATCH_RESULT = """() => {
  const table = document.querySelector('[data-table]');
  const panel = document.querySelector('[data-panel=result]');
  window.__ended = null; window.__shown = null;
  new MutationObserver(() => {
    if (window.__ended === null && table.dataset.status === 'between_rounds') window.__ended = performance.now();
    if (window.__shown === null && !panel.hidden) window.__shown = performance.now();
  }).observe(document.body, { attributes: true, subtree: true, attributeFilter: ['data-status', 'hidden'] });
}"""


def test_the_last_tile_stays_in_view_before_the_result(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.goto(server_url + "/")
    play_alone(page)
    page.evaluate(WATCH_RESULT)
    play_until_result([page])
    ended, shown = page.evaluate("() => [window.__ended, window.__shown]")
    assert ended is not None and shown is not None
    assert shown - ended >= 1200, (ended, shown)  # about 1.5 s with the last tile highlighted
