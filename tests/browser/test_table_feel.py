"""Issue 25 in a real browser (docs/table-feel.md): motion and its absence under
prefers-reduced-motion, the sound switch, the title and icon in a hidden tab,
notifications only after their button, the dark theme (media query and
switch, axe-core on the table in both themes), sorting the hand, and the web
manifest. Desktop (1280x800) and phone (390x844) sizes."""

from __future__ import annotations

import html
import json
import struct
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.play import (
    PLAYABLE,
    RESULT,
    play_alone,
    play_one,
    version,
    wait_for_news,
    wait_for_table,
)

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}

# Counts what the page does, through the browser's own APIs (an init script
# runs outside the page's Content-Security-Policy).
SPY = """
window.__spy = {animations: 0, laid: 0, sources: 0, notes: [], asked: 0, contexts: []};
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__spy.animations += 1;
  if (this.closest && this.closest('svg.chain')) window.__spy.laid += 1;  // a tile on the chain
  return animate.apply(this, args);
};
if (window.AudioScheduledSourceNode) {
  const start = AudioScheduledSourceNode.prototype.start;
  AudioScheduledSourceNode.prototype.start = function (...args) { window.__spy.sources += 1; return start.apply(this, args); };
  const Context = window.AudioContext;
  window.AudioContext = class extends Context { constructor(...a) { super(...a); window.__spy.contexts.push(this); } };
}
window.__titles = [];
document.addEventListener('DOMContentLoaded', () => new MutationObserver(() => {
  if (window.__titles[window.__titles.length - 1] !== document.title) window.__titles.push(document.title);
}).observe(document.head, {subtree: true, childList: true, characterData: true}));
let hidden = false;
window.__hide = (value) => { hidden = value; document.dispatchEvent(new Event('visibilitychange')); };
Object.defineProperty(Document.prototype, 'hidden', {configurable: true, get: () => hidden});
Object.defineProperty(Document.prototype, 'visibilityState', {configurable: true, get: () => hidden ? 'hidden' : 'visible'});
if (window.Notification) {
  const Real = window.Notification;
  const Spy = function (title, options) { window.__spy.notes.push([title, options && options.body]); return {close() {}, addEventListener() {}}; };
  Object.defineProperty(Spy, 'permission', {get: () => Real.permission});
  Spy.requestPermission = (...a) => { window.__spy.asked += 1; return Real.requestPermission(...a); };
  window.Notification = Spy;
}
"""


def _context(browser: Browser, size: str, **extra) -> BrowserContext:
    context = browser.new_context(locale="pt-BR", **SIZES[size], **extra)
    context.add_init_script(SPY)
    return context


def _spy(page: Page, name: str):
    return page.evaluate(f"() => window.__spy.{name}")


def _solo(page: Page, base: str) -> None:
    page.goto(base + "/")
    play_alone(page)


def _chain(page: Page) -> int:
    return page.locator("svg.chain [data-chain]").count()


