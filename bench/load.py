"""The load benchmark's entry point: ``python bench/load.py --help``.

The bench itself is the package ``bench/loadbench/`` (its docstring describes
it). This file stays the script to run, because the bench runs it again in a
child process per configuration (``--before DIR`` runs ``DIR/bench/load.py``).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.loadbench.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
