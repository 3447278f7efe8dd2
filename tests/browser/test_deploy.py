"""A deploy under an open table page (docs/protocol.md, "The build"; docs/scaling.md,
"Deploying"): the page was served by build A; its server (the Procfile's runner,
``python -m domino_site.serve``) is told to stop and closes the socket with 4013;
the same address then serves build B. The page reconnects, meets build B in
its socket's first frame, reloads itself, and shows the same seat with the same
hand, its socket open on build B."""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import (
    ARTIFACTS,
    ROOT,
    _free_port,
    _migrate,
    _server_env,
    _wait_until_up,
)
from tests.browser.play import wait_for_table

pytestmark = pytest.mark.browser

BUILD = "() => document.querySelector('meta[name=domino-build]').content"
HAND = (
    "() => [...document.querySelectorAll('[data-hand] [data-tile]')].map((el) => el.dataset.tile)"
)


@contextlib.contextmanager
def _runner(env: dict[str, str], port: int, log: Path) -> Iterator[subprocess.Popen]:
    """The Procfile's web process on ``port`` until the block ends (SIGTERM)."""
    with log.open("w") as out:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "domino_site.serve",
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "domino_site.asgi:application",
            ],  # fmt: skip
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        _wait_until_up(f"http://127.0.0.1:{port}", proc, log)
        yield proc
    finally:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        ARTIFACTS.mkdir(exist_ok=True)
        (ARTIFACTS / f"daphne-{log.stem}.log").write_text(log.read_text())


def _table(env: dict[str, str]) -> dict:
    """A round in play at a private table of four guests (tests/browser/real_rooms.py)."""
    done = subprocess.run(
        [sys.executable, "-m", "tests.browser.real_rooms", "1", "52", "5"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])[0]


def test_a_page_that_meets_a_newer_build_reloads_to_the_same_seat_and_hand(
    browser: Browser,
) -> None:
    workdir = Path(tempfile.mkdtemp(prefix="domino-browser-deploy-"))
    env = _server_env(f"sqlite:///{workdir / 'deploy.sqlite3'}", DRAIN_SECONDS="10")
    _migrate(env)
    room = _table(env)
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    context = browser.new_context(locale="pt-BR")
    context.add_cookies([{**room["cookie"], "url": url}])
    page: Page = context.new_page()
    try:
        with _runner({**env, "BUILD_VERSION": "build-a"}, port, workdir / "deploy-a.log") as a:
            page.goto(f"{url}/r/{room['code']}/")
            wait_for_table(page)
            assert page.evaluate(BUILD) == "build-a"
            hand = page.evaluate(HAND)
            assert hand
            page.evaluate("() => { window.__servedByA = true; }")  # gone with a reload
            a.send_signal(signal.SIGTERM)
            assert a.wait(timeout=20) == 0
        page.wait_for_selector("[data-table]:not([data-connected])", state="attached")
        with _runner({**env, "BUILD_VERSION": "build-b"}, port, workdir / "deploy-b.log"):
            page.wait_for_function(f"() => ({BUILD})() === 'build-b'", timeout=30_000)
            assert page.evaluate("() => window.__servedByA ?? null") is None
            wait_for_table(page)
            assert page.evaluate(HAND) == hand
            # The socket's first frame on the new page named build B: nothing more to reload.
            page.wait_for_selector("[data-table][data-connected]", state="attached")
            assert page.evaluate(BUILD) == "build-b"
    finally:
        context.close()
