"""A page open through a restore from a backup (docs/scaling.md, "Backups"):
the database goes back to the backup, so the room's version goes back too, and
the page, whose socket comes back to the restarted server, must show the table
as restored (its hand as it was, the moves made after the backup gone) and
play on from there, not hold on to the newer snapshot it had.

Its own Daphne on a SQLite file (the embedded set-up), backed up and restored
by `make backup`/`make restore`'s code (`domino_site.backup`, SQLite's backup
API), the server stopped for the restore and started again on the same port."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from domino_site.backup import backup, restore
from tests.browser.conftest import ROOT, _daphne, _free_port, _migrate, _server_env
from tests.browser.play import play_one, version, wait_for_change, wait_for_table

pytestmark = pytest.mark.browser

HAND = "[data-hand] [data-tile]"

# A private duelo of two guests, its first round dealt: code, whose turn, cookies.
BUILD = """
import json, secrets
import django
django.setup()
from django.core import signing
from domino_site.guests import GUEST_COOKIE, GUEST_SALT
from rooms import services
from rooms.selectors import room_state
from rooms.services.base import seats_of
tokens = [secrets.token_urlsafe(18) for _ in range(2)]
room = services.room_create(user=None, guest_token=tokens[0], name="Restaurada",
                            preset="duelo", visibility="private")
services.seat_take(room=room, index=1, guest_token=tokens[1], name="P2")
services.match_start(room=room, actor=seats_of(room)[0])
signer = signing.get_cookie_signer(salt=GUEST_COOKIE + GUEST_SALT)
print(json.dumps({"code": room.code, "turn": room_state(room=room, viewer=None)["round"]["turn"],
                  "cookies": [{"name": GUEST_COOKIE, "value": signer.sign(t)} for t in tokens]}))
"""


def _hand(page: Page) -> int:
    return page.locator(HAND).count()


def test_a_page_open_through_a_restore_shows_the_table_as_restored_and_plays_on(
    browser: Browser, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    env = _server_env(url)
    _migrate(env)
    built = subprocess.run(
        [sys.executable, "-c", BUILD], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert built.returncode == 0, built.stderr[-3000:]
    room = json.loads(built.stdout.strip().splitlines()[-1])
    port = _free_port()
    saved = tmp_path / "backup.sqlite3"
    pages: list[Page] = []
    with _daphne(env, tmp_path, "restore-before", port=port) as base:
        for seat in (room["turn"], 1 - room["turn"]):  # the first to move, then the other
            context = browser.new_context(locale="pt-BR")
            context.add_cookies([{**room["cookies"][seat], "url": base}])
            page = context.new_page()
            page.goto(f"{base}/r/{room['code']}/")
            wait_for_table(page)
            pages.append(page)
        first, other = pages
        first.wait_for_selector(HAND)
        at_backup = {"version": version(first), "hand": _hand(first)}
        backup(url, saved)
        # Moves after the backup (the recovery point loses them): whoever may.
        made = 0
        for _ in range(20):
            for page in (first, other):
                made += play_one(page)
            if made >= 8:
                break
        assert made >= 8, f"only {made} moves made"
        wait_for_change(first, at_backup["version"] + 7)
        newest = version(first)
    # The server is gone: the pages try to come back.
    first.wait_for_selector("[data-table]:not([data-connected])", state="attached")
    restore(url, saved)
    with _daphne(env, tmp_path, "restore-after", port=port):
        # The page takes the restored table, an older version than it showed.
        first.wait_for_function(
            "([v, n]) => { const t = document.querySelector('[data-table]');"
            " return !!t.dataset.connected && Number(t.dataset.version) < v"
            f" && document.querySelectorAll('{HAND}').length === n; }}",
            arg=[newest, at_backup["hand"]],
            timeout=30_000,
        )
        assert version(first) < newest
        # ...and plays on from there: its move applies.
        before = version(first)
        assert play_one(first), "the restored turn offers no move"
        wait_for_change(first, before)
