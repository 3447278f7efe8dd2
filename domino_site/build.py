"""The build this process serves (``settings.BUILD_VERSION``; docs/scaling.md, "Deploying").

Read once, at start: the ``BUILD_VERSION`` environment variable (a version set at
release), else the commit of the checkout the code runs from, read from its
``.git`` files (no ``git`` process, nothing per request), else ``"dev"``. Every
page carries it (``<meta name="domino-build">``, `context`) and every socket's
first frame (`domino_site.realtime.build_frame`): a page that meets another
build reloads itself (static/js/build.js).

    >>> build_version(Path("/nowhere"), {"BUILD_VERSION": " 2026.12.1 "})
    '2026.12.1'
    >>> build_version(Path("/nowhere"), {})
    'dev'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

_COMMIT = re.compile(r"[0-9a-f]{40}([0-9a-f]{24})?")


def build_version(base_dir: Path, environ: Mapping[str, str]) -> str:
    """``BUILD_VERSION`` if set, else the checkout's commit (`git_commit`), else ``"dev"``."""
    given = (environ.get("BUILD_VERSION") or "").strip()
    if given:
        return given[:64]
    return git_commit(base_dir) or "dev"


def git_commit(base_dir: Path) -> str | None:
    """The commit ``HEAD`` names in the checkout at ``base_dir`` (a repository, or a
    ``git worktree`` whose ``.git`` is a file naming its git directory), from
    the files alone; None when there is no readable one."""
    try:
        git = base_dir / ".git"
        if git.is_file():  # a worktree: "gitdir: <its directory>"
            text = git.read_text().strip()
            if not text.startswith("gitdir:"):
                return None
            git_dir = (base_dir / text.removeprefix("gitdir:").strip()).resolve()
        else:
            git_dir = git
        common = git_dir
        if (git_dir / "commondir").is_file():  # a worktree's refs live in the main one
            common = (git_dir / (git_dir / "commondir").read_text().strip()).resolve()
        head = (git_dir / "HEAD").read_text().strip()
        if _COMMIT.fullmatch(head):  # a detached HEAD
            return head
        if not head.startswith("ref:"):
            return None
        ref = head.removeprefix("ref:").strip()
        for where in (git_dir, common):
            loose = where / ref
            if loose.is_file():
                commit = loose.read_text().strip()
                return commit if _COMMIT.fullmatch(commit) else None
        packed = common / "packed-refs"
        if packed.is_file():
            for line in packed.read_text().splitlines():
                commit, _, name = line.partition(" ")
                if name.strip() == ref and _COMMIT.fullmatch(commit):
                    return commit
    except OSError:
        return None
    return None


def context(request: Any) -> dict[str, str]:
    """Template context processor: ``BUILD_VERSION`` for the page's meta tag."""
    from django.conf import settings

    return {"BUILD_VERSION": settings.BUILD_VERSION}
