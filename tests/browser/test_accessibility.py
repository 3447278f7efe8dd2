"""axe-core on every page of the site (issue 40, B), in the light and the dark
theme: no violation of impact "serious" or "critical". The table (waiting and
in play) and the round replay also in each table theme (docs/table-feel.md,
"Table themes"), chosen through the page's own "Table look" panel."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.conftest import ROOT
from tests.browser.play import create_room, play_alone, sign_up, unique, wait_for_table

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SCHEMES = ["light", "dark"]
# A "moderate" rule held too: a screen reader's outline of the page.
ALSO = {"heading-order"}
# Every option of the picker at least once: (felt, tiles, large tiles).
LOOKS = [
    ("green", "ivory", False),
    ("blue", "colour", True),
    ("wine", "dark", False),
    ("wood", "ivory", True),
    ("green", "dark", True),
]

SETUP = """
from django.utils import timezone
from arenas import services as arenas
from rooms import services
from rooms.models import Room
services.room_close(room=Room.objects.get(code={code!r}), reason="admin")
arena = arenas.arena_create(name={name!r}, preset="duelo", starts_at=timezone.now(),
                            minutes=30, move_seconds=60)
print(arena.pk)
"""


def _context(browser: Browser, scheme: str, **extra) -> BrowserContext:
    context = browser.new_context(
        locale="pt-BR", color_scheme=scheme, reduced_motion="reduce", **extra
    )
    context.add_init_script(path=str(AXE))  # a <script> tag would be refused by the policy
    return context


def _axe(page: Page) -> list[str]:
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {[n['target'] for n in v['nodes']][:4]}"
        for v in result["violations"]
        if v["impact"] in {"serious", "critical"} or v["id"] in ALSO
    ]


def _check(page: Page, what: str, problems: dict[str, list[str]]) -> None:
    found = _axe(page)
    if found:
        problems[what] = found


def _look(page: Page, felt: str, tiles: str, large: bool) -> None:
    """Choose a table look in the page's panel, as a player does."""
    page.select_option("[data-table-theme=felt]", felt)
    page.select_option("[data-table-theme=tiles]", tiles)
    page.locator("[data-table-theme=tileSize]").set_checked(large)


def _shell(env: dict[str, str], code: str) -> str:
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=env, capture_output=True, text=True,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.strip().splitlines()[-1]


@pytest.mark.parametrize("scheme", SCHEMES)
def test_every_page_has_no_serious_axe_violation(
    browser: Browser, server, real_rooms, scheme: str
) -> None:
    base, env = server
    played, closed = real_rooms(2, seed=40)
    arena = _shell(env, SETUP.format(code=closed["code"], name=unique("Arena ")))
    problems: dict[str, list[str]] = {}

    guest = _context(browser, scheme).new_page()
    for path in ("/", "/regras/", "/regras/parceria/", "/ranking/", "/torneios/",
                 f"/torneios/{arena}/", "/accounts/login/", "/accounts/signup/",
                 "/i/no-such-invite/"):  # fmt: skip
        guest.goto(base + path)
        _check(guest, path, problems)

    for room, what, path, ready in (
        (played, "replay", "/r/{}/rounds/1/", "[data-replay][data-ready]"),
        (closed, "closed room", "/r/{}/", "main"),
    ):
        seated = _context(browser, scheme)
        seated.add_cookies([{**room["cookie"], "url": base}])
        page = seated.new_page()
        page.goto(base + path.format(room["code"]))
        page.wait_for_selector(ready)
        _check(page, what, problems)
        seated.close()

    host = _context(browser, scheme).new_page()
    name = unique("ana")
    sign_up(host, base, name)
    _check(host, "lobby (signed in)", problems)
    host.goto(f"{base}/players/{name}/")
    _check(host, "profile", problems)
    host.goto(base + "/")
    create_room(host, preset="duelo", visibility="private", name="Convite", clock="60")
    _check(host, "table waiting", problems)
    invite = host.locator("[data-invite-url]").input_value()
    guest.goto(invite)
    guest.wait_for_selector('[data-form="sit"]')
    _check(guest, "invite", problems)
    host.goto(base + "/")
    play_alone(host)
    _check(host, "table in play", problems)
    assert not problems, problems


@pytest.mark.parametrize("scheme", SCHEMES)
def test_the_table_and_the_replay_in_every_table_look(
    browser: Browser, server, real_rooms, scheme: str, artifacts: Path
) -> None:
    base, _env = server
    (played,) = real_rooms(1, seed=41)
    problems: dict[str, list[str]] = {}
    context = _context(browser, scheme, viewport={"width": 1440, "height": 900})
    context.add_cookies([{**played["cookie"], "url": base}])
    page = context.new_page()
    page.goto(f"{base}/r/{played['code']}/rounds/1/")
    page.wait_for_selector("[data-replay][data-ready]")
    for look in LOOKS:
        _look(page, *look)
        _check(page, f"replay {look}", problems)

    page.goto(base + "/")
    play_alone(page)
    for look in LOOKS:
        _look(page, *look)
        wait_for_table(page)
        _check(page, f"table {look}", problems)
        felt, tiles, large = look
        size = "large" if large else "normal"
        page.screenshot(path=artifacts / f"a11y-{scheme}-{felt}-{tiles}-{size}.png")
    assert not problems, problems