def _play_until(page: Page, done, timeout: float = 60) -> None:
    """Plays this seat's turns (the bots play theirs) until ``done()``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done():
            return
        before = version(page)
        if page.locator(RESULT).is_visible():
            next_round = page.locator('[data-action="next_round"]')
            if next_round.count():
                next_round.click()
        elif not play_one(page):  # not this seat's turn: until the bots move
            wait_for_news(page, before, deadline - time.monotonic())
    raise AssertionError("the table did not get there in time")


def _my_turn(page: Page) -> None:
    page.wait_for_function(
        "() => document.querySelector('[data-table].my-turn')"
        " && document.querySelector('[data-hand] [data-tile].playable')",
        timeout=30_000,
    )


# ---------------------------------------------------------------------- motion


@pytest.mark.parametrize("size", SIZES)
def test_a_laid_tile_slides_in_and_reduced_motion_has_no_movement(
    browser: Browser, server_url: str, size: str
) -> None:
    context = _context(browser, size)
    page = context.new_page()
    _solo(page, server_url)
    # Tiles laid while the page looks (the first snapshot may already hold a few).
    _play_until(page, lambda: _spy(page, "laid") > 0)
    context.close()

    still = _context(browser, size, reduced_motion="reduce")
    page = still.new_page()
    _solo(page, server_url)
    start = _chain(page)
    _play_until(page, lambda: _chain(page) >= start + 3 or page.locator(RESULT).is_visible())
    assert _spy(page, "animations") == 0
    # Only the clock ring's sweep runs: it tells the time left.
    assert (
        page.evaluate(
            "() => document.getAnimations().filter(a => a.animationName !== 'clock').length"
        )
        == 0
    )
    still.close()


# ----------------------------------------------------------------------- sound


@pytest.mark.parametrize("size", SIZES)
def test_the_sound_switch_mutes_the_pages_audio(
    browser: Browser, server_url: str, size: str
) -> None:
    context = _context(browser, size)
    page = context.new_page()
    _solo(page, server_url)
    toggle = page.locator("[data-sound-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert _spy(page, "sources") == 0  # nothing before the first gesture
    _play_until(page, lambda: _spy(page, "sources") > 0)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate("() => localStorage.getItem('domino.sound')") == "off"
    page.wait_for_function("() => window.__spy.contexts.every(c => c.state !== 'running')")
    heard = _spy(page, "sources")
    chain = _chain(page)
    _play_until(page, lambda: _chain(page) >= chain + 3 or page.locator(RESULT).is_visible())
    assert _spy(page, "sources") == heard
    page.reload()
    wait_for_table(page)
    expect(page.locator("[data-sound-toggle]")).to_have_attribute("aria-pressed", "false")
    context.close()


# -------------------------------------------------------------- turn alerts


@pytest.mark.parametrize("size", SIZES)
def test_the_title_and_icon_tell_your_turn_in_a_hidden_tab(
    browser: Browser, server_url: str, size: str
) -> None:
    context = _context(browser, size)
    page = context.new_page()
    _solo(page, server_url)
    served = page.request.get(page.url).text()
    plain = html.unescape(served.split("<title>", 1)[1].split("</title>", 1)[0])
    page.evaluate("() => window.__hide(true)")
    _my_turn(page)
    expect(page).to_have_title("(Sua vez) " + plain)
    expect(page.locator("link[rel=icon][type='image/svg+xml']")).to_have_attribute(
        "href", "/static/icons/icon-badge.svg"
    )
    page.evaluate("() => window.__hide(false)")
    expect(page.locator("link[rel=icon][type='image/svg+xml']")).to_have_attribute(
        "href", "/static/icons/icon.svg"
    )
    page.locator(PLAYABLE).first.click()
    if page.locator("[data-end]").count():
        page.locator("[data-end]").first.click()
    # Someone else's turn: the plain title again (the bots answer within
    # milliseconds, so every title the page showed is kept).
    page.wait_for_function(
        "plain => window.__titles.lastIndexOf(plain) > window.__titles.indexOf('(Sua vez) ' + plain)",
        arg=plain,
    )
    context.close()


def _turns(page: Page) -> int:
    """How many times the title said it was this seat's turn."""
    return page.evaluate("() => window.__titles.filter(t => t.startsWith('(Sua vez) ')).length")


def test_a_notification_only_after_its_button(browser: Browser, server_url: str) -> None:
    context = _context(browser, "desktop", permissions=["notifications"])
    page = context.new_page()
    _solo(page, server_url)
    page.evaluate("() => window.__hide(true)")
    # Two turns come in the hidden tab (so one after a move, not at the first
    # render): no notification before the button.
    _play_until(page, lambda: _turns(page) >= 2)
    assert _spy(page, "notes") == [] and _spy(page, "asked") == 0
    ask = page.locator("[data-notify-ask]")
    expect(ask).to_have_attribute("aria-pressed", "false")
    ask.click()
    expect(ask).to_have_attribute("aria-pressed", "true")
    assert _spy(page, "asked") == 1
    _play_until(page, lambda: len(_spy(page, "notes")) > 0)
    assert _spy(page, "notes")[0][1] == "Sua vez"
    # Visible again: nothing more is sent.
    page.evaluate("() => window.__hide(false)")
    sent = len(_spy(page, "notes"))
    chain = _chain(page)
    _play_until(page, lambda: _chain(page) >= chain + 4 or page.locator(RESULT).is_visible())
    assert len(_spy(page, "notes")) == sent
    context.close()


# ------------------------------------------------------------------ dark theme


def _background(page: Page) -> str:
    return page.evaluate("() => getComputedStyle(document.documentElement).backgroundColor")


def _axe(page: Page) -> list[str]:
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
        if v["impact"] in {"serious", "critical"}
    ]


