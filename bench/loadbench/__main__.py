"""``python -m bench.loadbench``: the same as ``python bench/load.py``."""

import sys

from bench.loadbench.cli import main

sys.exit(main())
