"""Running a benchmark's worker script against another source tree (``--old``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def run_in_tree(tree: Path, script: str, *args: object) -> str:
    """``python -c script ARGS`` in ``tree`` with ``tree/src`` and ``tree`` (its examples)
    first on the path and hash seed 0 (so string sets iterate alike in every worker); its
    standard output. A failing worker stops the benchmark with the end of its stderr."""
    path = os.pathsep.join((str(tree / "src"), str(tree)))
    env = {**os.environ, "PYTHONPATH": path, "PYTHONHASHSEED": "0"}
    run = subprocess.run(
        [sys.executable, "-c", script, *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        cwd=tree,
    )
    if run.returncode:
        sys.exit(f"the worker failed in {tree}:\n{run.stderr[-3000:]}")
    return run.stdout
