"""How much of ``hexwar`` a game needs: the names it imports from hexwar and their modules.

A name counts once per game however often it is imported; a module is the one named in
the import (``from hexwar.board.maps import build_map`` counts ``hexwar.board.maps``).
``import hexwar.x as m`` counts every ``m.attr`` the game reads. Relative imports (the
game's own modules) do not count.

Run ``python -m tools.api_surface`` for the table of the three reference games, or
``python -m tools.api_surface PATH ...`` for any files or folders; ``-v`` lists the names.

>>> imports_of("from hexwar import Hex, State\\nimport hexwar.engine.dice as d\\nd.D6")
[Import(module='hexwar', name='Hex'), Import(module='hexwar', name='State'), \
Import(module='hexwar.engine.dice', name='D6')]
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

import attrs

ROOT = Path(__file__).resolve().parent.parent

#: game -> (folders or files, relative to the repository root)
GAMES: dict[str, tuple[str, ...]] = {
    "tutorial": ("examples/tutorial",),
    "Bridgehead": ("examples/classic",),
    "«Сталинград»": ("src/hexwar_stalingrad",),
}

#: game -> (most names, most modules); issue 27's targets
TARGETS: dict[str, tuple[int, int | None]] = {
    "tutorial": (15, 3),
    "Bridgehead": (30, 6),
    "«Сталинград»": (60, None),
}


@attrs.frozen
class Import:
    """One name a game reads from a hexwar module."""

    module: str
    name: str


@attrs.frozen
class Surface:
    """The names (and their modules) a game imports from hexwar."""

    imports: frozenset[Import]

    @property
    def names(self) -> frozenset[str]:
        return frozenset(i.name for i in self.imports)

    @property
    def modules(self) -> frozenset[str]:
        return frozenset(i.module for i in self.imports)


def _is_hexwar(module: str) -> bool:
    return module == "hexwar" or module.startswith("hexwar.")


def _is_module(dotted: str) -> bool:
    try:
        return importlib.util.find_spec(dotted) is not None
    except (ImportError, ValueError):
        return False


def _chain(node: ast.Attribute) -> list[str] | None:
    """``a.b.c`` as ``["a", "b", "c"]``, or None if it does not start at a name."""
    parts: list[str] = []
    cur: ast.expr = node
    while isinstance(cur, ast.Attribute):
        parts.append(cur.attr)
        cur = cur.value
    if not isinstance(cur, ast.Name):
        return None
    parts.append(cur.id)
    return parts[::-1]


def imports_of(source: str, filename: str = "<source>") -> list[Import]:
    """The hexwar names ``source`` imports (imports first, then ``alias.name`` reads),
    repeats kept."""
    tree = ast.parse(source, filename)
    found: list[Import] = []
    aliases: dict[str, str] = {}  # local name -> hexwar module it stands for
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            if not _is_hexwar(node.module):
                continue
            for alias in node.names:
                dotted = f"{node.module}.{alias.name}"
                if alias.name != "*" and _is_module(dotted):
                    aliases[alias.asname or alias.name] = dotted
                else:
                    found.append(Import(node.module, alias.name))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if _is_hexwar(alias.name):
                    local = alias.asname or alias.name.split(".")[0]
                    aliases[local] = alias.name if alias.asname else local
    if aliases:
        outer = {
            id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)
        }  # attributes that are the base of a longer chain
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute) or id(node) in outer:
                continue
            parts = _chain(node)
            if parts is None or parts[0] not in aliases:
                continue
            module, rest = aliases[parts[0]], parts[1:]
            while len(rest) > 1 and _is_module(f"{module}.{rest[0]}"):
                module, rest = f"{module}.{rest[0]}", rest[1:]
            found.append(Import(module, rest[0]))
    return found


def files_of(paths: Iterable[str | Path]) -> list[Path]:
    """The ``.py`` files of ``paths`` (files, or folders searched recursively), sorted."""
    out: list[Path] = []
    for p in paths:
        path = Path(p) if Path(p).is_absolute() else ROOT / p
        out.extend(sorted(path.rglob("*.py")) if path.is_dir() else [path])
    return out


def surface(paths: Iterable[str | Path]) -> Surface:
    """The hexwar surface of the files under ``paths``."""
    found: set[Import] = set()
    for path in files_of(paths):
        found.update(imports_of(path.read_text(encoding="utf-8"), str(path)))
    return Surface(frozenset(found))


def report(games: dict[str, Sequence[str | Path]], verbose: bool = False) -> str:
    """A table of names and modules per game, with the targets where there are any."""
    lines = [f"{'game':<16} {'names':>5} {'modules':>7}  target"]
    for game, paths in games.items():
        s = surface(paths)
        most = TARGETS.get(game)
        target = "" if most is None else f"≤ {most[0]}" + (f" from ≤ {most[1]}" if most[1] else "")
        lines.append(f"{game:<16} {len(s.names):>5} {len(s.modules):>7}  {target}")
        if verbose:
            for module in sorted(s.modules):
                names = sorted(i.name for i in s.imports if i.module == module)
                lines.append(f"    {module}: {', '.join(names)}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.api_surface", description=__doc__)
    parser.add_argument("paths", nargs="*", help="files or folders (default: the three games)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list the names")
    args = parser.parse_args(argv)
    games = {str(p): [p] for p in args.paths} if args.paths else dict(GAMES)
    print(report(games, args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
