"""Helpers of the fault drills (tests/scale/test_drill_*.py): real processes that
the drills kill and start again.

* ``CeleryProcess`` -- ``celery -A domino_site worker`` or ``beat`` in a
  subprocess (so it can be SIGKILLed), on the test database and a given broker.
* ``replays_match()`` -- every round in the database rebuilt from its deal and
  its moves equals its stored state (run after every drill).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from games.models import Round

# process_env: a Celery process has the servers' environment; the drills import it from here.
from tests.scale.conftest import ROOT, KillableProcess, process_env  # noqa: F401
from tests.waiting import NeverCame, wait_for

BIN = Path(sys.executable).parent


class CeleryProcess(KillableProcess):
    """``celery -A domino_site worker|beat`` as a subprocess of its own."""

    def __init__(self, kind: str, env: dict[str, str]) -> None:
        assert kind in ("worker", "beat")
        self.kind = kind
        self.application_name = f"{env.get('DB_APPLICATION_NAME', 'domino')}-celery-{kind}"
        self.env = {**env, "DB_APPLICATION_NAME": self.application_name}
        self.log = tempfile.NamedTemporaryFile(
            prefix=f"celery-{kind}-", suffix=".log", delete=False
        )
        self.schedule = tempfile.NamedTemporaryFile(prefix="celerybeat-", delete=False).name
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    def start(self) -> CeleryProcess:
        cmd = [str(BIN / "celery"), "-A", "domino_site", self.kind, "--loglevel", "INFO"]
        if self.kind == "worker":
            # One process, no prefetch of more than it runs; a unique name per
            # start (a restarted worker is a new one, as after a crash).
            self.starts += 1
            cmd += ["--pool", "solo", "--without-gossip", "--without-mingle",
                    "-n", f"drill{self.starts}-{os.getpid()}@%h"]  # fmt: skip
        else:
            cmd += ["--schedule", self.schedule]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT
        )
        return self

    def output(self) -> str:
        return Path(self.log.name).read_text(errors="replace")

    def wait_for_output(self, *texts: str, timeout: float = 30, after: int = 0) -> str:
        """The first line of the output (from offset ``after``) holding every text."""

        def said() -> str | None:
            for line in self.output()[after:].splitlines():
                if all(text in line for text in texts):
                    return line
            assert self.proc is not None and self.proc.poll() is None, (
                f"celery {self.kind} exited:\n{self.output()[-3000:]}"
            )
            return None

        try:
            return wait_for(
                said, timeout=timeout, message=f"celery {self.kind} saying {texts!r}", every=0.1
            )
        except NeverCame:
            raise AssertionError(
                f"celery {self.kind} never said {texts!r}:\n{self.output()[-3000:]}"
            ) from None

    def stop(self) -> None:
        self.kill()
        self.wait_for_its_database_sessions()
        for path in (self.log.name, self.schedule):
            for candidate in (path, path + ".db"):
                if os.path.exists(candidate):
                    os.unlink(candidate)


def replays_match() -> dict[str, Any]:
    """Every round of the test database against the replay of its moves: the
    rounds checked and those that differ (to be empty)."""
    rounds = list(Round.objects.all())
    return {
        "rounds": len(rounds),
        "differ": [rnd.pk for rnd in rounds if not rnd.replay_matches_snapshot()],
    }
