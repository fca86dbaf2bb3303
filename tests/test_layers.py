"""The core's layout: layers import only downwards, no import cycle, no game imported.

Every import of every core module counts, deferred ones inside functions and
``TYPE_CHECKING`` ones included (parsed with :mod:`ast`, nothing is executed).
"""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx
import pytest

import hexwar

CORE = Path(hexwar.__file__).parent

#: Each layer and the layers it may import (besides itself). The package root
#: (``hexwar/__init__.py``, ``__main__.py``) may import every layer.
ALLOWED: dict[str, set[str]] = {
    "base": set(),
    "grid": {"base"},
    "engine": {"base"},
    "board": {"base", "grid", "engine"},
    "mechanics": {"base", "grid", "engine", "board"},
    "render": {"base", "grid", "board"},
    "testing": {"base", "grid", "engine", "board", "mechanics"},
    "interop": {"base", "grid", "engine", "board", "mechanics", "render", "testing", "search"},
    "web": {"base", "grid", "engine", "board", "mechanics", "render", "search"},
    "study": {"base", "engine", "search"},
    "search": {"base", "engine"},
    "cli": {"base", "engine", "study", "web"},
}

#: Packages that are games, or that hold them: the core imports none of them.
GAMES = ("hexwar_stalingrad", "boy_otryadov", "triumph_and_glory", "examples", "tests")


def _module_name(path: Path) -> str:
    parts = path.relative_to(CORE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(CORE.rglob("*.py"))}


def _imports(path: Path) -> list[tuple[int, str]]:
    """``(line, module)`` of every import in ``path``, at any depth."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            for a in node.names:  # `from package import module` imports the module
                sub = f"{node.module}.{a.name}"
                out.append((node.lineno, sub if sub in MODULES else node.module))
    return out


def _layer(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else None


def _graph() -> nx.DiGraph[str]:
    graph: nx.DiGraph[str] = nx.DiGraph()
    for module, path in MODULES.items():
        graph.add_node(module)
        for _, target in _imports(path):
            if target in MODULES and target != module:
                graph.add_edge(module, target)
    return graph


def test_every_core_module_is_in_a_layer() -> None:
    loose = [m for m in MODULES if _layer(m) is None and m not in ("hexwar", "hexwar.__main__")]
    assert loose == []


@pytest.mark.parametrize("module", sorted(MODULES))
def test_layers_import_only_downwards(module: str) -> None:
    layer = _layer(module)
    if layer is None:
        return  # the package root may import every layer
    bad = [
        f"line {line}: {target}"
        for line, target in _imports(MODULES[module])
        if target.startswith("hexwar.") and _layer(target) not in (layer, *ALLOWED[layer])
    ]
    assert bad == [], f"{module} ({layer}) imports a higher layer"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_the_core_imports_no_game(module: str) -> None:
    bad = [t for _, t in _imports(MODULES[module]) if t.split(".")[0] in GAMES]
    assert bad == []


def test_no_import_cycle_in_the_core() -> None:
    cycles = sorted(sorted(c) for c in nx.simple_cycles(_graph()))
    assert cycles == []


def test_the_checks_see_a_deferred_upward_import(tmp_path: Path) -> None:
    """The parser finds imports inside functions and ``TYPE_CHECKING`` blocks."""
    src = tmp_path / "m.py"
    src.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from hexwar.engine.state import State\n"
        "def f():\n    from hexwar.mechanics.crt import OddsTable\n"
    )
    assert [t for _, t in _imports(src)] == [
        "typing",
        "hexwar.engine.state",
        "hexwar.mechanics.crt",
    ]


def test_every_layer_says_what_it_may_import() -> None:
    for layer in ALLOWED:
        doc = ast.get_docstring(ast.parse((CORE / layer / "__init__.py").read_text()))
        assert doc, layer
        assert "import" in doc, layer
