"""The table's layout at the sizes players use (docs/table-feel.md, "Layout"):
two phones and two desktops, with and without a notice above the table (a
cool-down being served; the way back to an arena, at one phone and one desktop). At the player's turn the hand is on screen without
scrolling, no button of the table is covered by another element, the felt
keeps most of a desktop's width, and nothing scrolls sideways."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.play import play_alone, public_arena, server_shell, sign_up, unique

SIZES = {
    "360x640": {"width": 360, "height": 640},
    "390x844": {"width": 390, "height": 844},
    "1280x800": {"width": 1280, "height": 800},
    "1440x900": {"width": 1440, "height": 900},
}

COOLDOWN = """
from django.contrib.auth import get_user_model
from records import services
user = get_user_model().objects.get(username={name!r})
services.abandonment_recorded(user=user, reason="left")
"""

# Every visible button of the table page whose centre another element covers
# (scrolled into view first: a phone's side panels sit below the table).
COVERED = """() => {
  const out = [];
  for (const b of document.querySelectorAll('[data-table] button, [data-table] a.button')) {
    const r0 = b.getBoundingClientRect();
    if (!r0.width || !r0.height || getComputedStyle(b).visibility === 'hidden') continue;
    if (b.closest('[hidden], .replaced, .toast, [data-panel=result], details:not([open])')) continue;
    b.scrollIntoView({block: 'center', inline: 'center'});
    const r = b.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === b || b.contains(hit))) {
      out.push((b.dataset.action || b.dataset.sort || b.textContent.trim()).slice(0, 40)
               + ' under ' + (hit ? hit.className || hit.tagName : 'nothing'));
    }
  }
  window.scrollTo(0, 0);
  return out;
}"""


def _cooldown(env: dict[str, str], name: str) -> None:
    """A cool-down for ``name`` in the server's database: its notice shows above the table."""
    server_shell(env, COOLDOWN.format(name=name))


def _my_turn(page: Page) -> None:
    page.wait_for_function("() => document.querySelector('.turn-status.mine')", timeout=60_000)
    page.wait_for_function(  # the deal and the last move have landed
        "() => document.getAnimations().every((a) => a instanceof CSSAnimation"
        " || a.playState !== 'running')"
    )


def _table(browser: Browser, server, size: str, notice: bool) -> Page:
    base, env = server
    viewport = SIZES[size]
    phone = viewport["width"] < 600
    context = browser.new_context(
        locale="pt-BR", viewport=viewport, has_touch=phone, is_mobile=phone
    )
    page = context.new_page()
    name = unique("lay")
    sign_up(page, base, name)
    if notice:
        _cooldown(env, name)
    page.goto(base + "/")
    play_alone(page)
    if notice:
        page.wait_for_selector("[data-cooldown]")
    _my_turn(page)
    return page


