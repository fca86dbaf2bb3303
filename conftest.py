"""Test settings shared by every test module, and the repository root on the path.

Hypothesis's per-example deadline is a wall-clock limit; on a shared machine it turns
load into failures (a 313 ms example against the 200 ms default under a parallel run),
so no test here is timed: the profile below turns the deadline off everywhere.
"""

import importlib.util
import sys
from pathlib import Path

from hypothesis import settings

#: The repository root, so tests and docs can import ``examples.<game>`` and ``tools.<tool>``.
ROOT = str(Path(__file__).resolve().parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

settings.register_profile("hexwar", deadline=None)
settings.load_profile("hexwar")

#: docs/interop.md needs the framework extras (``pip install -e ".[interop]"``).
collect_ignore = [
    "docs/interop.md"
    for module in ("pyspiel", "pettingzoo", "gymnasium")
    if importlib.util.find_spec(module) is None
][:1]
