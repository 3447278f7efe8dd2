"""Table themes (docs/table-feel.md, "Table themes"): the felt's colour, the
tiles' style and large tiles, chosen in the table page's "Table look" panel,
kept by this browser and on <html> before the body is parsed (no flash of the
default), and large tiles that grow the hand and the chain without a
horizontal scroll on a phone. Screenshots of each look at 1440x900 and 390x844."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import no_horizontal_scroll, play_alone, play_one, wait_for_table

pytestmark = pytest.mark.browser

SIZES = {
    "desktop": {"viewport": {"width": 1440, "height": 900}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}
LOOKS = [("blue", "colour", True), ("wine", "dark", False), ("wood", "ivory", True)]

# What <html> carries when the <body> element first appears: before any paint.
FIRST_PAINT = """
new MutationObserver((_, observer) => {
  if (!document.body) return;
  window.__atBody = {...document.documentElement.dataset};
  observer.disconnect();
}).observe(document, {childList: true, subtree: true});
"""


def _felt(page: Page) -> str:
    return page.evaluate("() => getComputedStyle(document.querySelector('.felt')).backgroundImage")


# The chain's first tile's width over the board's height. The chain is drawn to
# the board's shape (board.js), and the board's height moves with what else the
# page shows (a status that wraps, a notice) while a loaded machine catches up:
# this ratio is what large tiles change, whatever the board's height.
CHAIN_TILE = """() => {
  const board = document.querySelector('svg.chain').getBoundingClientRect();
  return document.querySelector('svg.chain [data-chain] .tile-face').getBoundingClientRect().width
    / board.height;
}"""


def _widths(page: Page) -> tuple[float, float]:
    """A hand tile's width in CSS pixels, and the chain's tile size (CHAIN_TILE)."""
    hand = page.evaluate(
        "() => document.querySelector('[data-hand] [data-tile]').getBoundingClientRect().width"
    )
    return hand, page.evaluate(CHAIN_TILE)


def _pip(page: Page, n: int) -> str:
    return page.evaluate(
        "n => getComputedStyle(document.querySelector(`[data-hand] .half[data-n='${n}'] circle`)).fill",
        n,
    )


def _first_move(page: Page) -> None:
    """Someone has played (me, if the bots wait for me): the chain has a tile to measure."""
    deadline = time.monotonic() + 30
    while not page.locator("svg.chain [data-chain]").count():
        assert time.monotonic() < deadline, "nobody played"
        if not play_one(page):
            page.wait_for_selector(
                "svg.chain [data-chain], [data-hand] .playable", state="attached"
            )


@pytest.mark.parametrize("size", SIZES)
def test_a_table_look_is_chosen_kept_and_applied_before_the_first_paint(
    browser: Browser, server_url: str, size: str, artifacts: Path
) -> None:
    context = browser.new_context(locale="pt-BR", reduced_motion="reduce", **SIZES[size])
    context.add_init_script(FIRST_PAINT)
    page = context.new_page()
    page.goto(server_url + "/")
    play_alone(page, preset="duelo")
    _first_move(page)
    page.screenshot(path=artifacts / f"theme-default-{size}.png")
    green = _felt(page)
    hand, chain = _widths(page)

    page.select_option("[data-table-theme=felt]", "blue")
    expect(page.locator("html")).to_have_attribute("data-felt", "blue")
    assert _felt(page) != green
    page.select_option("[data-table-theme=tiles]", "colour")
    page.locator("[data-table-theme=tileSize]").check()
    expect(page.locator("html")).to_have_attribute("data-tile-size", "large")
    page.wait_for_function(f"w => ({CHAIN_TILE})() > w * 1.2", arg=chain)
    assert _widths(page)[0] > hand * 1.2
    assert no_horizontal_scroll(page)

    page.reload()
    wait_for_table(page)
    at_body = page.evaluate("() => window.__atBody")
    assert (at_body["felt"], at_body["tiles"], at_body["tileSize"]) == ("blue", "colour", "large")
    expect(page.locator("[data-table-theme=felt]")).to_have_value("blue")
    expect(page.locator("[data-table-theme=tileSize]")).to_be_checked()
    assert no_horizontal_scroll(page)

    for felt, tiles, large in LOOKS:
        page.select_option("[data-table-theme=felt]", felt)
        page.select_option("[data-table-theme=tiles]", tiles)
        page.locator("[data-table-theme=tileSize]").set_checked(large)
        if tiles == "colour":
            shown = [
                n for n in range(1, 7) if page.locator(f"[data-hand] .half[data-n='{n}']").count()
            ]
            assert len({_pip(page, n) for n in shown}) == len(shown)  # a colour per number
        assert no_horizontal_scroll(page)
        page.evaluate("() => scrollTo(0, 0)")  # the panel is below the table on a phone
        page.screenshot(
            path=artifacts / f"theme-{felt}-{tiles}-{'large' if large else 'normal'}-{size}.png"
        )

    # Back to the defaults: nothing stored, nothing on <html>.
    page.select_option("[data-table-theme=felt]", "green")
    page.select_option("[data-table-theme=tiles]", "ivory")
    page.locator("[data-table-theme=tileSize]").uncheck()
    stored = page.evaluate(
        "() => ['felt', 'tiles', 'tileSize'].map((k) => localStorage.getItem('domino.' + k))"
    )
    assert stored == [None, None, None]
    assert page.evaluate("() => document.documentElement.dataset.felt") is None
    context.close()