@pytest.mark.parametrize("notice", [False, True], ids=["plain", "notice"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_table_fits_every_size(browser: Browser, server, artifacts: Path, size, notice):
    page = _table(browser, server, size, notice)
    _screenshots(page, artifacts, f"{size}-{'notice' if notice else 'plain'}")
    _fits(page, size)
    # The same turn with nothing to play, drawn by the page's own modules (a
    # real pass lasts a second: the server passes for the seat; a draw needs a
    # table with a boneyard): "Passar" or "Comprar" sits on the status's line,
    # the pile beside it, and the board keeps its height.
    for only in ("pass", "draw"):
        page.evaluate(AS_TURN_WITH_ONLY, only)
        page.wait_for_selector(f".turn-line [data-action={only}]")
        _screenshots(page, artifacts, f"{size}-{'notice' if notice else 'plain'}-{only}")
        _fits(page, size)
    page.context.close()


AS_TURN_WITH_ONLY = """async (only) => {
  const base = [...document.scripts].find((s) => s.src.includes('/table.js')).src;
  const {state, setState} = await import(new URL('table/state.js', base).href);
  const {renderActions} = await import(new URL('table/panels.js', base).href);
  const snap = state.snap;
  // A line that may bend, so that "Ajustar a fila" is in the bar too (the deal
  // decides it at a real table): the bar's fullest case.
  const chain = [{tile: '1-2', end: null}, {tile: '2-3', end: 'A'}, {tile: '1-4', end: 'B'}];
  const round = {...snap.round, legal: [{type: only}], boneyard_count: 14, chain};
  const room = {...snap.room, rules: {...snap.room.rules, draw: only === 'draw'}};
  setState({snap: {...snap, room, round}});
  renderActions();
}"""


def _screenshots(page: Page, artifacts: Path, tag: str) -> None:
    for theme in ("light", "dark"):
        page.evaluate("t => { document.documentElement.dataset.theme = t; }", theme)
        page.screenshot(path=str(artifacts / f"layout-{tag}-{theme}.png"))


def _fits(page: Page, size: str) -> None:
    """The layout's rules at the player's turn (the module's docstring)."""
    width, height = SIZES[size]["width"], SIZES[size]["height"]
    # The hand at the player's turn: all on screen, no scrolling.
    assert page.evaluate("() => window.scrollY") == 0
    hand = page.locator("[data-hand]").bounding_box()
    assert hand and hand["y"] >= 0 and hand["y"] + hand["height"] <= height, hand
    assert hand["x"] >= 0 and hand["x"] + hand["width"] <= width, hand

    # The board, under the seats, keeps room for the chain.
    board = page.locator("[data-board]").bounding_box()
    assert board and board["height"] >= 60, board

    # The felt keeps the desktop's width, notice or not.
    if width >= 1280:
        felt = page.locator(".felt").bounding_box()
        assert felt and felt["width"] >= 0.55 * width, felt

    assert page.evaluate(COVERED) == []
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")


@pytest.mark.parametrize("size", ["1280x800", "390x844"])
def test_an_arena_table_fits_with_its_way_back_to_the_arena(
    browser: Browser, server, artifacts: Path, size: str
) -> None:
    """The other notice above a table: "Voltar à arena" at an arena's table."""
    base, env = server
    name = unique("Arena ")
    arena_id = public_arena(env, name)
    phone = SIZES[size]["width"] < 600
    pages = []
    for who, address in (("ana", "198.51.100.61"), ("bia", "198.51.100.62")):  # two homes
        context = browser.new_context(
            locale="pt-BR", viewport=SIZES[size], has_touch=phone, is_mobile=phone,
            extra_http_headers={"X-Forwarded-For": address},
        )  # fmt: skip
        page = context.new_page()
        sign_up(page, base, unique(who))
        page.goto(f"{base}/torneios/{arena_id}/")
        page.click("[data-action=join-arena]")
        pages.append(page)
    for page in pages:
        page.wait_for_url("**/r/*/", timeout=30_000)
        page.wait_for_selector("[data-arena-link]")
    # Dealt: the first page's status names whose turn it is, and nobody moves
    # before that person (a round's first tile always fits: no automatic pass).
    pages[0].wait_for_function(
        "() => document.querySelector('.turn-status')?.textContent.trim()", timeout=30_000
    )
    page = pages[0] if pages[0].locator(".turn-status.mine").count() else pages[1]
    _my_turn(page)
    _screenshots(page, artifacts, f"{size}-arena")
    _fits(page, size)
    for page in pages:
        page.context.close()


# Each "passou" mark (static/js/feel.js) once its entrance is over, beside the
# box of every name on the felt: the mark never covers one (the seat that passed,
# or a neighbour's).
PASS_MARKS = """
window.__passMarks = [];
new MutationObserver((records) => {
  for (const r of records) for (const el of r.addedNodes) {
    if (!(el instanceof HTMLElement) || !el.matches('.feel-mark.pass')) continue;
    setTimeout(() => {
      const box = (e) => { const b = e.getBoundingClientRect();
                           return {left: b.left, right: b.right, top: b.top, bottom: b.bottom}; };
      window.__passMarks.push({mark: box(el),
        names: [...document.querySelectorAll('[data-table] .seat-name .name')].map(box)});
    }, 400);
  }
}).observe(document, {childList: true, subtree: true});
"""


def _overlap(a: dict, b: dict) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


@pytest.mark.parametrize("size", ["1280x800", "390x844"])
def test_a_pass_mark_never_covers_a_name(browser: Browser, server_url: str, size: str) -> None:
    """docs/table-feel.md, "Layout": the mark sits under the seat's box (over it
    for the player's own seat), not on the name."""
    phone = SIZES[size]["width"] < 600
    context = browser.new_context(
        locale="pt-BR", viewport=SIZES[size], has_touch=phone, is_mobile=phone
    )
    context.add_init_script(PASS_MARKS)
    page = context.new_page()
    page.goto(server_url + "/")
    play_alone(page, preset="parceria")  # without a boneyard: passes come often
    page.locator("[data-action=auto]").click()  # the server plays my seat too
    deadline = time.monotonic() + 150
    while page.evaluate("() => window.__passMarks.length") < 2:
        assert time.monotonic() < deadline, "no two passes in 150 s of play"
        # A round can end without a pass: deal the next one.
        page.wait_for_function(
            "() => window.__passMarks.length >= 2"
            " || document.querySelector('[data-action=next_round]')",
            timeout=60_000,
        )
        next_round = page.locator("[data-action=next_round]")
        if next_round.count():  # the panel rises into place: press it as a finger would
            next_round.first.dispatch_event("click")
            page.wait_for_selector("[data-action=next_round]", state="detached", timeout=30_000)
    for seen in page.evaluate("() => window.__passMarks"):
        assert not any(_overlap(seen["mark"], name) for name in seen["names"]), seen
    context.close()
