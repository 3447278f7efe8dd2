"""Check a round's deal from its exported JSON: ``python -m games.fairness verify FILE``.

Standard library only (and the engine, which is standard library only too): save
a finished round's JSON (``GET /api/rooms/<code>/rounds/<n>/``, docs/protocol.md)
and run it on any machine with Python. It recomputes the SHA-256 commitment of
the revealed server seed, the material from the room, match, round and client
seeds, the shuffle, the hands as dealt and every drawn tile (docs/rules.md,
"Verifiable deals"). ``-`` reads the JSON from standard input. Exit status 0: the
deal is the one the seeds give; 1: it is not (each difference printed); 2: the
file could not be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.engine.fairness import VERSION, check_round


def verify(path: str) -> tuple[int, list[str]]:
    """(exit status, lines to print) for the round JSON at ``path``."""
    try:
        if path == "-":
            data = json.load(sys.stdin)
        else:
            with open(path, encoding="utf-8") as handle:
                data = json.load(handle)
    except (OSError, ValueError) as exc:
        return 2, [f"cannot read {path}: {exc}"]
    problems = check_round(data)
    if problems:
        return 1, [
            "✘ FAILED: the deal is not the one its seeds give:",
            *(f"  {p}" for p in problems),
        ]
    fair = data["fair"]
    return 0, [
        f"✔ OK: {data['room']} match {data['match']} round {data['number']}: the deal is the"
        f" one its seeds give ({VERSION})",
        f"  commitment  {fair['commitment']}",
        f"  server seed {fair['server_seed']}",
        f"  material    {fair['material']!r}",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.fairness", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="check a finished round's exported JSON")
    check.add_argument("file", help="the round's JSON file, or - for standard input")
    args = parser.parse_args(argv)
    status, lines = verify(args.file)
    print("\n".join(lines), file=sys.stdout if status == 0 else sys.stderr)
    return status


if __name__ == "__main__":
    sys.exit(main())
