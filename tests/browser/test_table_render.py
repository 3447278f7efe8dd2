"""The table page draws each snapshot through lit-html templates: what did not
change keeps its element, so the focus and the keyboard's place in the hand
survive a snapshot."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import version, wait_for_table

pytestmark = pytest.mark.browser

KEEP_FOCUS = """() => {
  const tiles = document.querySelectorAll('[data-hand] [data-tile]');
  const el = tiles[1];
  el.focus();
  window.__kept = el;
  return [...tiles].map((t) => t.dataset.tile);
}"""


def test_focus_and_keyboard_place_survive_a_snapshot(
    browser: Browser, server_url: str, real_rooms
) -> None:
    # A round in play at a real table of four people; this page is seat 0's.
    room = real_rooms(1, seed=11, moves=5)[0]
    contexts = []

    def open_seat(seat: int) -> Page:
        context = browser.new_context(locale="pt-BR")
        context.add_cookies([{**room["cookies"][seat], "url": server_url}])
        contexts.append(context)
        page = context.new_page()
        page.goto(f"{server_url}/r/{room['code']}/")
        wait_for_table(page)
        return page

    me = open_seat(0)
    tiles = me.evaluate(KEEP_FOCUS)
    assert len(tiles) >= 3
    # Someone else comes in: a new snapshot for everyone (their seat is online).
    before = version(me)
    open_seat(1)
    me.wait_for_function(
        "v => Number(document.querySelector('[data-table]').dataset.version) > v", arg=before
    )
    expect(me.locator('[data-seat="1"] .dot')).to_have_class("dot on")
    # The same element, still in the page, still focused.
    assert me.evaluate(
        "() => window.__kept.isConnected && document.activeElement === window.__kept"
    )
    me.keyboard.press("ArrowRight")
    assert me.evaluate("() => document.activeElement.dataset.tile") == tiles[2]
    for context in contexts:
        context.close()
