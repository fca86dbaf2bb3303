"""The architecture document's module table names every module of the core (issue 12)."""

from __future__ import annotations

import re
from pathlib import Path

import hexwar

CORE = Path(hexwar.__file__).parent
ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def _core_modules() -> set[str]:
    found = set()
    for path in CORE.rglob("*.py"):
        parts = path.relative_to(CORE.parent).with_suffix("").parts
        if parts[-1] in {"__init__", "__main__"}:
            continue
        found.add(".".join(parts))
    return found


def test_every_core_module_has_a_row_in_the_architecture_table() -> None:
    rows = re.findall(r"^\| (\w+) \| `(hexwar[\w.]*)` \|", ARCHITECTURE.read_text(), re.M)
    listed = {module for _, module in rows}
    assert sorted(_core_modules() - listed) == []
    assert sorted(m for m in listed - _core_modules() if m.count(".") > 1) == []


def test_each_row_names_the_module_s_own_layer() -> None:
    rows = re.findall(r"^\| (\w+) \| `(hexwar[\w.]*)` \|", ARCHITECTURE.read_text(), re.M)
    assert [(layer, m) for layer, m in rows if m.split(".")[1] != layer] == []
