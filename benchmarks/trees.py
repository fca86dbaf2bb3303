"""Running a benchmark's worker script against another source tree (``--old``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_in_tree(tree: Path, script: str, *args: object) -> str:
    """``python -c script ARGS`` with ``tree/src`` first on the path and hash seed 0 (so
    string sets iterate alike in every worker); its standard output."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        [sys.executable, "-c", script, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return run.stdout
