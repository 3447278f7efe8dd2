"""The build (domino_site/build.py; docs/protocol.md, "The build"): read from the
environment or the checkout's .git files, in every page's meta tag, and as the
first key of every socket's first frame, through the real ASGI application."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from channels.testing import WebsocketCommunicator

from domino_site.build import build_version, git_commit

ROOT = Path(__file__).resolve().parents[2]


def _git(cwd: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=cwd, check=True, capture_output=True, text=True
    ).stdout.strip()


def _repository(tmp_path: Path) -> Path:
    repo = tmp_path / "repo"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    (repo / "a").write_text("a")
    _git(repo, "add", "a")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "a")
    return repo


def test_the_checkout_s_commit_is_read_as_git_says_it(tmp_path):
    repo = _repository(tmp_path)
    assert git_commit(repo) == _git(repo, "rev-parse", "HEAD")
    # A worktree (its .git is a file), a packed ref and a detached HEAD.
    _git(repo, "worktree", "add", "-q", "-b", "other", str(tmp_path / "wt"))
    (tmp_path / "wt" / "b").write_text("b")
    _git(tmp_path / "wt", "add", "b")
    _git(tmp_path / "wt", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "b")
    _git(repo, "pack-refs", "--all")
    assert git_commit(tmp_path / "wt") == _git(tmp_path / "wt", "rev-parse", "HEAD")
    assert git_commit(tmp_path / "wt") != git_commit(repo)
    _git(repo, "checkout", "-q", "--detach")
    assert git_commit(repo) == _git(repo, "rev-parse", "HEAD")


def test_the_environment_wins_and_no_checkout_is_dev(tmp_path):
    repo = _repository(tmp_path)
    assert build_version(repo, {"BUILD_VERSION": "2026.12.7"}) == "2026.12.7"
    assert build_version(repo, {}) == _git(repo, "rev-parse", "HEAD")
    assert build_version(tmp_path / "nothing", {"BUILD_VERSION": " "}) == "dev"


@pytest.mark.django_db
def test_every_page_carries_the_build(client, settings):
    settings.BUILD_VERSION = "build-x"
    html = client.get("/").content.decode()
    assert '<meta name="domino-build" content="build-x">' in html


@pytest.mark.django_db(transaction=True)
async def test_a_socket_s_first_frame_carries_the_build_and_the_next_ones_do_not(settings):
    from domino_site.asgi import application

    settings.BUILD_VERSION = "build-y"
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    comm = WebsocketCommunicator(application, "/ws/lobby/", headers=headers)
    connected, _ = await comm.connect()
    assert connected
    first = await comm.receive_json_from(timeout=10)
    assert list(first)[:2] == ["build", "type"]
    assert first["build"] == "build-y" and first["type"] == "rooms"
    await comm.send_json_to({"type": "ping"})
    assert "build" not in await comm.receive_json_from(timeout=10)
    await comm.disconnect()
