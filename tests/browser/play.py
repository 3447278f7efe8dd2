"""Helpers that play the table page like a person: through the test hooks of
docs/site.md (data-tile, data-end, data-action, data-seat, data-panel)."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from pathlib import Path

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

RESULT = '[data-panel="result"]'
PLAYABLE = "[data-hand] [data-tile].playable"
CLICK_MS = 3_000


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:6]}"


def version(page: Page) -> int:
    value = page.get_attribute("[data-table]", "data-version")
    return int(value) if value else -1


def play_alone(page: Page, preset: str = "parceria", level: str = "easy") -> None:
    """From the lobby: "Jogar sozinho", then the table page once its first round is
    dealt (on the seed the page sends) and the dealt hand has stopped moving."""
    form = page.locator("[data-form=create-room]")
    form.locator("select[name=preset]").select_option(preset)
    form.locator("select[name=bot_level]").select_option(level)
    form.locator('[data-action="play_alone"]').click()
    page.wait_for_url("**/r/*/")
    wait_for_table(page)
    page.wait_for_selector("[data-hand] [data-tile]")
    # The deal's fan-out is over: the script's animations (static/js/motion.js),
    # not the page's CSS ones, some of which never end.
    page.wait_for_function(
        "() => document.getAnimations().every((a) => a instanceof CSSAnimation"
        " || a instanceof CSSTransition || a.playState !== 'running')"
    )


def wait_for_table(page: Page) -> None:
    # Drawn from the page's own snapshot, and the socket is open.
    page.wait_for_selector("[data-table][data-version][data-connected]", state="attached")


def wait_for_change(page: Page, before: int, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('[data-table]').dataset.version) > v",
        arg=before,
        timeout=timeout,
    )


#: A move this page can make now (play_one's targets).
MOVE_JS = (
    "document.querySelector('[data-hand] [data-tile].playable,"
    " [data-action=draw], [data-action=pass]')"
)


#: The result panel on screen: it comes about 1.5 s after the round's last
#: snapshot (docs/site.md), with no version of its own.
RESULT_JS = (
    "(() => { const r = document.querySelector('[data-panel=\"result\"]');"
    " return !!r && r.getClientRects().length > 0 && getComputedStyle(r).visibility !== 'hidden'; })()"
)


def wait_for_news(page: Page, before: int, timeout: float) -> None:
    """Until the table moves on from version ``before``, this page has a move
    to make (one that a click just missed), or the round's result shows (it
    waits for this page's "next round"); ``timeout`` in seconds."""
    try:
        page.wait_for_function(
            f"v => Number(document.querySelector('[data-table]').dataset.version) > v"
            f" || {MOVE_JS} || {RESULT_JS}",
            arg=before,
            timeout=max(timeout, 0.001) * 1000,
        )
    except PlaywrightError as exc:
        raise AssertionError(f"the table stayed at version {before}") from exc


def sign_up(page: Page, base: str, username: str, password: str = "dominó-secreto-42") -> None:
    page.goto(base + "/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("[data-form=signup] button[type=submit]")
    page.wait_for_url(base + "/")


def create_room(page: Page, *, preset: str, visibility: str, name: str, clock: str = "") -> str:
    """Fill the lobby's create form; returns the room code."""
    form = page.locator("[data-form=create-room]")
    form.locator("select[name=preset]").select_option(preset)
    form.locator("input[name=name]").fill(name)
    form.locator(f"input[name=visibility][value={visibility}]").check()
    form.locator("select[name=move_seconds]").select_option(clock)
    form.locator("[data-action=create]").click()
    page.wait_for_url("**/r/*/")
    wait_for_table(page)
    return page.url.rstrip("/").rsplit("/", 1)[-1]


def sit_by_link(page: Page, base: str, code: str, seat: int = 1) -> None:
    """Open the room's "sit" link and wait to hold ``seat``."""
    page.goto(f"{base}/r/{code}/?sit=1")
    wait_for_table(page)
    expect(page.locator(f'[data-seat="{seat}"]')).to_contain_class("is-me")


def play_one(page: Page) -> bool:
    """Make this page's move if it has one: a playable tile (then an end if
    asked), or Draw, or Pass. True when something was sent.

    The page re-renders on every snapshot, so a button seen a moment ago may be
    gone (a slow server, the round ended): clicks wait briefly and a vanished
    target just means "look again"."""
    before = version(page)
    try:
        tile = page.locator(PLAYABLE).first
        if tile.count():
            tile.click(timeout=CLICK_MS)
            end = page.locator("[data-end]")
            if end.count():
                end.first.click(timeout=CLICK_MS)
        else:
            for action in ("draw", "pass"):
                button = page.locator(f'[data-action="{action}"]')
                if button.count():
                    button.click(timeout=CLICK_MS)
                    break
            else:
                return False
    except PlaywrightError:
        return False
    try:
        wait_for_change(page, before, timeout=10_000)
    except PlaywrightError:  # a refused move: the next look decides
        pass
    return True


def play_until_result(pages: list[Page], timeout: float = 120) -> None:
    """Everyone on ``pages`` plays their turns until every page shows the result."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if all(p.locator(RESULT).is_visible() for p in pages):
            return
        moved = False
        for page in pages:
            if not page.locator(RESULT).is_visible():
                moved = play_one(page) or moved
        if not moved:
            # The next thing may happen on any page (the seat to play's page
            # catching up with a snapshot), and a wait here watches one page
            # at a time: a short pause between looks, within the deadline.
            pages[0].wait_for_timeout(100)
    raise AssertionError("the round did not end in time")


def no_horizontal_scroll(page: Page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )


ROOT = Path(__file__).resolve().parents[2]

ARENA = """
from django.utils import timezone
from arenas import services
arena = services.arena_create(name={name!r}, preset="duelo", starts_at=timezone.now(),
                              minutes=30, move_seconds=60)
print(arena.pk)
"""


def server_shell(env: dict[str, str], code: str) -> str:
    """Run ``code`` in ``manage.py shell`` against the test server's database
    (``env``: the server's environment); returns what it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def public_arena(env: dict[str, str], name: str) -> int:
    """An admin's public duelo arena, running now, in the server's database."""
    return int(server_shell(env, ARENA.format(name=name)).strip().splitlines()[-1])
