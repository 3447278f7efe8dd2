"""The table's layout at the sizes players use (docs/table-feel.md, "Layout"):
two phones and two desktops, with and without a notice above the table (a
cool-down being served). At the player's turn the hand is on screen without
scrolling, no button of the table is covered by another element, the felt
keeps most of a desktop's width, and nothing scrolls sideways."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import ROOT
from tests.browser.play import play_alone, sign_up, unique

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
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", COOLDOWN.format(name=name)],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]


def _my_turn(page: Page) -> None:
    page.wait_for_selector(".turn-status.mine", timeout=30_000)
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
    width, height = SIZES[size]["width"], SIZES[size]["height"]
    tag = f"{size}-{'notice' if notice else 'plain'}"
    for theme in ("light", "dark"):
        page.evaluate("t => { document.documentElement.dataset.theme = t; }", theme)
        page.screenshot(path=str(artifacts / f"layout-{tag}-{theme}.png"))

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
    page.context.close()