@pytest.mark.parametrize("size", SIZES)
def test_the_dark_theme_by_media_query_and_by_switch(
    browser: Browser, server_url: str, size: str
) -> None:
    light = "rgb(247, 245, 239)"
    dark = "rgb(13, 20, 17)"
    night = _context(browser, size, color_scheme="dark")
    page = night.new_page()
    for path in ("/", "/regras/", "/ranking/", "/accounts/login/", "/accounts/signup/"):
        page.goto(server_url + path)
        assert _background(page) == dark, path
    _solo(page, server_url)
    assert _background(page) == dark
    night.close()

    day = _context(browser, size, color_scheme="light")
    page = day.new_page()
    _solo(page, server_url)
    assert _background(page) == light
    switch = page.locator("[data-theme-toggle]")
    expect(switch).to_have_attribute("aria-pressed", "false")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "true")
    assert _background(page) == dark
    assert page.evaluate("() => localStorage.getItem('domino.theme')") == "dark"
    page.reload()
    wait_for_table(page)
    assert _background(page) == dark
    page.goto(server_url + "/regras/")
    assert _background(page) == dark
    page.go_back()
    wait_for_table(page)
    page.locator("[data-theme-toggle]").click()
    assert _background(page) == light
    assert page.evaluate("() => localStorage.getItem('domino.theme')") is None  # the system's again
    day.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", SIZES)
def test_axe_finds_nothing_serious_on_the_table(
    browser: Browser, server_url: str, size: str, scheme: str, artifacts: Path
) -> None:
    context = _context(browser, size, color_scheme=scheme, reduced_motion="reduce")
    context.add_init_script(path=str(AXE))  # a <script> tag would be refused by the policy
    page = context.new_page()
    _solo(page, server_url)
    _my_turn(page)
    page.screenshot(path=artifacts / f"feel-{scheme}-{size}.png")
    problems = _axe(page)
    assert not problems, problems
    context.close()


# ------------------------------------------------------------------- sorting


def _hand(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "[data-hand] [data-tile]", "els => els.map(e => e.dataset.tile)"
    )


def _pips(tiles: list[str]) -> list[int]:
    return [sum(map(int, tile.split("-"))) for tile in tiles]


def _suits_in_order(tiles: list[str]) -> bool:
    """By suit: tiles of one number together, the number held most first."""
    held: dict[int, int] = {}
    for tile in tiles:
        for n in set(map(int, tile.split("-"))):
            held[n] = held.get(n, 0) + 1
    suits = [max(map(int, tile.split("-")), key=lambda n: (held[n], n)) for tile in tiles]
    groups = [s for i, s in enumerate(suits) if i == 0 or suits[i - 1] != s]
    return len(groups) == len(set(groups)) and [held[s] for s in groups] == sorted(
        (held[s] for s in groups), reverse=True
    )


@pytest.mark.parametrize("size", SIZES)
def test_sorting_the_hand_and_it_survives_a_reload(
    browser: Browser, server_url: str, size: str
) -> None:
    context = _context(browser, size)
    page = context.new_page()
    _solo(page, server_url)
    page.wait_for_selector("[data-hand] [data-tile]")
    page.locator('[data-sort="pips"]').click()
    by_pips = _hand(page)
    assert _pips(by_pips) == sorted(_pips(by_pips), reverse=True)
    page.reload()
    wait_for_table(page)
    assert _hand(page) == [t for t in by_pips if t in _hand(page)]
    page.locator('[data-sort="suit"]').click()
    by_suit = _hand(page)
    assert _suits_in_order(by_suit), by_suit
    page.reload()
    wait_for_table(page)
    assert _hand(page) == [t for t in by_suit if t in _hand(page)]
    context.close()


# ------------------------------------------------------------------ manifest


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_is_served_and_valid(page: Page, server_url: str) -> None:
    page.goto(server_url + "/")
    href = page.get_attribute("link[rel=manifest]", "href")
    response = page.request.get(server_url + href)
    assert response.ok and response.headers["content-type"].startswith("application/manifest+json")
    manifest = json.loads(response.text())
    assert manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"] and manifest["start_url"] == "/"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = set()
    for icon in manifest["icons"]:
        got = page.request.get(server_url + icon["src"])
        assert got.ok and got.headers["content-type"] == icon["type"], icon
        if icon["type"] == "image/png":
            w, h = _png_size(got.body())
            assert icon["sizes"] == f"{w}x{h}"
            sizes.add(w)
    assert {192, 512} <= sizes
    # Chromium's own reading of it: no errors, standalone.
    cdp = page.context.new_cdp_session(page)
    parsed = cdp.send("Page.getAppManifest")
    assert parsed["errors"] == [], parsed["errors"]
    assert json.loads(parsed["data"])["display"] == "standalone"
    # Every page links it and both theme colours.
    for path in ("/regras/", "/ranking/", "/accounts/login/", "/accounts/signup/"):
        page.goto(server_url + path)
        assert page.locator("link[rel=manifest]").count() == 1, path
        assert page.locator("meta[name=theme-color]").count() == 2, path
