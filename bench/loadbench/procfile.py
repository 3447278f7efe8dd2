"""The Procfile's background processes, as the production configuration runs them.

The bench deploys what the Procfile says: every process type but ``release``
(run once, by `servers.prepare_storage`) and ``web`` (the bench's own Daphnes,
which serve the same application wrapped by ``bench/_relay_asgi.py``, on ports
of its own). A command's program (``celery``) is the one of this virtual
environment, ``${VAR:-default}`` is expanded from the servers' environment,
and a path under ``/tmp/`` (beat's schedule file) moves to the run's own
temporary folder, so that two benches never share one.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from bench.loadbench.common import BIN

#: Process types the bench starts itself, or not at all.
NOT_BACKGROUND = ("release", "web")

_DEFAULTED = re.compile(r"\$\{(\w+):-([^}]*)\}")


def procfile_entries(root: Path) -> dict[str, str]:
    """``{process type: command}`` of ``root``'s Procfile, in file order."""
    entries: dict[str, str] = {}
    for line in (root / "Procfile").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#") or ":" not in line:
            continue
        name, command = line.split(":", 1)
        entries[name.strip()] = command.strip()
    return entries


def background_commands(root: Path, env: dict[str, str], tmp: Path) -> dict[str, list[str]]:
    """The argv of every background process of ``root``'s Procfile.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "Procfile").write_text(
    ...     "web: daphne x\\nbeat: celery beat --schedule=/tmp/s -l ${LEVEL:-info}\\n")
    >>> argv = background_commands(folder, {}, Path("/run/b"))["beat"]
    >>> argv[0].endswith("celery"), argv[1:]
    (True, ['beat', '--schedule=/run/b/s', '-l', 'info'])
    """
    commands = {}
    for name, command in procfile_entries(root).items():
        if name in NOT_BACKGROUND:
            continue
        command = _DEFAULTED.sub(lambda m: env.get(m.group(1)) or m.group(2), command)
        argv = [arg.replace("/tmp/", f"{tmp}/") for arg in shlex.split(command)]
        program = BIN / argv[0]
        if program.exists():
            argv[0] = str(program)
        commands[name] = argv
    return commands
