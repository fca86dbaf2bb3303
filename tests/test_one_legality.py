"""Each action kind's legality is written once (issue 27): no second answer in the games.

An AST scan of ``src/hexwar_stalingrad`` and ``examples/`` for the second answers that a
kind's steps (:mod:`hexwar.engine.kinds`) make redundant:

- ``exists=`` or ``actions=`` given to ``Kind`` / ``Values`` / ``Combination`` (the idle
  test and the whole list are derived from the steps);
- ``phase_enumeration`` / ``decision_enumeration`` methods, a ``_COMPLETE`` table;
- functions named ``has_*`` or ``*_actions`` (an idle test or a list beside the steps),
  except the list API of a game written by lists: a ``phase_actions`` /
  ``decision_actions`` method (or its ``_``-prefixed helper) of a ruleset class;
- a class writing both ``phase_tokens`` and ``phase_actions`` (or both
  ``decision_tokens`` and ``decision_actions``): one of them is a second answer.

``Values(checked=True)`` is not a second answer but a promise about the values already
given (each has a completion: the game's values function keeps only those), so the
engine skips the look-ahead; the kit's token walk (:func:`hexwar.testing.check_tokens`)
finds a broken promise as a dead end. It is not flagged.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCANNED = ("src/hexwar_stalingrad", "examples")
STEP_CALLS = frozenset({"Kind", "Values", "Combination"})
SECOND_KEYWORDS = frozenset({"exists", "actions"})
ENUMERATIONS = frozenset({"phase_enumeration", "decision_enumeration"})
LIST_API = ("phase_actions", "decision_actions")
PAIRS = (("phase_tokens", "phase_actions"), ("decision_tokens", "decision_actions"))


def _called(node: ast.Call) -> str:
    func = node.func
    if isinstance(func, ast.Name):
        return func.id
    return func.attr if isinstance(func, ast.Attribute) else ""


def scan_source(text: str, name: str = "<source>") -> list[str]:
    """The second legality answers in one module's source, as ``name:line: what``."""
    hits: list[str] = []
    tree = ast.parse(text, filename=name)
    methods: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            defined = {
                f.name: f
                for f in node.body
                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            methods.update(id(f) for f in defined.values())
            for tokens, listed in PAIRS:
                if tokens in defined and listed in defined:
                    line = defined[listed].lineno
                    hits.append(f"{name}:{line}: {node.name} writes both {tokens} and {listed}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _called(node) in STEP_CALLS:
            for kw in node.keywords:
                if kw.arg in SECOND_KEYWORDS:
                    hits.append(f"{name}:{node.lineno}: {_called(node)}({kw.arg}=...)")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            fn = node.name
            list_api = id(node) in methods and fn.lstrip("_") in LIST_API
            if fn in ENUMERATIONS:
                hits.append(f"{name}:{node.lineno}: def {fn}")
            elif (fn.startswith("has_") or fn.endswith("_actions")) and not list_api:
                hits.append(f"{name}:{node.lineno}: def {fn} (a twin of a kind's steps)")
        elif (
            isinstance(node, ast.Name)
            and node.id == "_COMPLETE"
            and isinstance(node.ctx, ast.Store)
        ):
            hits.append(f"{name}:{node.lineno}: _COMPLETE")
    return hits


def scan_tree(root: Path) -> list[str]:
    """:func:`scan_source` over every module of the games under ``root``."""
    hits: list[str] = []
    for part in SCANNED:
        for path in sorted((root / part).rglob("*.py")):
            hits += scan_source(path.read_text(encoding="utf-8"), str(path.relative_to(root)))
    return hits


def test_the_games_write_each_kinds_legality_once() -> None:
    hits = scan_tree(ROOT)
    assert hits == [], "\n".join(hits)


def test_the_scan_finds_each_kind_of_second_answer() -> None:
    """The scan is not blind: each construct it looks for is found in a planted module."""
    planted = """
MOVE = Kind("move", (Values(units, checked=True), Values(ends)), exists=has_move)
FIRE = Kind("fire", (Values(guns, exists=any_gun),), actions=fire_actions)
_COMPLETE = {"move": 3}

def has_move(state, side): ...
def fire_actions(state, side): ...

class Rules(Ruleset):
    def phase_tokens(self, state, side, prefix): ...
    def phase_actions(self, state, side): ...
    def phase_enumeration(self, state, side): ...

class Listed(Ruleset):
    def phase_actions(self, state, side): ...   # a list game: its one legality
    def decision_actions(self, state, decision): ...
"""
    hits = scan_source(planted)
    assert sorted(h.split(": ", 1)[1] for h in hits) == sorted(
        [
            "Rules writes both phase_tokens and phase_actions",
            "Kind(exists=...)",
            "Kind(actions=...)",
            "Values(exists=...)",
            "_COMPLETE",
            "def has_move (a twin of a kind's steps)",
            "def fire_actions (a twin of a kind's steps)",
            "def phase_enumeration",
        ]
    ), hits
