"""A table that never clips (docs/table-feel.md, "Layout"), at the four sizes
of tests/browser/test_layout.py:

* every preset's result panel lies inside the felt, its title and its buttons
  on screen and not covered (the middle of the card may scroll, never its
  head or its buttons);
* "Revanche com …" shows once the match is over, not while it is played;
* a phone's header keeps one row, with the logo;
* a hand as long as the rules allow (a duelo's whole boneyard drawn) fits its
  box or scrolls inside it; a hand of 8 fits a 390 px phone without scrolling.

The tables are real rounds played to their end by the services
(tests/browser/result_tables.py); the page is the player's own, seated.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser.play import RESULT, ROOT
from tests.browser.test_layout import SIZES

PRESETS = ["parceria", "duelo", "partida", "pontos", "arena"]
PHONES = ["360x640", "390x844"]


def _built(env: dict[str, str], *args: str) -> dict:
    """tests/browser/result_tables.py's table, in the test server's database."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.result_tables", *args],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def finished(server) -> dict[str, dict]:
    """A round played to its end at a table of each preset."""
    return {preset: _built(server[1], preset, "11") for preset in PRESETS}


def _page(browser: Browser, base: str, size: str, cookie: dict | None = None) -> Page:
    phone = SIZES[size]["width"] < 600
    context = browser.new_context(
        locale="pt-BR", viewport=SIZES[size], has_touch=phone, is_mobile=phone
    )
    if cookie:
        context.add_cookies([{**cookie, "url": base}])
    return context.new_page()


def _box(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box, f"{selector} is not on the page"
    return box


def _inside(inner: dict, outer: dict, slack: float = 1.0) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


# What covers the centre of each of the panel's buttons (nothing but itself, if
# it can be pressed): a button scrolled out of the card, or under the hand, is
# covered by something else.
UNCOVERED = """() => [...document.querySelectorAll('[data-panel=result] .result-actions button')]
  .map((b) => { const r = b.getBoundingClientRect();
                const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return [b.dataset.action, !!hit && (hit === b || b.contains(hit))]; })"""


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("preset", PRESETS)
def test_the_result_panel_fits_the_felt(
    browser: Browser, server_url: str, finished, artifacts: Path, preset: str, size: str
) -> None:
    table = finished[preset]
    page = _page(browser, server_url, size, table["cookie"])
    page.goto(f"{server_url}/r/{table['code']}/")
    expect(page.locator(f"{RESULT} .result-actions button").first).to_be_visible()
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running'"
                           " || a instanceof CSSAnimation)")  # fmt: skip
    page.screenshot(path=str(artifacts / f"result-{preset}-{size}.png"))
    width, height = SIZES[size]["width"], SIZES[size]["height"]
    viewport = {"x": 0, "y": 0, "width": width, "height": height}
    felt = _box(page, ".felt")
    card = _box(page, f"{RESULT} .result-card")
    assert _inside(card, felt), (card, felt)
    assert _inside(_box(page, "#result-title"), felt)  # its title is on the felt, not above it
    buttons = page.locator(f"{RESULT} .result-actions button")
    assert buttons.count() >= 2  # what comes next, and "Ver a mesa"
    for n in range(buttons.count()):
        box = buttons.nth(n).bounding_box()
        assert box and _inside(box, viewport) and _inside(box, card), (n, box, card)
    assert all(ok for _, ok in page.evaluate(UNCOVERED)), page.evaluate(UNCOVERED)
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.context.close()


