"""Test settings shared by every test module, and the repository root on the path.

Tests marked ``slow`` (long statistical runs) run only with ``HEXWAR_SLOW=1``; ``.ci/run``
runs them after the README's test command, so CI runs every test.

Hypothesis's per-example deadline is a wall-clock limit; on a shared machine it turns
load into failures (a 313 ms example against the 200 ms default under a parallel run),
so no test here is timed: the profile below turns the deadline off everywhere.
"""

import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

#: The repository root, so tests and docs can import ``examples.<game>`` and ``tools.<tool>``.
ROOT = str(Path(__file__).resolve().parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

settings.register_profile("hexwar", deadline=None)
settings.load_profile("hexwar")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: a long statistical run; runs with HEXWAR_SLOW=1 (.ci/run does)"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("HEXWAR_SLOW") == "1":
        return
    later = pytest.mark.skip(reason="slow: runs with HEXWAR_SLOW=1 (.ci/run runs it)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(later)
