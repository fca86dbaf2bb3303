"""Game code holds no cache (issue 27): caches live in the core mechanism that owns their reads.

An AST scan of ``src/hexwar_stalingrad`` and ``examples/`` for every way of keeping an
answer around for later: the ``functools`` caching decorators and calls, the core's memo
helpers (``StateMemo``, ``state.derive``, ``kept``), weak-keyed maps, and module-level or
class-level mutable containers that a function fills in (a memo dict). Data compiled once
per scenario is fine: plain attributes built when the object is made.

``python tests/test_game_code.py [ROOT]`` prints the findings under another tree (e.g. a
worktree of an older commit).
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_DIRS = ("src/hexwar_stalingrad", "examples")

#: Names that build a cache when called, decorate with or imported.
CACHE_NAMES = frozenset(
    {
        "lru_cache",
        "cache",
        "cached_property",
        "StateMemo",
        "kept",
        "WeakKeyDictionary",
        "WeakValueDictionary",
        "derive",
    }
)
#: Names that are a cache whatever they are reached through (``state.derive``, …).
DISTINCT = frozenset(
    {
        "lru_cache",
        "cached_property",
        "StateMemo",
        "derive",
        "WeakKeyDictionary",
        "WeakValueDictionary",
    }
)
#: Cache helpers imported from these modules count wherever they are used.
CACHE_MODULES = frozenset({"functools", "hexwar.engine.memo", "weakref", "cachetools"})


def _name(node: ast.expr) -> str | None:
    """``f`` for ``f``, ``f`` for ``a.b.f`` (the last attribute), else ``None``."""
    if isinstance(node, ast.Call):
        return _name(node.func)
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def _mutable_literal(node: ast.expr | None) -> bool:
    if isinstance(node, ast.Dict | ast.Set | ast.List):
        return True
    return (
        isinstance(node, ast.Call)
        and _name(node.func) in {"dict", "set", "list", "defaultdict", "OrderedDict"}
        and not node.args
    )


def _filled(tree: ast.Module, name: str) -> bool:
    """Whether some function writes into the module-level container ``name``."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id == name
        ):
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            target = node.func.value
            if (
                isinstance(target, ast.Name)
                and target.id == name
                and node.func.attr in {"setdefault", "update", "add", "append", "__setitem__"}
            ):
                return True
    return False


def _mark_calls(tree: ast.AST) -> None:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            node.func._parent_call = node  # type: ignore[attr-defined]


def scan(root: Path) -> list[str]:
    """Every cache construct in the game code under ``root``, as ``path:line: what``."""
    out: list[str] = []
    for directory in GAME_DIRS:
        for path in sorted((root / directory).rglob("*.py")):
            source = path.read_text(encoding="utf-8")
            tree = ast.parse(source)
            _mark_calls(tree)
            seen = set()
            for line, what in findings(tree):
                if (line, what) not in seen:
                    seen.add((line, what))
                    out.append(f"{path.relative_to(root)}:{line}: {what}")
    return out


def findings(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """``(line, what)`` for each cache construct of a parsed module (calls marked)."""
    imported: set[str] = set()  # local names of cache helpers
    modules: set[str] = set()  # local names of the cache modules
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module in CACHE_MODULES:
            for alias in node.names:
                if alias.name in CACHE_NAMES:
                    imported.add(alias.asname or alias.name)
                    yield node.lineno, f"imports {node.module}.{alias.name}"
        elif isinstance(node, ast.ImportFrom) and node.module == "hexwar.engine":
            modules.update(a.asname or a.name for a in node.names if a.name == "memo")
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name) for a in node.names if a.name in CACHE_MODULES)
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in CACHE_NAMES:
            by_module = isinstance(node.value, ast.Name) and node.value.id in modules
            if by_module or node.attr in DISTINCT:
                call = getattr(node, "_parent_call", None) is not None
                yield node.lineno, f"{'calls' if call else 'uses'} {node.attr}"
        elif isinstance(node, ast.Name) and node.id in imported:
            call = getattr(node, "_parent_call", None) is not None
            yield node.lineno, f"{'calls' if call else 'uses'} {node.id}"
    for stmt in tree.body:
        targets: list[ast.expr] = []
        if isinstance(stmt, ast.Assign) and _mutable_literal(stmt.value):
            targets = list(stmt.targets)
        elif isinstance(stmt, ast.AnnAssign) and _mutable_literal(stmt.value):
            targets = [stmt.target]
        for target in targets:
            if isinstance(target, ast.Name) and _filled(tree, target.id):
                yield stmt.lineno, f"module-level memo {target.id}"


def test_scan_finds_each_construct() -> None:
    source = (
        "import functools\n"
        "from functools import cache\n"
        "from hexwar.engine.memo import StateMemo\n"
        "_SEEN = {}\n"
        "@functools.lru_cache(maxsize=8)\n"
        "def a(x): return x\n"
        "@cache\n"
        "def b(x): return x\n"
        "class C:\n"
        "    @functools.cached_property\n"
        "    def c(self): return 1\n"
        "M = StateMemo(reads=(), compute=len)\n"
        "def d(state): return state.derive(('k',), len)\n"
        "def e(x):\n"
        "    _SEEN[x] = x\n"
        "    return x\n"
        "TABLE = {'a': 1}\n"  # read only: data, not a memo
    )
    tree = ast.parse(source)
    _mark_calls(tree)
    lines = {line for line, _ in findings(tree)}
    assert lines == {2, 3, 4, 5, 7, 10, 12, 13}


def test_game_code_holds_no_cache() -> None:
    found = scan(ROOT)
    assert not found, "cache constructs in game code:\n" + "\n".join(found)


if __name__ == "__main__":
    hits = scan(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT)
    print("\n".join(hits))
    print(f"{len(hits)} cache constructs")