@pytest.mark.parametrize("size", PHONES)
@pytest.mark.parametrize("who", ["guest", "account"])
def test_a_phone_s_header_is_one_row_with_the_logo(
    browser: Browser, server, artifacts: Path, size: str, who: str
) -> None:
    """The header of a table page and of the lobby: the logo on screen, every
    link on one row (those that do not fit slide inside the header), the page
    never wider than the phone."""
    base, env = server
    table = _built(env, "parceria", "5", "moves:2", *(["accounts"] if who == "account" else []))
    page = _page(browser, base, size, table.get("cookie"))
    if who == "account":
        page.goto(base + "/accounts/login/")
        page.fill("#id_username", table["usernames"][0])
        page.fill("#id_password", table["password"])
        page.click("[data-form=login] button[type=submit]")
        page.wait_for_url(base + "/")
    for path in (f"/r/{table['code']}/", "/"):
        page.goto(base + path)
        page.screenshot(path=str(artifacts / f"header-{who}-{size}{path.replace('/', '-')}.png"))
        header = _box(page, ".site-header")
        logo = _box(page, ".site-header .brand-tile")
        assert _inside(logo, header) and logo["x"] >= 0, logo
        assert header["height"] <= 60, header  # one row: a second would be ~30 px more
        rows = page.evaluate(
            "() => [...document.querySelectorAll('.site-header .brand, .site-nav > *')]"
            ".filter((e) => e.getClientRects().length && getComputedStyle(e).position !== 'absolute')"
            ".map((e) => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; })"
        )
        assert max(rows) - min(rows) <= 4, rows
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
    page.context.close()


@pytest.mark.parametrize("size", list(SIZES))
def test_a_hand_as_long_as_the_rules_allow_stays_in_its_box(
    browser: Browser, server, artifacts: Path, size: str
) -> None:
    """docs/rules.md: a duelo's player may draw the whole boneyard (21 tiles in
    hand); the hand fits its box or scrolls inside it, no tile sticking out,
    and a hand of 8 needs no scrolling at all."""
    base, env = server
    width = SIZES[size]["width"]
    for count in (8, 21):
        table = _built(env, "hand", "duelo", str(count))
        page = _page(browser, base, size, table["cookie"])
        page.goto(f"{base}/r/{table['code']}/")
        expect(page.locator("[data-hand] [data-tile]")).to_have_count(count)
        page.wait_for_function(
            "() => document.getAnimations().every((a) => a instanceof CSSAnimation"
            " || a instanceof CSSTransition || a.playState !== 'running')"
        )
        page.screenshot(path=str(artifacts / f"hand-{count}-{size}.png"))
        hand = _box(page, "[data-hand]")
        assert hand["x"] >= 0 and hand["x"] + hand["width"] <= width, hand
        sizes = page.evaluate(
            "() => { const h = document.querySelector('[data-hand]');"
            " return {scroll: h.scrollWidth, client: h.clientWidth,"
            " overflow: getComputedStyle(h).overflowX}; }"
        )
        if sizes["scroll"] > sizes["client"]:  # it scrolls inside its box
            assert count > 8 and sizes["overflow"] in {"auto", "scroll"}, sizes
        # No tile sticks out of the hand's box vertically, scrolled or not.
        for n in range(count):
            tile = page.locator("[data-hand] [data-tile]").nth(n).bounding_box()
            assert tile and tile["y"] >= hand["y"] - 1, (n, tile, hand)
            assert tile["y"] + tile["height"] <= hand["y"] + hand["height"] + 1, (n, tile, hand)
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")
        page.context.close()


def test_the_rematch_shows_once_the_match_is_over(browser: Browser, server) -> None:
    """docs/site.md, "Rematch": not from the first move (on a phone it would
    push the felt down), and at once when the match is over."""
    base, env = server
    for until, shown in (("moves:2", False), ("match", True)):
        table = _built(env, "duelo", "9", until, "accounts")
        page = _page(browser, base, "390x844")
        page.goto(base + "/accounts/login/")
        page.fill("#id_username", table["usernames"][0])
        page.fill("#id_password", table["password"])
        page.click("[data-form=login] button[type=submit]")
        page.wait_for_url(base + "/")
        page.goto(f"{base}/r/{table['code']}/")
        page.wait_for_selector("[data-table][data-version]", state="attached")
        rematch = page.locator("[data-action=rematch]")
        expect(rematch).to_have_count(1)  # offered to this person, shown or not
        if shown:
            expect(rematch).to_be_visible()
        else:
            expect(rematch).to_be_hidden()
        page.context.close()
